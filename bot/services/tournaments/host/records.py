"""A tournament as stored: its row, its entrants in seed order, its log of the core's
events, and the matches of its pairings; read in one go and rebuilt into the pure
``Tournament`` (see ``bot.services.tournaments``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import ACTIVE, MatchStatus
from bot.core.messages import Pace, Post
from bot.core.options import record_number
from bot.core.refusal import Refusal
from bot.core.timecontrol import TimeControl
from bot.services.matches import show_up_by
from bot.services.tournaments import (
    Event,
    Format,
    Options,
    Pairing,
    Series,
    Tournament,
    TournamentError,
    event_from_json,
    event_to_json,
)
from bot.store.models import (
    Match,
    Move,
    TournamentGame,
    TournamentLog,
    TournamentPlayer,
)
from bot.store.models import (
    Tournament as TournamentRow,
)
from bot.store.queries import user_names
from bot.texts import tournaments as say

OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
LIVE_STATUSES = (OPEN, RUNNING)
FORFEIT, DOUBLE = "forfeit", "double"  # what settles an unplayed pairing at the deadline
MAX_NAME = 50


class TournamentRefusal(Refusal):
    """A request about a tournament that is refused; the message says why."""


@dataclass(frozen=True)
class Setup:
    """What the host adds around the core's rules: how each match is played, threads,
    the round deadline and what settles it, prizes, check-in, automatic rounds."""

    time_control: TimeControl = field(default_factory=TimeControl)
    game_options: dict[str, Any] = field(default_factory=dict)
    hints: bool = False
    thread: bool = False
    deadline: float | None = None  # seconds a round may take
    no_show: str = FORFEIT
    prizes: tuple[int, ...] = ()
    checkin: bool = False
    auto: bool = True
    show_up: float = 600.0  # clocked: seconds each player has for their first move

    @property
    def remind_before(self) -> float:
        """The reminder comes a quarter of the round's time before its deadline (in
        whole minutes), at most an hour before."""
        return min(3600.0, 60.0 * max(1, int((self.deadline or 0.0) / 4 // 60)))

    def to_json(self) -> dict[str, Any]:
        return {"time_control": self.time_control.to_json(), "game_options": self.game_options,
                "hints": self.hints, "thread": self.thread, "deadline": self.deadline,
                "no_show": self.no_show, "prizes": list(self.prizes),
                "checkin": self.checkin, "auto": self.auto, "show_up": self.show_up}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        deadline = data.get("deadline")
        return cls(TimeControl.from_json(data.get("time_control") or {}),
                   dict(data.get("game_options") or {}), bool(data.get("hints", False)),
                   bool(data.get("thread", False)),
                   None if deadline is None else float(deadline),
                   str(data.get("no_show", FORFEIT)),
                   tuple(int(p) for p in data.get("prizes") or ()),
                   bool(data.get("checkin", False)), bool(data.get("auto", True)),
                   float(data.get("show_up", 600.0)))


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament is created with, built whole by the command: its name, game
    and format; the core's rules (``rounds`` of a Swiss, a ``double`` round robin,
    ``best_of`` games a pairing, who moves ``first``, a ``third_place`` match); the event
    it counts for; and the host's ``setup`` around them."""

    name: str
    game: str
    fmt: str
    rounds: int | None = None
    best_of: int = 1
    first: str | None = None
    double: bool = False
    third_place: bool = False
    event: str | None = None
    setup: Setup = field(default_factory=Setup)


@dataclass(frozen=True)
class Played:
    """A match of a pairing, as the tournament reads it."""

    round: int
    board: int
    game_no: int
    match_id: int
    number: int
    status: str
    channel_id: str
    users: tuple[str, ...]  # by seat once begun, else in the order named
    winner: str | None
    draw: bool
    plies: int
    show_up_by: float | None = None  # when a player who has not moved yet forfeits

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def begun(self) -> bool:
        return self.status not in (MatchStatus.CHOOSING, MatchStatus.PENDING)


@dataclass
class Loaded:
    row: TournamentRow
    setup: Setup
    players: tuple[str, ...]  # user ids in seed order (after the start)
    events: list[Event]
    games: list[Played]
    names: dict[str, str]

    @property
    def core(self) -> Tournament:
        return core_of(self.row, self.players)

    def name(self, user_id: str) -> str:
        return self.names.get(user_id, user_id)

    def games_of(self, number: int, board: int) -> list[Played]:
        return [g for g in self.games if g.round == number and g.board == board]


def core_of(row: TournamentRow, players: Sequence[str]) -> Tournament:
    try:
        return Tournament(Format(row.format), tuple(players), Options.from_json(row.options))
    except TournamentError as exc:
        raise TournamentRefusal(say.cannot_run(reason=str(exc))) from None


async def entrants(s: AsyncSession, tournament_id: int) -> list[TournamentPlayer]:
    """Entrants in seed order (before the start: in the order they entered)."""
    rows = await s.scalars(select(TournamentPlayer).where(
        TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.seed, TournamentPlayer.id))
    return list(rows)


async def log(s: AsyncSession, tournament_id: int) -> list[Event]:
    rows = await s.scalars(select(TournamentLog.data).where(
        TournamentLog.tournament_id == tournament_id).order_by(TournamentLog.seq))
    return [event_from_json(dict(data)) for data in rows]


async def append(s: AsyncSession, tournament_id: int, new: Sequence[Event], at: float,
                 author_id: str | None = None, note: str = "") -> None:
    """Add events to the log, in the caller's transaction (the sequence is unique: a
    second writer of the same place fails rather than fork the log)."""
    last = await s.scalar(select(func.max(TournamentLog.seq)).where(
        TournamentLog.tournament_id == tournament_id))
    seq = int(last or 0)
    for event in new:
        seq += 1
        s.add(TournamentLog(tournament_id=tournament_id, seq=seq, data=event_to_json(event),
                            author_id=author_id, note=note[:500], at=at))
    await s.flush()


async def played(s: AsyncSession, tournament_id: int) -> list[Played]:
    rows = (await s.execute(
        select(TournamentGame, Match).join(Match, Match.id == TournamentGame.match_id)
        .where(TournamentGame.tournament_id == tournament_id)
        .order_by(TournamentGame.round, TournamentGame.board, TournamentGame.game_no,
                  TournamentGame.id))).all()
    counts = dict((await s.execute(
        select(Move.match_id, func.count()).where(
            Move.match_id.in_([m.id for _, m in rows if m.status in ACTIVE]))
        .group_by(Move.match_id))).all())
    out = []
    for game, match in rows:
        seated = sorted(match.players, key=lambda p: p.seat if p.seat is not None
                        else 10 + p.order)
        users = tuple(p.user_id for p in seated)
        winner = (users[match.winner_seat] if match.winner_seat is not None
                  and match.status == MatchStatus.FINISHED else None)
        out.append(Played(game.round, game.board, game.game_no, match.id, match.number,
                          match.status, match.channel_id, users, winner, bool(match.draw),
                          int(counts.get(match.id, 0)), show_up_by(match)))
    return out


async def load(s: AsyncSession, tournament_id: int) -> Loaded:
    row = await s.get(TournamentRow, tournament_id)
    assert row is not None
    people = await entrants(s, tournament_id)
    names = await user_names(s, row.guild_id, [p.user_id for p in people] + [row.created_by])
    return Loaded(row, Setup.from_json(row.settings), tuple(p.user_id for p in people),
                  await log(s, tournament_id), await played(s, tournament_id), names)


def series_of(core: Tournament, pairing: Pairing, games: list[Played]) -> tuple[Series, str | None]:
    """The series of a pairing as its matches stand, and who moved first in its first
    game (known once that game has begun). A voided match is not a game: it is
    played again."""
    first = None
    if pairing.chooser is not None:
        opening = [g for g in games if g.game_no == 1 and g.begun
                   and g.status != MatchStatus.VOIDED]
        if opening:
            first = opening[-1].users[0]
    series = core.series(pairing, first)
    results = {g.game_no: g for g in games if g.status == MatchStatus.FINISHED}
    for number in sorted(results):
        if series.finished:
            break
        series = series.record(None if results[number].draw else results[number].winner)
    return series, first


# ---- which tournament a request means ------------------------------------------------------


async def find(s: AsyncSession, guild_id: str, text: str | None,
               channel_id: str | None = None) -> TournamentRow:
    """The tournament of this server named by ``text`` (its number or name); without
    it, the one open or running in this channel, else on this server."""
    if text is not None and text.strip():
        wanted = " ".join(text.split())
        number = record_number(wanted)
        if number is not None:
            found = await s.scalar(select(TournamentRow).where(
                TournamentRow.guild_id == guild_id, TournamentRow.number == number))
            if found is None:
                raise TournamentRefusal(say.no_such_tournament(number=wanted.lstrip("#")))
            return found
        found = await s.scalar(select(TournamentRow).where(
            TournamentRow.guild_id == guild_id,
            func.lower(TournamentRow.name) == wanted.lower()).order_by(
                TournamentRow.id.desc()).limit(1))
        if found is None:
            known = (await s.scalars(select(TournamentRow.name).where(
                TournamentRow.guild_id == guild_id).order_by(TournamentRow.id.desc())
                .limit(10))).all()
            raise TournamentRefusal(say.no_tournament_called(name=wanted, known=list(known)))
        return found
    live = list((await s.scalars(select(TournamentRow).where(
        TournamentRow.guild_id == guild_id, TournamentRow.status.in_(LIVE_STATUSES))
        .order_by(TournamentRow.id))).all())
    here = [t for t in live if t.channel_id == channel_id]
    if len(here) == 1:
        return here[0]
    if len(live) == 1:
        return live[0]
    if live:
        raise TournamentRefusal(say.several_tournaments(names=[t.name for t in here or live]))
    # None open or running: the latest one, of this channel first (to read its results).
    last = await s.scalar(select(TournamentRow).where(
        TournamentRow.guild_id == guild_id).order_by(
            (TournamentRow.channel_id == channel_id).desc(), TournamentRow.id.desc()).limit(1))
    if last is None:
        raise TournamentRefusal(say.no_tournament())
    return last


async def choices(s: AsyncSession, guild_id: str, current: str) -> list[tuple[str, str]]:
    """A server's tournaments for autocomplete, newest first: those whose name contains
    what was typed, or whose number it is, found in the database (a server's 500th
    tournament back is found as its newest). A name has at most 100 characters, so
    nothing longer can match."""
    wanted = current.strip().lower().lstrip("#")
    if len(wanted) > 100:
        return []
    query = select(TournamentRow).where(TournamentRow.guild_id == guild_id)
    if wanted:
        named = func.lower(TournamentRow.name).contains(wanted, autoescape=True)
        number = wanted.isascii() and wanted.isdigit() and len(wanted) <= 9
        query = query.where(named | (TournamentRow.number == int(wanted)) if number
                            else named)
    rows = (await s.scalars(query.order_by(TournamentRow.id.desc()).limit(25))).all()
    return [(say.choice(name=t.name, number=t.number, status=t.status), str(t.number))
            for t in rows]


# ---- long texts --------------------------------------------------------------------------

LONGEST = 1900  # characters in one post (Discord takes 2,000)


def split(text: str, channel_id: str, pings: tuple[str, ...] | None = None,
          limit: int = LONGEST) -> list[Post]:
    """A long text (the pairings of a big round) as posts of at most ``limit``
    characters, cut between lines."""
    posts: list[Post] = []
    part: list[str] = []
    size = 0
    for line in text.splitlines():
        if part and size + len(line) + 1 > limit:
            posts.append(Post("\n".join(part), channel_id, pings=pings, pace=Pace.LOW))
            part, size = [], 0
        part.append(line[:limit])
        size += len(line) + 1
    posts.append(Post("\n".join(part), channel_id, pings=pings, pace=Pace.LOW))
    return posts
