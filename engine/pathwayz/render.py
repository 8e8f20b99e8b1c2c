"""Pathwayz board images, sized for a phone in a chat client (952 px wide).

The board, coordinates and key are drawn once, supersampled and scaled down, and
mapped to the game's fixed palette (the layer); pieces and markers are anti-aliased
sprites. A render works in palette mode: each cell that is not empty is a ready-made
palette tile (made once, the first time it is needed), and only the header and, at
the end, the winning chain are drawn in true colour and mapped to the palette.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from engine.game import after_move
from engine.imaging import font
from engine.labels import label, labelled
from engine.palette import Canvas, Layer, Palette, write
from engine.pathwayz.geometry import (
    BIT,
    CELLS,
    COLS,
    ROWS,
    cheapest_route,
    indices,
    shortest_chain,
)
from engine.pathwayz.notation import FILES
from engine.pathwayz.rules import outcome, reason_said
from engine.pathwayz.state import BLACK, COLOUR_NAMES, WHITE, PathwayzState
from engine.text import draw_text, fit_line, shorten, text_art, text_length

CELL = 72
BOARD_X = 44
BOARD_Y = 104
WIDTH = BOARD_X * 2 + COLS * CELL
FOOTER_Y = BOARD_Y + ROWS * CELL + 34
HEIGHT = FOOTER_Y + 46
SS = 3  # supersampling of the static background
SPRITE_SS = 4

PAGE = (236, 231, 221)
INK = (34, 34, 38)
MUTED = (105, 100, 92)
WOOD = (218, 184, 128)
GRID = (160, 124, 72)
FRAME = (110, 80, 40)
WHITE_FILL = (250, 249, 245)
WHITE_EDGE = (70, 70, 74)
BLACK_FILL = (30, 31, 34)
BLACK_EDGE = (0, 0, 0)
LAST = (224, 49, 49)
FLIP = (165, 216, 255)
CHAIN = (43, 160, 70)
HIGHLIGHT = (255, 250, 235)
TURN = (52, 88, 150)

RADIUS = 0.40  # of a cell


def cell_origin(cell: int) -> tuple[int, int]:
    """Top-left pixel of a cell; row 1 is at the bottom, like a chess board."""
    row, col = divmod(cell, COLS)
    return BOARD_X + col * CELL, BOARD_Y + (ROWS - 1 - row) * CELL


def _centre(cell: int) -> tuple[float, float]:
    x, y = cell_origin(cell)
    return x + CELL / 2, y + CELL / 2


# ---- sprites --------------------------------------------------------------------------


def _disc(size: int, colour: int, permanent: bool) -> Image.Image:
    big = size * SPRITE_SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = big / 2
    r = RADIUS * big
    fill, edge = (WHITE_FILL, WHITE_EDGE) if colour == WHITE else (BLACK_FILL, BLACK_EDGE)
    draw.ellipse((c - r, c - r, c + r, c + r), fill=edge)
    inner = r - 0.06 * r
    draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=fill)
    if permanent:
        # A ring in the other colour with a centre dot: reads as "fixed" at any size.
        mark = BLACK_FILL if colour == WHITE else WHITE_FILL
        ring, width = 0.62 * r, 0.16 * r
        draw.ellipse((c - ring, c - ring, c + ring, c + ring), outline=mark, width=round(width))
        dot = 0.17 * r
        draw.ellipse((c - dot, c - dot, c + dot, c + dot), fill=mark)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _frame(size: int, colour: tuple[int, int, int], width: float) -> Image.Image:
    big = size * SPRITE_SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    inset = 3 * SPRITE_SS
    draw.rounded_rectangle(
        (inset, inset, big - inset - 1, big - inset - 1),
        radius=6 * SPRITE_SS,
        outline=colour,
        width=round(width * SPRITE_SS),
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _dot(size: int, colour: int) -> Image.Image:
    big = size * SPRITE_SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    fill, edge = (WHITE_FILL, WHITE_EDGE) if colour == WHITE else (BLACK_FILL, BLACK_EDGE)
    draw.ellipse((0, 0, big - 1, big - 1), fill=edge)
    draw.ellipse((SPRITE_SS, SPRITE_SS, big - 1 - SPRITE_SS, big - 1 - SPRITE_SS), fill=fill)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def _sprites() -> dict[str, Image.Image]:
    sprites = {
        "w": _disc(CELL, WHITE, False),
        "b": _disc(CELL, BLACK, False),
        "w*": _disc(CELL, WHITE, True),
        "b*": _disc(CELL, BLACK, True),
        "last": _frame(CELL, LAST, 4.5),
        "flip": Image.new("RGB", (CELL - 2, CELL - 2), FLIP),
        "hint_w": _dot(16, WHITE),
        "hint_b": _dot(16, BLACK),
        "legend_w": _disc(40, WHITE, False),
        "legend_b": _disc(40, BLACK, False),
    }
    return sprites


# ---- background -----------------------------------------------------------------------


#: the key's words in English (``_draw_key``): what the static layer is drawn and cached by
KEY_WORDS = ("permanent", "last move", "flipped", "connect column a to column l")


def _key_words() -> tuple[str, ...]:
    """The key's words in the language of the labels: the cached layer and tiles of one
    language are never used for another."""
    return tuple(label(word) for word in KEY_WORDS)


@lru_cache(maxsize=4)
def _background(words: tuple[str, ...]) -> Image.Image:
    image = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), PAGE)
    draw = ImageDraw.Draw(image)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return round(x0 * SS), round(y0 * SS), round(x1 * SS), round(y1 * SS)

    bx1, by1 = BOARD_X + COLS * CELL, BOARD_Y + ROWS * CELL
    draw.rounded_rectangle(
        box(BOARD_X - 6, BOARD_Y - 6, bx1 + 6, by1 + 6), radius=8 * SS, fill=FRAME
    )
    draw.rectangle(box(BOARD_X, BOARD_Y, bx1, by1), fill=WOOD)
    for col in range(COLS + 1):
        x = BOARD_X + col * CELL
        draw.line(box(x, BOARD_Y, x, by1), fill=GRID, width=2 * SS)
    for row in range(ROWS + 1):
        y = BOARD_Y + row * CELL
        draw.line(box(BOARD_X, y, bx1, y), fill=GRID, width=2 * SS)

    label = font(20 * SS, True)
    for col in range(COLS):
        cx = BOARD_X + col * CELL + CELL // 2
        draw.text((cx * SS, (by1 + 21) * SS), FILES[col], font=label, fill=INK, anchor="mm")
    for row in range(ROWS):
        cy = BOARD_Y + (ROWS - 1 - row) * CELL + CELL // 2
        for cx in (BOARD_X // 2 - 2, bx1 + BOARD_X // 2 + 2):
            draw.text((cx * SS, cy * SS), str(row + 1), font=label, fill=INK, anchor="mm")

    small = image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    _draw_key(small, words)
    return small


_ICON = 34  # a mark of the key


def _key_item(label: str, x: int) -> int:
    """Where the key's next mark starts after ``label`` drawn from ``x``."""
    return x + _ICON + 6 + round(text_length(label, 17)) + 22


def key_room(words: tuple[str, ...]) -> float:
    """The pixels between the key's last mark and the goal right of it (negative: they
    overlap), with the key's ``words`` (``KEY_WORDS`` in a language)."""
    x = BOARD_X + 2 * (_ICON - 4) - _ICON + 4
    for word in words[:3]:
        x = _key_item(word, x)
    return WIDTH - BOARD_X - text_length(words[3], 17) - (x - 22)


def _draw_key(image: Image.Image, words: tuple[str, ...]) -> None:
    """The footer: what the marks mean, and the goal."""
    draw = ImageDraw.Draw(image)
    y = FOOTER_Y + 20
    x = BOARD_X
    icon = _ICON

    def item(label: str, x: int) -> int:
        draw_text(image, (x + icon + 6, y), label, 17, False, INK, "lm")
        return _key_item(label, x)

    # Both permanent faces side by side, overlapping a little, then the label.
    for colour in (WHITE, BLACK):
        sprite = _disc(icon + 10, colour, True)
        image.paste(sprite, (x - 5, y - (icon + 10) // 2), sprite)
        x += icon - 4
    permanent, last, flipped, goal = words
    x = item(permanent, x - icon + 4)
    frame = _frame(icon, LAST, 3.5)
    image.paste(frame, (x, y - icon // 2), frame)
    x = item(last, x)
    draw.rectangle((x + 3, y - icon // 2 + 3, x + icon - 3, y + icon // 2 - 3), fill=FLIP)
    x = item(flipped, x)
    draw_text(image, (WIDTH - BOARD_X, y), goal, 17, False, MUTED, "rm")


# ---- per render -----------------------------------------------------------------------

_NAME_CELLS = 20  # display cells of a name in the header


def _short(name: str, limit: int = _NAME_CELLS) -> str:
    return shorten(" ".join(name.split()), limit)


def _header(image: Image.Image, state: PathwayzState, names: Sequence[str] | None,
            verdict: str | None = None) -> None:
    _slots(image, *_slots_key(state, names, verdict))
    _line(image, 0, state, names, verdict)


_SLOTS_BOX = (0, 0, WIDTH, 68)  # the players, a part of the header of its own


def _slots_key(state: PathwayzState, names: Sequence[str] | None,
               verdict: str | None) -> tuple[int | None, bool, tuple[str, ...]]:
    """What the players' slots show: whose is lit, whether for a win, the names."""
    result = outcome(state)
    focus = None if verdict is not None else state.turn if result is None else result.winner
    shown = tuple(_short(names[seat]) if names is not None and seat < len(names)
                  and names[seat].strip() else "" for seat in (WHITE, BLACK))
    return focus, result is not None, shown


def _slots(image: Image.Image, focus: int | None, won: bool, names: tuple[str, ...]) -> None:
    """Each player's colour and name, the one to move (or the winner) lit."""
    sprites = _sprites()
    draw = ImageDraw.Draw(image)
    slot = (WIDTH - 2 * BOARD_X) // 2
    for seat in (WHITE, BLACK):
        x0 = BOARD_X + seat * slot
        y0 = 10
        if seat == focus:
            colour = CHAIN if won else TURN
            draw.rounded_rectangle(
                (x0 - 6, y0, x0 + slot - 12, y0 + 50), radius=10, fill=HIGHLIGHT,
                outline=colour, width=3,
            )
        sprite = sprites["legend_w" if seat == WHITE else "legend_b"]
        image.paste(sprite, (x0 + 4, y0 + 5), sprite)
        colour_name = label(COLOUR_NAMES[seat])
        x = x0 + 52
        draw_text(image, (x, y0 + 25), colour_name, 22, True, INK, "lm")
        x += round(text_length(colour_name, 22, True)) + 10
        if names[seat]:
            draw_text(image, (x, y0 + 25), names[seat], 22, False, INK, "lm")


def _line(image: Image.Image | Canvas, top: int, state: PathwayzState,
          names: Sequence[str] | None, verdict: str | None) -> None:
    """Whose move (or the result) and the last move, on ``image`` whose top is ``top``."""
    line, colour, shown = line_said(state, names, verdict)
    text, size = fit_line(line, WIDTH - 2 * BOARD_X, 20, names=shown, smallest=15)
    write(image, (BOARD_X, 82 - top), text, size, True, colour, "lm")


def line_said(state: PathwayzState, names: Sequence[str] | None,
              verdict: str | None) -> tuple[str, tuple[int, int, int], list[str]]:
    """The header's line under the players, its colour, and the names in it."""
    result = outcome(state)
    moves = state.occupied.bit_count()
    shown: list[str] = []
    if verdict is not None:
        line, colour = verdict, CHAIN
        shown = [n for n in names or () if n.strip()]
    elif result is None:
        line = label("{colour} to move · {where}", colour=label(COLOUR_NAMES[state.turn]),
                     where=after_move(moves))
        colour = INK
    elif result.winner is None:
        line = label("Draw: {reason} · {n} moves", reason=reason_said(state, result), n=moves)
        colour = INK
    else:
        who = label(COLOUR_NAMES[result.winner])
        if names is not None and result.winner < len(names) and names[result.winner].strip():
            name = " ".join(names[result.winner].split())
            who = label("{colour} ({name})", colour=who, name=name)
            shown = [name]
        line = label("{who} wins: {reason}", who=who, reason=reason_said(state, result))
        colour = CHAIN
    last = state.last_move()
    if last is not None and result is None and verdict is None:
        flips = state.flipped.bit_count()
        line = label("{line} · last {colour} {cell}", line=line,
                     colour=label(COLOUR_NAMES[state.mover]), cell=last)
        if last.permanent:
            line = label("{line}, {n} flipped", line=line, n=flips)
    return line, colour, shown


def _chain_overlay(image: Image.Image, chain: list[int],
                   origin: tuple[int, int] = (0, 0)) -> Image.Image:
    """The winning chain as a green line through its pieces, drawn supersampled, on
    ``image`` whose top-left is at ``origin`` on the board.

    Drawn as a mask (one band: everything in it is the chain's one colour), averaged
    down by 3×3 blocks (``reduce``) and painted through: a winning chain crosses the
    board, and LANCZOS resampling of an RGBA layer that size (converted to
    premultiplied alpha and back on the way) took 50-110 ms of a render worker for
    the final board of every Pathwayz game, with every board behind it in the
    worker's pipe waiting (the benchmark's longest renders)."""
    xs = [cell_origin(c)[0] for c in chain]
    ys = [cell_origin(c)[1] for c in chain]
    x0, y0 = min(xs), min(ys)
    x1, y1 = max(xs) + CELL, max(ys) + CELL
    scale = 3
    layer = Image.new("L", ((x1 - x0) * scale, (y1 - y0) * scale), 0)
    draw = ImageDraw.Draw(layer)
    points = [((_centre(c)[0] - x0) * scale, (_centre(c)[1] - y0) * scale) for c in chain]
    ring = (RADIUS * CELL + 2) * scale
    for px, py in points:
        draw.ellipse((px - ring, py - ring, px + ring, py + ring), outline=255,
                     width=5 * scale)
    draw.line(points, fill=255, width=8 * scale, joint="curve")
    dot = 7 * scale
    for px, py in points:
        draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=255)
    mask = layer.reduce(scale)
    left, top = x0 - origin[0], y0 - origin[1]
    image.paste(CHAIN, (left, top, left + mask.width, top + mask.height), mask)
    return image


def _chain_box(chain: list[int]) -> tuple[int, int, int, int]:
    xs = [cell_origin(c)[0] for c in chain]
    ys = [cell_origin(c)[1] for c in chain]
    return min(xs), min(ys), max(xs) + CELL, max(ys) + CELL


def _winning_chain(state: PathwayzState) -> list[int]:
    result = outcome(state)
    if result is None or result.winner is None:
        return []
    return shortest_chain(state.white if result.winner == WHITE else state.black)


# A cell's look: flipped, its piece's sprite ("w", "b*"… or ""), the last-move frame,
# and hint dots of White's and Black's cheapest routes.
Look = tuple[bool, str, bool, bool, bool]


def _looks(state: PathwayzState, hints: bool) -> dict[int, Look]:
    looks: dict[int, Look] = {}
    permanent = state.permanent
    dots: dict[int, tuple[bool, bool]] = {}
    if hints and outcome(state) is None:
        for colour in (WHITE, BLACK):
            own, other = ((state.white, state.black) if colour == WHITE
                          else (state.black, state.white))
            found = cheapest_route(own, other)
            for cell in found[1] if found is not None else ():
                white, black = dots.get(cell, (False, False))
                dots[cell] = (white or colour == WHITE, black or colour == BLACK)
    flipped = set(indices(state.flipped))
    for cell in range(CELLS):
        bit = BIT[cell]
        piece = ""
        if state.white & bit:
            piece = "w*" if permanent & bit else "w"
        elif state.black & bit:
            piece = "b*" if permanent & bit else "b"
        white, black = dots.get(cell, (False, False))
        look = (cell in flipped, piece, cell == state.last, white, black)
        if any(look):
            looks[cell] = look
    return looks


def _paint(image: Image.Image, origin: tuple[int, int], cell: int, look: Look) -> None:
    sprites = _sprites()
    x, y = cell_origin(cell)
    x, y = x - origin[0], y - origin[1]
    flipped, piece, last, white, black = look
    if flipped:
        image.paste(sprites["flip"], (x + 1, y + 1))
    if piece:
        sprite = sprites[piece]
        image.paste(sprite, (x, y), sprite)
    if last:
        frame = sprites["last"]
        image.paste(frame, (x, y), frame)
    for shown, key, dx in ((white, "hint_w", -12), (black, "hint_b", 12)):
        if shown:
            dot = sprites[key]
            image.paste(dot, (x + CELL // 2 - 8 + dx, y + CELL // 2 - 8), dot)


def _compose(state: PathwayzState, hints: bool, names: Sequence[str] | None,
             verdict: str | None) -> Image.Image:
    """The whole image in true colour, drawn in one piece: what the palette is fitted
    to, and what the palette tiles add up to."""
    image = _background(_key_words()).copy()
    for cell, look in _looks(state, hints).items():
        _paint(image, (0, 0), cell, look)
    chain = _winning_chain(state)
    if chain:
        _chain_overlay(image, chain)
    _header(image, state, names, verdict)
    return image


@lru_cache(maxsize=1)
def _palette() -> Palette:
    """One palette for every board, fitted once per process to two boards of a seeded
    random game: its middle with hints, and its end with the winning chain."""
    from engine.pathwayz.rules import legal_moves, place

    # fitted in English: the same palette, whichever language a process draws first
    rng = random.Random(7)
    states = [PathwayzState()]
    while outcome(states[-1]) is None:
        states.append(place(states[-1], rng.choice(legal_moves(states[-1]))))
    with labelled(None):
        samples = [_compose(states[len(states) // 2], True, ["Alice", "Bob"], None),
                   _compose(states[-1], False, ["Alice", "Bob"], None)]
    exact = [PAGE, INK, MUTED, WOOD, GRID, FRAME, WHITE_FILL, WHITE_EDGE, BLACK_FILL,
             BLACK_EDGE, LAST, FLIP, CHAIN, HIGHLIGHT, TURN]
    return Palette.fit(samples, exact, 224, close=True)


@lru_cache(maxsize=4)
def _layer(words: tuple[str, ...]) -> Layer:
    return Layer(_background(words), _palette())


@lru_cache(maxsize=2048)
def _tile(cell: int, look: Look, words: tuple[str, ...]) -> Image.Image:
    layer = _layer(words)
    x, y = cell_origin(cell)
    region = layer.rgb.crop((x, y, x + CELL, y + CELL))
    _paint(region, (x, y), cell, look)
    return layer.palette.quantize(region)


def render(
    state: PathwayzState, *, hints: bool = False, names: Sequence[str] | None = None,
    verdict: str | None = None,
) -> bytes:
    looks = _looks(state, hints and verdict is None)
    emoji = [text_art(_short(n), 22).colour for n in names or ()]
    words = _key_words()
    canvas = Canvas(_layer(words), [im for im in emoji if im is not None])
    for cell, look in looks.items():
        canvas.paste(_tile(cell, look, words), cell_origin(cell))
    chain = _winning_chain(state)
    if chain:
        box = _chain_box(chain)
        region = canvas.work(box)
        for cell, look in looks.items():
            x, y = cell_origin(cell)
            if box[0] <= x < box[2] and box[1] <= y < box[3]:
                _paint(region, box[:2], cell, look)
        _chain_overlay(region, chain, box[:2])
    # The players' slots recur from board to board: kept mapped to the palette.
    key = _slots_key(state, names, verdict)
    colours = tuple(label(name) for name in COLOUR_NAMES)
    canvas.cached(_SLOTS_BOX, ("slots", *colours, *key), partial(_slots, focus=key[0], won=key[1],
                                                       names=key[2]))
    _line(canvas, 0, state, names, verdict)
    return canvas.finish()
