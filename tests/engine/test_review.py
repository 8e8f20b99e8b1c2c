"""Reviews (lichess labels and accuracy, the biggest mistakes, the exact verdict), their
plot, and the ladder's ratings."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from engine.ai.ladder import bradley_terry, ladder, pairings
from engine.ai.plot import render_review
from engine.ai.review import game_accuracy, label, move_accuracy, review
from engine.cairo import CairoCorridor
from engine.cairo.solver import playable, solve
from engine.cli import main
from engine.registry import get_game

CAIRO = CairoCorridor()


def test_labels_are_lichess_thresholds() -> None:
    assert label(4.9) is None
    assert label(5.0) == "inaccuracy"
    assert label(10.0) == "mistake"
    assert label(15.0) == label(60.0) == "blunder"


def test_move_accuracy_is_lichess_formula() -> None:
    assert move_accuracy(50, 50) == move_accuracy(40, 60) == 100.0
    assert move_accuracy(50, 40) == pytest.approx(103.1668 * 2.71828 ** (-0.4354) - 2.1669,
                                                  abs=0.01)
    assert move_accuracy(100, 0) == 0.0
    drops = [move_accuracy(60, 60 - d) for d in range(0, 60, 5)]
    assert drops == sorted(drops, reverse=True)


def test_game_accuracy_weighs_and_averages() -> None:
    # Two seats, four moves each; seat 1 blunders once.
    curve = [50, 50, 50, 50, 80, 80, 80, 80, 80]
    moves = [(100.0, 0), (100.0, 1), (100.0, 0), (move_accuracy(50, 20), 1),
             (100.0, 0), (100.0, 1), (100.0, 0), (100.0, 1)]
    result = game_accuracy(curve, moves)
    assert result[0] == pytest.approx(100.0)
    assert 0 < result[1] < 90


def blunder_game() -> tuple[list[str], int]:
    """A random Cairo Corridor game up to a position the solver calls won for the side
    to move, then a move that loses it: (moves, number of the losing move)."""
    rng = random.Random(8)
    for _ in range(50):
        state = CAIRO.new_state()
        moves: list[str] = []
        while CAIRO.outcome(state) is None and playable(state) > 9:
            move = rng.choice(CAIRO.legal_moves(state))
            moves.append(CAIRO.notation(move))
            state = CAIRO.apply(state, move)
        if CAIRO.outcome(state) is not None or solve(state).margin <= 0:
            continue
        for move in CAIRO.legal_moves(state):
            after = CAIRO.apply(state, move)
            if CAIRO.outcome(after) is None and solve(after).margin > 0:
                moves.append(CAIRO.notation(move))
                number = len(moves)
                # Both play perfectly from there on.
                state = after
                while CAIRO.outcome(state) is None:
                    best = solve(state).best[0]
                    moves.append(best)
                    state = CAIRO.play(state, best)
                return moves, number
    raise AssertionError("no blunder found")


def test_a_constructed_blunder_is_labelled_and_named() -> None:
    moves, number = blunder_game()
    data = review(CAIRO, moves, level=1)
    assert list(data) == ["game", "title", "players", "names", "sides", "level", "unit",
                          "chances", "moves", "accuracy", "counts", "mistakes", "verdict",
                          "decisive", "summary"]
    assert data["unit"] == "point" and len(data["chances"]) == len(moves) + 1
    assert all(abs(sum(c) - 1.0) < 1e-3 for c in data["chances"])
    row = data["moves"][number - 1]
    assert row["label"] == "blunder" and row["drop"] >= 50
    assert row["best"] != row["move"] and row["loss"] is not None and row["loss"] > 0
    assert data["mistakes"][0]["number"] == number
    verdict = data["verdict"]
    assert verdict is not None and verdict["from_move"] <= number
    assert any(t["number"] == number and t["from"] == "win" for t in verdict["turns"])
    assert f"move {number} ({row['move']}) turned a win into a" in verdict["text"]
    assert data["decisive"]["number"] == number
    assert data["counts"][row["seat"]]["blunder"] >= 1
    assert data["accuracy"][row["seat"]] < 100
    assert any("turned a win" in line for line in data["summary"])


@pytest.mark.parametrize(("key", "moves"), [
    ("quoridor", "e2, e8, e3, e7, e4, e6, e3h, d6, e5h"),
    ("pathwayz", "a1, l8, b2, k7, c3*, j6"),
    ("sigma", "T4 3.3, I3 1.1, I2 1.1"),
])
def test_every_game_is_reviewed(key: str, moves: str) -> None:
    game = get_game(key)
    data = review(game, [m.strip() for m in moves.split(",")], level=1)
    assert len(data["moves"]) == len(moves.split(","))
    for row in data["moves"]:
        assert 0 <= row["before"] <= 100 and 0 <= row["after"] <= 100
        assert row["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert 0 <= row["accuracy"] <= 100
    assert all(a is None or 0 <= a <= 100 for a in data["accuracy"])
    png = render_review(data)
    image = Image.open(io.BytesIO(png))
    assert image.size == (1000, 640)


def test_a_four_player_review_has_four_curves() -> None:
    game = get_game("quoridor")
    data = review(game, ["e2", "b5", "e8", "h5", "e3"], seats=4, level=1)
    assert all(len(c) == 4 and abs(sum(c) - 1) < 1e-3 for c in data["chances"])
    assert Image.open(io.BytesIO(render_review(data))).size == (1000, 640)


def test_review_command(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    out = f"{tmp_path}/plot.png"
    args = ["review", "quoridor", "--moves", "e2, e8, e3", "--level", "1", "--json",
            "--plot", out]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "quoridor" and len(data["moves"]) == 3
    with open(out, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    assert main(["review", "quoridor", "--moves", "e2, e9"]) == 2


def test_bradley_terry_orders_and_anchors() -> None:
    # 0 < 1 < 2, every pairing played; a clean sweep stays finite.
    results = [(0, 1, 2.0, 8.0), (1, 2, 3.0, 7.0), (0, 2, 0.0, 10.0)]
    p = bradley_terry(3, results)
    assert p[0] < p[1] < p[2]
    assert pairings(4, "adjacent") == [(0, 1), (1, 2), (2, 3)]
    assert len(pairings(4, "all")) == 6 and len(pairings(4, "skip")) == 5


def test_ladder_rates_random_at_zero() -> None:
    game = get_game("pathwayz")
    data = ladder(game, ["random", "greedy"], games=2, openings=1, seed=3)
    assert data["ratings"]["random"] == 0
    assert data["ratings"]["greedy"] > 0
    assert data["pairings"][0]["games"] == 2
