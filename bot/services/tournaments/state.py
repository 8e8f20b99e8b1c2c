"""A tournament's state, folded from its events: the rounds as paired, the result of
every pairing, who has withdrawn, and each player's record round by round."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from bot.services.tournaments.model import (
    LOSS,
    Dropped,
    Event,
    Outcome,
    Pairing,
    Reopened,
    Reported,
    Round,
    TournamentError,
)


class Kind(StrEnum):
    """What a round was for one player (FIDE C.07 art. 16 tells these apart)."""

    PLAYED = "played"
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"  # double forfeits too
    BYE = "bye"  # pairing-allocated: no opponent was left for them
    ABSENT = "absent"  # not paired: withdrawn (a zero-point bye)
    PENDING = "pending"  # paired, no result yet


@dataclass(frozen=True)
class Entry:
    round: int
    kind: Kind
    points: float
    opponent: str | None = None
    first: bool | None = None  # moved first in the (first) game; played games only


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: tuple[Round, ...]
    outcomes: Mapping[tuple[int, int], Outcome]
    firsts: Mapping[tuple[int, int], str]  # who moved first, where known
    withdrawn: frozenset[str]

    @property
    def round_complete(self) -> bool:
        """Every pairing of the last round has its result (true before round 1)."""
        return not self.rounds or all((self.rounds[-1].number, p.board) in self.outcomes
                                      for p in self.rounds[-1].pairings)

    def outcome(self, round_number: int, pairing: Pairing) -> Outcome | None:
        return self.outcomes.get((round_number, pairing.board))

    def seed(self, player: str) -> int:
        return self.players.index(player) + 1

    def pending(self) -> tuple[Pairing, ...]:
        if not self.rounds:
            return ()
        last = self.rounds[-1]
        return tuple(p for p in last.pairings if (last.number, p.board) not in self.outcomes)


def fold(players: Iterable[str], events: Iterable[Event], *, draws: bool = True,
         forfeit_drops: bool = True) -> State:
    """The state after ``events``, checked: rounds in order, each paired only once
    the one before is complete, results for boards that exist. ``draws``: whether a
    drawn result is allowed (not in elimination brackets, where a series has a
    decider). Raises ``TournamentError`` on an event the state does not allow."""
    names = tuple(players)
    known = set(names)
    if len(known) != len(names):
        raise TournamentError("a player is entered twice")
    rounds: list[Round] = []
    outcomes: dict[tuple[int, int], Outcome] = {}
    # Who a board's forfeit withdrew, and by which event (a Rejoined after it undoes it).
    withdrew: dict[tuple[int, int], dict[str, int]] = {}
    firsts: dict[tuple[int, int], str] = {}
    dropped: set[str] = set()
    rejoined_at: dict[str, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, Round):
            _check_round(event, rounds, outcomes, known)
            rounds.append(event)
            for p in event.pairings:
                if p.decided is not None:
                    outcomes[(event.number, p.board)] = p.decided
        elif isinstance(event, Reported):
            if not 1 <= event.round <= len(rounds):
                raise TournamentError(f"round {event.round} has not been paired")
            pairing = rounds[event.round - 1].pairing(event.board)
            if event.outcome is Outcome.DRAW and not draws:
                raise TournamentError("a match in a bracket needs a winner, not a draw")
            if event.first is not None and event.first not in pairing.players:
                raise TournamentError(f"{event.first} does not play on board {event.board}")
            key = (event.round, event.board)
            outcomes[key] = event.outcome
            losers = _forfeit_losers(pairing, event.outcome)
            if event.round == len(rounds):
                withdrew[key] = dict.fromkeys(losers, index)
            else:
                # A correction of an earlier round withdraws nobody: the player has
                # played on since (the pairings made stand); it can only undo a
                # withdrawal that round's forfeit made.
                withdrew[key] = {p: at for p, at in withdrew.get(key, {}).items()
                                 if p in losers}
            if event.first is not None:
                firsts[(event.round, event.board)] = event.first
        elif isinstance(event, Reopened):
            if not rounds or event.round != len(rounds):
                raise TournamentError(f"only a result of the running round is undone, not "
                                      f"one of round {event.round}")
            rounds[-1].pairing(event.board)
            if outcomes.pop((event.round, event.board), None) is None:
                raise TournamentError(f"board {event.board} has no result to undo")
            withdrew.pop((event.round, event.board), None)
            firsts.pop((event.round, event.board), None)
        elif isinstance(event, Dropped):
            if event.player not in known:
                raise TournamentError(f"{event.player} does not play in this tournament")
            dropped.add(event.player)
        else:
            if event.player not in known:
                raise TournamentError(f"{event.player} does not play in this tournament")
            dropped.discard(event.player)
            rejoined_at[event.player] = index
    withdrawn = set(dropped)
    if forfeit_drops:
        withdrawn.update(player for board in withdrew.values()
                         for player, at in board.items() if at > rejoined_at.get(player, -1))
    return State(names, tuple(rounds), outcomes, firsts, frozenset(withdrawn))


def _forfeit_losers(pairing: Pairing, outcome: Outcome) -> tuple[str, ...]:
    if not outcome.forfeit:
        return ()
    return tuple(player for player, points in zip(pairing.players, outcome.points, strict=True)
                 if points == LOSS)


def _check_round(event: Round, rounds: list[Round], outcomes: Mapping[tuple[int, int], Outcome],
                 known: set[str]) -> None:
    if event.number != len(rounds) + 1:
        raise TournamentError(f"round {event.number} cannot follow round {len(rounds)}")
    if rounds and not all((rounds[-1].number, p.board) in outcomes
                          for p in rounds[-1].pairings):
        raise TournamentError(f"round {rounds[-1].number} still has games to finish")
    seen: set[str] = set()
    for name in [*(n for p in event.pairings for n in p.players), *event.byes]:
        if name not in known:
            raise TournamentError(f"{name} does not play in this tournament")
        if name in seen:
            raise TournamentError(f"{name} is paired twice in round {event.number}")
        seen.add(name)
    if len({p.board for p in event.pairings}) != len(event.pairings):
        raise TournamentError(f"round {event.number} numbers a board twice")


def records(state: State, bye_points: float) -> dict[str, tuple[Entry, ...]]:
    """Each player's round-by-round record. A player neither paired nor given a bye
    in a round was absent (withdrawn): a zero-point round."""
    out: dict[str, list[Entry]] = {p: [] for p in state.players}
    for rnd in state.rounds:
        placed: set[str] = set()
        for p in rnd.pairings:
            placed.update(p.players)
            outcome = state.outcome(rnd.number, p)
            if outcome is None:
                for name in p.players:
                    out[name].append(Entry(rnd.number, Kind.PENDING, 0.0, p.opponent(name)))
                continue
            mover = state.firsts.get((rnd.number, p.board), p.first)
            for name, points in zip(p.players, outcome.points, strict=True):
                if not outcome.forfeit:
                    entry = Entry(rnd.number, Kind.PLAYED, points, p.opponent(name),
                                  name == mover)
                else:
                    kind = Kind.FORFEIT_LOSS if points == LOSS else Kind.FORFEIT_WIN
                    entry = Entry(rnd.number, kind, points, p.opponent(name))
                out[name].append(entry)
        for name in rnd.byes:
            placed.add(name)
            out[name].append(Entry(rnd.number, Kind.BYE, bye_points))
        for name in state.players:
            if name not in placed:
                out[name].append(Entry(rnd.number, Kind.ABSENT, 0.0))
    return {p: tuple(entries) for p, entries in out.items()}


def score(entries: Iterable[Entry]) -> float:
    return sum(e.points for e in entries if e.kind is not Kind.PENDING)
