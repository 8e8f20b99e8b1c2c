"""Board images, and the generic command line driving Quoridor."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine.cli import main
from engine.quoridor import Quoridor, QuoridorState
from engine.quoridor.render import CELL, COLOURS, MARK, SQUARE, WIDTH, _square_box, _wall_box
from engine.registry import get_game

game = Quoridor()


def image(
    state: QuoridorState, hints: bool = False, names: list[str] | None = None
) -> Image.Image:
    png = game.render(state, hints=hints, names=names)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def centre(sq: int) -> tuple[int, int]:
    x, y = _square_box(sq)
    return x + CELL // 2, y + CELL // 2


def near(a: object, b: tuple[int, ...], tolerance: int = 12) -> bool:
    assert isinstance(a, tuple)
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


def test_two_player_image_shows_pawns_walls_and_last_move() -> None:
    state = game.replay(["e2", "e8", "e3h", "d7v", "d2"])
    picture = image(state)
    assert picture.width == WIDTH and 900 < picture.height < 1150
    assert near(picture.getpixel(centre(76 - 9)), COLOURS["Black"][0])  # Black on e8
    assert near(picture.getpixel(centre(12)), COLOURS["White"][0])  # White on d2
    x0, y0, x1, y1 = _wall_box(20)  # e3h, White's
    assert near(picture.getpixel(((x0 + x1) // 2 + 20, (y0 + y1) // 2)), COLOURS["White"][0])
    x0, y0, x1, y1 = _wall_box(64 + 6 * 8 + 3)  # d7v, Black's
    assert near(picture.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 + 20)), COLOURS["Black"][0])
    # The pawn came from e2: its square is tinted, unlike an untouched square.
    x, y = _square_box(13)
    tinted = picture.getpixel((x + 6, y + 6))
    assert isinstance(tinted, tuple)
    assert tinted[2] < SQUARE[2] - 20 and tinted[0] >= SQUARE[0] - 8  # yellower
    x, y = _square_box(40)
    assert near(picture.getpixel((x + 6, y + 6)), SQUARE, 10)


def test_last_wall_glows() -> None:
    state = game.replay(["e3h"])
    picture = image(state)
    x0, y0, x1, _ = _wall_box(20)
    assert near(picture.getpixel(((x0 + x1) // 2, y0 - 3)), MARK, 40)


def test_four_player_image_and_eliminated_pawn() -> None:
    state = game.replay(["e2", "b5", "e8", "h5"], seats=4)
    picture = image(state)
    assert near(picture.getpixel(centre(37)), COLOURS["Red"][0])
    assert near(picture.getpixel(centre(43)), COLOURS["Blue"][0])
    out = image(game.eliminate(state, 1))
    assert near(out.getpixel(centre(37)), SQUARE, 10)


def test_hints_and_names_change_the_legend_only() -> None:
    state = game.replay(["e2", "e8"])
    plain = image(state)
    hinted = image(state, hints=True)
    named = image(state, names=["alice", "bob"])
    board = (0, 0, WIDTH, 880)
    legend = (0, 880, WIDTH, plain.height)

    def change(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> int:
        # PNGs are palette images: the same drawing may come back a shade apart.
        histogram = ImageChops.difference(a.crop(box), b.crop(box)).histogram()
        return max(i % 256 for i, count in enumerate(histogram) if count)

    assert change(plain, hinted, board) <= 6
    assert change(plain, named, board) <= 6
    assert change(plain, hinted, legend) > 100
    assert change(plain, named, legend) > 100


def test_finished_games_render() -> None:
    won = game.parse_position("White e8; Black e2")
    image(game.play(won, "e9"))
    drawn = game.replay(["e2", "e8"], options={"ply-cap": 2})
    image(drawn, names=["alice", "bob"])


# ---- command line ------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_registered() -> None:
    assert isinstance(get_game("quoridor"), Quoridor)


def test_cli_replay(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run(capsys, "replay", "quoridor", "--moves", "e2, e8, e3h", "--json"))
    state = game.replay(["e2", "e8", "e3h"])
    assert out["moves"] == 3
    assert (out["over"], out["winner"], out["draw"], out["to_move"]) == (False, None, False, 1)
    assert out["legal"] == sorted(game.notation(m) for m in game.legal_moves(state))
    assert {"d8", "f8", "e7", "e9"} <= set(out["legal"])
    assert "e3h" not in out["legal"] and "e3v" not in out["legal"]


def test_cli_replay_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(
        run(capsys, "replay", "quoridor", "--players", "4", "--moves", "e2, b5", "--json")
    )
    assert out["to_move"] == 2
    assert {"d9", "f9", "e8"} <= set(out["legal"])


def test_cli_bad_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "quoridor", "--moves", "e2, e8, i3h"]) == 2
    assert "move 3 'i3h': there is no wall place i3h" in capsys.readouterr().err


def test_cli_perft(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run(capsys, "perft", "quoridor", "--depth", "2", "--json"))
    assert (out["depth"], out["nodes"]) == (2, 16677)


def test_cli_render(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "board.png"
    run(capsys, "render", "quoridor", "--moves", "e2, e8, e3h", "--out", str(target))
    assert Image.open(target).width == WIDTH
    position = tmp_path / "position.png"
    run(capsys, "render", "quoridor", "--position", "White e5 e3h; Black e6", "--hints",
        "--out", str(position))
    assert position.read_bytes().startswith(b"\x89PNG")


def test_black_walls_and_goal_strip_stand_out_on_the_dark_frame() -> None:
    """A black wall, pawn or goal strip has a rim that contrasts with the frame and the
    plate at least 3:1 (WCAG's bar for graphics), where the black fill alone does not."""
    from engine.quoridor import render

    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(v: int) -> float:
            c = v / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
        high, low = sorted((luminance(a), luminance(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    fill, rim = render.COLOURS["Black"]
    for ground in (render.FRAME, render.PLATE_RGB):
        assert contrast(fill, ground) < 3  # why the rim is needed
        assert contrast(rim, ground) >= 3
