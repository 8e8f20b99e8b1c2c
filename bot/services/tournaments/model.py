"""The vocabulary of tournaments: formats, options, pairings, results and the events
a tournament is rebuilt from.

Everything here is an immutable value that round-trips through JSON
(``event_to_json`` / ``event_from_json``), so the bot stores a tournament as its
settings and a list of events, and rebuilds its state from them after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


class TournamentError(ValueError):
    """An event or a request that the tournament's state does not allow; the
    message says why in plain words."""


class PlayedOn(TournamentError):
    """A bracket result that would change who plays in a match already paired
    (``later``, of round ``round``): the players have played on, so it stands."""

    def __init__(self, round_number: int, later: str) -> None:
        super().__init__(f"the result of a match before {later} can no longer change: "
                         "its winner has played on")
        self.round = round_number
        self.later = later


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "roundrobin"
    SINGLE = "single"
    DOUBLE = "double"

    @property
    def elimination(self) -> bool:
        return self in (Format.SINGLE, Format.DOUBLE)


class FirstRule(StrEnum):
    """Who moves first in a pairing's first game (later games of a series alternate)."""

    CHOOSES = "chooses"  # the higher seed chooses; the pairing names them as chooser
    ALTERNATE = "alternate"  # the pairing balances each player's firsts (colours in chess)
    LOTS = "lots"  # drawn by lot, reproducibly from the tournament's seed


class Tiebreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    HEAD_TO_HEAD = "head_to_head"
    WINS = "wins"


SWISS_TIEBREAKS = (Tiebreak.BUCHHOLZ, Tiebreak.MEDIAN_BUCHHOLZ, Tiebreak.SONNEBORN_BERGER,
                   Tiebreak.HEAD_TO_HEAD, Tiebreak.WINS)
# Buchholz says nothing in a complete round robin (FIDE C.07 art. 8: not for round robins).
ROUND_ROBIN_TIEBREAKS = (Tiebreak.HEAD_TO_HEAD, Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS)


class Outcome(StrEnum):
    """A pairing's result, written from its first-named player's side as arbiters do."""

    FIRST = "1-0"
    SECOND = "0-1"
    DRAW = "½-½"
    FIRST_BY_FORFEIT = "+/-"  # the second did not play
    SECOND_BY_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"  # neither played: both lose

    @property
    def forfeit(self) -> bool:
        return self in (Outcome.FIRST_BY_FORFEIT, Outcome.SECOND_BY_FORFEIT,
                        Outcome.DOUBLE_FORFEIT)

    @property
    def points(self) -> tuple[float, float]:
        """Points of the first and the second player."""
        return _POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Outcome:
        cleaned = text.strip().replace("1/2", "½")
        for outcome in cls:
            if cleaned == outcome.value:
                return outcome
        raise TournamentError(f"'{text}' is not a result; results are "
                              + ", ".join(o.value for o in cls))


_POINTS = {
    Outcome.FIRST: (WIN, LOSS), Outcome.SECOND: (LOSS, WIN), Outcome.DRAW: (DRAW, DRAW),
    Outcome.FIRST_BY_FORFEIT: (WIN, LOSS), Outcome.SECOND_BY_FORFEIT: (LOSS, WIN),
    Outcome.DOUBLE_FORFEIT: (LOSS, LOSS),
}


@dataclass(frozen=True)
class Options:
    """A tournament's rules, fixed at its creation.

    ``rounds``: Swiss only (default: enough for a single winner, ceil(log2 players)).
    ``double``: round robin played twice, colours reversed. ``best_of``: games per
    pairing (a series, first player alternating). ``bye_points``: what a Swiss
    pairing-allocated bye scores. ``forfeit_drops``: a player who loses by forfeit
    is withdrawn from later rounds (as FIDE and lichess do) until a host reinstates
    them. ``tiebreaks``: the order of tie-breaks (default per format). ``seed``:
    drives drawing of lots, so the same events give the same tournament.
    """

    rounds: int | None = None
    double: bool = False
    best_of: int = 1
    first: FirstRule = FirstRule.ALTERNATE
    bye_points: float = WIN
    forfeit_drops: bool = True
    third_place: bool = False  # single elimination: a match for third place
    bracket_reset: bool = True  # double elimination: a second grand final if needed
    tiebreaks: tuple[Tiebreak, ...] | None = None
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "double": self.double, "best_of": self.best_of,
                "first": self.first.value, "bye_points": self.bye_points,
                "forfeit_drops": self.forfeit_drops, "third_place": self.third_place,
                "bracket_reset": self.bracket_reset,
                "tiebreaks": None if self.tiebreaks is None else [t.value for t in
                                                                  self.tiebreaks],
                "seed": self.seed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        tiebreaks = data.get("tiebreaks")
        return cls(rounds=data.get("rounds"), double=bool(data.get("double", False)),
                   best_of=int(data.get("best_of", 1)),
                   first=FirstRule(data.get("first", FirstRule.ALTERNATE.value)),
                   bye_points=float(data.get("bye_points", WIN)),
                   forfeit_drops=bool(data.get("forfeit_drops", True)),
                   third_place=bool(data.get("third_place", False)),
                   bracket_reset=bool(data.get("bracket_reset", True)),
                   tiebreaks=None if tiebreaks is None else tuple(Tiebreak(t)
                                                                  for t in tiebreaks),
                   seed=int(data.get("seed", 0)))


@dataclass(frozen=True)
class Pairing:
    """One pairing of a round: ``first`` moves first in its first game (under
    ``FirstRule.CHOOSES`` provisionally: ``chooser`` picks). ``match`` names the
    bracket match in elimination formats (``W1-1``, ``L2-1``, ``GF``).
    ``decided`` is a result known when the round is paired (a player who had
    withdrawn forfeits a round-robin or bracket game)."""

    board: int
    first: str
    second: str
    match: str | None = None
    chooser: str | None = None
    decided: Outcome | None = None

    @property
    def players(self) -> tuple[str, str]:
        return self.first, self.second

    def opponent(self, player: str) -> str:
        return self.second if player == self.first else self.first

    def outcome(self, winner: str | None, forfeit: bool = False) -> Outcome:
        """The outcome in which ``winner`` won (None: a draw, or with ``forfeit`` a
        double forfeit)."""
        if winner is None:
            return Outcome.DOUBLE_FORFEIT if forfeit else Outcome.DRAW
        if winner not in self.players:
            raise TournamentError(f"{winner} does not play in this pairing")
        if winner == self.first:
            return Outcome.FIRST_BY_FORFEIT if forfeit else Outcome.FIRST
        return Outcome.SECOND_BY_FORFEIT if forfeit else Outcome.SECOND


@dataclass(frozen=True)
class Round:
    """A round as published: the event the bot records when it starts a round."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()

    def pairing(self, board: int) -> Pairing:
        for p in self.pairings:
            if p.board == board:
                return p
        raise TournamentError(f"round {self.number} has no board {board}")

    def of(self, player: str) -> Pairing | None:
        for p in self.pairings:
            if player in p.players:
                return p
        return None


@dataclass(frozen=True)
class Reported:
    """A result (a later one for the same board replaces it: a host's correction).
    ``first``: who actually moved first in the first game, when the chooser chose."""

    round: int
    board: int
    outcome: Outcome
    first: str | None = None


@dataclass(frozen=True)
class Dropped:
    """The player withdraws: not paired in rounds paired after this event."""

    player: str


@dataclass(frozen=True)
class Rejoined:
    """A host reinstates a withdrawn player for the rounds paired after this event."""

    player: str


@dataclass(frozen=True)
class Reopened:
    """A host undoes a result of the running round (a drop made by mistake): the board
    is unfinished again, and its game is played."""

    round: int
    board: int


Event = Round | Reported | Dropped | Rejoined | Reopened


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``rank`` is shared by players equal on points and
    every tie-break (1, 2, 2, 4), and in elimination formats by players out in the
    same round; ``place`` says it for people ("3", "5–8")."""

    rank: int
    player: str
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)
    place: str = ""
    active: bool = True  # still in the tournament (not withdrawn, not eliminated)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "points": self.points,
                "tiebreaks": dict(self.tiebreaks), "place": self.place,
                "active": self.active}


def _pairing_json(p: Pairing) -> dict[str, Any]:
    return {"board": p.board, "first": p.first, "second": p.second, "match": p.match,
            "chooser": p.chooser, "decided": None if p.decided is None else p.decided.value}


def event_to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, Round):
        return {"type": "round", "round": event.number,
                "pairings": [_pairing_json(p) for p in event.pairings],
                "byes": list(event.byes)}
    if isinstance(event, Reported):
        return {"type": "result", "round": event.round, "board": event.board,
                "outcome": event.outcome.value, "first": event.first}
    if isinstance(event, Dropped):
        return {"type": "drop", "player": event.player}
    if isinstance(event, Reopened):
        return {"type": "reopen", "round": event.round, "board": event.board}
    return {"type": "rejoin", "player": event.player}


def event_from_json(data: dict[str, Any]) -> Event:
    kind = data.get("type")
    if kind == "round":
        return Round(int(data["round"]), tuple(
            Pairing(int(p["board"]), str(p["first"]), str(p["second"]), p.get("match"),
                    p.get("chooser"),
                    None if p.get("decided") is None else Outcome(p["decided"]))
            for p in data["pairings"]), tuple(str(b) for b in data.get("byes", ())))
    if kind == "result":
        return Reported(int(data["round"]), int(data["board"]), Outcome(data["outcome"]),
                        data.get("first"))
    if kind == "drop":
        return Dropped(str(data["player"]))
    if kind == "rejoin":
        return Rejoined(str(data["player"]))
    if kind == "reopen":
        return Reopened(int(data["round"]), int(data["board"]))
    raise TournamentError(f"unknown tournament event {kind!r}")
