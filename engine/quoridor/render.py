"""Board images: a wooden 9x9 board with grooves, walls, pawns and a legend below.

The board without pieces, the pawns and the walls are drawn once, supersampled and
scaled down (anti-aliased), and cached. A render works in palette mode on the empty
board mapped to the game's fixed palette (the layer): it pastes palette tiles of the
marks, walls and pawns where they stand (each tile made once, the first time it is
needed, composed over what lies under it), and draws the legend in true colour, which
alone is mapped to the palette.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from engine.imaging import font
from engine.labels import label
from engine.palette import Canvas, Layer, Palette, write
from engine.quoridor.geometry import PLACES, SIZE, bits, place_anchor
from engine.quoridor.notation import COLUMN_LETTERS, PawnMove, WallMove
from engine.quoridor.rules import colour_label as _colour
from engine.quoridor.rules import distances, outcome
from engine.quoridor.rules import goal_label as _goal
from engine.quoridor.rules import reason_label as _reason
from engine.quoridor.state import QuoridorState
from engine.text import draw_text, fit_line, fit_text, text_art, text_length

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
    # A light rim: black walls and Black's goal strip stand out on the dark frame.
    "Black": ((34, 34, 36), (206, 200, 190)),
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
        gap, thick = 6, 12
        if edge == "top":
            box = (lo, MARGIN - gap - thick, hi, MARGIN - gap)
        elif edge == "bottom":
            box = (lo, MARGIN + PLATE + gap, hi, MARGIN + PLATE + gap + thick)
        elif edge == "left":
            box = (MARGIN - gap - thick, lo, MARGIN - gap, hi)
        else:
            box = (MARGIN + PLATE + gap, lo, MARGIN + PLATE + gap + thick, hi)
        draw.rounded_rectangle(
            tuple(v * SS for v in box), radius=5 * SS, fill=fill, outline=INK, width=2 * SS
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
_PAWN = 56
HIGHLIGHT: RGB = (236, 226, 208)
RULE: RGB = (220, 210, 196)
USED_WALL: RGB = (222, 213, 200)

Mark = tuple[int, int]  # square, alpha


def _goal_edges(state: QuoridorState) -> tuple[tuple[str, str], ...]:
    layout = state.layout
    return tuple((_EDGES[layout.goal_names[s]], layout.names[s]) for s in range(state.seats))


def _height(seats: int) -> int:
    return BOARD + HEADER + seats * ROW + 14


def _marks(state: QuoridorState) -> list[Mark]:
    last = state.last
    if isinstance(last, PawnMove) and state.last_from is not None:
        return [(state.last_from, 110), (last.square, 170)]
    return []


def _wall_at(bit: int) -> tuple[int, int]:
    x0, y0, _, _ = _wall_box(bit)
    return x0 - 6, y0 - 6


def _pawn_at(square: int) -> tuple[int, int]:
    x, y = _square_box(square)
    offset = (CELL - _PAWN) // 2
    return x + offset, y + offset


def _scene(state: QuoridorState) -> tuple[list[Mark], list[tuple[int, str, bool]],
                                          list[tuple[int, str]]]:
    """Marks, walls (bit, colour, glowing) and pawns (square, colour) of a position."""
    colours = state.layout.names
    last = state.last
    walls = [(bit, colours[seat], isinstance(last, WallMove) and last.place == bit)
             for seat, mask in enumerate(state.walls) for bit in bits(mask)]
    pawns = [(state.pawns[seat], colours[seat]) for seat in state.active]
    return _marks(state), walls, pawns


def _compose(state: QuoridorState, hints: bool, names: Sequence[str] | None,
             verdict: str | None) -> Image.Image:
    """The whole image in true colour, drawn in one piece: what the palette is fitted
    to, and what the palette tiles add up to."""
    image = Image.new("RGB", (WIDTH, _height(state.seats)), LEGEND_BG)
    image.paste(_background(_goal_edges(state)), (0, 0))
    marks, walls, pawns = _scene(state)
    for square, alpha in marks:
        mark = _mark(alpha)
        image.paste(mark, _square_box(square), mark)
    for bit, colour, glow in walls:
        sprite = _wall(colour, bit >= 64, glow)
        image.paste(sprite, _wall_at(bit), sprite)
    for square, colour in pawns:
        sprite = _pawn(colour, _PAWN)
        image.paste(sprite, _pawn_at(square), sprite)
    _legend(state, image, BOARD, hints, names, verdict)
    return image


@lru_cache(maxsize=1)
def _palette() -> Palette:
    """One palette for every board, fitted once per process to boards of two and four
    players (every seat colour, walls glowing and not, marks, legends)."""
    from engine.quoridor.notation import read_move
    from engine.quoridor.rules import apply
    from engine.quoridor.state import start_state

    samples = []
    for seats, moves in ((2, ["e2", "e8", "e3h", "d7v", "d2"]),
                         (4, ["e2", "b5", "e8", "h5", "c3h", "f6v", "a1h", "g7h", "e4v"])):
        state = start_state(seats, 400)
        for move in moves:
            state = apply(state, read_move(move))
        samples.append(_compose(state, True, ["Alice", "Bob", "Carol", "Dave"][:seats], None))
    exact = [FRAME, PLATE_RGB, SQUARE, SQUARE_EDGE, INK, DARK, LEGEND_BG, LEGEND_INK, MUTED,
             MARK, HIGHLIGHT, RULE, USED_WALL, *(c for pair in COLOURS.values() for c in pair)]
    return Palette.fit(samples, exact, 224, close=True)


@lru_cache(maxsize=8)
def _layer(goal_edges: tuple[tuple[str, str], ...], seats: int) -> Layer:
    image = Image.new("RGB", (WIDTH, _height(seats)), LEGEND_BG)
    image.paste(_background(goal_edges), (0, 0))
    return Layer(image, _palette())


_MASKS: dict[int, Image.Image] = {}  # by the id of a cached (never freed) sprite


def _mask(sprite: Image.Image) -> Image.Image:
    """Where a sprite covers anything: one mask shared by every tile made of it."""
    found = _MASKS.get(id(sprite))
    if found is None:
        # One bit a pixel: Pillow pastes through it a fifth faster than through "L".
        found = _MASKS[id(sprite)] = sprite.getchannel("A").point(
            lambda v: 255 if v else 0).convert("1", dither=Image.Dither.NONE)
    return found


@lru_cache(maxsize=512)
def _mark_tile(goal_edges: tuple[tuple[str, str], ...], square: int,
               alpha: int) -> tuple[Image.Image, Image.Image]:
    layer = _layer(goal_edges, 2)
    x, y = _square_box(square)
    region = layer.rgb.crop((x, y, x + CELL, y + CELL))
    mark = _mark(alpha)
    region.paste(mark, (0, 0), mark)
    return layer.palette.quantize(region), _mask(mark)


Wall = tuple[int, str, bool]  # bit, colour, glowing


@lru_cache(maxsize=4096)
def _wall_tile(goal_edges: tuple[tuple[str, str], ...], wall: Wall, marks: tuple[Mark, ...],
               under: tuple[Wall, ...]) -> tuple[Image.Image, Image.Image]:
    """A wall over the board, over the marks of squares its sprite reaches and over the
    walls drawn before it that it touches."""
    layer = _layer(goal_edges, 2)
    bit, colour, glow = wall
    sprite = _wall(colour, bit >= 64, glow)
    x, y = _wall_at(bit)
    region = layer.rgb.crop((x, y, x + sprite.width, y + sprite.height))
    for square, alpha in marks:
        mark = _mark(alpha)
        sx, sy = _square_box(square)
        region.paste(mark, (sx - x, sy - y), mark)
    for other, other_colour, other_glow in (*under, wall):
        below = _wall(other_colour, other >= 64, other_glow)
        ox, oy = _wall_at(other)
        region.paste(below, (ox - x, oy - y), below)
    return layer.palette.quantize(region), _mask(sprite)


@lru_cache(maxsize=2048)
def _pawn_tile(goal_edges: tuple[tuple[str, str], ...], square: int, colour: str,
               mark: int) -> tuple[Image.Image, Image.Image]:
    layer = _layer(goal_edges, 2)
    sprite = _pawn(colour, _PAWN)
    x, y = _pawn_at(square)
    region = layer.rgb.crop((x, y, x + _PAWN, y + _PAWN))
    if mark:
        tint = _mark(mark)
        sx, sy = _square_box(square)
        region.paste(tint, (sx - x, sy - y), tint)
    region.paste(sprite, (0, 0), sprite)
    return layer.palette.quantize(region), _mask(sprite)


def build_tiles(starts: Sequence[QuoridorState]) -> None:
    """The tiles of every pawn (on a mark of the last move or not), mark and wall with
    nothing under it (glowing or not), in every seat's colour, for each layout of
    ``starts``: what a board builds otherwise when it first shows one (random games at
    the warm-up leave most squares and walls unseen)."""
    for state in starts:
        edges = _goal_edges(state)
        colours = state.layout.names
        for square in range(SIZE * SIZE):
            for colour in colours:
                for mark in (0, 170):  # the moved pawn stands on the darker mark
                    _pawn_tile(edges, square, colour, mark)
            for alpha in (110, 170):
                _mark_tile(edges, square, alpha)
        for bit in range(PLACES):
            for colour in colours:
                for glow in (False, True):
                    _wall_tile(edges, (bit, colour, glow), (), ())


@lru_cache(maxsize=128)
def _sprite_box(bit: int) -> tuple[int, int, int, int]:
    x0, y0 = _wall_at(bit)
    sprite = _wall("White", bit >= 64, False)
    return x0, y0, x0 + sprite.width, y0 + sprite.height


def _meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _near(bit: int) -> frozenset[int]:
    """The walls whose sprites meet this one's."""
    return _nearness()[bit]


@lru_cache(maxsize=1)
def _nearness() -> tuple[frozenset[int], ...]:
    """Every wall's ``_near``, found all at once (at the warm-up's first wall: found one
    wall at a time, a fresh worker's first board found its walls' for a millisecond)."""
    boxes = [_sprite_box(bit) for bit in range(128)]
    return tuple(frozenset(other for other in range(128)
                           if other != bit and _meet(box, boxes[other]))
                 for bit, box in enumerate(boxes))


@lru_cache(maxsize=1024)
def _touching(bit: int, marks: tuple[Mark, ...]) -> tuple[Mark, ...]:
    box = _sprite_box(bit)
    out = []
    for square, alpha in marks:
        sx, sy = _square_box(square)
        if _meet(box, (sx, sy, sx + CELL, sy + CELL)):
            out.append((square, alpha))
    return tuple(out)


def render(
    state: QuoridorState,
    *,
    hints: bool = False,
    names: Sequence[str] | None = None,
    verdict: str | None = None,
) -> bytes:
    edges = _goal_edges(state)
    canvas = Canvas(_layer(edges, state.seats), _emoji(names))
    marks, walls, pawns = _scene(state)
    for square, alpha in marks:
        tile, mask = _mark_tile(edges, square, alpha)
        canvas.paste(tile, _square_box(square), mask)
    shown = tuple(marks)
    for i, wall in enumerate(walls):
        near = _near(wall[0])
        under = tuple(other for other in walls[:i] if other[0] in near)
        tile, mask = _wall_tile(edges, wall, _touching(wall[0], shown), under)
        canvas.paste(tile, _wall_at(wall[0]), mask)
    marked = dict(marks)
    for square, colour in pawns:
        tile, mask = _pawn_tile(edges, square, colour, marked.get(square, 0))
        canvas.paste(tile, _pawn_at(square), mask)
    # Players' rows recur from board to board: kept mapped to the palette.
    for row in _rows(state, hints, names, verdict):
        box = _row_box(row.seat)
        canvas.cached(box, (row,), partial(_row, top=BOARD - box[1], row=row))
    canvas.cached(_RULE_BOX, ("rule",), partial(_rule, top=BOARD - _RULE_BOX[1]))
    _head(canvas, BOARD, state, names, verdict)
    return canvas.finish()


def _emoji(names: Sequence[str] | None) -> list[Image.Image]:
    arts = [text_art(name, 22, True) for name in names or ()]
    return [art.colour for art in arts if art.colour is not None]


def _headline(state: QuoridorState, names: Sequence[str] | None,
              verdict: str | None) -> str:
    result = outcome(state)

    def who(seat: int) -> str:
        if names is not None and seat < len(names) and names[seat]:
            return label("{name} ({colour})", name=names[seat], colour=_colour(state, seat))
        return _colour(state, seat)

    if verdict is not None:
        return verdict
    if result is None:
        headline = label("{who} to move", who=who(state.turn))
        if state.passed:
            passed = ", ".join(_colour(state, s) for s in state.passed)
            headline = label("{headline}  ·  {passed} had no move and passed",
                             headline=headline, passed=passed)
        return headline
    if result.winner is not None:
        return label("{who} wins: {reason}", who=who(result.winner),
                     reason=_reason(state, result.winner))
    return label("Draw: {reason}", reason=label("no one reached their goal in {n} plies",
                                                 n=state.ply_cap))


def _legend(
    state: QuoridorState,
    image: Image.Image,
    top: int,
    hints: bool,
    names: Sequence[str] | None,
    verdict: str | None,
) -> None:
    """The legend below the board, on ``image`` where the board's bottom is at ``top``."""
    _head(image, top, state, names, verdict)
    _rule(image, top)
    for row in _rows(state, hints, names, verdict):
        _row(image, top, row)


def _head(image: Image.Image | Canvas, top: int, state: QuoridorState,
          names: Sequence[str] | None, verdict: str | None) -> None:
    """Whose turn (or the result) and the last move (over ``_rule``)."""
    headline = _headline(state, names, verdict)
    room = WIDTH - 48
    last = (label("before the first move") if state.ply <= 0
            else label("after move {n}", n=state.ply))  # as ``after_move`` says it
    if state.last is not None:
        last = label("{where} · last: {move}", where=last, move=state.last)
    write(image, (WIDTH - 24, top + HEADER // 2 + 2), last, 20, False, MUTED, "rm")
    room -= round(text_length(last, 20)) + 24
    shown = [n for n in names or () if n]
    text, size = fit_line(headline, room, 24, names=shown, smallest=17)
    write(image, (24, top + HEADER // 2 + 2), text, size, True, LEGEND_INK, "lm")


_RULE_BOX = (0, BOARD + HEADER - 2, WIDTH, BOARD + HEADER + 4)


def _rule(image: Image.Image, top: int) -> None:
    """The rule between the legend's head and the players' rows."""
    ImageDraw.Draw(image).line((24, top + HEADER, WIDTH - 24, top + HEADER), fill=RULE,
                               width=2)


@dataclass(frozen=True)
class _Row:
    """What a player's row of the legend shows."""

    seat: int
    colour: str
    label: str
    goal: str
    out: bool
    lit: bool  # to move, or the winner
    walls: int  # a player's walls at the start
    left: int


def _rows(state: QuoridorState, hints: bool, names: Sequence[str] | None,
          verdict: str | None) -> list[_Row]:
    layout = state.layout
    result = outcome(state)
    steps = distances(state) if hints and verdict is None else None
    rows = []
    for seat in range(state.seats):
        out = seat in state.eliminated
        colour = layout.names[seat]
        moving = state.turn == seat and result is None and verdict is None
        said = _colour(state, seat)
        if names is not None and seat < len(names) and names[seat]:
            suffix = label(" ({colour})", colour=said)
            said = fit_text(names[seat], 420 - 72 - round(text_length(suffix, 22, True)),
                            22) + suffix
        goal = label("to {goal}", goal=_goal(state, seat))
        if out:
            goal = label("left the game")
        elif steps is not None:
            goal = label("{goal} · {n} steps", goal=goal, n=steps[seat])
        rows.append(_Row(seat, colour, said, goal, out,
                         bool(moving or (result and result.winner == seat)), layout.walls,
                         state.walls_left[seat]))
    return rows


def _row_box(seat: int) -> tuple[int, int, int, int]:
    """A row's part of the picture (its highlight reaches a pixel past its ``ROW``)."""
    y = BOARD + HEADER + seat * ROW + 4
    return 0, y, WIDTH, y + ROW


def _row(image: Image.Image, top: int, row: _Row) -> None:
    """A player's row: pawn, name, goal, walls left; lit when it is their turn."""
    draw = ImageDraw.Draw(image)
    y = top + HEADER + row.seat * ROW + ROW // 2 + 4
    if row.lit:
        draw.rounded_rectangle((14, y - ROW // 2 + 3, WIDTH - 14, y + ROW // 2 - 3),
                               radius=10, fill=HIGHLIGHT)
    pawn = _pawn(row.colour, 34)
    image.paste(pawn, (26, y - 17), pawn)
    ink = MUTED if row.out else LEGEND_INK
    draw_text(image, (72, y), row.label, 22, True, ink, "lm")
    # Drawn through the chain of faces: a goal in Korean or Japanese needs the CJK one.
    draw_text(image, (430, y), row.goal, 19, False, MUTED if row.out else ink, "lm")
    # Remaining walls as little bars, used ones as outlines.
    x = WIDTH - 30 - row.walls * 12 - 30
    for i in range(row.walls):
        bar = _mini_wall(row.colour, i >= row.left)
        image.paste(bar, (x + i * 12, y - 13), bar)
    draw_text(image, (WIDTH - 28, y), str(row.left), 22, True, ink, "rm")
