"""What each page shows, read from the database of one server (``Site``): every query
is scoped by the server's id, and every name passes through ``People`` (hidden names
become the neutral label). Pure reading: any process serves any server's pages."""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from bot.core.enums import DONE, PLAYING, MatchKind, MatchStatus, MoveKind
from bot.services import ledger, ratings
from bot.services.events import Scope
from bot.services.history_queries import MatchRecord, match_row, record_of
from bot.services.history_view import caption
from bot.services.leaderboard import by_garnets
from bot.services.render import described
from bot.services.review import can_review, stored_in
from bot.services.web import Site
from bot.store.db import Database
from bot.store.models import Event as EventRow
from bot.store.models import Match, MatchPlayer, MemberName, Rating
from bot.store.models import Tournament as TournamentRow
from bot.texts import match as match_texts
from bot.texts import web as say
from bot.texts.game_errors import colour
from bot.texts.history import title
from bot.web.names import People, Person
from bot.web.review import ReviewView, review_view
from engine.animation import Ply, final_position
from engine.registry import get_game

LISTED = 50  # running matches, tournaments, leaderboard rows and a player's matches shown
MAX_NUMBER = 10**9  # no server numbers its matches further: a bound on what a URL asks
KEPT_POSITIONS = 500  # matches whose last position read is kept (``Positions``)
REPLAY_SLICE = 8  # plies replayed at once, between two looks at the bot's own work


@dataclass(frozen=True)
class MatchLine:
    number: int
    label: str
    game: str
    players: tuple[Person, ...]
    status: str


@dataclass(frozen=True)
class ServerView:
    matches: tuple[MatchLine, ...]
    tournaments: tuple[tuple[int, str, str, str], ...]  # number, name, game, status
    garnets: tuple[tuple[int, Person, str], ...]  # rank, who, balance
    events: tuple[str, ...]  # the open events (seasons), newest first
    season: str | None  # the newest open event, whose table is ``table``
    table: tuple[tuple[int, Person, str], ...]
    ratings: tuple[tuple[int, Person, str], ...]
    rated_game: str | None


async def server(db: Database, site: Site) -> ServerView:
    guild = site.guild_id
    async with db.session() as s:
        running = (await s.scalars(
            select(Match).where(Match.guild_id == guild, Match.status.in_(PLAYING),
                                Match.kind != MatchKind.PRACTICE)
            .order_by(Match.number.desc()).limit(LISTED))).all()
        tournaments = (await s.scalars(
            select(TournamentRow).where(TournamentRow.guild_id == guild,
                                        TournamentRow.status.in_(("open", "running")))
            .order_by(TournamentRow.number.desc()).limit(LISTED))).all()
        board = await by_garnets(s, guild, Scope(None, overall=True))
        events = (await s.scalars(select(EventRow).where(EventRow.guild_id == guild,
                                                         EventRow.open.is_(True))
                                  .order_by(EventRow.number.desc()).limit(LISTED))).all()
        season = await by_garnets(s, guild, Scope(events[0])) if events else None
        table = season.rows[:LISTED] if season is not None else []
        game = await s.scalar(select(Rating.game).where(Rating.guild_id == guild)
                              .group_by(Rating.game).order_by(func.count().desc()).limit(1))
        rated = (await s.scalars(select(Rating).where(Rating.guild_id == guild,
                                                      Rating.game == game)
                                 .order_by(Rating.ordinal.desc()).limit(LISTED))).all() \
            if game is not None else []
        ids = {p.user_id for m in running for p in m.players} | \
              {st.user_id for _, st in board.rows[:LISTED]} | {r.user_id for r in rated} | \
              {st.user_id for _, st in table}
        people = await People.read(s, site, ids)
    lines = tuple(MatchLine(m.number, match_texts.match_label(m.number, m.kind), title(m.game),
                            tuple(people[p.user_id] for p in _seated(m.players)), m.status)
                  for m in running)
    return ServerView(
        matches=lines,
        tournaments=tuple((t.number, t.name, title(t.game), t.status) for t in tournaments),
        garnets=tuple((rank, people[st.user_id], st.text)
                      for rank, st in board.rows[:LISTED]),
        events=tuple(e.name for e in events), season=events[0].name if events else None,
        table=tuple((rank, people[st.user_id], st.text) for rank, st in table),
        ratings=tuple((i + 1, people[r.user_id], ratings.shown(r.mu, r.sigma))
                      for i, r in enumerate(rated)),
        rated_game=title(game) if game is not None else None)


def _seated(players: Any) -> list[Any]:
    return sorted(players, key=lambda p: (p.seat is None, p.seat, p.order))


# ---- a match ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    person: Person
    colour: str | None
    result: str | None
    clock: str | None  # what is left, as the posts say it
    turn_left: float | None  # the mover's seconds of turn time (counting down), else None
    flag_left: float | None  # the mover's seconds until the flag
    banks: int
    to_move: bool


@dataclass(frozen=True)
class MatchView:
    number: int
    label: str
    game: str
    options: str
    status: str
    finished: bool
    result: str | None
    seats: tuple[SeatView, ...]
    moves: tuple[tuple[int, str, str], ...]  # ply, who (colour), notation
    ply: int  # the position shown
    plies: int  # moves in all
    alt: str
    running: bool  # a clock counts down
    review: ReviewView | None = None  # a finished match's stored review
    unreviewed: bool = False  # finished, reviewable, and nobody asked for its review yet


# A match read for its pages: its view, its record, the position shown, when it was read.
Viewed = tuple[MatchView, MatchRecord, Any, float]


class Positions:
    """The position each match was last read at, so that a match read again after a
    move replays that move alone rather than the whole game. A game replayed from its
    start (read for the first time here) goes ``REPLAY_SLICE`` plies at a time, the
    bot's own work let in between: a ply of Sigma Escape takes about a quarter of a
    millisecond, on the event loop."""

    def __init__(self, size: int = KEPT_POSITIONS) -> None:
        self.size = size
        self._kept: OrderedDict[int, tuple[tuple[Ply, ...], Any]] = OrderedDict()

    async def after(self, record: MatchRecord, plies: tuple[Ply, ...]) -> Any:
        game = get_game(record.game)
        found = self._kept.get(record.id)
        if found is not None and plies[:len(found[0])] == found[0]:  # no take-back since
            done, state = len(found[0]), found[1]
        else:
            done, state = 0, game.new_state(record.seats, record.options)
        while done < len(plies):
            upto = min(len(plies), done + REPLAY_SLICE)
            state = final_position(game, plies[done:upto], record.seats, record.options,
                                   (done, state))
            done = upto
            if done < len(plies):
                await asyncio.sleep(0)
        self._kept[record.id] = (plies, state)
        self._kept.move_to_end(record.id)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return state


async def match(db: Database, site: Site, number: int, now: float, ply: int | None = None,
                reviewed: bool = False, kept: Positions | None = None
                ) -> tuple[MatchView, MatchRecord, Any] | None:
    """The page of match ``number`` at ``ply`` (None: as it stands), with its record and
    the position shown (``reviewed``: and its stored review); None when the server has
    no such match or it was never played. ``kept``: the positions last read, to go on
    from."""
    if not 0 < number < MAX_NUMBER:
        return None
    # One session and four queries: a page's reading takes the database's connection
    # once (on SQLite the pages have one, which every reading queues for), and each
    # query is a few round trips between the event loop and the database's thread.
    async with db.session() as s:
        row = await match_row(s, site.guild_id, number)
        if row is None or row.kind == MatchKind.PRACTICE or row.started_at is None:
            return None
        record = await record_of(s, row, bare=True)  # the names are the page's own
        people = await People.read(s, site, [p.user_id for p in record.players])
        # Only a stored review: a page never starts an analysis.
        data = await stored_in(s, site.guild_id, record.id) \
            if reviewed and record.status == MatchStatus.FINISHED else None
    masked = dataclasses.replace(record, players=tuple(
        dataclasses.replace(p, name=people.label(p.user_id)) for p in record.players))
    game = get_game(record.game)
    total = len(record.moves)
    shown = total if ply is None else max(0, min(ply, total))
    plies = tuple(masked.plies[:shown])
    state = await kept.after(record, plies) if kept is not None else \
        final_position(game, plies, record.seats, record.options)
    finished = record.status in DONE
    banner = caption(masked) if finished and shown == total and \
        game.outcome(state) is None else None
    mover = game.to_move(state) if not finished else None
    tc = record.time_control
    elapsed = row.turn_elapsed + (max(0.0, now - row.turn_resumed_at)
                                  if row.turn_resumed_at is not None else 0.0)
    seats = []
    for p in masked.players:
        moving = mover is not None and p.seat == mover and record.status in PLAYING
        clock = turn_left = flag_left = None
        if tc.enabled and not finished:
            used = elapsed if moving else 0.0
            clock = match_texts.clock_left(tc, used, p.banks_left, row.turn_extra if moving
                                           else 0.0)
            if moving and row.turn_resumed_at is not None:
                turn_left = max(0.0, tc.turn + row.turn_extra - elapsed)
                flag_left = max(0.0, tc.flag_at(p.banks_left, row.turn_extra) - elapsed)
        seats.append(SeatView(people[p.user_id], p.colour, p.result, clock, turn_left,
                              flag_left, p.banks_left, moving))
    start = game.new_state(record.seats, record.options)
    moves = tuple((m.ply, colour(game.seat_name(start, m.seat)) if m.kind == MoveKind.MOVE
                   else masked.players[m.seat].name if m.seat < len(masked.players) else "",
                   m.notation if m.kind == MoveKind.MOVE else say.left_the_game())
                  for m in record.moves)
    view = MatchView(
        number=record.number, label=match_texts.match_label(record.number, record.kind),
        game=game.title, options=match_texts.options_line(game, record.options, tc),
        status=record.status, finished=finished,
        result=caption(masked) if finished else None, seats=tuple(seats), moves=moves,
        ply=shown, plies=total,
        alt=say.board_alt(shown, described(game, state, masked.names, banner)),
        running=any(s.turn_left is not None for s in seats),
        review=review_view(masked, data, shown) if data is not None else None,
        unreviewed=reviewed and data is None and total > 0
        and record.status == MatchStatus.FINISHED
        and can_review(record.game))
    return view, masked, state


# ---- a player --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    person: Person
    garnets: int
    ratings: tuple[tuple[str, str, int], ...]  # game, rating, games
    matches: tuple[tuple[MatchLine, str | None], ...]  # and the player's result


async def player(db: Database, site: Site, token: str) -> PlayerView | None:
    """The page of the member whose address is ``token``; None for anyone else, and for
    a player who hides their name."""
    guild = site.guild_id
    if len(token) != 16 or not token.isalnum():
        return None
    async with db.session() as s:
        # Members the server knows by name: the address is an HMAC, not to be inverted.
        members = (await s.scalars(select(MemberName.user_id)
                                   .where(MemberName.guild_id == guild))).all()
        user_id = next((u for u in members if site.token(u) == token), None)
        if user_id is None:
            return None
        mine = (await s.scalars(
            select(Match).join(MatchPlayer, MatchPlayer.match_id == Match.id)
            .where(MatchPlayer.user_id == user_id, Match.guild_id == guild,
                   Match.status.in_((*PLAYING, *DONE)), Match.kind != MatchKind.PRACTICE)
            .order_by(Match.number.desc()).limit(LISTED))).all()
        people = await People.read(s, site, {user_id} | {p.user_id for m in mine
                                                         for p in m.players})
        if people.hidden(user_id):
            return None
        garnets = await ledger.balance(s, guild, Scope(None, overall=True), user_id)
        rated = (await s.scalars(select(Rating).where(Rating.guild_id == guild,
                                                      Rating.user_id == user_id)
                                 .order_by(Rating.game))).all()
    lines = []
    for m in mine:
        seat = next((p for p in m.players if p.user_id == user_id), None)
        result = None
        if m.status == MatchStatus.VOIDED:
            result = "void"
        elif m.status == MatchStatus.FINISHED and seat is not None:
            result = "draw" if m.winner_seat is None or m.draw else \
                "won" if m.winner_seat == seat.seat else "lost"
        lines.append((MatchLine(m.number, match_texts.match_label(m.number, m.kind),
                                title(m.game), tuple(people[p.user_id]
                                                     for p in _seated(m.players)), m.status),
                      result))
    return PlayerView(people[user_id], garnets,
                      tuple((title(r.game), ratings.shown(r.mu, r.sigma), r.games)
                            for r in rated), tuple(lines))

