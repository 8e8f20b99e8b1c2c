"""Board images: the 72 pentagons, the group letters, pieces, marks and a legend.

Everything that does not depend on the position is built once per process: the board
drawn 4x larger and scaled down, the anti-aliased mask of every cell and piece, the
letter badges, a palette, and the empty board mapped to it (the *layer*). A render
copies the layer and pastes, in palette mode, a ready-made tile for each cell that is
not empty (a piece, a tint, a mark: each tile made once, the first time it is needed,
through the cell's own mask, so that neighbours never overlap), draws the legend's
text in true colour and maps only that strip to the palette.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial

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
from engine.imaging import font
from engine.labels import label
from engine.palette import Canvas, Layer, Palette, Placed, changes, write
from engine.text import draw_text, fit_line, fit_text

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
    box: tuple[int, int, int, int]  # what the cell's tiles cover
    owned: Image.Image  # 255 where a pixel's colour depends on the cell (inside, piece)


@dataclass(frozen=True)
class _Art:
    background: Image.Image
    cells: tuple[_CellArt, ...]
    letters: tuple[tuple[tuple[int, int], Image.Image], ...]
    dot: Image.Image
    cross: Image.Image
    swatch: tuple[Image.Image, Image.Image]
    palette: Palette


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
    x0, y0 = min(inside_at[0], piece_at[0]), min(inside_at[1], piece_at[1])
    x1 = max(inside_at[0] + inside.width, piece_at[0] + piece.width)
    y1 = max(inside_at[1] + inside.height, piece_at[1] + piece.height)
    owned = Image.new("L", (x1 - x0, y1 - y0), 0)
    for at, mask in ((inside_at, inside), (piece_at, piece)):
        owned.paste(255, (at[0] - x0, at[1] - y0), mask.point(lambda v: 255 if v else 0))
    return _CellArt(inside_at, inside, piece_at, piece, tuple(patches), (round(cx), round(cy)),
                    (x0, y0, x1, y1), owned)


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
                      Palette(()))
    return replace(unfinished, palette=_palette(unfinished))


def _palette(art: _Art) -> Palette:
    """A fixed palette that holds every colour and blend a render uses."""
    third = len(CELLS) // 3
    everything = (1 << len(CELLS)) - 1
    black = (1 << third) - 1
    red = ((1 << 2 * third) - 1) & ~black
    samples = [
        _whole(art, black, red, 0, everything & ~black & ~red, everything, 0, 0),
        _whole(art, black, red, third, everything & ~black & ~red, 0, black | red >> 1, 0),
        _whole(art, red, black, 1, 0, 0, 0, everything),
    ]
    for i, sample in enumerate(samples):
        _swatches(sample, art)
        _legend(sample, 0, ["Black", "Red"], ["12 left", "score 13"], (i % 2, "to play"),
                "Sample status line", "sample note")
    # The plain fills exactly, so that flat areas never shift colour.
    exact = [BACKGROUND, FRAME, CELL, THIN_EDGE, GROUP_EDGE, TEXT, MUTED, *PIECE_FILL,
             *PIECE_RIM, CORRIDOR, CRITICAL, CROSS, GOLD, DOT_EDGE, (255, 255, 255)]
    return Palette.fit(samples, exact, 224)


# A cell's look: its tint (0 none, 1 the Corridor, 2 critical, with a cross), its piece
# (None, or seat and 0 plain, 1 scored, 2 faded) and whether it holds the last move.
Look = tuple[int, tuple[int, int] | None, bool]
_EMPTY: Look = (0, None, False)


def _paint(image: Image.Image, origin: tuple[int, int], art: _Art, index: int,
           look: Look) -> None:
    """Cell ``index`` in its look, on ``image`` whose top-left is ``origin`` on the board;
    the letter badges over it, as on the whole board."""
    ox, oy = origin
    a = art.cells[index]
    tint, piece, last = look
    if tint:
        image.paste(CORRIDOR if tint == 1 else CRITICAL,
                    (a.inside_at[0] - ox, a.inside_at[1] - oy), a.inside)
    if piece is not None:
        seat, kind = piece
        image.paste(a.patches[seat][kind], (a.piece_at[0] - ox, a.piece_at[1] - oy), a.piece)
    if tint == 2:
        cross = art.cross
        image.paste(cross, (a.centre[0] - cross.width // 2 - ox,
                            a.centre[1] - cross.height // 2 - oy), cross)
    width, height = image.size
    for (bx, by), badge in art.letters:
        x, y = bx - ox, by - oy
        if x < width and y < height and x + badge.width > 0 and y + badge.height > 0:
            image.paste(badge, (x, y), badge)  # only those that reach the cell's box
    if last:
        dot = art.dot
        image.paste(dot, (a.centre[0] - dot.width // 2 - ox, a.centre[1] - dot.height // 2 - oy),
                    dot)


def _whole(art: _Art, black: int, red: int, last: int | None, corridor: int,
             critical: int, scored: int, faded: int) -> Image.Image:
    """The whole board in true colour, drawn in one piece (masks are cell bitmasks):
    what the palette is fitted to, and what the tiles add up to."""
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


def _looks(black: int, red: int, last: int | None, corridor: int, critical: int,
           scored: int, faded: int) -> list[tuple[int, Look]]:
    """Each cell that is not empty, with its look."""
    looks: dict[int, Look] = {}
    for index in cells_of(corridor):
        looks[index] = (1, None, False)
    for index in cells_of(critical):
        looks[index] = (2, None, False)
    for seat, pieces in enumerate((black, red)):
        for index in cells_of(pieces):
            kind = 1 if scored >> index & 1 else 2 if faded >> index & 1 else 0
            looks[index] = (looks.get(index, _EMPTY)[0], (seat, kind), False)
    if last is not None:
        tint, piece, _ = looks.get(last, _EMPTY)
        looks[last] = (tint, piece, True)
    return sorted(looks.items())


def _owned(index: int) -> tuple[tuple[int, int, int, int], Image.Image]:
    """The box of a cell and the mask (0 or 255) of the pixels whose colour depends on
    what is on it: its inside (where a tint goes), its piece and marks."""
    a = _art().cells[index]
    return a.box, a.owned


@lru_cache(maxsize=2048)
def _placed(index: int, look: Look) -> Placed | None:
    """The cell's tile cut to the pixels where it differs from the empty board (a piece
    without a tint: its own pentagon), all that pasting it through ``_owned`` changes."""
    box, owned = _owned(index)
    under = _layer().framed.crop((box[0] + 1, box[1], box[2] + 1, box[3]))
    return changes(_tile(index, look), under, owned, box[:2])


def _tile(index: int, look: Look) -> Image.Image:
    """Cell ``index`` in ``look``, mapped to the palette: pasted through ``_owned``."""
    art = _art()
    box, _ = _owned(index)
    region = art.background.crop(box)
    _paint(region, box[:2], art, index, look)
    return art.palette.quantize(region)


# Every look a cell can have: a tint alone, or a piece (either seat, plain, scored or
# faded) with the last move's dot or without.
LOOKS: tuple[Look, ...] = ((1, None, False), (2, None, False), *(
    (0, (seat, kind), last) for seat in (0, 1) for kind in (0, 1, 2) for last in (False, True)))


def build_tiles() -> None:
    """Every cell's tile in every look (``_placed`` keeps them all)."""
    for index in range(len(_art().cells)):
        for look in LOOKS:
            _placed(index, look)


@lru_cache(maxsize=1)
def _layer() -> Layer:
    """The empty board with its letters and the legend's swatches."""
    art = _art()
    image = art.background.copy()
    for position, badge in art.letters:
        image.paste(badge, position, badge)
    _swatches(image, art)
    return Layer(image, art.palette)




def _swatches(image: Image.Image, art: _Art) -> None:
    left = MARGIN_X - 44
    for seat in (0, 1):
        y = BOARD_BOTTOM + 20 + 44 * seat
        image.paste(PIECE_RIM[seat], (left, y), art.swatch[0])
        image.paste(PIECE_FILL[seat], (left, y), art.swatch[1])


def _legend(image: Image.Image, top: int, labels: Sequence[str], counts: Sequence[str],
            pill: tuple[int, str] | None, line: str, note: str,
            names: Sequence[str] = ()) -> None:
    """One row per player (name, count, maybe a pill), a status line, a note; drawn on
    ``image`` whose top is at ``top`` on the board."""
    for seat in (0, 1):
        _row(image, top, seat, labels[seat], counts[seat],
             pill[1] if pill is not None and pill[0] == seat else None)
    _line(image, top, line, names)
    _note(image, top, note)


# The legend's parts, each in a box of its own (``render`` keeps rows and notes mapped).
_LEFT = MARGIN_X - 44
_RIGHT = WIDTH - MARGIN_X + 44


def _row_box(seat: int) -> tuple[int, int, int, int]:
    return 0, BOARD_BOTTOM + 16 + 44 * seat, WIDTH, BOARD_BOTTOM + 60 + 44 * seat


_NOTE_BOX = (0, BOARD_BOTTOM + 140, WIDTH, HEIGHT)


def _row(image: Image.Image, top: int, seat: int, label: str, count: str,
         pill: str | None) -> None:
    y = BOARD_BOTTOM + 20 + 44 * seat - top
    left, right = _LEFT, _RIGHT
    draw_text(image, (left + 52, y), fit_text(label, right - 250 - (left + 52), 26), 26,
              True, TEXT)
    draw_text(image, (right, y + 2), count, 24, True, TEXT, "ra")
    if pill is not None:
        box = font(20, True).getbbox(pill)
        w = box[2] - box[0]
        x = right - 150 - w
        ImageDraw.Draw(image).rounded_rectangle([x - 10, y - 1, x + w + 10, y + 31], radius=8,
                                                fill=GOLD)
        draw_text(image, (x, y + 4), pill, 20, True, TEXT)


def _line(image: Image.Image | Canvas, top: int, line: str, names: Sequence[str]) -> None:
    text, size = fit_line(line, _RIGHT - _LEFT, 22, names=names, smallest=17)
    write(image, (_LEFT, BOARD_BOTTOM + 112 - top), text, size, True, TEXT)


def _note(image: Image.Image, top: int, note: str) -> None:
    if note:
        draw_text(image, (_LEFT, BOARD_BOTTOM + 142 - top), note, 17, False, MUTED)


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


def _colour(seat: int) -> str:
    return label(SEAT_NAMES[seat])  # "Black", "Red": templates of their own


def _label(seat: int, names: Sequence[str] | None) -> str:
    if names and seat < len(names) and names[seat].strip():
        name = names[seat].strip()
    else:
        name = label("First Player" if seat == 0 else "Second Player")
    return label("{colour} · {name}", colour=_colour(seat), name=name)


def _result_line(state: CairoState, outcome: Outcome) -> str:
    assert outcome.scores is not None
    black, red = outcome.scores
    if outcome.winner is None:
        return label("Draw {black}–{red}: the Corridor is closed", black=black, red=red)
    winner = _colour(outcome.winner)
    loser = _colour(1 - outcome.winner)
    if black != red:
        return label("{winner} wins {high}–{low}: the Corridor is closed", winner=winner,
                     high=max(black, red), low=min(black, red))
    if state.tie == "first-player-loses":
        return label("Tie {black}–{red}: the First Player ({loser}) loses, {winner} wins",
                     black=black, red=red, loser=loser, winner=winner)
    return label("Tie {black}–{red}: {loser} placed the last piece and loses, {winner} wins",
                 black=black, red=red, loser=loser, winner=winner)


@dataclass(frozen=True)
class _Content:
    """What one board shows: cells as bitmasks, and the legend."""

    cells: tuple[int, int, int | None, int, int, int, int]  # _whole's masks
    labels: list[str]
    counts: list[str]
    pill: tuple[int, str] | None
    line: str
    note: str
    names: list[str]


def _content(state: CairoState, outcome: Outcome | None, hints: bool,
             names: Sequence[str] | None, verdict: str | None) -> _Content:
    analysis = analyse(state.black | state.red)
    labels = [_label(0, names), _label(1, names)]
    occupied = state.black | state.red
    shown = [n.strip() for n in names or () if n.strip()]
    if outcome is not None:
        assert outcome.scores is not None
        scored = occupied & analysis.adjacent
        return _Content(
            (state.black, state.red, state.last, analysis.region, 0, scored,
             occupied & ~scored),
            labels, [label("score {n}", n=n) for n in outcome.scores],
            None if outcome.winner is None else (outcome.winner, label("wins")),
            _result_line(state, outcome),
            label("Green: the final Corridor. Gold rim: a piece touching it, which scores."),
            shown)
    corridor = critical = 0
    if hints and verdict is None:
        critical = analysis.critical
        corridor = analysis.region & ~critical
    cells = (state.black, state.red, state.last, corridor, critical, 0, 0)
    counts = [label("{n} left", n=PIECES - state.pieces(seat).bit_count()) for seat in (0, 1)]
    if verdict is not None:
        return _Content(cells, labels, counts, None, verdict, "", shown)
    played = (label("before the first move") if state.placed <= 0
              else label("after move {n}", n=state.placed))  # as ``after_move`` says it
    line = label("{where} · {colour} to play", where=played[:1].upper() + played[1:],
                 colour=_colour(state.turn))
    if state.last is not None:
        line = label("{line} · last: {colour} {cell}", line=line,
                     colour=_colour(state.owner(state.last) or 0),
                     cell=CELLS[state.last].name)
    note = label("Hints: green = the Corridor, × = would leave no Corridor.") if hints else ""
    return _Content(cells, labels, counts, (state.turn, label("to play")), line, note, shown)


def _compose(state: CairoState, outcome: Outcome | None, hints: bool,
             names: Sequence[str] | None, verdict: str | None) -> Image.Image:
    """The whole picture in true colour, drawn in one piece: what the palette tiles and
    the legend strip add up to (mapped to the palette)."""
    art = _art()
    c = _content(state, outcome, hints, names, verdict)
    image = _whole(art, *c.cells)
    _swatches(image, art)
    _legend(image, 0, c.labels, c.counts, c.pill, c.line, c.note, c.names)
    return image


def render(state: CairoState, outcome: Outcome | None, *, hints: bool = False,
           names: Sequence[str] | None = None, verdict: str | None = None) -> bytes:
    """The board; ``verdict``: the game ended outside the rules (time, resignation, a
    host), and this line says how, in place of whose turn it is."""
    c = _content(state, outcome, hints, names, verdict)
    canvas = Canvas(_layer(), _coloured(c.labels, c.line))
    for index, look in _looks(*c.cells):
        tile = _placed(index, look)
        if tile is not None:
            canvas.place(tile)
    # A match's rows and note recur from board to board: kept mapped to the palette.
    for seat in (0, 1):
        box = _row_box(seat)
        pill = c.pill[1] if c.pill is not None and c.pill[0] == seat else None
        canvas.cached(box, ("row", seat, c.labels[seat], c.counts[seat], pill),
                      partial(_row, top=box[1], seat=seat, label=c.labels[seat],
                              count=c.counts[seat], pill=pill))
    canvas.cached(_NOTE_BOX, ("note", c.note), partial(_note, top=_NOTE_BOX[1], note=c.note))
    _line(canvas, 0, c.line, c.names)
    return canvas.finish()


def _coloured(*texts: str | Sequence[str]) -> list[Image.Image]:
    """The emoji of texts drawn in colour, for the palette's free entries."""
    from engine.text import runs, text_art

    out = []
    for item in texts:
        for text in [item] if isinstance(item, str) else item:
            # Drawn only when it holds an emoji (the status line is new every board).
            if any(face == "emoji" for face, _ in runs(text)):
                art = text_art(text, 26, True)
                if art.colour is not None:
                    out.append(art.colour)
    return out
