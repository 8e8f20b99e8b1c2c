"""Board images: a wooden 9x9 board with grooves, walls, pawns and a legend below.

The board without pieces, the pawns and the walls are drawn once, supersampled and
scaled down (anti-aliased), and cached; a render pastes them and writes the legend.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.imaging import font, to_png
from engine.quoridor.geometry import SIZE, bits, place_anchor
from engine.quoridor.notation import COLUMN_LETTERS, PawnMove, WallMove
from engine.quoridor.rules import distances, outcome
from engine.quoridor.state import QuoridorState

RGB = tuple[int, int, int]

WIDTH = 900
MARGIN = 52  # frame around the board plate: coordinates and goal strips
PAD = 12  # plate edge to the first square
CELL = 68
GROOVE = 20
PITCH = CELL + GROOVE
PLATE = 2 * PAD + SIZE * CELL + (SIZE - 1) * GROOVE
BOARD = 2 * MARGIN + PLATE  # height of the board part of the image
HEADER = 52
ROW = 48
SS = 3  # supersampling factor of the cached drawings

FRAME: RGB = (74, 53, 38)
PLATE_RGB: RGB = (122, 90, 60)
SQUARE: RGB = (222, 190, 146)
SQUARE_EDGE: RGB = (196, 160, 114)
INK: RGB = (240, 226, 200)
DARK: RGB = (28, 24, 20)
LEGEND_BG: RGB = (246, 240, 230)
LEGEND_INK: RGB = (40, 34, 28)
MUTED: RGB = (150, 140, 128)
MARK: RGB = (255, 206, 64)

# Seat colours by name: (fill, outline).
COLOURS: dict[str, tuple[RGB, RGB]] = {
    "White": ((246, 243, 236), (30, 30, 30)),
    "Black": ((34, 34, 36), (10, 10, 10)),
    "Red": ((214, 52, 42), (70, 14, 10)),
    "Blue": ((42, 98, 214), (12, 30, 80)),
}


def _square_box(sq: int) -> tuple[int, int]:
    """Top-left pixel of a square (row 1 at the bottom)."""
    column, row = sq % SIZE, sq // SIZE
    return (MARGIN + PAD + column * PITCH, MARGIN + PAD + (SIZE - 1 - row) * PITCH)


def _wall_box(bit: int) -> tuple[int, int, int, int]:
    """Pixel box of a wall lying in its groove."""
    column, row, vertical = place_anchor(bit)
    x0, y_top = _square_box(SIZE * row + column)  # anchor square's top-left
    span = 2 * CELL + GROOVE
    inset = 1
    if vertical:
        x = x0 + CELL + GROOVE // 2
        y1 = y_top + CELL
        return (x - GROOVE // 2 + inset, y1 - span, x + GROOVE // 2 - inset, y1)
    y = y_top - GROOVE // 2
    return (x0, y - GROOVE // 2 + inset, x0 + span, y + GROOVE // 2 - inset)


# ---- cached drawings -----------------------------------------------------------------

@lru_cache(maxsize=4)
def _background(goal_edges: tuple[tuple[str, str], ...]) -> Image.Image:
    """The empty board with coordinates and the goal strips (edge, seat colour name)."""
    big = Image.new("RGB", (WIDTH * SS, BOARD * SS), FRAME)
    draw = ImageDraw.Draw(big)
    plate = (MARGIN * SS, MARGIN * SS, (MARGIN + PLATE) * SS, (MARGIN + PLATE) * SS)
    draw.rounded_rectangle(plate, radius=10 * SS, fill=PLATE_RGB)
    for sq in range(SIZE * SIZE):
        x, y = _square_box(sq)
        box = (x * SS, y * SS, (x + CELL) * SS, (y + CELL) * SS)
        draw.rounded_rectangle(box, radius=6 * SS, fill=SQUARE_EDGE)
        inner = (box[0] + SS, box[1] + SS, box[2] - 2 * SS, box[3] - 2 * SS)
        draw.rounded_rectangle(inner, radius=5 * SS, fill=SQUARE)
    lo, hi = MARGIN + PAD, MARGIN + PLATE - PAD
    for edge, colour in goal_edges:
        fill, _ = COLOURS[colour]
        gap, thick = 8, 9
        if edge == "top":
            box = (lo, MARGIN - gap - thick, hi, MARGIN - gap)
        elif edge == "bottom":
            box = (lo, MARGIN + PLATE + gap, hi, MARGIN + PLATE + gap + thick)
        elif edge == "left":
            box = (MARGIN - gap - thick, lo, MARGIN - gap, hi)
        else:
            box = (MARGIN + PLATE + gap, lo, MARGIN + PLATE + gap + thick, hi)
        draw.rounded_rectangle(
            tuple(v * SS for v in box), radius=4 * SS, fill=fill, outline=INK, width=SS
        )
    image = big.resize((WIDTH, BOARD), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(image)
    label = font(20, bold=True)
    for i in range(SIZE):
        x, y = _square_box(i)
        centre_x = x + CELL // 2
        draw.text((centre_x, BOARD - MARGIN // 2 + 6), COLUMN_LETTERS[i], font=label,
                  fill=INK, anchor="mm")
        _, row_y = _square_box(SIZE * i)
        draw.text((MARGIN // 2 - 4, row_y + CELL // 2), str(i + 1), font=label, fill=INK,
                  anchor="mm")
    return image


@lru_cache(maxsize=16)
def _pawn(colour: str, size: int) -> Image.Image:
    fill, edge = COLOURS[colour]
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    unit = size * SS
    shadow = round(unit * 0.05)
    body = (round(unit * 0.08), round(unit * 0.06), round(unit * 0.92), round(unit * 0.90))
    draw.ellipse(tuple(v + shadow for v in body), fill=(0, 0, 0, 90))
    draw.ellipse(body, fill=(*fill, 255), outline=(*edge, 255), width=max(SS, unit // 22))
    # A soft rim of light on the upper left, so pawns read as round pieces.
    rim = (body[0] + unit // 10, body[1] + unit // 12, body[2] - unit // 5, body[3] - unit // 5)
    draw.arc(rim, start=190, end=260, fill=(255, 255, 255, 110), width=max(SS, unit // 18))
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def _wall(colour: str, vertical: bool, glow: bool) -> Image.Image:
    """A wall sprite with a margin of ``m`` pixels on each side (for the glow)."""
    fill, edge = COLOURS[colour]
    long_side, short_side = 2 * CELL + GROOVE, GROOVE - 2
    m = 6
    w, h = (short_side, long_side) if vertical else (long_side, short_side)
    big = Image.new("RGBA", ((w + 2 * m) * SS, (h + 2 * m) * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    if glow:
        draw.rounded_rectangle((SS, SS, (w + 2 * m - 1) * SS, (h + 2 * m - 1) * SS),
                               radius=8 * SS, fill=(*MARK, 235))
    body = (m * SS, m * SS, (w + m) * SS, (h + m) * SS)
    draw.rounded_rectangle(tuple(v + SS for v in body), radius=4 * SS, fill=(0, 0, 0, 80))
    draw.rounded_rectangle(body, radius=4 * SS, fill=(*fill, 255), outline=(*edge, 255),
                           width=2 * SS)
    return big.resize((w + 2 * m, h + 2 * m), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def _mark(alpha: int) -> Image.Image:
    tile = Image.new("RGBA", (CELL * SS, CELL * SS), (0, 0, 0, 0))
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, CELL * SS - 1, CELL * SS - 1), radius=6 * SS, fill=(*MARK, alpha)
    )
    return tile.resize((CELL, CELL), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def _mini_wall(colour: str, used: bool) -> Image.Image:
    fill, edge = COLOURS[colour]
    w, h = 8, 26
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    if used:
        draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=2 * SS,
                               fill=(222, 213, 200, 255))
    else:
        draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=2 * SS,
                               fill=(*fill, 255), outline=(*edge, 255), width=SS)
    return big.resize((w, h), Image.Resampling.LANCZOS)


# ---- the image -------------------------------------------------------------------------

_EDGES = {"row 9": "top", "row 1": "bottom", "column a": "left", "column i": "right"}


def render(
    state: QuoridorState,
    *,
    hints: bool = False,
    names: Sequence[str] | None = None,
) -> bytes:
    layout = state.layout
    seats = state.seats
    colours = layout.names
    goal_edges = tuple(
        (_EDGES[layout.goal_names[s]], colours[s]) for s in range(seats)
    )
    height = BOARD + HEADER + seats * ROW + 14
    image = Image.new("RGB", (WIDTH, height), LEGEND_BG)
    image.paste(_background(goal_edges), (0, 0))

    last = state.last
    if isinstance(last, PawnMove) and state.last_from is not None:
        for sq, alpha in ((state.last_from, 110), (last.square, 170)):
            mark = _mark(alpha)
            image.paste(mark, _square_box(sq), mark)

    # Walls in their owners' colours; the last one placed glows.
    for seat, mask in enumerate(state.walls):
        for bit in bits(mask):
            glow = isinstance(last, WallMove) and last.place == bit
            sprite = _wall(colours[seat], bit >= 64, glow)
            x0, y0, _, _ = _wall_box(bit)
            image.paste(sprite, (x0 - 6, y0 - 6), sprite)

    size = 56
    for seat in state.active:
        x, y = _square_box(state.pawns[seat])
        sprite = _pawn(colours[seat], size)
        offset = (CELL - size) // 2
        image.paste(sprite, (x + offset, y + offset), sprite)

    _legend(state, image, hints, names)
    return to_png(image)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, room: int) -> str:
    """``text`` in bold at ``size``, cut short with an ellipsis to fit ``room`` pixels."""
    face = font(size, bold=True)
    if draw.textlength(text, font=face) <= room:
        return text
    while text and draw.textlength(text + "…", font=face) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _legend(
    state: QuoridorState,
    image: Image.Image,
    hints: bool,
    names: Sequence[str] | None,
) -> None:
    layout = state.layout
    draw = ImageDraw.Draw(image)
    result = outcome(state)

    def who(seat: int) -> str:
        if names is not None and seat < len(names) and names[seat]:
            return f"{names[seat]} ({layout.names[seat]})"
        return layout.names[seat]

    if result is None:
        headline = f"{who(state.turn)} to move"
        if state.passed:
            passed = ", ".join(layout.names[s] for s in state.passed)
            headline += f"  ·  {passed} had no move and passed"
    elif result.winner is not None:
        headline = f"{who(result.winner)} wins: {result.reason}"
    else:
        headline = f"Draw: {result.reason}"
    top = BOARD
    room = WIDTH - 48
    if state.last is not None:
        last = f"last: {state.last}"
        draw.text((WIDTH - 24, top + HEADER // 2 + 2), last, font=font(20), fill=MUTED,
                  anchor="rm")
        room -= round(draw.textlength(last, font=font(20))) + 24
    size = 24
    while size > 17 and draw.textlength(headline, font=font(size, bold=True)) > room:
        size -= 1
    draw.text((24, top + HEADER // 2 + 2), _fit(draw, headline, size, room), fill=LEGEND_INK,
              font=font(size, bold=True), anchor="lm")
    draw.line((24, top + HEADER, WIDTH - 24, top + HEADER), fill=(220, 210, 196), width=2)

    steps = distances(state) if hints else None
    name_font = font(22, bold=True)
    small = font(19)
    for seat in range(state.seats):
        y = top + HEADER + seat * ROW + ROW // 2 + 4
        out = seat in state.eliminated
        colour = layout.names[seat]
        if (state.turn == seat and result is None) or (result and result.winner == seat):
            draw.rounded_rectangle((14, y - ROW // 2 + 3, WIDTH - 14, y + ROW // 2 - 3),
                                   radius=10, fill=(236, 226, 208))
        pawn = _pawn(colour, 34)
        image.paste(pawn, (26, y - 17), pawn)
        ink = MUTED if out else LEGEND_INK
        label = colour
        if names is not None and seat < len(names) and names[seat]:
            suffix = f" ({colour})"
            room = 420 - 72 - round(draw.textlength(suffix, font=name_font))
            label = _fit(draw, names[seat], 22, room) + suffix
        draw.text((72, y), label, font=name_font, fill=ink, anchor="lm")
        goal = f"to {layout.goal_names[seat]}"
        if out:
            goal = "left the game"
        elif steps is not None:
            goal += f" · {steps[seat]} steps"
        draw.text((430, y), goal, font=small, fill=MUTED if out else ink, anchor="lm")
        # Remaining walls as little bars, used ones as outlines.
        left = state.walls_left[seat]
        x = WIDTH - 30 - layout.walls * 12 - 30
        for i in range(layout.walls):
            bar = _mini_wall(colour, i >= left)
            image.paste(bar, (x + i * 12, y - 13), bar)
        draw.text((WIDTH - 28, y), str(left), font=name_font, fill=ink, anchor="rm")
