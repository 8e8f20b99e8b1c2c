"""Best-of-N series: the games of one pairing, the first player alternating.

A game is won (1 point) or drawn (½ each). The series is decided as soon as one
player cannot be caught in the games left. After N games level, a round-robin or
Swiss series is a draw; a bracket series (``decider=True``) goes on with single
deciding games, the first player still alternating, until one is won.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.tournaments.model import Outcome, Pairing, TournamentError


@dataclass(frozen=True)
class Series:
    first: str  # moves first in game 1
    second: str
    best_of: int = 1
    decider: bool = False
    winners: tuple[str | None, ...] = ()  # each game's winner, None for a draw

    def __post_init__(self) -> None:
        if self.best_of < 1:
            raise TournamentError("a series has at least one game")

    @classmethod
    def of(cls, pairing: Pairing, best_of: int, decider: bool,
           first: str | None = None) -> Series:
        """The series of a pairing; ``first`` when the chooser picked the other order."""
        mover = first or pairing.first
        if mover not in pairing.players:
            raise TournamentError(f"{mover} does not play in this pairing")
        return cls(mover, pairing.opponent(mover), best_of, decider)

    def first_of(self, game: int) -> str:
        """Who moves first in game ``game`` (1-based): they alternate."""
        return self.first if game % 2 == 1 else self.second

    @property
    def score(self) -> tuple[float, float]:
        a = sum(1.0 if w == self.first else 0.5 if w is None else 0.0 for w in self.winners)
        return a, len(self.winners) - a

    @property
    def winner(self) -> str | None:
        a, b = self.score
        left = max(0, self.best_of - len(self.winners))
        if a > b + left:
            return self.first
        if b > a + left:
            return self.second
        return None

    @property
    def finished(self) -> bool:
        if self.winner is not None:
            return True
        return len(self.winners) >= self.best_of and not self.decider

    @property
    def next_first(self) -> str | None:
        """Who moves first in the next game, or None when the series is over."""
        return None if self.finished else self.first_of(len(self.winners) + 1)

    def record(self, winner: str | None) -> Series:
        if self.finished:
            raise TournamentError("the series is already decided")
        if winner is not None and winner not in (self.first, self.second):
            raise TournamentError(f"{winner} does not play in this series")
        return Series(self.first, self.second, self.best_of, self.decider,
                      (*self.winners, winner))

    def outcome(self, pairing: Pairing) -> Outcome:
        """The series' result as the pairing's outcome (once finished)."""
        if not self.finished:
            raise TournamentError("the series is not decided yet")
        return pairing.outcome(self.winner)

    def text(self) -> str:
        a, b = self.score
        return f"{_num(a)}–{_num(b)}"


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{int(x)}½" if x > 1 else "½"
