"""Pathwayz images and the generic command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from engine.cli import main
from engine.pathwayz import Pathwayz, PathwayzState
from engine.pathwayz.notation import read_cell
from engine.pathwayz.render import CELL, CHAIN, FLIP, LAST, WIDTH, cell_origin
from engine.registry import get_game

GAME = Pathwayz()


def image(state: PathwayzState, **kwargs: object) -> Image.Image:
    png = GAME.render(state, **kwargs)  # type: ignore[arg-type]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixel(picture: Image.Image, x: int, y: int) -> tuple[int, ...]:
    value = picture.getpixel((x, y))
    assert isinstance(value, tuple)
    return value


def centre(picture: Image.Image, cell: str, dx: int = 0) -> tuple[int, ...]:
    x, y = cell_origin(read_cell(cell))
    return pixel(picture, x + CELL // 2 + dx, y + CELL // 2)


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def dark(pixel: tuple[int, ...]) -> bool:
    return sum(pixel) < 200


def light(pixel: tuple[int, ...]) -> bool:
    return sum(pixel) > 660


def test_pieces_marks_and_size() -> None:
    state = GAME.replay(["c5", "d5*", "a1", "e5", "f6*"])
    picture = image(state, names=["Alice", "Bob"])
    assert picture.width == WIDTH and 900 <= picture.width <= 1000
    assert light(centre(picture, "a1"))  # a normal White piece
    # Row 1 is drawn at the bottom.
    assert cell_origin(read_cell("a1"))[1] > cell_origin(read_cell("a8"))[1]
    assert dark(centre(picture, "c5"))  # flipped by d5* to Black
    # Permanent pieces carry a centre dot in the other colour.
    assert dark(centre(picture, "d5"))  # a permanent White piece: dark dot on white
    assert light(centre(picture, "d5", dx=CELL // 4 + 4))  # its white face around the ring
    assert light(centre(picture, "f6"))  # a permanent Black piece: light dot on black
    # f6* flipped e5 (White to Black): its cell is tinted, the last move is framed.
    x, y = cell_origin(read_cell("e5"))
    assert near(pixel(picture, x + 3, y + 3), FLIP)
    x, y = cell_origin(read_cell("f6"))
    assert near(pixel(picture, x + 5, y + CELL // 2), LAST)
    x, y = cell_origin(read_cell("c5"))
    assert not near(pixel(picture, x + 3, y + 3), FLIP)


def test_the_winning_chain_is_highlighted_only_at_the_end() -> None:
    white = "a1 b2 c3 d4 e5 f6 g7 h8 i7 j6 k5"
    black = "a8 b8 c8 d8 e8 f8 g8 h1 i1 j1 k1"
    state = GAME.parse_position(f"white: {white}; black: {black}; to move: white")
    before = image(state)
    after = image(GAME.play(state, "l4"), names=["Alice", "Bob"])

    def green(picture: Image.Image) -> int:
        colours = picture.getcolors(maxcolors=1 << 24) or []
        return sum(
            count
            for count, colour in colours
            if isinstance(colour, tuple) and near(colour, CHAIN, 20)
        )

    assert green(before) < 50
    assert green(after) > 3000
    # The chain passes between d4 and e5 and rings every piece on it.
    x, y = cell_origin(read_cell("d4"))
    assert near(pixel(after, x + CELL, y), CHAIN, 30)


def test_renders_every_stage_with_and_without_names_and_hints() -> None:
    start = GAME.new_state()
    for state in (start, GAME.replay(["c5", "d5*", "e5"])):
        for names in (None, ["A very long display name indeed", "B"]):
            for hints in (False, True):
                assert image(state, names=names, hints=hints).width == WIDTH
    white = " ".join(f"{f}{r}" for f in "acegik" for r in range(1, 9))
    black = " ".join(f"{f}{r}" for f in "bdfhjl" for r in range(1, 9))
    drawn = GAME.parse_position(f"white: {white}; black: {black}")
    assert GAME.outcome(drawn) is not None
    assert image(drawn).width == WIDTH


def test_registry_and_cli_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(get_game("pathwayz"), Pathwayz)
    assert main(["replay", "pathwayz", "--moves", "c5, d5*, p a1, b2 p", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["moves", "over", "winner", "draw", "score", "to_move", "legal"]
    assert data["moves"] == 4 and data["over"] is False and data["to_move"] == 0
    assert data["score"] is None
    assert len(data["legal"]) == 2 * 92 and "a1" not in data["legal"]

    assert main(["replay", "pathwayz", "--moves", "c5, m3"]) == 2
    assert capsys.readouterr().err == (
        "error: move 2 'm3': m3 is off the board: columns a-l, rows 1-8\n"
    )


def test_cli_render_and_analyze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", "pathwayz", "--position", "white: a1 b2*; black: c3",
                 "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    capsys.readouterr()
    assert main(["analyze", "pathwayz", "--moves", "c5, d5*", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["last"] == "d5*" and data["flipped"] == ["c5"]
