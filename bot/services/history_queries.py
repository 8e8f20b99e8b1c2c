"""Match history, read from the database: a player's finished matches, one match in
full, and matches for autocomplete.

The history of a player on a server is one indexed query (``ix_match_players_user``)
plus one for the page's opponents and one for its move counts, however many matches
the server has. How these read is ``bot.services.history_view``'s business.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload

from bot.core.enums import DONE, MatchStatus, MoveKind
from bot.core.timecontrol import TimeControl
from bot.store.db import Database
from bot.store.models import HostAction, Match, MatchPlayer, MemberName, Move
from bot.store.queries import named_on, user_names
from bot.texts import history as say
from bot.texts.game_errors import colour
from bot.texts.history import UNPLAYED
from engine.animation import Ply, final_position
from engine.registry import get_game

PER_PAGE = 10
#: challenges that were never played (declined, withdrawn, lapsed)
NEVER_PLAYED = (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED)


# ==== a player's matches ================================================================


@dataclass(frozen=True)
class HistoryEntry:
    """One finished (or voided) match, as one of its players sees it."""

    number: int  # what the server calls the match
    game: str  # the game's key
    kind: str  # "dm" | "casual"
    finished_at: float | None
    seat: int | None
    opponents: tuple[str, ...]  # names, in seat order
    result: str  # "won" | "lost" | "draw" | "void"
    how: str | None  # "rules" | "timeout" | "resign" | "adjudicated" | "void" | "out"
    scores: tuple[int, ...] | None  # the player's own first, then the others' in seat order
    moves: int


@dataclass(frozen=True)
class HistoryPage:
    user_id: str
    name: str
    game: str | None
    page: int
    per_page: int
    total: int
    entries: tuple[HistoryEntry, ...]

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))


def result_of(status: str, winner_seat: int | None, draw: bool, seat: int | None,
              out: bool = False) -> str | None:
    """"won", "lost", "draw" or "void" for the player in ``seat``; None while it runs."""
    if status == MatchStatus.VOIDED:
        return "void"
    if status != MatchStatus.FINISHED:
        return None
    if winner_seat is None or draw:
        return "draw"
    return "won" if seat == winner_seat else "lost"


async def player_history(db: Database, guild_id: str, user_id: str, page: int = 1,
                         per_page: int = PER_PAGE, game: str | None = None) -> HistoryPage:
    """A player's finished and voided matches on a server, newest first.

    A page past the end has no entries (``total`` and ``pages`` say how many there
    are); ``game`` is a game's key.
    """
    if page < 1 or per_page < 1:
        raise ValueError("page and per_page start at 1")
    mine = (
        select(Match.id, Match.number, Match.game, Match.kind, Match.status, Match.finished_at,
               Match.winner_seat, Match.draw, Match.scores, Match.end_reason,
               MatchPlayer.seat, MatchPlayer.out)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(MatchPlayer.user_id == user_id, Match.guild_id == guild_id,
               Match.status.in_(DONE))
    )
    if game is not None:
        mine = mine.where(Match.game == game)
    # Plain statements on a connection: no ORM objects to build for a page of rows.
    async with db.engine.connect() as s:
        rows = (await s.execute(
            mine.add_columns(func.count().over().label("total"))
            # By an expression, not the column: ordering by finished_at itself makes
            # SQLite walk ix_matches_guild_finished through every match of the server
            # (probing each for the player) instead of reading the player's few
            # matches by ix_match_players_user and sorting them: 25x slower at
            # 10,000 matches. finished_at is always set here; the fallback is moot.
            .order_by(func.coalesce(Match.finished_at, Match.created_at).desc(),
                      Match.id.desc())
            .limit(per_page).offset((page - 1) * per_page)
        )).all()
        if rows:
            total = int(rows[0].total)
        else:  # past the end, or nothing at all: how many there are
            total = int((await s.execute(
                select(func.count()).select_from(mine.subquery()))).scalar_one())
        ids = [row.id for row in rows]
        players: dict[int, list[tuple[int | None, int, str, str]]] = {}
        moves: dict[int, int] = {}
        name = None
        shown, on = named_on(guild_id, MatchPlayer.user_id)
        if ids:
            for match_id, uid, seat, order, uname in (await s.execute(
                select(MatchPlayer.match_id, MatchPlayer.user_id, MatchPlayer.seat,
                       MatchPlayer.order, shown)
                .outerjoin(MemberName, on)
                .where(MatchPlayer.match_id.in_(ids))
            )).all():
                players.setdefault(match_id, []).append((seat, order, uid, uname))
                if uid == user_id:
                    name = uname
            moves = {match_id: int(count) for match_id, count in (await s.execute(
                select(Move.match_id, func.count())
                .where(Move.match_id.in_(ids), Move.kind == MoveKind.MOVE)
                .group_by(Move.match_id)
            )).all()}
        if name is None:
            name = (await s.execute(select(MemberName.name).where(
                MemberName.guild_id == guild_id, MemberName.user_id == user_id))
                    ).scalar_one_or_none() or user_id
    entries = []
    for row in rows:
        seated = sorted(players.get(row.id, []), key=lambda p: (p[0] is None, p[0], p[1]))
        result = result_of(row.status, row.winner_seat, row.draw, row.seat, row.out)
        assert result is not None
        how = row.end_reason if row.end_reason in UNPLAYED else (
            "void" if row.status == MatchStatus.VOIDED else row.end_reason)
        if result == "lost" and row.out:
            how = "out"
        entries.append(HistoryEntry(
            number=row.number, game=row.game, kind=row.kind, finished_at=row.finished_at,
            seat=row.seat, opponents=tuple(p[3] for p in seated if p[2] != user_id),
            result=result, how=how, scores=my_scores(row.scores, row.seat),
            moves=moves.get(row.id, 0)))
    return HistoryPage(user_id, name, game, page, per_page, total, tuple(entries))


def my_scores(scores: list[int] | None, seat: int | None) -> tuple[int, ...] | None:
    if not scores or seat is None or seat >= len(scores):
        return None
    return (scores[seat], *(s for i, s in enumerate(scores) if i != seat))


# ==== one match in full ===============================================================


@dataclass(frozen=True)
class MatchSeat:
    user_id: str
    name: str
    seat: int | None  # None until the First Player is chosen
    colour: str | None
    time_used: float
    banks_left: int
    out: bool
    result: str | None  # as result_of says; None while the match runs


@dataclass(frozen=True)
class MatchMove:
    ply: int
    seat: int
    kind: str  # "move" | "out"
    notation: str
    seconds: float
    banks_spent: int
    at: float


@dataclass(frozen=True)
class MatchAction:
    """Something a host did to the match, and after which ply."""

    at: float
    after_ply: int
    actor_id: str
    actor_name: str
    action: str
    detail: str


@dataclass(frozen=True)
class MatchRecord:
    id: int  # internal
    number: int  # what the server calls it
    guild_id: str
    channel_id: str
    game: str
    kind: str
    status: str
    seats: int
    options: dict[str, Any]
    time_control: TimeControl
    reward: int | None  # garnets for the winner of a DM
    hints: bool
    rated: bool
    created_at: float
    started_at: float | None
    finished_at: float | None
    winner_seat: int | None
    draw: bool
    scores: tuple[int, ...] | None
    end_reason: str | None
    result_text: str | None
    players: tuple[MatchSeat, ...]  # in seat order once seated
    moves: tuple[MatchMove, ...]
    actions: tuple[MatchAction, ...]

    @property
    def plies(self) -> list[Ply]:
        return [Ply(m.kind, m.seat, m.notation) for m in self.moves]

    @property
    def seated(self) -> bool:
        return all(p.seat is not None for p in self.players)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


async def match_record(db: Database, guild_id: str, number: int) -> MatchRecord | None:
    """Everything stored about match #``number`` of this server; None if there is none."""
    async with db.session() as s:
        return await record_in(s, guild_id, number)


async def record_in(s: AsyncSession, guild_id: str, number: int) -> MatchRecord | None:
    """``match_record`` in session ``s``."""
    match = await match_row(s, guild_id, number)
    return None if match is None else await record_of(s, match)


async def match_row(s: AsyncSession, guild_id: str, number: int) -> Match | None:
    """Match #``number`` of this server, its players with it (one query)."""
    return (await s.scalars(
        select(Match).where(Match.guild_id == guild_id, Match.number == number)
        .options(joinedload(Match.players)))).unique().one_or_none()


async def record_of(s: AsyncSession, match: Match, bare: bool = False) -> MatchRecord:
    """The record of ``match`` (read by ``match_row`` in ``s``). ``bare``: without its
    hosts' actions and with the players' ids for names (two queries less), for the web
    pages, which show no actions and name people themselves (``bot.web.names``)."""
    guild_id, match_id = match.guild_id, match.id
    # Its columns, not ``Move`` objects: a long game's moves are read on every page's
    # reading of it, and making an object of each row costs several times the row.
    moves = (await s.execute(
        select(Move.ply, Move.seat, Move.kind, Move.notation, Move.elapsed,
               Move.banks_spent, Move.at)
        .where(Move.match_id == match_id).order_by(Move.ply))).all()
    actions = [] if bare else (await s.scalars(
        select(HostAction).where(HostAction.match_id == match_id)
        .order_by(HostAction.at, HostAction.id))).all()
    wanted = {p.user_id for p in match.players} | {a.actor_id for a in actions}
    names = {} if bare else await user_names(s, guild_id, wanted)
    game = get_game(match.game)
    start = game.new_state(match.seats, match.options)
    players = sorted(match.players, key=lambda p: (p.seat is None, p.seat, p.order))
    seats = tuple(
        MatchSeat(
            user_id=p.user_id, name=names.get(p.user_id, p.user_id), seat=p.seat,
            colour=colour(game.seat_name(start, p.seat)) if p.seat is not None else None,
            time_used=p.time_used, banks_left=p.banks_left, out=p.out,
            result=result_of(match.status, match.winner_seat, match.draw, p.seat, p.out))
        for p in players)
    return MatchRecord(
        id=match.id, number=match.number, guild_id=match.guild_id,
        channel_id=match.channel_id, game=match.game,
        kind=match.kind, status=match.status, seats=match.seats, options=dict(match.options),
        time_control=TimeControl.from_json(match.time_control),
        reward=int(match.time_control["reward"]) if "reward" in match.time_control else None,
        hints=match.hints, rated=match.rated, created_at=match.created_at,
        started_at=match.started_at, finished_at=match.finished_at,
        winner_seat=match.winner_seat, draw=match.draw,
        scores=tuple(match.scores) if match.scores is not None else None,
        end_reason=match.end_reason, result_text=match.result_text, players=seats,
        moves=tuple(MatchMove(*m) for m in moves),
        actions=tuple(
            MatchAction(at=a.at, after_ply=a.ply,
                        actor_id=a.actor_id, actor_name=names.get(a.actor_id, a.actor_id),
                        action=a.action, detail=a.detail)
            for a in actions),
    )


def position_of(record: MatchRecord) -> Any:
    """The match's position now (its final one, once over): the moves replayed."""
    return final_position(get_game(record.game), record.plies, record.seats, record.options)



async def recent_matches(db: Database, guild_id: str, typed: str, done_only: bool,
                         limit: int = 25) -> list[tuple[int, str]]:
    """Matches of a server for autocomplete, newest first, as (number, label): those whose
    number starts with what was typed. Challenges that were never played are left out."""
    query = select(Match).where(Match.guild_id == guild_id)
    query = query.where(Match.status.in_(DONE) if done_only
                        else Match.status.not_in(NEVER_PLAYED))
    digits = typed.strip().lstrip("#")
    if len(digits) > 20:  # no match number is that long (and SQLite caps LIKE patterns)
        return []
    if digits.isdigit():
        query = query.where(cast(Match.number, String).like(f"{digits}%"))
    async with db.session() as s:
        rows = (await s.scalars(query.order_by(Match.number.desc()).limit(limit))).all()
        names = await user_names(s, guild_id, {p.user_id for m in rows for p in m.players})
    labels = []
    for m in rows:
        players = " vs ".join(names.get(p.user_id, p.user_id) for p in
                              sorted(m.players, key=lambda p: (p.seat is None, p.seat, p.order)))
        labels.append((m.number, say.match_choice(match_id=m.number, game=say.title(m.game),
                                              players=players, status=m.status)))
    return labels

