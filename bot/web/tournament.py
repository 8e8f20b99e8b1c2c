"""A tournament's page: every round's pairings and results (live: a round being played
shows its games as they end), the standings with the format's tie-breaks, and the
bracket of an elimination format, drawn as columns of matches."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from bot.services.tournaments import Format, Outcome
from bot.services.tournaments.bracket import NOBODY, depth
from bot.services.tournaments.host.records import Loaded, load
from bot.services.tournaments.host.views import counted
from bot.services.web import Site
from bot.store.db import Database
from bot.store.models import Tournament as TournamentRow
from bot.texts import brackets as bracket_say
from bot.texts import tournaments as say
from bot.texts import web as web_say
from bot.texts.history import title
from bot.texts.language import _
from bot.web.names import People, Person
from bot.web.read import MAX_NUMBER


@dataclass(frozen=True)
class Board:
    board: int
    first: Person
    second: Person
    result: str | None  # "1-0", "½-½", "+/-", ...; None while being played
    matches: tuple[int, ...]  # the server's numbers of its games


@dataclass(frozen=True)
class RoundView:
    number: int
    boards: tuple[Board, ...]
    byes: tuple[Person, ...]


@dataclass(frozen=True)
class Row:
    place: str
    person: Person
    points: str
    tiebreaks: tuple[str, ...]
    active: bool


@dataclass(frozen=True)
class Spot:
    id: str
    a: Person | None  # None: not yet known; a Person labelled "—" for nobody (a bye)
    b: Person | None
    winner: str | None  # "a" or "b"
    status: str


@dataclass(frozen=True)
class TournamentView:
    number: int
    name: str
    game: str
    format: str
    status: str
    elimination: bool
    rounds: tuple[RoundView, ...]
    tiebreaks: tuple[str, ...]  # their short names, the standings' columns
    standings: tuple[Row, ...]
    bracket: tuple[tuple[str, tuple[Spot, ...]], ...]  # columns: heading, matches


async def tournament(db: Database, site: Site, number: int) -> TournamentView | None:
    if not 0 < number < MAX_NUMBER:
        return None
    async with db.session() as s:
        found = await s.scalar(select(TournamentRow.id).where(
            TournamentRow.guild_id == site.guild_id, TournamentRow.number == number))
        if found is None:
            return None
        loaded = await load(s, found)
        people = await People.read(s, site, loaded.players)
    return _view(loaded, people)


def _view(loaded: Loaded, people: People) -> TournamentView:
    core = loaded.core
    state = core.state(loaded.events)
    rounds = []
    for rnd in state.rounds:
        boards = []
        for p in rnd.pairings:
            outcome = state.outcome(rnd.number, p)
            games = tuple(g.number for g in loaded.games_of(rnd.number, p.board))
            boards.append(Board(p.board, people[p.first], people[p.second],
                                str(outcome) if isinstance(outcome, Outcome) else None, games))
        rounds.append(RoundView(rnd.number, tuple(boards), tuple(people[b] for b in rnd.byes)))
    cancelled = loaded.row.status == "cancelled"
    table = core.standings(counted(core, loaded.events, cancelled)) if loaded.players else ()
    keys = tuple(str(t) for t in core.tiebreaks) if not core.format.elimination else ()
    rows = tuple(Row(st.place or str(st.rank), people[st.player], say.points(st.points),
                     tuple(say.points(st.tiebreaks.get(k, 0.0)) for k in keys), st.active)
                 for st in table)
    return TournamentView(
        number=loaded.row.number, name=loaded.row.name, game=title(loaded.row.game),
        format=_(say.FORMATS.get(loaded.row.format, loaded.row.format)),
        status=loaded.row.status, elimination=core.format.elimination,
        rounds=tuple(reversed(rounds)), tiebreaks=tuple(_(say.TIEBREAKS.get(k, k)) for k in keys),
        standings=rows, bracket=_bracket(loaded, people) if core.format.elimination and
        state.rounds else ())


def _bracket(loaded: Loaded, people: People) -> tuple[tuple[str, tuple[Spot, ...]], ...]:
    core = loaded.core
    spots = core.bracket(loaded.events)
    columns: dict[tuple[str, int], list[Spot]] = {}

    def who(player: str | None) -> Person | None:
        if player is None:
            return None
        return Person("—", None) if player == NOBODY else people[player]

    for spot in sorted(spots, key=lambda x: (x.spec.section, x.spec.column, x.spec.index)):
        side = None if spot.winner is None else "a" if spot.winner == spot.a else "b"
        columns.setdefault((spot.spec.section, spot.spec.column), []).append(
            Spot(spot.spec.id, who(spot.a), who(spot.b), side, spot.status))
    order = {"W": 0, "L": 1, "F": 2, "3": 3}
    out = []
    for (section, column), matches in sorted(columns.items(),
                                             key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
        heading = web_say.bracket_heading(section, column)
        # The labels' meaning (W2-1: a semi-final), as the round's post on Discord says it.
        words = bracket_say.column(label=matches[0].id, depth=depth(len(core.players)),
                                   double=core.format is Format.DOUBLE)
        out.append((f"{heading} · {words}" if words else heading, tuple(matches)))
    return tuple(out)
