"""A tournament: its format, players in seed order and options, and what follows
from a list of events — the next round's pairings, the standings, the bracket.

A ``Tournament`` holds no state of its own: the bot stores its events (each round
as paired, each result, each withdrawal; ``event_to_json``) and asks again after a
restart::

    t = Tournament(Format.SWISS, ("ann", "ben", "cat", "dan"), Options(rounds=3))
    events: list[Event] = []               # loaded from the database
    rnd = t.pair_next(events)              # publish it, then store it as an event
    events.append(rnd)
    for pairing in rnd.pairings:           # a match each (``pairing.decided``: none)
        series = t.series(pairing)         # best-of-N: ``series.next_first`` …
    new = Reported(1, 1, Outcome.FIRST)    # a result, a forfeit after the deadline
    t.state([*events, new])                # raises TournamentError if not allowed
    events.append(new)
    t.standings(events); t.finished(events); tournament_png(t, events, title)

Under ``FirstRule.CHOOSES`` a pairing names its ``chooser``; record who moved first
with ``Reported(..., first=name)`` so the balance of firsts knows. A host's
correction is another ``Reported`` for the same board; ``Dropped`` / ``Rejoined``
take a player out of (back into) the rounds paired after them (a game of theirs
still open needs its result, a forfeit). Pairing a big Swiss takes a moment (about
0.03 s a round for 64 players, 1 s for 256): call it off the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.services.tournaments import bracket as brackets
from bot.services.tournaments import roundrobin, standings, swiss
from bot.services.tournaments.firsts import Firsts, allot, by_lot
from bot.services.tournaments.model import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Pairing,
    PlayedOn,
    Round,
    Standing,
    Tiebreak,
    TournamentError,
)
from bot.services.tournaments.series import Series
from bot.services.tournaments.state import Entry, State, fold, records

_UNKNOWN, _NONE = object(), object()


def swiss_rounds(players: int) -> int:
    """Enough Swiss rounds for a single winner: ceil(log2 players)."""
    return brackets.depth(players)


def max_swiss_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


@dataclass(frozen=True)
class Tournament:
    format: Format
    players: tuple[str, ...]
    options: Options = field(default_factory=Options)
    _memo: dict[object, Round | object] = field(default_factory=dict, init=False,
                                                 repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise TournamentError("a tournament needs at least two players")
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise TournamentError("every player needs a name of their own")
        if self.options.best_of < 1:
            raise TournamentError("a pairing plays at least one game")
        rounds = self.options.rounds
        if rounds is not None and self.format is not Format.SWISS:
            raise TournamentError("only a Swiss tournament takes a number of rounds")
        if rounds is not None and not 1 <= rounds <= max_swiss_rounds(len(self.players)):
            most = max_swiss_rounds(len(self.players))
            raise TournamentError(f"{len(self.players)} players can play only 1 Swiss round"
                                  if most == 1 else
                                  f"{len(self.players)} players can play 1 to {most} Swiss "
                                  "rounds")

    # What the options imply

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        if self.options.tiebreaks is not None:
            return self.options.tiebreaks
        if self.format is Format.ROUND_ROBIN:
            return ROUND_ROBIN_TIEBREAKS
        return SWISS_TIEBREAKS if self.format is Format.SWISS else ()

    @property
    def rounds(self) -> int:
        """How many rounds (in a double elimination, at most: the bracket reset may
        not be needed)."""
        n = len(self.players)
        if self.format is Format.SWISS:
            return self.options.rounds or swiss_rounds(n)
        if self.format is Format.ROUND_ROBIN:
            return roundrobin.rounds_total(n, self.options.double)
        k = brackets.depth(n)
        if self.format is Format.SINGLE:
            return k
        return 2 * k + (1 if self.options.bracket_reset else 0)

    def seed(self, player: str) -> int:
        return self.players.index(player) + 1

    def series(self, pairing: Pairing, first: str | None = None) -> Series:
        """The games of a pairing: best-of-N, first player alternating; a bracket
        series has deciding games after a level score."""
        return Series.of(pairing, self.options.best_of, self.format.elimination, first)

    # Reading events

    def state(self, events: Iterable[Event]) -> State:
        """The state after ``events``; raises ``TournamentError`` on one the
        tournament does not allow (try ``state([*events, new])`` before storing)."""
        state = fold(self.players, events, draws=not self.format.elimination,
                     forfeit_drops=self.options.forfeit_drops)
        if self.format.elimination:
            spots = self._spots(state)
            for rnd in state.rounds:
                for p in rnd.pairings:
                    spot = spots.get(p.match or "")
                    if spot is None or {spot.a, spot.b} != set(p.players):
                        raise PlayedOn(rnd.number, p.match or "")
        return state

    def finished(self, events: Iterable[Event]) -> bool:
        """Every round played; in a Swiss also when no further round can be paired
        (fewer than two players left, or only with a rematch or a second bye)."""
        return self._finished(self.state(events))

    def _finished(self, state: State) -> bool:
        if not state.round_complete:
            return False
        if self.format.elimination:
            return brackets.finished(self._spots(state))
        if len(state.rounds) >= self.rounds:
            return True
        return self.format is Format.SWISS and self._pair_swiss(state) is None

    def standings(self, events: Iterable[Event]) -> tuple[Standing, ...]:
        state = self.state(events)
        if self.format.elimination:
            return self._placings(state)
        return standings.table(self.players, self._records(state), self.tiebreaks,
                               swiss=self.format is Format.SWISS, withdrawn=state.withdrawn)

    def bracket(self, events: Iterable[Event]) -> tuple[brackets.Spot, ...]:
        """Every match of an elimination bracket as the results place it."""
        if not self.format.elimination:
            raise TournamentError("only elimination tournaments have a bracket")
        return tuple(self._spots(self.state(events)).values())

    # Pairing

    def pair_next(self, events: Sequence[Event]) -> Round:
        """The next round, to publish and then record as an event."""
        state = self.state(events)
        if not state.round_complete:
            raise TournamentError(f"round {len(state.rounds)} still has games to finish")
        if self.format is Format.SWISS and len(state.rounds) < self.rounds:
            rnd = self._pair_swiss(state)
            if rnd is None:
                raise TournamentError("no round can be paired without a rematch or a second "
                                      "bye: the tournament ends here")
            return rnd
        if self._finished(state):
            raise TournamentError("the tournament is over")
        number = len(state.rounds) + 1
        if self.format is Format.ROUND_ROBIN:
            return self._pair_round_robin(state, number)
        return self._pair_bracket(state, number)

    def _pair_swiss(self, state: State) -> Round | None:
        """The next Swiss round, or None if none can be paired; remembered, as
        ``finished`` and ``pair_next`` both ask."""
        key = (state.rounds, tuple(sorted(state.outcomes.items())),
               tuple(sorted(state.firsts.items())), state.withdrawn)
        known = self._memo.get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known if isinstance(known, Round) else None
        active = self._active(state)
        recs = self._records(state)
        seeds = {p: self.seed(p) for p in self.players}
        number = len(state.rounds) + 1
        found = swiss.pair(seeds, active, recs,
                           balance=self.options.first is FirstRule.ALTERNATE,
                           remaining=self.rounds - number)
        rnd = None
        if found is not None and len(active) >= 2:
            pairs, bye = found
            rnd = Round(number, tuple(
                self._pairing(board, a, b, number, recs, higher_first=True)
                for board, (a, b) in enumerate(pairs, start=1)), (bye,) if bye else ())
        if len(self._memo) > 16:
            self._memo.clear()
        self._memo[key] = rnd if rnd is not None else _NONE
        return rnd

    def _pair_round_robin(self, state: State, number: int) -> Round:
        table = roundrobin.schedule(len(self.players), self.options.double)[number - 1]
        recs = self._records(state)
        pairings: list[Pairing] = []
        byes: list[str] = []
        for sa, sb in table:
            if max(sa, sb) > len(self.players):
                byes.append(self.players[min(sa, sb) - 1])
                continue
            a, b = self.players[sa - 1], self.players[sb - 1]
            board = len(pairings) + 1
            if self.options.first is FirstRule.ALTERNATE:
                pairing = Pairing(board, a, b)
            else:
                pairing = self._pairing(board, a, b, number, recs, higher_first=False)
            pairings.append(self._forfeits(pairing, state))
        return Round(number, tuple(pairings), tuple(byes))

    def _pair_bracket(self, state: State, number: int) -> Round:
        spots = self._spots(state)
        paired = {p.match for rnd in state.rounds for p in rnd.pairings}
        done_wave = max((spots[p.match].spec.wave for p in state.rounds[-1].pairings
                         if p.match), default=0) if state.rounds else 0
        ready = [s for s in spots.values() if s.status == "ready" and s.spec.id not in paired]
        if not ready:
            raise TournamentError("no match of the bracket is ready to be played")
        wave = min(s.spec.wave for s in ready)
        recs = self._records(state)
        pairings: list[Pairing] = []
        for spot in (s for s in ready if s.spec.wave == wave):
            assert spot.a and spot.b
            pairing = self._pairing(len(pairings) + 1, spot.a, spot.b, number, recs,
                                    higher_first=False, match=spot.spec.id)
            pairings.append(self._forfeits(pairing, state))
        playing = {name for p in pairings for name in p.players}
        # Once each: after double forfeits a player can pass several empty matches at once.
        byes = tuple(dict.fromkeys(
            s.winner for s in spots.values() if s.status == "bye" and s.winner
            and done_wave < s.spec.wave <= wave and s.winner not in playing))
        return Round(number, tuple(pairings), byes)

    def _pairing(self, board: int, a: str, b: str, number: int,
                 recs: dict[str, tuple[Entry, ...]], *, higher_first: bool,
                 match: str | None = None) -> Pairing:
        """Who moves first by the tournament's rule. ``higher_first``: ``a`` ranks
        above ``b`` (Swiss: by score); else the better seed ranks higher."""
        rule = self.options.first
        a_higher = higher_first or self.seed(a) < self.seed(b)
        if rule is FirstRule.CHOOSES:
            top, other = (a, b) if self.seed(a) < self.seed(b) else (b, a)
            return Pairing(board, top, other, match, chooser=top)
        if rule is FirstRule.LOTS:
            first, second = by_lot(self.options.seed, number, a, b)
        else:
            first, second = allot(a, b, Firsts.of(recs[a]), Firsts.of(recs[b]), a_higher,
                                  self.seed(a), self.seed(b))
        return Pairing(board, first, second, match)

    # Helpers

    def _active(self, state: State) -> list[str]:
        return [p for p in self.players if p not in state.withdrawn]

    def _records(self, state: State) -> dict[str, tuple[Entry, ...]]:
        bye = self.options.bye_points if self.format is Format.SWISS else 0.0
        return records(state, bye)

    def _forfeits(self, pairing: Pairing, state: State) -> Pairing:
        """A pairing with a withdrawn player is decided when it is made."""
        gone = [p in state.withdrawn for p in pairing.players]
        if not any(gone):
            return pairing
        decided = (Outcome.DOUBLE_FORFEIT if all(gone) else Outcome.SECOND_BY_FORFEIT
                   if gone[0] else Outcome.FIRST_BY_FORFEIT)
        return Pairing(pairing.board, pairing.first, pairing.second, pairing.match,
                       pairing.chooser, decided)

    def _specs(self) -> tuple[brackets.Spec, ...]:
        return brackets.layout(len(self.players), self.format is Format.DOUBLE,
                              self.options.third_place, self.options.bracket_reset)

    def _spots(self, state: State) -> dict[str, brackets.Spot]:
        decided: dict[str, brackets.Decision] = {}
        for rnd in state.rounds:
            for p in rnd.pairings:
                outcome = state.outcome(rnd.number, p)
                if p.match is None or outcome is None:
                    continue
                if outcome is Outcome.DOUBLE_FORFEIT:
                    decided[p.match] = (brackets.NOBODY, brackets.NOBODY, True)
                elif outcome.points[0] > outcome.points[1]:
                    decided[p.match] = (p.first, p.second, outcome.forfeit)
                else:
                    decided[p.match] = (p.second, p.first, outcome.forfeit)
        return brackets.resolve(self._specs(), self.players, decided)

    def _placings(self, state: State) -> tuple[Standing, ...]:
        spots = self._spots(state)
        out_when = brackets.placing(self._specs(), spots)
        wins = dict.fromkeys(self.players, 0)
        for spot in spots.values():
            if spot.status == "done" and spot.winner:
                wins[spot.winner] += 1
        best = (1 << 30, 0)
        playing = {name for s in spots.values() if s.status == "ready"
                   for name in (s.a, s.b) if name}
        ordered = sorted(self.players, key=lambda p: (
            tuple(-x for x in out_when.get(p, best)), self.seed(p)))
        result: list[Standing] = []
        i = 0
        while i < len(ordered):
            key = out_when.get(ordered[i], best)
            group = [p for p in ordered[i:] if out_when.get(p, best) == key]
            rank = i + 1
            place = str(rank) if len(group) == 1 else f"{rank}–{rank + len(group) - 1}"
            for p in group:
                result.append(Standing(rank, p, float(wins[p]), {}, place,
                                       (p not in out_when or p in playing)
                                       and p not in state.withdrawn))
            i += len(group)
        return tuple(result)
