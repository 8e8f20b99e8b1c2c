"""The images show what players need: letters, pieces, the last move, hints, the end."""

from __future__ import annotations

import io

from PIL import Image

from engine.cairo import CairoCorridor
from engine.cairo.geometry import CELLS, INDEX, LETTERS, group_centre
from engine.cairo.render import (
    CELL,
    CORRIDOR,
    CROSS,
    GOLD,
    PIECE_FILL,
    TEXT,
    WIDTH,
    to_pixels,
)
from tests.engine.cairo_positions import BLACK_WINS

GAME = CairoCorridor()
# Black: DL, WU, AR; Red: JU, AU, AD (the last move)
MID = GAME.replay(["D left", "JU", "w-up", "AU", "AR", "AD"])

Colour = tuple[int, int, int]


def near(a: Colour, b: Colour) -> bool:
    """Equal but for the palette's rounding."""
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= 8


def picture(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def at(image: Image.Image, x: float, y: float) -> Colour:
    pixel = image.getpixel((round(x), round(y)))
    assert isinstance(pixel, tuple)
    return int(pixel[0]), int(pixel[1]), int(pixel[2])


def at_cell(image: Image.Image, name: str) -> Colour:
    return at(image, *to_pixels(*CELLS[INDEX[name]].centroid))


def test_size_fits_a_phone_screen() -> None:
    image = picture(GAME.render(GAME.new_state()))
    assert image.width == WIDTH == 900
    assert 900 <= image.height <= 1100


def test_pieces_and_last_move() -> None:
    image = picture(GAME.render(MID))
    assert near(at_cell(image, "AD"), GOLD)  # the last move is marked
    assert near(at_cell(image, "AR"), PIECE_FILL[0])
    assert near(at_cell(image, "AU"), PIECE_FILL[1])
    assert near(at_cell(image, "DL"), PIECE_FILL[0])
    assert near(at_cell(image, "JU"), PIECE_FILL[1])
    assert near(at_cell(image, "GR"), CELL)


def test_no_hints_unless_asked() -> None:
    plain = picture(GAME.render(MID))
    # AU, AR, AD are taken: nothing shows that the region changed, CL stays plain
    assert near(at_cell(plain, "CL"), CELL)
    state = GAME.parse_position("first: AU BU BR CR; second: AR BL CL DL")
    plain = picture(GAME.render(state))
    hinted = picture(GAME.render(state, hints=True))
    assert near(at_cell(plain, "CU"), CELL) and near(at_cell(plain, "GR"), CELL)
    assert near(at_cell(hinted, "CU"), CROSS)  # critical: marked
    assert near(at_cell(hinted, "CD"), CROSS)
    assert near(at_cell(hinted, "GR"), CORRIDOR)  # the rest of the region: tinted


def test_letters_are_drawn_at_the_group_centres() -> None:
    image = picture(GAME.render(GAME.new_state()))
    for letter in LETTERS:
        cx, cy = to_pixels(*group_centre(letter))
        box = image.crop((round(cx) - 8, round(cy) - 9, round(cx) + 9, round(cy) + 10))
        colours = [
            at(box, x, y) for x in range(box.width) for y in range(box.height)
        ]
        assert any(near(c, TEXT) for c in colours), letter  # the glyph
        assert any(near(c, (255, 255, 255)) for c in colours), letter  # on its white badge


def test_names_show_in_the_legend() -> None:
    state = GAME.new_state()
    assert GAME.render(state, names=["Alice", "Bob"]) != GAME.render(state)


def test_final_image_shows_corridor_and_scorers() -> None:
    state = GAME.parse_position(BLACK_WINS)
    image = picture(GAME.render(state))
    assert near(at_cell(image, "JD"), CORRIDOR)
    # a scoring piece carries a gold rim, one that does not score is faded
    scorer = CELLS[INDEX["KU"]]
    x, y = to_pixels(*scorer.centroid)
    vx, vy = to_pixels(*scorer.vertices[0])
    ring = [at(image, x + t * (vx - x), y + t * (vy - y)) for t in (0.70, 0.72, 0.74)]
    assert any(near(c, GOLD) for c in ring)
    assert not any(near(at_cell(image, "XD"), c) for c in PIECE_FILL)  # XD does not score
    assert near(at_cell(image, "KD"), PIECE_FILL[0])  # KD (Black) scores
    # the same board with hints requested looks the same: at the end all is shown
    assert GAME.render(state, hints=True) == GAME.render(state)


def test_render_is_deterministic() -> None:
    assert GAME.render(MID, hints=True) == GAME.render(MID, hints=True)


def test_long_names_are_shortened_to_fit() -> None:
    from engine.imaging import fit_text, font

    text = fit_text("Black · " + "W" * 60, 400, 26)
    assert text.endswith("…") and font(26, True).getlength(text) <= 400
    assert fit_text("Red · Bob", 400, 26) == "Red · Bob"
    image = picture(GAME.render(MID, names=["W" * 60, "Bob"]))
    assert image.width == WIDTH
