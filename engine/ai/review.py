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
changed the exact result is named: "from move 38 the result was decided: Red wins by
2 with best play; move 41 (JU) turned a win into a loss" (``Review.verdict``).
Elsewhere the decisive move of a finished game is the loser's last move after which
the winner stayed ahead (``Review.decided_by``).

A game of more than two players (Quoridor with four) is reviewed per seat: the
judge gives the win chance of the side to move only, so a move is judged by its
player's win chance before it against that player's at their next turn, each seat's
curve (``Review.wins``) holds the value from its last turn, and ``"out N"`` among the
moves takes seat N (1-based) out of the game, as a resignation or a flag does.

A mistake's loss is given in the game's own unit, the ``UNIT`` of its computer player
(points in Cairo Corridor, tempi in Quoridor, cells of connection distance in
Pathwayz). A move the engine made for a seat (Sigma Escape's passes) is shown but
neither labelled nor counted in the accuracy. ``Review.summary`` says it all in
sentences and ``Review.to_json`` gives it as data (``python -m engine review``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engine.ai.player import Budget, Decision, Exact
from engine.game import JSON, EngineError, Game

#: drops of win chance, in points, that make an inaccuracy, a mistake, a blunder
THRESHOLDS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
#: the review's search per position: cheaper than a level, as it runs for every ply
REVIEW_BUDGET = Budget(iterations=80, seconds=1.0, exact=0, spread=0.0, level=0,
                       traps=False)
EXACT_NODES = 60_000  # the exact solver's budget per position
#: a labelled move is judged again by a search at least as deep as a level-3 computer's
#: (whose own moves a review must not call mistakes on a shallower look): the played
#: move and the preferred one, each searched after it is made, alike
CHECK_BUDGET = Budget(iterations=600, seconds=4.0, exact=10, spread=0.0, level=3,
                      traps=False)
CHECKED = 6  # the biggest labelled moves judged again (the rest keep the first look)


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
    forced: bool = False  # the engine made it for the seat (a pass): not judged

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
    unit: str = ""  # the unit of ``Ply.loss``, plural ("points"), or ""
    winner: int | None = None  # the seat that won the game (None: drawn or not over)
    wins: list[list[float]] = field(default_factory=list)  # each seat's win chance

    def worst(self, count: int = 3) -> list[Ply]:
        """The biggest mistakes, worst first: labelled moves by their drop."""
        labelled = [p for p in self.plies if p.label]
        return sorted(labelled, key=lambda p: (-p.drop, p.number))[:count]

    def counts(self) -> list[dict[str, int]]:
        """Each seat's inaccuracies, mistakes and blunders."""
        result = [{name: 0 for _, name in reversed(THRESHOLDS)} for _ in range(self.seats)]
        for ply in self.plies:
            if ply.label:
                result[ply.seat][ply.label] += 1
        return result

    def decided_by(self) -> int | None:
        """The number of the move that decided the game: the last that turned the exact
        result, else the loser's last move after which the winner stayed ahead (None
        when the winner got ahead by a move of its own, or nobody won)."""
        if self.decisive:
            return self.decisive[-1]
        if self.winner is None:
            return None
        curve = self.curve(self.winner)
        for ply in reversed(self.plies):
            if curve[ply.number - 1] <= 0.5:
                return None if ply.seat == self.winner else ply.number
        return None

    def curve(self, seat: int) -> list[float]:
        """A seat's win chance at every position, start to end."""
        if self.wins:
            return self.wins[seat]
        return self.first_win if seat == 0 else [1.0 - w for w in self.first_win]

    def verdict(self, names: Sequence[str] | None = None) -> str | None:
        """The exact verdict, where the solver reached: "from move 38 the result was
        decided: Red wins by 2 with best play; move 41 (JU) turned a win into a loss"."""
        if self.exact_from is None or self.exact_margin is None:
            return None
        names = list(names or self.names)
        if self.exact_result == 0:
            result = "a draw with best play"
        else:
            winner = names[0 if self.exact_result > 0 else 1]
            by = f"by {abs(self.exact_margin)}" if self.exact_margin else "on the tie rule"
            result = f"{winner} wins {by} with best play"
        text = f"from move {self.exact_from + 1} the result was decided: {result}"
        if self.decisive:  # the first throw said once, then how often it changed hands
            number = self.decisive[0]
            before, after = self.turned[number]
            text += (f"; move {number} ({self.plies[number - 1].move}) turned "
                     f"{RESULTS[before]} into {RESULTS[after]}")
        if len(self.decisive) > 1:
            last = self.decisive[-1]
            more = len(self.decisive) - 1
            text += (f"; the result then changed hands {more} more "
                     f"time{'s' if more > 1 else ''}, for the last time with move {last} "
                     f"({self.plies[last - 1].move})")
        return text

    def summary(self, names: Sequence[str] | None = None, count: int = 3) -> list[str]:
        """Sentences for people: accuracy and labels per player, the biggest mistakes
        with the better move and the loss in the game's unit, the exact verdict."""
        names = list(names or self.names)
        lines = []
        for seat, tally in enumerate(self.counts()):
            parts = [f"{n} {_plural(name, n)}" for name, n in reversed(tally.items()) if n]
            lines.append(f"{names[seat]}: accuracy {self.accuracy[seat]:.0f}%"
                         + (f" · {', '.join(parts)}" if parts else ""))
        for ply in self.worst(count):
            cost = ""
            if ply.loss is not None and self.unit and ply.loss >= 0.05:
                unit = _SINGULAR.get(self.unit, self.unit) if ply.loss == 1 else self.unit
                cost = f", {ply.loss:.1f} {unit}".replace(".0 ", " ")
            lines.append(f"{ply.number}. {ply.move} ({names[ply.seat]}): {ply.label}, "
                         f"-{ply.drop:.0f} points of win chance{cost}; better {ply.best}")
        verdict = self.verdict(names)
        if verdict is not None:
            lines.append(verdict[0].upper() + verdict[1:])
        return lines

    def to_data(self) -> JSON:
        """The review as it is stored (``from_data`` reads it back unchanged): its
        fields, the win chance at every position and every move's judgement included."""
        data: JSON = asdict(self)
        data["turned"] = {str(k): list(v) for k, v in self.turned.items()}
        return data

    @classmethod
    def from_data(cls, data: JSON) -> Review:
        fields = dict(data)
        fields["plies"] = [Ply(**ply) for ply in data["plies"]]
        fields["turned"] = {int(k): (int(v[0]), int(v[1])) for k, v in data["turned"].items()}
        return cls(**fields)

    def to_json(self, names: Sequence[str] | None = None) -> JSON:
        """The review as data: its fields, each move's drop, the labels counted, the
        biggest mistakes, the decisive move, the verdict and the summary."""
        data: JSON = _rounded(asdict(self))
        for row, ply in zip(data["plies"], self.plies, strict=True):
            row["drop"] = round(ply.drop, 1)
        data["turned"] = {str(k): list(v) for k, v in self.turned.items()}
        data["counts"] = self.counts()
        data["mistakes"] = [{"number": p.number, "move": p.move, "seat": p.seat,
                             "label": p.label, "drop": round(p.drop, 1), "better": p.best,
                             "loss": None if p.loss is None else round(p.loss, 2)}
                            for p in self.worst()]
        data["decided_by"] = self.decided_by()
        data["verdict"] = self.verdict(names)
        data["summary"] = self.summary(names)
        return data


RESULTS = {1: "a win", 0: "a draw", -1: "a loss"}
_SINGULAR = {"points": "point", "tempi": "tempo", "cells": "cell"}
_PLURAL = {"point": "points", "tempo": "tempi", "cell": "cells", "inaccuracy": "inaccuracies"}


def _plural(word: str, count: int) -> str:
    return word if count == 1 else _PLURAL.get(word, word + "s")


def _rounded(value: Any) -> Any:
    """Floats to four places, through lists and dicts (for JSON people read)."""
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


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


def _weights(curve: Sequence[float], plies: int) -> list[float]:
    """lichess's volatility weights: the spread of the win chance in sliding windows."""
    wins = [100.0 * w for w in curve]
    size = min(8, max(2, plies // 10))
    windows = [wins[: size]] * max(0, min(size, len(wins)) - 2)
    windows += [wins[i: i + size] for i in range(0, max(1, len(wins) - size + 1))]
    return [min(12.0, max(0.5, _stdev(w))) for w in windows]


def accuracies(plies: Sequence[Ply], first_win: Sequence[float], seats: int,
               curves: Sequence[Sequence[float]] | None = None) -> list[float]:
    """lichess's game accuracy per seat: mean of the volatility-weighted mean and the
    harmonic mean of the seat's move accuracies (100 for a seat without moves). With
    more than two seats each weighs its moves by its own curve (``curves``)."""
    shared = _weights(first_win, len(plies))
    result = []
    for seat in range(seats):
        weights = _weights(curves[seat], len(plies)) if curves else shared
        mine = [(move_accuracy(p.drop), weights[min(i, len(weights) - 1)])
                for i, p in enumerate(plies) if p.seat == seat and not p.forced]
        if not mine:
            result.append(100.0)
            continue
        weighted = sum(a * w for a, w in mine) / sum(w for _, w in mine)
        harmonic = len(mine) / sum(1.0 / max(a, 1e-3) for a, _ in mine)
        result.append((weighted + harmonic) / 2.0)
    return result


def _exact_solver(game_key: str) -> Callable[[Any], Exact | None] | None:
    """The exact solver of a game with a node budget, where there is one."""
    from engine.registry import get_ai

    exact = get_ai(game_key).exact
    return None if exact is None else exact(EXACT_NODES)


def review(game: Game[Any, Any], notations: Sequence[str], seats: int = 2,
           options: dict[str, Any] | None = None, seed: int = 0,
           budget: Budget = REVIEW_BUDGET,
           make_player: Callable[[Budget], Any] | None = None,
           check: Budget | None = CHECK_BUDGET) -> Review:
    """Review a game given by its moves (as typed or canonical; ``out N`` takes seat
    N out of a game of more than two). ``check``: the deeper search that judges the
    biggest labelled moves of a two-seat game again (None: none)."""
    from engine.ai import player_with

    game.check_seats(seats)
    player = (make_player(budget) if make_player is not None
              else player_with(game.key, replace(budget)))
    states = [game.new_state(seats, options)]
    played: list[str] = []  # canonical notations
    movers: list[int] = []  # the seat of each move (not the seat to move, for a pass)
    for number, text in enumerate(notations, start=1):
        leaving = _leaving(text, seats)
        if leaving is not None:
            if game.outcome(states[-1]) is not None:
                raise EngineError(f"move {number} '{text.strip()}': the game is over")
            states[-1] = game.eliminate(states[-1], leaving)
            continue
        try:
            move = game.parse_move(states[-1], text)
        except EngineError as exc:
            raise type(exc)(f"move {number} '{text.strip()}': {exc}") from None
        movers.append(seat_of(game.mover(states[-1], move)))
        played.append(game.notation(move))
        states.append(game.apply(states[-1], move))
    turns = [game.to_move(s) for s in states]  # the seat to move; None at the end
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
    for i, state in enumerate(judged):
        if i in exact:
            e = exact[i]
            win.append((_result(e.margin, seat_of(turns[i]), state) + 1) / 2)
            margin.append(float(e.margin))
            best.append(e.best[0] if e.best else "")
        else:
            d: Decision = player.decide(state, seed + i)
            win.append(d.win)
            margin.append(d.margin)
            best.append(d.move)
    plies: list[Ply] = []
    first_win: list[float] = []
    for i, text in enumerate(played):
        seat = movers[i]
        forced = turns[i] != seat  # a pass the engine made for the seat
        first_win.append(win[i] if turns[i] == 0 else 1.0 - win[i])
        before = win[i] if turns[i] == seat else 1.0 - win[i]
        before_margin = margin[i]
        if before_margin is not None and turns[i] != seat:
            before_margin = -before_margin
        # A searched (not solved) value leans towards the side to move; it is
        # compared with the same player's next turn, where it leans alike.
        ahead = 1 if i + 1 in exact or i + 2 >= len(win) else 2
        j = i + ahead if seats == 2 else _next_turn(turns, seat, i, len(win))
        if j < len(win) and turns[j] is not None:
            after = win[j] if turns[j] == seat else 1.0 - win[j]
            after_margin = margin[j]
            if after_margin is not None and turns[j] != seat:
                after_margin = -after_margin
        elif seats > 2 and end is None:
            after, after_margin = before, before_margin  # its last turn: not judged
        else:
            after, after_margin = _final(end, seat)
        loss = (None if before_margin is None or after_margin is None
                else max(0.0, before_margin - after_margin))
        if text == best[i] or (i in exact and text in exact[i].best):
            after, loss = max(after, before), 0.0 if loss is not None else None
        ply = Ply(i + 1, seat, text, before, after, best[i], loss, forced=forced)
        ply.label = "" if forced else label_of(ply.drop)
        plies.append(ply)
    if check is not None and seats == 2:
        judge = (make_player(check) if make_player is not None
                 else player_with(game.key, replace(check)))
        for ply in sorted((p for p in plies if p.label and p.number - 1 not in exact),
                          key=lambda p: -p.drop)[:CHECKED]:
            _judge_again(game, states[ply.number - 1], ply, judge, seed + ply.number)
    final_first, _ = _final(end, 0)
    first_win.append(final_first if end is not None else (
        win[-1] if turns[-1] == 0 else 1 - win[-1]))
    # The plot: a searched value is the mean of its position's and the next one's, so
    # that the lean towards the side to move cancels out. With more than two seats,
    # each seat's own values (all from its own turns) make its curve.
    first_win = [v if i in exact or i + 1 >= len(first_win)
                 else (v + first_win[i + 1]) / 2 for i, v in enumerate(first_win)]
    curves: list[list[float]] = []
    if seats > 2:
        curves = _curves(win, turns, seats, len(played), end)
        first_win = curves[0]
    many = seats > 2
    result = Review(game.key, seats, names, plies, first_win,
                    accuracies(plies, first_win, seats, curves if many else None),
                    unit=_unit(game.key), winner=None if end is None else end.winner,
                    wins=curves if many else [])
    if exact:
        start = min(exact)
        result.exact_from = start
        mover = turns[start]
        result.exact_margin = exact[start].margin if mover == 0 else -exact[start].margin
        result.exact_result = _result(result.exact_margin, 0, states[start])
        for i in range(start, len(played)):
            if i in exact and played[i] not in exact[i].best:
                mover = seat_of(turns[i])
                before = _result(exact[i].margin, mover, states[i])
                if i + 1 in exact:
                    value = exact[i + 1].margin
                    after_value = -value if turns[i + 1] != mover else value
                    after = _result(after_value, mover, states[i])
                else:
                    after = _sign(2 * _final(end, mover)[0] - 1)
                if after < before:
                    result.decisive.append(i + 1)
                    result.turned[i + 1] = (before, after)
    return result


def _judge_again(game: Game[Any, Any], state: Any, ply: Ply, judge: Any, seed: int) -> None:
    """A labelled move judged again by the deeper ``judge``: the mover's win chance
    after the played move against after the preferred one, both searched alike (the
    opponent to move); the drop, the loss and the label become the deeper look's, so a
    move is called a mistake only where a search as deep as a level-3 player's agrees."""
    played = _after(game, game.apply(state, game.parse_move(state, ply.move)), ply.seat,
                    judge, seed)
    better = _after(game, game.apply(state, game.parse_move(state, ply.best)), ply.seat,
                    judge, seed)
    drop = max(0.0, better[0] - played[0])
    ply.after = max(0.0, ply.before - drop)
    if better[1] is not None and played[1] is not None:
        ply.loss = max(0.0, better[1] - played[1])
    ply.label = label_of(ply.drop)


def _after(game: Game[Any, Any], state: Any, seat: int, judge: Any, seed: int
           ) -> tuple[float, float | None]:
    """``seat``'s win chance and margin in ``state``, by ``judge`` (or the result)."""
    end = game.outcome(state)
    if end is not None:
        return _final(end, seat)
    d: Decision = judge.decide(state, seed)
    if game.to_move(state) == seat:
        return d.win, d.margin
    return 1.0 - d.win, None if d.margin is None else -d.margin


def _leaving(text: str, seats: int) -> int | None:
    """The seat (0-based) an ``out N`` entry takes out, or None for a move."""
    words = text.strip().lower().replace(":", " ").split()
    if len(words) != 2 or words[0] != "out":
        return None
    if seats < 3 or not words[1].isdigit() or not 1 <= int(words[1]) <= seats:
        raise EngineError(f"'{text.strip()}': a seat leaves a game of three or more "
                          f"players (out 1 to out {seats})")
    return int(words[1]) - 1


def _next_turn(turns: Sequence[int | None], seat: int, i: int, size: int) -> int:
    """The next position after ``i`` where ``seat`` is to move (``size``: none)."""
    return next((j for j in range(i + 1, size) if turns[j] == seat), size)


def _curves(win: Sequence[float], turns: Sequence[int | None], seats: int, moves: int,
            end: Any) -> list[list[float]]:
    """Each seat's win chance at every position of a game of more than two: the
    judge's value at the seat's last turn (an even share before its first), the
    result at the end."""
    current = [1.0 / seats] * seats
    curves: list[list[float]] = [[] for _ in range(seats)]
    for i in range(moves + 1):
        if i < len(win) and turns[i] is not None:
            current[seat_of(turns[i])] = win[i]
        if i == moves and end is not None:
            current = [_final(end, seat)[0] for seat in range(seats)]
        for seat in range(seats):
            curves[seat].append(current[seat])
    return curves


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
    """The plural of the game player's ``UNIT`` ("points", "tempi"), or ""."""
    from engine.registry import get_ai

    unit = get_ai(game_key).unit
    return _plural(unit, 2) if unit else ""


def seat_of(mover: int | None) -> int:
    if mover is None:
        raise EngineError("the game is over")
    return mover
