"""Board images: the 72 pentagons, the group letters, pieces, marks and a legend.

Everything that does not depend on the position (the board drawn 4x larger and
scaled down, the anti-aliased mask of every cell and piece, the letter badges, a
palette) is built once per process. A render pastes solid colours through those
masks, writes the legend and stores the picture as a 256-colour PNG, which encodes
several times faster than a true-colour one and looks the same for flat drawings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.cairo.geometry import (
    CELLS,
    LETTERS,
    SIZE,
    Cell,
    cells_of,
    group_centre,
)
from engine.cairo.rules import analyse
from engine.cairo.state import PIECES, SEAT_NAMES, CairoState
from engine.game import Outcome
from engine.imaging import fit_text, font, to_png

SCALE = 20  # pixels per quarter unit
SUPER = 4  # supersampling of the static drawing
WIDTH = 900
MARGIN_X = (WIDTH - SIZE * SCALE) // 2
BOARD_TOP = 70
BOARD_BOTTOM = BOARD_TOP + SIZE * SCALE
HEIGHT = BOARD_BOTTOM + 170

Colour = tuple[int, int, int]
BACKGROUND: Colour = (244, 239, 229)
FRAME: Colour = (205, 192, 166)
CELL: Colour = (252, 249, 242)
THIN_EDGE: Colour = (160, 148, 128)
GROUP_EDGE: Colour = (48, 40, 31)
TEXT: Colour = (40, 34, 28)
MUTED: Colour = (112, 100, 84)
PIECE_FILL: tuple[Colour, Colour] = ((30, 30, 33), (203, 38, 38))
PIECE_RIM: tuple[Colour, Colour] = ((92, 92, 98), (128, 16, 16))
CORRIDOR: Colour = (184, 226, 170)
CRITICAL: Colour = (247, 200, 146)
CROSS: Colour = (168, 64, 0)
GOLD: Colour = (255, 193, 7)
DOT_EDGE: Colour = (20, 20, 20)

_THIN = 2.0  # pentagon edge width, pixels
_THICK = 5.5  # group outline width, pixels
_OUTER = 0.80  # piece size relative to its pentagon
_INNER = 0.64  # inner fill of a piece, inside its rim


def to_pixels(x: float, y: float) -> tuple[float, float]:
    """Board coordinates (quarter units) to image pixels."""
    return MARGIN_X + SCALE * x, BOARD_TOP + SCALE * y


@dataclass(frozen=True)
class _CellArt:
    inside_at: tuple[int, int]  # top-left pixel of ``inside``
    inside: Image.Image  # mask of the pentagon without its edges (for tints)
    piece_at: tuple[int, int]  # top-left pixel of ``piece`` and the patches
    piece: Image.Image  # mask of a piece
    # the piece in each seat's colours: plain, with a gold rim (scored), faded (did not)
    patches: tuple[tuple[Image.Image, Image.Image, Image.Image], ...]
    centre: tuple[int, int]  # pixel centre for marks


@dataclass(frozen=True)
class _Art:
    background: Image.Image
    cells: tuple[_CellArt, ...]
    letters: tuple[tuple[tuple[int, int], Image.Image], ...]
    dot: Image.Image
    cross: Image.Image
    swatch: tuple[Image.Image, Image.Image]
    palette: Image.Image


def _scaled(points: Sequence[tuple[float, float]], origin: tuple[int, int]) -> list[
    tuple[float, float]
]:
    ox, oy = origin
    out = []
    for x, y in points:
        px, py = to_pixels(x, y)
        out.append(((px - ox) * SUPER, (py - oy) * SUPER))
    return out


def _shrunk(cell: Cell, factor: float) -> list[tuple[float, float]]:
    cx, cy = cell.centroid
    return [(cx + factor * (x - cx), cy + factor * (y - cy)) for x, y in cell.vertices]


def _edges() -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    """Every edge once, with whether it is part of a group outline."""
    seen: dict[frozenset[tuple[int, int]], list[Cell]] = {}
    for cell in CELLS:
        vs = cell.vertices
        for a, b in zip(vs, vs[1:] + vs[:1], strict=True):
            seen.setdefault(frozenset((a, b)), []).append(cell)
    out = []
    for key, owners in seen.items():
        a, b = sorted(key)
        outline = len(owners) == 1 or owners[0].letter != owners[1].letter
        out.append((a, b, outline))
    return out


def _stroke(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
            width: float, fill: int | tuple[int, ...]) -> None:
    w = width * SUPER
    draw.line([a, b], fill=fill, width=round(w))
    for x, y in (a, b):  # round caps, so that outlines join cleanly
        draw.ellipse([x - w / 2, y - w / 2, x + w / 2, y + w / 2], fill=fill)


def _polygon_mask(size: tuple[int, int], points: list[tuple[float, float]]) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return mask


def _build_background() -> tuple[Image.Image, Image.Image]:
    """The empty board and, at the supersampled size, the mask of all its edges."""
    big = Image.new("RGB", (WIDTH * SUPER, HEIGHT * SUPER), BACKGROUND)
    lines = Image.new("L", big.size, 0)
    draw = ImageDraw.Draw(big)
    line_draw = ImageDraw.Draw(lines)
    x0, y0 = to_pixels(0, 0)
    x1, y1 = to_pixels(SIZE, SIZE)
    draw.rectangle([x0 * SUPER, y0 * SUPER, x1 * SUPER, y1 * SUPER], fill=FRAME)
    for cell in CELLS:
        draw.polygon(_scaled(cell.vertices, (0, 0)), fill=CELL)
    edges = _edges()
    for outline_pass in (False, True):  # thick outlines over thin edges
        for a, b, outline in edges:
            if outline != outline_pass:
                continue
            pa, pb = _scaled([a, b], (0, 0))
            width = _THICK if outline else _THIN
            _stroke(draw, pa, pb, width, GROUP_EDGE if outline else THIN_EDGE)
            _stroke(line_draw, pa, pb, width, 255)
    small = big.reduce(SUPER)
    d = ImageDraw.Draw(small)
    d.text((MARGIN_X - 46, 20), "Cairo Corridor", font=font(30, True), fill=TEXT)
    return small, lines


def _cell_art(cell: Cell, lines: Image.Image) -> _CellArt:
    xs = [to_pixels(x, y)[0] for x, y in cell.vertices]
    ys = [to_pixels(x, y)[1] for x, y in cell.vertices]
    origin = (int(min(xs)) - 2, int(min(ys)) - 2)
    size = (int(max(xs)) + 3 - origin[0], int(max(ys)) + 3 - origin[1])
    big = (size[0] * SUPER, size[1] * SUPER)
    whole = _polygon_mask(big, _scaled(cell.vertices, origin))
    box = (origin[0] * SUPER, origin[1] * SUPER, origin[0] * SUPER + big[0],
           origin[1] * SUPER + big[1])
    inside_at, inside = _cropped(origin, ImageChops.subtract(whole, lines.crop(box)).reduce(SUPER))
    piece_at, piece = _cropped(
        origin, _polygon_mask(big, _scaled(_shrunk(cell, _OUTER), origin)).reduce(SUPER)
    )
    core = _polygon_mask(big, _scaled(_shrunk(cell, _INNER), origin)).reduce(SUPER)
    left, top = piece_at[0] - origin[0], piece_at[1] - origin[1]
    core = core.crop((left, top, left + piece.width, top + piece.height))
    faded = piece.point(lambda v: v * 62 // 100)
    patches = []
    for seat in (0, 1):
        looks = []
        for rim in (PIECE_RIM[seat], GOLD, PIECE_RIM[seat]):
            patch = Image.new("RGB", piece.size, rim)
            patch.paste(PIECE_FILL[seat], (0, 0), core)
            looks.append(patch)
        looks[2].paste(CELL, (0, 0), faded)
        patches.append((looks[0], looks[1], looks[2]))
    cx, cy = to_pixels(*cell.centroid)
    return _CellArt(inside_at, inside, piece_at, piece, tuple(patches), (round(cx), round(cy)))


def _cropped(origin: tuple[int, int], mask: Image.Image) -> tuple[tuple[int, int], Image.Image]:
    """The mask cut to what it covers, and where that part starts."""
    box = mask.getbbox()
    assert box is not None
    return (origin[0] + box[0], origin[1] + box[1]), mask.crop(box)


def _badge(letter: str) -> Image.Image:
    """A group letter on a round white badge."""
    radius = 16
    size = (2 * radius + 4) * SUPER
    big = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size / 2
    r = radius * SUPER
    draw.ellipse([c - r, c - r, c + r, c + r], fill=(255, 255, 255, 240),
                 outline=(*GROUP_EDGE, 255), width=2 * SUPER)
    draw.text((c, c + SUPER), letter, font=font(22 * SUPER, True), fill=(*TEXT, 255),
              anchor="mm")
    return big.reduce(SUPER)


def _dot() -> Image.Image:
    """The last-move mark: a gold dot with a dark ring, visible on black and red."""
    radius = 10
    size = (2 * radius + 2) * SUPER
    big = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    c, r = size / 2, radius * SUPER
    ImageDraw.Draw(big).ellipse([c - r, c - r, c + r, c + r], fill=(*GOLD, 255),
                                outline=(*DOT_EDGE, 255), width=3 * SUPER)
    return big.reduce(SUPER)


def _cross() -> Image.Image:
    """The hint mark of a critical cell."""
    half = 8
    size = (2 * half + 6) * SUPER
    big = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c, h = size / 2, half * SUPER
    for a, b in (((c - h, c - h), (c + h, c + h)), ((c - h, c + h), (c + h, c - h))):
        _stroke(draw, a, b, 3.5, (*CROSS, 255))
    return big.reduce(SUPER)


@lru_cache(maxsize=1)
def _art() -> _Art:
    background, lines = _build_background()
    cells = tuple(_cell_art(cell, lines) for cell in CELLS)
    letters = []
    for letter in LETTERS:
        badge = _badge(letter)
        px, py = to_pixels(*group_centre(letter))
        letters.append(((round(px) - badge.width // 2, round(py) - badge.height // 2), badge))
    unfinished = _Art(background, cells, tuple(letters), _dot(), _cross(), _swatch(),
                      Image.new("P", (1, 1)))
    return replace(unfinished, palette=_palette(unfinished))


def _palette(art: _Art) -> Image.Image:
    """A fixed 256-colour palette that holds every colour and blend a render uses."""
    third = len(CELLS) // 3
    everything = (1 << len(CELLS)) - 1
    black = (1 << third) - 1
    red = ((1 << 2 * third) - 1) & ~black
    samples = [
        _compose(art, black, red, 0, everything & ~black & ~red, everything, 0, 0),
        _compose(art, black, red, third, everything & ~black & ~red, 0, black | red >> 1, 0),
        _compose(art, red, black, 1, 0, 0, 0, everything),
    ]
    sheet = Image.new("RGB", (WIDTH, HEIGHT * len(samples)))
    for i, sample in enumerate(samples):
        _legend(sample, art, ["Black", "Red"], ["12 left", "score 13"], (i % 2, "to play"),
                 "Sample status line", "sample note")
        sheet.paste(sample, (0, HEIGHT * i))
    fitted = sheet.quantize(224, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    colours = list(fitted.getpalette() or [])[: 224 * 3]
    # The plain fills exactly, so that flat areas never shift colour.
    exact = [BACKGROUND, FRAME, CELL, THIN_EDGE, GROUP_EDGE, TEXT, MUTED, *PIECE_FILL,
             *PIECE_RIM, CORRIDOR, CRITICAL, CROSS, GOLD, DOT_EDGE, (255, 255, 255)]
    for colour in exact:
        colours.extend(colour)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def _compose(art: _Art, black: int, red: int, last: int | None, corridor: int,
             critical: int, scored: int, faded: int) -> Image.Image:
    """The board with pieces and marks, before the legend (masks are cell bitmasks)."""
    image = art.background.copy()
    cells = art.cells
    for index in cells_of(corridor):
        a = cells[index]
        image.paste(CORRIDOR, a.inside_at, a.inside)
    for index in cells_of(critical):
        a = cells[index]
        image.paste(CRITICAL, a.inside_at, a.inside)
    for seat, pieces in enumerate((black, red)):
        for index in cells_of(pieces):
            a = cells[index]
            look = 1 if scored >> index & 1 else 2 if faded >> index & 1 else 0
            image.paste(a.patches[seat][look], a.piece_at, a.piece)
    for index in cells_of(critical):
        a = cells[index]
        cross = art.cross
        image.paste(cross, (a.centre[0] - cross.width // 2, a.centre[1] - cross.height // 2),
                    cross)
    for position, badge in art.letters:
        image.paste(badge, position, badge)
    if last is not None:
        dot = art.dot
        centre = cells[last].centre
        image.paste(dot, (centre[0] - dot.width // 2, centre[1] - dot.height // 2), dot)
    return image


def _legend(image: Image.Image, art: _Art, labels: Sequence[str], counts: Sequence[str],
            pill: tuple[int, str] | None, line: str, note: str) -> None:
    """One row per player (piece, name, count, maybe a pill), a status line, a note."""
    draw = ImageDraw.Draw(image)
    left = MARGIN_X - 44
    right = WIDTH - MARGIN_X + 44
    for seat in (0, 1):
        y = BOARD_BOTTOM + 20 + 44 * seat
        image.paste(PIECE_RIM[seat], (left, y), art.swatch[0])
        image.paste(PIECE_FILL[seat], (left, y), art.swatch[1])
        label = fit_text(labels[seat], right - 250 - (left + 52), 26)
        draw.text((left + 52, y), label, font=font(26, True), fill=TEXT)
        draw.text((right, y + 2), counts[seat], font=font(24, True), fill=TEXT, anchor="ra")
        if pill is not None and pill[0] == seat:
            box = draw.textbbox((0, 0), pill[1], font=font(20, True))
            w = box[2] - box[0]
            x = right - 150 - w
            draw.rounded_rectangle([x - 10, y - 1, x + w + 10, y + 31], radius=8, fill=GOLD)
            draw.text((x, y + 4), pill[1], font=font(20, True), fill=TEXT)
    draw.text((left, BOARD_BOTTOM + 112), line, font=font(22, True), fill=TEXT)
    if note:
        draw.text((left, BOARD_BOTTOM + 142), note, font=font(17), fill=MUTED)


def _swatch() -> tuple[Image.Image, Image.Image]:
    """Piece and core masks of a small upward pentagon for the legend."""
    u = CELLS[_SWATCH_CELL]
    cx, cy = u.centroid
    unit = 7.5 * SUPER
    size = (44 * SUPER, 32 * SUPER)
    masks = []
    for factor in (1.0, 0.72):
        points = [
            (size[0] / 2 + factor * unit * (x - cx), size[1] / 2 + factor * unit * (y - cy))
            for x, y in u.vertices
        ]
        masks.append(_polygon_mask(size, points).reduce(SUPER))
    return masks[0], masks[1]


_SWATCH_CELL = next(c.index for c in CELLS if c.name == "BU")


def _label(seat: int, names: Sequence[str] | None) -> str:
    colour = SEAT_NAMES[seat]
    if names and seat < len(names) and names[seat].strip():
        return f"{colour} · {names[seat].strip()}"
    return f"{colour} · {'First Player' if seat == 0 else 'Second Player'}"


def _result_line(state: CairoState, outcome: Outcome) -> str:
    assert outcome.scores is not None
    black, red = outcome.scores
    if outcome.winner is None:
        return f"Draw {black}–{red}: the Corridor is closed"
    winner = SEAT_NAMES[outcome.winner]
    loser = SEAT_NAMES[1 - outcome.winner]
    if black != red:
        return f"{winner} wins {max(black, red)}–{min(black, red)}: the Corridor is closed"
    if state.tie == "first-player-loses":
        return f"Tie {black}–{red}: the First Player ({loser}) loses, {winner} wins"
    return f"Tie {black}–{red}: {loser} placed the last piece and loses, {winner} wins"


def render(state: CairoState, outcome: Outcome | None, *, hints: bool = False,
           names: Sequence[str] | None = None) -> bytes:
    art = _art()
    analysis = analyse(state.black | state.red)
    labels = [_label(0, names), _label(1, names)]
    occupied = state.black | state.red
    if outcome is not None:
        assert outcome.scores is not None
        scored = occupied & analysis.adjacent
        image = _compose(art, state.black, state.red, state.last, analysis.region, 0, scored,
                         occupied & ~scored)
        _legend(
            image,
            art,
            labels,
            [f"score {n}" for n in outcome.scores],
            None if outcome.winner is None else (outcome.winner, "wins"),
            _result_line(state, outcome),
            "Green: the final Corridor. Gold rim: a piece touching it, which scores.",
        )
    else:
        corridor = critical = 0
        if hints:
            critical = analysis.critical
            corridor = analysis.region & ~critical
        image = _compose(art, state.black, state.red, state.last, corridor, critical, 0, 0)
        line = f"Move {state.placed + 1} · {SEAT_NAMES[state.turn]} to play"
        if state.last is not None:
            line += f" · last: {SEAT_NAMES[state.owner(state.last) or 0]} {CELLS[state.last].name}"
        note = "Hints: green = the Corridor, × = would leave no Corridor." if hints else ""
        left = [f"{PIECES - state.pieces(seat).bit_count()} left" for seat in (0, 1)]
        _legend(image, art, labels, left, (state.turn, "to play"), line, note)
    return to_png(image.quantize(palette=art.palette, dither=Image.Dither.NONE))
