"""Reviews (lichess labels and accuracy, the biggest mistakes, the exact verdict), their
plot, and the ladder's ratings."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from engine.ai import player_for
from engine.ai.ladder import bradley_terry, ladder, pairings
from engine.ai.plot import plot
from engine.ai.review import Ply, Review, accuracies, label_of, move_accuracy, review
from engine.cairo import CairoCorridor
from engine.cairo.solver import playable, solve
from engine.cli import main
from engine.game import EngineError
from engine.registry import get_game

CAIRO = CairoCorridor()
PLOT_SIZE = (720, 300)


def test_labels_are_lichess_thresholds() -> None:
    assert label_of(0.0) == label_of(4.9) == ""
    assert label_of(5.0) == label_of(9.9) == "inaccuracy"
    assert label_of(10.0) == label_of(14.9) == "mistake"
    assert label_of(15.0) == label_of(60.0) == "blunder"


def test_move_accuracy_is_lichess_formula() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(10.0) == pytest.approx(103.1668 * 2.71828 ** (-0.4354) - 2.1669,
                                                abs=0.01)
    assert move_accuracy(100.0) == 0.0
    drops = [move_accuracy(d) for d in range(0, 60, 5)]
    assert drops == sorted(drops, reverse=True)


def _ply(number: int, seat: int, before: float, after: float) -> Ply:
    return Ply(number, seat, "x", before, after, "x", None)


def test_game_accuracy_weighs_and_averages() -> None:
    # Two seats, four moves each; seat 1 blunders once (a drop of 30 points).
    plies = [_ply(1, 0, .5, .5), _ply(2, 1, .5, .5), _ply(3, 0, .5, .5),
             _ply(4, 1, .5, .2), _ply(5, 0, .8, .8), _ply(6, 1, .2, .2),
             _ply(7, 0, .8, .8), _ply(8, 1, .2, .2)]
    first_win = [.5, .5, .5, .5, .8, .8, .8, .8, .8]
    result = accuracies(plies, first_win, 2)
    assert result[0] == pytest.approx(100.0)
    assert 0 < result[1] < 90
    # A pass the engine made for a seat is not counted.
    plies[3].forced = True
    assert accuracies(plies, first_win, 2)[1] == pytest.approx(100.0)


def test_the_decisive_move_without_a_solver() -> None:
    plies = [_ply(1, 0, .5, .5), _ply(2, 1, .5, .5), _ply(3, 0, .5, .1), _ply(4, 1, .9, .9)]
    data = Review("quoridor", 2, ["White", "Black"], plies, [.5, .5, .5, .1, .1],
                  [90.0, 80.0], winner=1)
    assert data.decided_by() == 3  # White's move 3 let Black ahead for good
    assert data.verdict() is None
    data.winner = None
    assert data.decided_by() is None  # a draw, or not over
    plies = [_ply(1, 0, .5, .6), _ply(2, 1, .4, .6), _ply(3, 0, .4, .9)]
    data = Review("quoridor", 2, ["White", "Black"], plies, [.5, .6, .4, .9], [90.0, 80.0],
                  winner=0)
    assert data.decided_by() is None  # White got ahead by its own move


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
    data = review(CAIRO, moves)
    assert data.unit == "points" and len(data.first_win) == len(moves) + 1
    ply = data.plies[number - 1]
    assert ply.label == "blunder" and ply.drop >= 50
    assert ply.best != ply.move and ply.loss is not None and ply.loss > 0
    assert data.worst()[0].number == number
    assert data.exact_from is not None and data.exact_from < number
    assert number in data.decisive and data.turned[number] == (1, -1)
    assert data.decided_by() == number
    verdict = data.verdict()
    assert verdict is not None
    assert verdict.startswith(f"from move {data.exact_from + 1} the result was decided: ")
    assert "with best play" in verdict
    assert f"; move {number} ({ply.move}) turned a win into a loss" in verdict
    assert data.counts()[ply.seat]["blunder"] >= 1
    assert data.accuracy[ply.seat] < 100
    lines = data.summary()
    assert any(line.startswith(f"{number}. {ply.move} ") and "blunder" in line
               for line in lines)
    assert lines[-1].startswith("From move ") and "turned a win into a loss" in lines[-1]


@pytest.mark.parametrize(("key", "moves", "unit"), [
    ("quoridor", "e2, e8, e3, e7, e4, e6, e3h, d6, e5h", "tempi"),
    ("pathwayz", "a1, l8, b2, k7, c3*, j6", "cells"),
    ("sigma", "T4 3.3, I3 1.1, I2 1.1", ""),
])
def test_every_game_is_reviewed(key: str, moves: str, unit: str) -> None:
    game = get_game(key)
    data = review(game, [m.strip() for m in moves.split(",")])
    assert len(data.plies) == len(moves.split(",")) and data.unit == unit
    for ply in data.plies:
        assert 0 <= ply.before <= 1 and 0 <= ply.after <= 1
        assert ply.label in ("", "inaccuracy", "mistake", "blunder")
    assert all(0 <= a <= 100 for a in data.accuracy)
    assert all(0 <= w <= 1 for w in data.first_win)
    image = Image.open(io.BytesIO(plot(data)))
    assert image.size == PLOT_SIZE
    # As stored (JSON in the database), and read back unchanged.
    assert Review.from_data(json.loads(json.dumps(data.to_data()))) == data


def test_the_plot_draws_each_player_in_their_colour_with_a_legend_and_a_move_axis() -> None:
    """Issue 28, item 5: White was drawn as the dark area, Black in red, with no legend,
    no move axis and no names."""
    from engine.ai import plot as plotting

    data = Review("pathwayz", 2, ["White", "Black"], [], [0.5] * 21, [100.0, 100.0])
    image = Image.open(io.BytesIO(plot(data, ["Alice", "Bob"]))).convert("RGB")
    left, top = plotting.LEFT, plotting.TOP
    right, bottom = PLOT_SIZE[0] - plotting.RIGHT, PLOT_SIZE[1] - plotting.BOTTOM
    white, black = plotting.NAMED_COLOURS["white"], plotting.NAMED_COLOURS["black"]
    assert image.getpixel((left + 30, bottom - 10)) == white  # White's chance: below
    assert image.getpixel((left + 30, top + 30)) == black  # Black's: above
    # The legend: a swatch of each colour before the players' names, above the frame.
    legend = [image.getpixel((x, 12)) for x in range(0, PLOT_SIZE[0])]
    assert white in legend and black in legend
    assert plotting.who(data, ["Alice", "Bob"], 0) == "Alice (White)"
    # The move axis: ticks under the frame at round moves (0, 2, ..., 20).
    ticks = [x for x in range(left - 2, right + 3)
             if image.getpixel((x, bottom + 3)) == plotting.FRAME]
    assert len(ticks) == 11
    # Cairo Corridor's players are Black and Red.
    cairo = Review("cairo", 2, ["Black", "Red"], [], [0.5] * 5, [100.0, 100.0])
    image = Image.open(io.BytesIO(plot(cairo))).convert("RGB")
    assert image.getpixel((left + 30, bottom - 10)) == black
    assert image.getpixel((left + 30, top + 30)) == plotting.NAMED_COLOURS["red"]


def test_a_level_3_computer_s_opening_is_not_called_a_mistake_on_a_shallow_look() -> None:
    """Issue 28, item 5: a level-3 computer's own opening was labelled ("OR??") by the
    review's 80-playout search; a labelled move is judged again at least as deeply as
    that player searched, and the label stands only where that search agrees."""
    player = player_for("cairo", 3)
    state, moves = CAIRO.new_state(), []
    for ply in range(3):
        move = player.decide(state, 1 + ply).move
        moves.append(move)
        state = CAIRO.play(state, move)
    shallow = review(CAIRO, moves, seed=1, check=None)
    assert shallow.plies[0].label  # the first look disagrees with the computer
    checked = review(CAIRO, moves, seed=1)
    assert [p.label for p in checked.plies] == ["", "", ""]
    assert checked.accuracy[0] > shallow.accuracy[0]


def test_reviews_are_of_the_game_s_seat_counts() -> None:
    with pytest.raises(EngineError):
        review(get_game("quoridor"), ["e2", "b5", "e8"], seats=3)
    with pytest.raises(EngineError):
        review(get_game("cairo"), ["DL"], seats=4)


def test_review_command(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    out = f"{tmp_path}/plot.png"
    args = ["review", "quoridor", "--moves", "e2, e8, e3", "--json", "--plot", out,
            "--names", "Ann,Ben"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["game", "seats", "names", "plies", "first_win", "accuracy",
                          "exact_from", "exact_margin", "exact_result", "decisive",
                          "turned", "unit", "winner", "wins", "counts", "mistakes", "decided_by",
                          "verdict", "summary"]
    assert data["game"] == "quoridor" and len(data["plies"]) == 3
    assert list(data["plies"][0]) == ["number", "seat", "move", "before", "after", "best",
                                      "loss", "label", "forced", "drop"]
    assert data["unit"] == "tempi" and data["verdict"] is None
    assert data["summary"][0].startswith("Ann: accuracy ")
    assert data["counts"][0].keys() == {"inaccuracy", "mistake", "blunder"}
    with open(out, "rb") as fh:
        assert Image.open(io.BytesIO(fh.read())).size == PLOT_SIZE
    assert main(["review", "quoridor", "--moves", "e2, e8, e3", "--level", "1"]) == 0
    assert capsys.readouterr().out.startswith("White: accuracy ")
    assert main(["review", "quoridor", "--moves", "e2, e9"]) == 2
    assert "move 2 'e9'" in capsys.readouterr().err


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


def test_a_review_as_stored_reads_back_unchanged() -> None:
    """``to_data`` is what the bot stores (JSON); ``from_data`` gives the same review,
    the exact verdict's turned results (keyed by move, as JSON cannot) included."""
    data = Review("cairo", 2, ["Black", "Red"],
                  [Ply(1, 0, "DL", 0.6, 0.2, "JR", 3.0, label="blunder"),
                   Ply(2, 1, "BL", 0.8, 0.8, "BL", 0.0)], [0.6, 0.2, 0.2], [41.0, 96.0],
                  exact_from=1, exact_margin=-2, exact_result=-1, decisive=[1],
                  turned={1: (1, -1)}, unit="points", winner=1)
    again = Review.from_data(json.loads(json.dumps(data.to_data())))
    assert again == data and again.verdict() == data.verdict()
