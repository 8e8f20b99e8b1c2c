"""The review of a four-player Quoridor game: per seat, with seats leaving."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from engine.ai.player import Budget, Decision
from engine.ai.plot import plot
from engine.ai.review import review
from engine.cli import main
from engine.game import EngineError
from engine.registry import get_game

QUORIDOR = get_game("quoridor")
PLOT_SIZE = (720, 300)
OPENING = ["e2", "b5", "e8", "h5", "e3", "c5", "e7", "g5", "e4"]


class ScriptedJudge:
    """A judge whose win chance for the side to move is scripted by ply (0.25 by
    default), preferring the first legal move: the review's arithmetic, exactly."""

    name = "scripted"

    def __init__(self, values: dict[int, float]) -> None:
        self.values = values

    def decide(self, state: Any, seed: int) -> Decision:
        ply = seed  # the review seeds each position with seed + its index; seed 0 here
        move = QUORIDOR.notation(QUORIDOR.legal_moves(state)[0])
        return Decision(move, self.values.get(ply, 0.25), None)


def scripted(values: dict[int, float], moves: list[str]) -> Any:
    return review(QUORIDOR, moves, 4, seed=0, make_player=lambda b: ScriptedJudge(values))


def test_a_move_is_judged_against_its_player_s_next_turn() -> None:
    # Red (seat 1) moves at plies 1 and 5: 0.30 before its first move, 0.05 at its next
    # turn: a drop of 25 points, a blunder. White (seat 0) goes 0.25 -> 0.40 -> 0.45.
    values = {0: 0.25, 1: 0.30, 4: 0.40, 5: 0.05, 8: 0.45}
    data = scripted(values, OPENING)
    red = data.plies[1]
    assert (red.seat, red.move) == (1, "b5")
    assert red.before == pytest.approx(0.30) and red.after == pytest.approx(0.05)
    assert red.label == "blunder" and red.drop == pytest.approx(25.0)
    assert data.plies[0].label == "" and data.plies[4].label == ""  # White improved
    assert data.counts()[1]["blunder"] == 1 and sum(data.counts()[0].values()) == 0
    assert data.worst()[0].number == 2
    assert data.accuracy[1] < data.accuracy[0] == pytest.approx(100.0, abs=0.5)
    # Each seat's curve: an even share before its first turn, then its last value.
    assert len(data.wins) == 4 and all(len(c) == len(OPENING) + 1 for c in data.wins)
    assert data.wins[1][:2] == [0.25, 0.30] and data.wins[1][5] == pytest.approx(0.05)
    assert data.first_win == data.wins[0]
    assert data.summary()[1].startswith("Red: accuracy ") and "1 blunder" in data.summary()[1]
    assert any(line.startswith("2. b5 (Red): blunder, -25 points") for line in data.summary())


def test_seats_leave_and_the_last_one_wins() -> None:
    moves = ["e2", "b5", "out 3", "h5", "out 2", "e3", "out 4"]
    data = scripted({}, moves)
    assert [p.move for p in data.plies] == ["e2", "b5", "h5", "e3"]
    assert [p.seat for p in data.plies] == [0, 1, 3, 0]
    assert data.winner == 0
    assert [c[-1] for c in data.wins] == [1.0, 0.0, 0.0, 0.0]
    with pytest.raises(EngineError, match="out 1 to out 4"):
        scripted({}, ["e2", "out 5"])
    with pytest.raises(EngineError, match="three or more"):
        review(QUORIDOR, ["e2", "out 2"], 2)


def test_a_real_four_player_review(tmp_path: object) -> None:
    data = review(QUORIDOR, OPENING, 4, budget=Budget(iterations=20, seconds=1.0))
    assert data.seats == 4 and data.unit == "tempi" and len(data.plies) == len(OPENING)
    assert [p.seat for p in data.plies] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    for ply in data.plies:
        assert 0 <= ply.before <= 1 and 0 <= ply.after <= 1 and ply.loss is not None
    assert all(0 <= a <= 100 for a in data.accuracy)
    image = Image.open(io.BytesIO(plot(data, ["Ann", "Ben", "Cy", "Dee"])))
    assert image.size == PLOT_SIZE


def test_review_command_of_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    moves = ", ".join([*OPENING[:5], "out 2", "e7", "g5", "e4"])  # Red leaves
    assert main(["review", "quoridor", "--players", "4", "--moves", moves, "--json",
                 "--names", "Ann,Ben,Cy,Dee"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 4 and len(data["wins"]) == 4 and len(data["plies"]) == 8
    assert [row["seat"] for row in data["plies"]][4:] == [0, 2, 3, 0]
    assert len(data["counts"]) == 4
    assert [line.split(":")[0] for line in data["summary"][:4]] == ["Ann", "Ben", "Cy", "Dee"]
    assert len(data["accuracy"]) == 4
