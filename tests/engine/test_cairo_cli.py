"""The engine command line for Cairo Corridor: exact outputs, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.engine.cairo_positions import BLACK_WINS, TIE_MOVES


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["analyze", "cairo", "--position", "first: AU BL; second: XD", "--json"], capsys
    )
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["corridor", "critical", "legal", "over", "score"]
    assert data["over"] is False and data["score"] == [2, 1] and data["critical"] == []
    assert len(data["corridor"]) == 69 and data["legal"] == data["corridor"]
    assert "AU" not in data["legal"] and data["legal"] == sorted(data["legal"])


def test_analyze_a_finished_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["analyze", "cairo", "--position", BLACK_WINS, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["over"] is True and data["legal"] == [] and data["score"] == [14, 12]


def test_replay(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["replay", "cairo", "--moves", "D left, JU, w-up", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["moves", "over", "winner", "draw", "score", "to_move", "legal"]
    assert data["moves"] == 3 and data["over"] is False
    assert data["winner"] is None and data["draw"] is False
    assert data["to_move"] == 1
    assert data["score"] == [2, 1]
    assert len(data["legal"]) == 69 and "DL" not in data["legal"]


@pytest.mark.parametrize(
    ("rule", "winner", "draw"),
    [(None, 1, False), ("first-player-loses", 1, False), ("last-mover-loses", 0, False),
     ("draw", None, True)],
)
def test_replay_to_the_end_with_each_tie_rule(
    capsys: pytest.CaptureFixture[str], rule: str | None, winner: int | None, draw: bool
) -> None:
    args = ["replay", "cairo", "--moves", ", ".join(TIE_MOVES), "--json"]
    if rule:
        args += ["--tie", rule]
    code, out, err = run(args, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["moves"] == 54 and data["over"] is True
    assert (data["winner"], data["draw"]) == (winner, draw)
    assert data["score"] == [13, 13] and data["to_move"] is None and data["legal"] == []


def test_render(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "board.png"
    code, out, _ = run(
        ["render", "cairo", "--moves", "D left, JU", "--out", str(out_file), "--hints"], capsys
    )
    assert code == 0 and out.strip() == str(out_file)
    assert out_file.read_bytes()[:4] == b"\x89PNG"
    other = tmp_path / "position.png"
    code, _, _ = run(["render", "cairo", "--position", "first: DL; second: JU", "--out",
                      str(other)], capsys)
    assert code == 0 and other.read_bytes()[:4] == b"\x89PNG"


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "cairo", "--seconds", "0.02", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    for key in ("analyse_median_us", "analyze_median_us", "random_games_per_second",
                "render_median_ms"):
        assert data[key] > 0


def test_the_analysis_against_the_naive_reference() -> None:
    """``bench cairo --reference``: the same answers, and the C analysis (where built)
    faster than the Python one, both faster than the reference."""
    from engine.cairo import rules
    from engine.cairo.analysisbench import reference_bench

    data = reference_bench(positions=12, rounds=2)
    assert data["positions"] == 12 and data["identical"] is True
    assert data["speedup"] > 1 and data["python_speedup"] > 1
    if rules.NATIVE:
        assert data["core_us"] < data["python_core_us"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["analyze", "cairo", "--position", "first: AU QQ"], "'QQ' is not a cell"),
        (["analyze", "cairo", "--position", "first: AU; second: AU"], "AU is listed"),
        (["analyze", "cairo", "--position", "first AU"], "'first AU' is not a clause"),
        (["replay", "cairo", "--moves", "DL, DL"], "move 2 'DL': DL is already taken"),
        (["replay", "cairo", "--moves", "DL, A left"], "move 2 'A left': A has no left"),
        (["replay", "cairo", "--moves", "DL, hello"], "move 2 'hello'"),
        (["replay", "cairo", "--moves", "DL", "--tie", "coin"], "'coin'"),
        (["render", "cairo", "--position", "second: XD", "--out", "/tmp/x.png"],
         "first has 0 pieces and second 1"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert needle in err


def test_move_that_closes_every_corridor(capsys: pytest.CaptureFixture[str]) -> None:
    # the top side but CU filled, then CD would cut CU off
    moves = "AU, AR, BU, BL, BR, CL, CR, DL, CD"
    code, _, err = run(["replay", "cairo", "--moves", moves], capsys)
    assert code == 2
    assert err == "error: move 9 'CD': CD would leave no Corridor\n"
