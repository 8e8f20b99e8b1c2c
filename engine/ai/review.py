"""The review of a finished game: an evaluation after every move, labels, accuracy.

For each position before a move the computer player (at the review's budget) says
how likely the side to move is to win and what it would play; the played move is
judged by the drop of its player's win chance, in points (0 to 100), as lichess
does: a drop of 5, 10 or 15 points is an inaccuracy, a mistake or a blunder.
Accuracy per player is lichess's: each move scores
``103.1668 · exp(−0.04354 · drop) − 3.1669`` (0 to 100), and a player's accuracy is
the mean of the volatility-weighted mean and the harmonic mean of their moves.

Where a game has an exact solver that reaches (Cairo Corridor near its end), the
positions from the end backwards are solved exactly, within a node budget, until the
first that does not fit: from there on the values are exact, and the move that
changed the exact result is named.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.ai.player import Budget, Decision
from engine.game import JSON, EngineError, Game

#: drops of win chance, in points, that make an inaccuracy, a mistake, a blunder
THRESHOLDS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
#: the review's search per position: cheaper than a level, as it runs for every ply
REVIEW_BUDGET = Budget(iterations=80, seconds=1.0, exact=0, spread=0.0, level=0)
EXACT_NODES = 60_000  # the exact solver's budget per position


@dataclass(frozen=True)
class Exact:
    """A solved position: the margin for the side to move and the moves that keep it."""

    margin: int
    best: tuple[str, ...]


@dataclass
class Ply:
    """One move of the game as the review judges it."""

    number: int  # 1-based
    seat: int
    move: str
    before: float  # the mover's win chance before the move (0..1)
    after: float  # the mover's win chance after it
    best: str  # the move the review prefers
    loss: float | None  # the mover's loss in the game's unit (None: no unit)
    label: str = ""

    @property
    def drop(self) -> float:
        return max(0.0, 100.0 * (self.before - self.after))


@dataclass
class Review:
    game: str
    seats: int
    names: list[str]  # seat names (colours)
    plies: list[Ply]
    first_win: list[float]  # seat 0's win chance at each position, start to end
    accuracy: list[float]
    exact_from: int | None = None  # the first position (ply count) solved exactly
    exact_margin: int | None = None  # its margin for seat 0
    exact_result: int = 0  # its result for seat 0: 1 a win, -1 a loss, 0 a draw
    decisive: list[int] = field(default_factory=list)  # plies that changed the exact result
    turned: dict[int, tuple[int, int]] = field(default_factory=dict)  # its player's 1/0/-1
    unit: str = ""

    def worst(self, count: int = 3) -> list[Ply]:
        """The biggest mistakes, worst first: labelled moves by their drop."""
        labelled = [p for p in self.plies if p.label]
        return sorted(labelled, key=lambda p: (-p.drop, p.number))[:count]

    def to_json(self) -> JSON:
        return {
            "game": self.game, "accuracy": [round(a, 1) for a in self.accuracy],
            "exact_from": self.exact_from, "exact_margin": self.exact_margin,
            "decisive": self.decisive,
            "plies": [{"ply": p.number, "seat": p.seat, "move": p.move, "best": p.best,
                       "before": round(p.before, 3), "after": round(p.after, 3),
                       "loss": None if p.loss is None else round(p.loss, 2),
                       "label": p.label} for p in self.plies],
        }


def label_of(drop: float) -> str:
    for points, name in THRESHOLDS:
        if drop >= points:
            return name
    return ""


def move_accuracy(drop: float) -> float:
    """lichess: a move's accuracy from the drop of the mover's win chance, in points."""
    raw = 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669
    return min(100.0, max(0.0, raw + 1.0))  # lichess adds one "uncertainty bonus"


def _stdev(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def accuracies(plies: Sequence[Ply], first_win: Sequence[float], seats: int) -> list[float]:
    """lichess's game accuracy per seat: mean of the volatility-weighted mean and the
    harmonic mean of the seat's move accuracies (100 for a seat without moves)."""
    wins = [100.0 * w for w in first_win]
    size = min(8, max(2, len(plies) // 10))
    windows = [wins[: size]] * max(0, min(size, len(wins)) - 2)
    windows += [wins[i: i + size] for i in range(0, max(1, len(wins) - size + 1))]
    weights = [min(12.0, max(0.5, _stdev(w))) for w in windows]
    result = []
    for seat in range(seats):
        mine = [(move_accuracy(p.drop), weights[min(i, len(weights) - 1)])
                for i, p in enumerate(plies) if p.seat == seat]
        if not mine:
            result.append(100.0)
            continue
        weighted = sum(a * w for a, w in mine) / sum(w for _, w in mine)
        harmonic = len(mine) / sum(1.0 / max(a, 1e-3) for a, _ in mine)
        result.append((weighted + harmonic) / 2.0)
    return result


def _exact_solver(game_key: str) -> Callable[[Any], Exact | None] | None:
    """The exact solver of a game with a node budget, where there is one."""
    if game_key != "cairo":
        return None
    from engine.cairo.solver import Solver, SolveTimeout, solve

    shared = Solver(max_entries=1_000_000)

    def run(state: Any) -> Exact | None:
        try:
            solution = solve(state, shared, nodes=EXACT_NODES)
        except SolveTimeout:
            return None
        return Exact(solution.margin, tuple(solution.best))

    return run


def review(game: Game[Any, Any], notations: Sequence[str], seats: int = 2,
           options: dict[str, Any] | None = None, seed: int = 0,
           budget: Budget = REVIEW_BUDGET,
           make_player: Callable[[Budget], Any] | None = None) -> Review:
    """Review a game of two seats given by its moves (canonical notation)."""
    from engine.ai import player_with

    if seats != 2:
        raise EngineError("reviews are for games of two players")
    player = (make_player(budget) if make_player is not None
              else player_with(game.key, replace(budget)))
    states = [game.new_state(seats, options)]
    for text in notations:
        states.append(game.apply(states[-1], game.parse_move(states[-1], text)))
    movers = [game.to_move(s) for s in states[:-1]]
    names = [game.seat_name(states[0], seat) for seat in range(seats)]
    # Exact values from the end backwards, while the solver reaches.
    exact: dict[int, Exact] = {}
    solver = _exact_solver(game.key)
    if solver is not None:
        for i in range(len(states) - 2, -1, -1):
            solved = solver(states[i])
            if solved is None:
                break
            exact[i] = solved
    # Win chance of the side to move at each position, and the preferred move.
    win: list[float] = []
    margin: list[float | None] = []
    best: list[str] = []
    end = game.outcome(states[-1])
    # A game ended by resignation or time: its last position is judged too.
    judged = states if end is None else states[:-1]
    movers.append(game.to_move(states[-1]))
    for i, state in enumerate(judged):
        if i in exact:
            e = exact[i]
            win.append((_result(e.margin, seat_of(movers[i]), state) + 1) / 2)
            margin.append(float(e.margin))
            best.append(e.best[0] if e.best else "")
        else:
            d: Decision = player.decide(state, seed + i)
            win.append(d.win)
            margin.append(d.margin)
            best.append(d.move)
    plies: list[Ply] = []
    first_win: list[float] = []
    for i, text in enumerate(notations):
        seat = movers[i]
        assert seat is not None
        first_win.append(win[i] if seat == 0 else 1.0 - win[i])
        # A searched (not solved) value leans towards the side to move; it is
        # compared with the same player's next turn, where it leans alike.
        ahead = 1 if i + 1 in exact or i + 2 >= len(win) else 2
        j = i + ahead
        if j < len(win) and movers[j] is not None:
            after = win[j] if movers[j] == seat else 1.0 - win[j]
            after_margin = margin[j]
            if after_margin is not None and movers[j] != seat:
                after_margin = -after_margin
        else:
            after, after_margin = _final(end, seat)
        before_margin = margin[i]
        loss = (None if before_margin is None or after_margin is None
                else max(0.0, before_margin - after_margin))
        if text == best[i] or (i in exact and text in exact[i].best):
            after, loss = max(after, win[i]), 0.0 if loss is not None else None
        ply = Ply(i + 1, seat, text, win[i], after, best[i], loss)
        ply.label = label_of(ply.drop)
        plies.append(ply)
    final_first, _ = _final(end, 0)
    first_win.append(final_first if end is not None else (
        win[-1] if movers[-1] == 0 else 1 - win[-1]))
    # The plot: a searched value is the mean of its position's and the next one's, so
    # that the lean towards the side to move cancels out.
    first_win = [v if i in exact or i + 1 >= len(first_win)
                 else (v + first_win[i + 1]) / 2 for i, v in enumerate(first_win)]
    result = Review(game.key, seats, names, plies, first_win,
                    accuracies(plies, first_win, seats), unit=_unit(game.key))
    if exact:
        start = min(exact)
        result.exact_from = start
        mover = movers[start]
        result.exact_margin = exact[start].margin if mover == 0 else -exact[start].margin
        result.exact_result = _result(result.exact_margin, 0, states[start])
        for i in range(start, len(notations)):
            if i in exact and notations[i] not in exact[i].best:
                mover = seat_of(movers[i])
                before = _result(exact[i].margin, mover, states[i])
                if i + 1 in exact:
                    value = exact[i + 1].margin
                    after_value = -value if movers[i + 1] != mover else value
                    after = _result(after_value, mover, states[i])
                else:
                    after = _sign(2 * _final(end, mover)[0] - 1)
                if after < before:
                    result.decisive.append(i + 1)
                    result.turned[i + 1] = (before, after)
    return result


def _result(margin: float, seat: int, state: Any) -> int:
    """A seat's exact result from its final margin: 1 a win, -1 a loss, 0 a draw; a
    tie on points goes by the game's tie rule where it names the loser."""
    if margin or getattr(state, "tie", "") != "first-player-loses":
        return _sign(margin)
    return 1 if seat == 1 else -1


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _final(end: Any, seat: int) -> tuple[float, float | None]:
    """The mover's win chance and margin once the game is over."""
    if end is None:
        return 0.5, None
    won = 0.5 if end.winner is None else 1.0 if end.winner == seat else 0.0
    margin = None
    if end.scores is not None and len(end.scores) == 2:
        margin = float(end.scores[seat] - end.scores[1 - seat])
    return won, margin


def _unit(game_key: str) -> str:
    return {"cairo": "points", "quoridor": "tempi"}.get(game_key, "")


def seat_of(mover: int | None) -> int:
    assert mover is not None
    return mover
