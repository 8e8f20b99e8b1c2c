"""The review of a finished (or running) game, as lichess reviews a chess game.

Every position of the game is judged by the game's computer player (at a review
level, choosing no move but the best): the win chance of each seat after every move.
Then, as lichess does:

- a move that drops its mover's win chance by 5, 10 or 15 points is an inaccuracy, a
  mistake or a blunder (lichess: 0.1, 0.2 and 0.3 of "winning chances" on a scale of
  -1 to 1, which are 5, 10 and 15 points of win chance). The judge's own choice never
  is: a change of its estimate after its best move is its horizon, not an error;
- each move's accuracy is ``103.1668 * exp(-0.04354 * drop) - 3.1669 + 1`` (clamped
  to 0..100), and a player's accuracy is the mean of the volatility-weighted mean and
  the harmonic mean of their moves' accuracies (lila's ``AccuracyPercent``);
- the biggest mistakes come with the better move and what the mistake cost in the
  game's own unit (points in Cairo Corridor, tempi in Quoridor, cells of connection
  distance in Pathwayz).

Where a game has an exact solver (Cairo Corridor), positions it reaches are judged
exactly, and the review says from which move the result was decided and which move
turned it: "from move 38 the result was decided: Red wins by 2 with best play; move
41 (JU) turned a win into a loss".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.ai import LEVELS, Decision, hooks
from engine.game import JSON, EngineError, Game

LABELS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))


def label(drop: float) -> str | None:
    """The lichess label of a drop of win chance, in points (0..100)."""
    for limit, name in LABELS:
        if drop >= limit:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """lichess's accuracy of one move from its mover's win chance (0..100) before and
    after it."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1.0))


def game_accuracy(curve: Sequence[float], moves: Sequence[tuple[float, int]]) -> dict[int, float]:
    """Per seat: the mean of the volatility-weighted mean and the harmonic mean of the
    seat's move accuracies. ``curve`` is the first seat's win chance (0..100) before
    the first move and after each; ``moves`` is (accuracy, seat) per move."""
    count = len(curve) - 1
    size = max(2, min(8, count // 10))
    windows = [list(curve[:size])] * max(0, min(size, len(curve)) - 2)
    windows += [list(curve[i:i + size]) for i in range(len(curve) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) if len(w) > 1 else 0.5
               for w in windows]
    out: dict[int, float] = {}
    for seat in sorted({s for _, s in moves}):
        mine = [(a, weights[i]) for i, (a, s) in enumerate(moves) if s == seat]
        weighted = sum(a * w for a, w in mine) / sum(w for _, w in mine)
        harmonic = len(mine) / sum(1.0 / max(1.0, a) for a, _ in mine)
        out[seat] = (weighted + harmonic) / 2
    return out


class _Judge:
    """The game's player at the review level, and its hooks."""

    def __init__(self, game: Game[Any, Any], level: int) -> None:
        if level not in LEVELS:
            raise EngineError(f"levels are 1 to {max(LEVELS)}, not {level}")
        self.game = game
        self.module = hooks(game.key)
        self.player = self.module.make_player(replace(LEVELS[level], spread=0.0))
        self.unit: str | None = getattr(self.module, "UNIT", None)

    def judge(self, state: Any, seed: int) -> tuple[list[float], float | None, str | None,
                                                     bool]:
        """(win chance per seat, margin for the seat to move, best move, exact)."""
        game = self.game
        seats = game.seats(state)
        outcome = game.outcome(state)
        if outcome is not None:
            if outcome.winner is None:
                return [1.0 / seats] * seats, 0.0, None, True
            return [1.0 if s == outcome.winner else 0.0 for s in range(seats)], None, None, True
        turn = game.to_move(state)
        assert turn is not None
        exact = getattr(self.module, "exact", None)
        solved: JSON | None = exact(state) if exact is not None else None
        if solved is not None:
            decision = Decision(solved["best"][0], solved["win"], float(solved["margin"]),
                                exact=True)
        else:
            decision = self.player.decide(state, seed)
        chances_of = getattr(self.module, "chances", None)
        if chances_of is not None:
            chances = list(chances_of(state, decision))
        else:
            chances = [decision.win if s == turn else 1.0 - decision.win for s in range(seats)]
        return chances, decision.margin, decision.move, decision.exact


def review(game: Game[Any, Any], moves: Sequence[str], seats: int = 2,
           options: Mapping[str, Any] | None = None, level: int = 3, seed: int = 1,
           names: Sequence[str] | None = None) -> JSON:
    """The review of the game made of ``moves`` (canonical or typed texts)."""
    judge = _Judge(game, level)
    state = game.new_state(seats, options)
    states = [state]
    played: list[tuple[str, int]] = []  # (canonical text, mover)
    for number, text in enumerate(moves, start=1):
        try:
            move = game.parse_move(state, text)
        except EngineError as exc:
            raise type(exc)(f"move {number} '{text.strip()}': {exc}") from None
        mover = game.mover(state, move)
        assert mover is not None
        played.append((game.notation(move), mover))
        state = game.apply(state, move)
        states.append(state)
    seat_names = list(names) if names else [game.seat_name(states[0], s) for s in range(seats)]
    judged = [judge.judge(s, seed + i) for i, s in enumerate(states)]
    chances = [j[0] for j in judged]

    rows: list[JSON] = []
    accuracies: list[tuple[float, int]] = []
    for i, (text, mover) in enumerate(played):
        before = 100 * chances[i][mover]
        after = 100 * chances[i + 1][mover]
        forced = game.to_move(states[i]) != mover  # a pass the engine made
        if text == judged[i][2]:
            # The judge's own choice: a change of its estimate is its horizon, not a
            # mistake of the player's.
            after = max(after, before)
        drop = max(0.0, before - after)
        accuracy = move_accuracy(before, after)
        row: JSON = {
            "number": i + 1, "move": text, "seat": mover,
            "before": round(before, 1), "after": round(after, 1), "drop": round(drop, 1),
            "label": None if forced else label(drop), "accuracy": round(accuracy, 1),
            "best": judged[i][2], "loss": _loss(game, states, judged, i, mover),
        }
        rows.append(row)
        if not forced:
            accuracies.append((accuracy, mover))
    curve = [100 * c[0] for c in chances]
    per_seat = game_accuracy(curve, accuracies) if accuracies else {}
    counts = [{name: sum(1 for r in rows if r["seat"] == s and r["label"] == name)
               for _, name in reversed(LABELS)} for s in range(seats)]
    worst = sorted((r for r in rows if r["label"] and r["best"] and r["best"] != r["move"]),
                   key=lambda r: (-r["drop"], r["number"]))[:3]
    mistakes = [{"number": r["number"], "move": r["move"], "seat": r["seat"],
                 "label": r["label"], "drop": r["drop"], "better": r["best"],
                 "loss": r["loss"]} for r in worst]
    verdict = _verdict(game, states, judged, played, seat_names)
    data: JSON = {
        "game": game.key,
        "title": game.title,
        "players": seats,
        "names": seat_names,
        "sides": [game.seat_name(states[0], s) for s in range(seats)],
        "level": level,
        "unit": judge.unit,
        "chances": [[round(c, 4) for c in row] for row in chances],
        "moves": rows,
        "accuracy": [round(per_seat[s], 1) if s in per_seat else None for s in range(seats)],
        "counts": counts,
        "mistakes": mistakes,
        "verdict": verdict,
        "decisive": _decisive(game, states, chances, rows, verdict),
    }
    data["summary"] = summary(data)
    return data


def _mover_margin(game: Game[Any, Any], state: Any, judged: tuple[Any, ...],
                  seat: int) -> float | None:
    """The margin for ``seat`` in a position (from the judge's margin for the seat to
    move, or the final scores)."""
    outcome = game.outcome(state)
    if outcome is not None:
        if outcome.scores is None or len(outcome.scores) != 2:
            return None
        return float(outcome.scores[seat] - outcome.scores[1 - seat])
    margin = judged[1]
    if margin is None or game.seats(state) != 2:
        return None
    return float(margin) if game.to_move(state) == seat else -float(margin)


def _loss(game: Game[Any, Any], states: list[Any], judged: list[Any], i: int,
          mover: int) -> float | None:
    before = _mover_margin(game, states[i], judged[i], mover)
    after = _mover_margin(game, states[i + 1], judged[i + 1], mover)
    if before is None or after is None:
        return None
    return round(max(0.0, before - after), 2)


def _result(chance: float) -> str:
    return "win" if chance > 0.5 else "loss" if chance < 0.5 else "draw"


def _verdict(game: Game[Any, Any], states: list[Any], judged: list[Any],
             played: list[tuple[str, int]], names: list[str]) -> JSON | None:
    """From the first position solved exactly to the end: the result with best play
    and every move that changed it."""
    first = next((i for i, j in enumerate(judged) if j[3] and game.outcome(states[i]) is None),
                 None)
    if first is None or game.seats(states[0]) != 2:
        return None
    if not all(j[3] for j in judged[first:]):
        return None
    chances = judged[first][0]
    margin = _mover_margin(game, states[first], judged[first], 0)
    winner = 0 if chances[0] > 0.5 else 1 if chances[0] < 0.5 else None
    if winner is None:
        result = "a draw with best play"
    else:
        by = f" by {abs(round(margin))}" if margin is not None and round(margin) else ""
        result = f"{names[winner]} wins{by} with best play"
    turns = []
    for i in range(first, len(played)):
        text, mover = played[i]
        was = _result(judged[i][0][mover])
        now = _result(judged[i + 1][0][mover])
        if was != now:
            turns.append({"number": i + 1, "move": text, "seat": mover, "from": was,
                          "to": now})
    sentence = f"from move {first + 1} the result was decided: {result}"
    for t in turns:
        sentence += f"; move {t['number']} ({t['move']}) turned a {t['from']} into a {t['to']}"
    return {"from_move": first + 1, "winner": winner, "margin": margin, "turns": turns,
            "text": sentence}


def _decisive(game: Game[Any, Any], states: list[Any], chances: list[list[float]],
              rows: list[JSON], verdict: JSON | None) -> JSON | None:
    """The move that decided the game: the last one that turned the result when the
    solver saw it, else the last move after which the eventual winner's chance stayed
    above one half, played by a loser."""
    if verdict is not None and verdict["turns"]:
        last = verdict["turns"][-1]
        return {"number": last["number"], "move": last["move"], "seat": last["seat"]}
    outcome = game.outcome(states[-1])
    if outcome is None or outcome.winner is None:
        return None
    winner = outcome.winner
    seats = len(chances[0])
    even = 1.0 / seats
    for i in range(len(rows) - 1, -1, -1):
        if chances[i][winner] <= even:
            row = rows[i]
            if row["seat"] == winner:
                return None  # the winner took it by its own good move
            return {"number": row["number"], "move": row["move"], "seat": row["seat"]}
    return None


def summary(data: JSON) -> list[str]:
    """Sentences for people: accuracy and labels per player, the biggest mistakes, the
    exact verdict."""
    names = data["names"]
    unit = data["unit"]
    lines = []
    for seat, name in enumerate(names):
        accuracy = data["accuracy"][seat]
        counts = data["counts"][seat]
        parts = [f"{n} {k}{'s' if n != 1 else ''}" for k, n in
                 (("blunder", counts["blunder"]), ("mistake", counts["mistake"]),
                  ("inaccuracy", counts["inaccuracy"])) if n]
        parts = [p.replace("inaccuracys", "inaccuracies") for p in parts]
        shown = "-" if accuracy is None else f"{accuracy:.0f}%"
        lines.append(f"{name}: accuracy {shown}" + (f" · {', '.join(parts)}" if parts else ""))
    for m in data["mistakes"]:
        cost = ""
        if unit and m["loss"]:
            plural = "" if m["loss"] == 1 else ("s" if unit != "tempo" else "")
            shown_unit = "tempi" if unit == "tempo" and m["loss"] != 1 else unit + plural
            cost = f", {m['loss']:g} {shown_unit}"
        lines.append(f"{m['number']}. {m['move']} ({names[m['seat']]}): {m['label']}, "
                     f"-{m['drop']:.0f} points of win chance{cost}; better {m['better']}")
    if data["verdict"] is not None:
        text = data["verdict"]["text"]
        lines.append(text[0].upper() + text[1:])
    return lines
