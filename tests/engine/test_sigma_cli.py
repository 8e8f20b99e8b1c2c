"""The engine command line for Sigma Escape: replay, render, animate, deck, bench."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.sigma.deck import shipped_deck


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_reports_the_common_keys_and_the_hands(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, out, err = run(["replay", "sigma", "--moves", "t4 3.3, I3 1.1", "--deck",
                          "reconstructed-v1", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["moves", "over", "winner", "draw", "score", "to_move", "legal",
                          "blank_spaces", "hands"]
    assert data["moves"] == 2 and data["over"] is False and data["winner"] is None
    assert data["draw"] is False and data["to_move"] == 0
    assert data["hands"][0] == ["I2", "I2", "I3", "I3", "L3", "L3", "L3+", "Y2", "Hub"]
    assert data["hands"][1] == ["I3", "I3", "L4", "L4", "U5", "U5", "T4", "V5"]
    assert data["legal"] == sorted(data["legal"]) and "L3+ 1.3" in data["legal"]
    assert all(len(m.split()) == 2 and "." in m.split()[1] for m in data["legal"])
    assert isinstance(data["blank_spaces"], int)


def box_file(tmp_path: Path, white: list[str], black: list[str]) -> Path:
    """The box deck of the rule tests as a TOML file."""
    from tests.engine.sigma_cards import DOT, I2, I3, box_deck

    cards = {"I2": I2, "I3": I3, "Dot": DOT}
    deck = box_deck([{**cards[n], "count": white.count(n)} for n in dict.fromkeys(white)],
                    [{**cards[n], "count": black.count(n)} for n in dict.fromkeys(black)])
    path = tmp_path / "box.json"
    path.write_text(json.dumps(deck.to_data()))
    return path


def test_replay_with_a_deck_file_and_passes(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    deck = str(box_file(tmp_path, ["I3"], ["Dot"]))
    for moves in ("pass, Dot 1.1, pass, pass", "Dot 1.1", "pass, dot 1.2"):
        code, out, err = run(["replay", "sigma", "--moves", moves, "--deck", deck, "--json"],
                             capsys)
        assert code == 0, err
        data = json.loads(out)
        assert data["over"] is True and data["winner"] == 0 and data["to_move"] is None
        assert data["legal"] == [] and data["blank_spaces"] == 2
        assert data["hands"] == [["I3"], []]
    code, out, err = run(["replay", "sigma", "--moves", "pass, pass", "--deck", deck],
                         capsys)
    assert code == 2 and err.startswith("error: move 2 'pass': Black cannot pass")


def test_replay_black_wins(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = str(box_file(tmp_path, ["I2", "I2"], ["Dot"]))
    code, out, _ = run(["replay", "sigma", "--moves", "I2 1.1, Dot 2.4, I2 4.2", "--deck",
                        deck, "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert (data["over"], data["winner"], data["blank_spaces"]) == (True, 1, 0)


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["replay", "sigma", "--moves", "T4 9.9"], capsys)
    assert code == 2 and err == "error: move 1 'T4 9.9': there is no usable side 9 " \
        "(there are 4)\n"
    code, _, err = run(["replay", "sigma", "--moves", "", "--deck", "nope.toml"], capsys)
    assert code == 2 and "neither a shipped deck" in err
    code, _, err = run(["replay", "cairo", "--moves", "", "--deck", "reconstructed"], capsys)
    assert code == 2 and "Cairo Corridor reads no option 'deck' from a file" in err


def test_render_animate_and_deck_show(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    board = tmp_path / "b.png"
    code, out, _ = run(["render", "sigma", "--moves", "T4 3.3", "--out", str(board)], capsys)
    assert code == 0 and board.read_bytes()[:4] == b"\x89PNG"
    gif = tmp_path / "g.gif"
    code, _, err = run(["animate", "sigma", "--moves", "T4 3.3, I3 1.1, Hub 1.2", "--out",
                        str(gif)], capsys)
    assert code == 0, err
    assert gif.read_bytes()[:6] == b"GIF89a"
    sheet = tmp_path / "deck.png"
    code, out, _ = run(["deck", "show", "reconstructed", "--out", str(sheet)], capsys)
    assert code == 0 and sheet.read_bytes()[:4] == b"\x89PNG"
    code, out, _ = run(["deck", "list", "--json"], capsys)
    assert json.loads(out)[0]["key"] == "reconstructed"
    code, out, _ = run(["deck", "check", "reconstructed"], capsys)
    assert out.startswith("ok: Reconstructed deck (reconstruction)")
    bad = tmp_path / "bad.json"
    data = shipped_deck("reconstructed").to_data()
    data["white"][0]["arrows"] = []
    bad.write_text(json.dumps(data))
    code, _, err = run(["deck", "check", str(bad)], capsys)
    assert code == 2 and "'I2': the card has no arrow" in err


def test_analyze_and_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["analyze", "sigma", "--moves", "T4 3.3", "--deck", "reconstructed-v1",
                          "--json"], capsys)
    data = json.loads(out)
    assert data["to_move"] == 1 and data["sides"][0] == "1 -1,3,N"
    code, out, err = run(["bench", "sigma", "--seconds", "0.05", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "sigma" and data["random_games_per_second"] > 0
