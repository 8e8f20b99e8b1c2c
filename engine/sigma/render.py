"""Pictures of Sigma Escape: the board with both hands, and a deck's card sheet.

The board is drawn on a canvas of fixed size (so that the frames of an animation line
up); the grid is fitted to the cards on the table, their blank spaces and usable sides,
with cells between ``MIN_CELL`` and ``MAX_CELL`` pixels. White's main group has a green
outline and white cells cut off from it are hatched grey; its blank spaces hold green
dots; every usable side of the player to move carries its number in a gold badge on
the edge it opens through; other live arrows are small triangles; the last card placed
has an orange outline. Below: the players, each hand drawn small with names, counts
and numbered arrows, and a status line (at the end, who won and why).

The grid changes with every card, so there is no static layer to keep: a board is
drawn whole each time, but straight in the entries of the game's fixed palette, and
its text comes from a cache of small palette tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.game import Outcome, after_move
from engine.imaging import fit_text, font, to_png
from engine.labels import label, labelled
from engine.palette import Palette, forget_bands, give_back_memory, png_of_bands
from engine.sigma import rules
from engine.sigma.deck import BLACK, WHITE, Deck
from engine.sigma.geometry import NOTHING, Cell, opposite, step
from engine.sigma.hands import draw_hands, hand_tile, hand_views
from engine.sigma.hands import forget as forget_hands
from engine.sigma.look import (
    ARROW_ON_BLACK,
    ARROW_ON_WHITE,
    BG,
    BLACK_CELL,
    BLANK,
    BLANK_FILL,
    BOARD_H,
    BOARD_W,
    BOARD_X,
    BOARD_Y,
    CUT_OFF,
    GRID,
    HAND_ROW,
    HAND_TOP,
    HATCH,
    HEADER,
    HEIGHT,
    INK,
    LAST,
    MAIN_EDGE,
    MAX_CELL,
    MIN_CELL,
    MUTED,
    OUTLINE_ON_BLACK,
    OUTLINE_ON_WHITE,
    PALETTE_DECK,
    TABLE,
    WHITE_CELL,
    WIDTH,
    WIN_BG,
    draw_badge,
    mini_card,
)
from engine.sigma.pen import Colour, Pen, text_tile
from engine.sigma.state import SEAT_NAMES, Board, SigmaState
from engine.text import draw_text, fit_line


class _Grid:
    """Where grid cells fall on the image."""

    def __init__(self, cells: set[Cell]) -> None:
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        self.r0, self.r1 = min(rows) - 1, max(rows) + 1
        self.c0, self.c1 = min(cols) - 1, max(cols) + 1
        n_rows = self.r1 - self.r0 + 1
        n_cols = self.c1 - self.c0 + 1
        self.size = max(MIN_CELL, min(MAX_CELL, BOARD_H // n_rows, BOARD_W // n_cols))
        # Centre the drawn cells; too many for the area at the smallest size: centre
        # on the Nothing card and let the far cells fall off the edge.
        self.x = BOARD_X + (BOARD_W - n_cols * self.size) // 2 - self.c0 * self.size
        self.y = BOARD_Y + (BOARD_H - n_rows * self.size) // 2 - self.r0 * self.size
        if n_cols * self.size > BOARD_W:
            self.x = BOARD_X + BOARD_W // 2 - self.size // 2
        if n_rows * self.size > BOARD_H:
            self.y = BOARD_Y + BOARD_H // 2 - self.size // 2
        # Drawn cells reach past the board's area (their badges stay in the margin row
        # and column around them otherwise).
        self.overflows = n_cols * self.size > BOARD_W or n_rows * self.size > BOARD_H

    def box(self, cell: Cell) -> tuple[int, int, int, int]:
        x = self.x + cell[1] * self.size
        y = self.y + cell[0] * self.size
        return x, y, x + self.size, y + self.size

    def edge(self, cell: Cell, d: int) -> tuple[int, int, int, int]:
        return self.edges(cell)[d]

    def edges(self, cell: Cell) -> tuple[tuple[int, int, int, int], ...]:
        """The cell's four sides, in the order of ``neighbours``."""
        x0, y0, x1, y1 = self.box(cell)
        return (x0, y0, x1, y0), (x1, y0, x1, y1), (x0, y1, x1, y1), (x0, y0, x0, y1)

    def edge_middle(self, cell: Cell, d: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.edge(cell, d)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def visible(self, cell: Cell) -> bool:
        x0, y0, x1, y1 = self.box(cell)
        return (x0 >= BOARD_X and y0 >= BOARD_Y and x1 <= BOARD_X + BOARD_W
                and y1 <= BOARD_Y + BOARD_H)


def _triangle(centre: tuple[float, float], d: int, size: float) -> list[tuple[float, float]]:
    """A small triangle pointing in direction ``d``, its tip ``size`` from ``centre``."""
    (dr, dc) = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
    cx, cy = centre
    tip = (cx + dc * size, cy + dr * size)
    # the base is perpendicular to the direction
    px, py = -dr, dc
    base = (cx - dc * size * 0.2, cy - dr * size * 0.2)
    return [tip, (base[0] + px * size * 0.7, base[1] + py * size * 0.7),
            (base[0] - px * size * 0.7, base[1] - py * size * 0.7)]


def _board(pen: Pen, state: SigmaState, board: Board,
           numbered: list[tuple[Cell, int]], over: bool) -> bool:
    """Draws the table; whether its cards fell off the board's area (drawn over the
    header and the hands, as they are, which are then drawn over them)."""
    shown = set(board.colour) | set(board.blanks) | {step(c, d) for c, d in numbered}
    grid = _Grid(shown)
    size = grid.size
    pen.rectangle((BOARD_X, BOARD_Y, BOARD_X + BOARD_W, BOARD_Y + BOARD_H), fill=TABLE)
    # faint grid over the drawn rows and columns
    x0, y0, _, _ = grid.box((grid.r0, grid.c0))
    _, _, x1, y1 = grid.box((grid.r1, grid.c1))
    x0, y0 = max(x0, BOARD_X), max(y0, BOARD_Y)
    x1, y1 = min(x1, BOARD_X + BOARD_W), min(y1, BOARD_Y + BOARD_H)
    for r in range(grid.r0, grid.r1 + 2):
        y = grid.y + r * size
        if y0 <= y <= y1:
            pen.line((x0, y, x1, y), fill=GRID, width=1)
    for c in range(grid.c0, grid.c1 + 2):
        x = grid.x + c * size
        if x0 <= x <= x1:
            pen.line((x, y0, x, y1), fill=GRID, width=1)

    main = board.main
    top = board.top
    colour = board.colour
    hatch_step = max(6, size // 5)
    for cell, shade in colour.items():
        bx0, by0, bx1, by1 = grid.box(cell)
        if shade == BLACK:
            pen.rectangle((bx0, by0, bx1, by1), fill=BLACK_CELL)
        elif cell in main:
            pen.rectangle((bx0, by0, bx1, by1), fill=WHITE_CELL)
        else:
            pen.rectangle((bx0, by0, bx1, by1), fill=CUT_OFF)
            for k in range(-size, size, hatch_step):  # hatching: cut off from the group
                pen.line((bx0 + max(0, k), by0 + max(0, -k), bx0 + min(size, size + k),
                           by0 + min(size, size - k)), fill=HATCH, width=1)
    for cell in board.blanks:
        bx0, by0, bx1, by1 = grid.box(cell)
        inset = max(2, size // 10)
        pen.rectangle((bx0 + inset, by0 + inset, bx1 - inset, by1 - inset), fill=BLANK_FILL)
        r = max(3, size // 9)
        cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLANK)
    # the Nothing card: a ring
    nx0, ny0, nx1, ny1 = grid.box(NOTHING)
    ring = size * 0.28
    cx, cy = (nx0 + nx1) / 2, (ny0 + ny1) / 2
    pen.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=MAIN_EDGE,
                 width=max(2, size // 14))
    # thin card outlines: between cells showing different cards, and around them
    thin = max(1, size // 26)
    sides: list[tuple[tuple[int, int, int, int], Colour]] = []
    gx, gy = grid.x, grid.y
    for (r, c), index in top.items():
        ink = OUTLINE_ON_BLACK if colour[(r, c)] == BLACK else OUTLINE_ON_WHITE
        x0, y0 = gx + c * size, gy + r * size
        x1, y1 = x0 + size, y0 + size
        # The sides in the order of ``neighbours``: N, E, S, W.
        if top.get((r - 1, c)) != index:
            sides.append(((x0, y0, x1, y0), ink))
        if top.get((r, c + 1)) != index:
            sides.append(((x1, y0, x1, y1), ink))
        if top.get((r + 1, c)) != index:
            sides.append(((x0, y1, x1, y1), ink))
        if top.get((r, c - 1)) != index:
            sides.append(((x0, y0, x0, y1), ink))
    pen.edges(sides, thin * 2)
    # White's main group: a thick green outline
    thick = max(3, size // 11)
    pen.edges(_around(grid, main, MAIN_EDGE), thick)
    # the last card placed: an orange outline round what shows of it
    if state.placed:
        last = len(board.layers) - 1
        cells = {cell for cell, index in top.items() if index == last}
        pen.edges(_around(grid, cells, LAST), thick)
    # arrows: triangles; the mover's usable sides: numbered badges
    numbers = {side: n for n, side in enumerate(numbered, start=1)}
    for shade, arrows in enumerate(board.arrows):
        for cell, d in arrows:
            if (cell, d) in numbers:
                continue
            mx, my = grid.edge_middle(cell, d)
            dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
            centre = (mx - dc * size * 0.16, my - dr * size * 0.16)
            fill = ARROW_ON_BLACK if shade == BLACK else ARROW_ON_WHITE
            pen.polygon(_triangle(centre, d, size * 0.11), fill=fill)
    # A badge sits on the edge its side opens through; where two numbered arrows face
    # each other across one edge, each moves into its own cell, a little smaller.
    radius = max(9.0, size * 0.24)
    for (cell, d), n in numbers.items():
        mx, my = grid.edge_middle(cell, d)
        if (step(cell, d), opposite(d)) in numbers:
            dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
            draw_badge(pen, (mx - dc * size * 0.26, my - dr * size * 0.26), str(n),
                   max(9.0, size * 0.21))
        else:
            draw_badge(pen, (mx, my), str(n), radius)
    if not over and not numbered:
        pen.text((BOARD_X + 10, BOARD_Y + 8), label("no usable side"), 18, True, MUTED, TABLE)
    return grid.overflows


def _around(grid: _Grid, cells: set[Cell] | frozenset[Cell],
            fill: Colour) -> list[tuple[tuple[int, int, int, int], Colour]]:
    """The sides of ``cells`` that face a cell not among them, cell by cell, each in the
    order of ``neighbours``."""
    size, gx, gy = grid.size, grid.x, grid.y
    out = []
    for r, c in cells:
        x0, y0 = gx + c * size, gy + r * size
        x1, y1 = x0 + size, y0 + size
        if (r - 1, c) not in cells:
            out.append(((x0, y0, x1, y0), fill))
        if (r, c + 1) not in cells:
            out.append(((x1, y0, x1, y1), fill))
        if (r + 1, c) not in cells:
            out.append(((x0, y1, x1, y1), fill))
        if (r, c - 1) not in cells:
            out.append(((x0, y0, x0, y1), fill))
    return out


def _header(pen: Pen, deck: Deck) -> str | None:
    """Draws the header; the note it says when it is the kept tile (see ``_bands``)."""
    if deck.rules:  # a rules variant changes what a player may do: the board says so
        note = label("{deck} · rules: {rules}", deck=deck.name,
                     rules=", ".join(sorted(deck.rules)))
        if deck.reconstruction:
            note = label("{note} · reconstructed cards", note=note)
    elif deck.reconstruction:
        note = label("{deck} · a reconstruction, not the real cards", deck=deck.name)
    else:
        note = f"{deck.name} · {deck.source}"
    if pen.palette is not None and pen.dx == pen.dy == 0:
        pen.image.paste(_header_tile(note), (0, 0))  # the same for a whole game
        return note
    _title(pen, note)
    return None


def _title(pen: Pen, note: str) -> None:
    pen.text((24, 14), "Sigma Escape", 28, True, INK, BG)
    pen.text((WIDTH - 24, 22), fit_text(note, 640, 18, False), 18, False, MUTED, BG, "ra")


@lru_cache(maxsize=16)
def _header_tile(note: str) -> Image.Image:
    """The header drawn alone, where it is on the picture (at its top)."""
    palette = _fixed()
    tile = Image.new("P", (WIDTH, HEADER), palette.index(BG))
    _title(Pen(tile, palette), note)
    return tile


def _status(pen: Pen, state: SigmaState, board: Board,
            outcome: Outcome | None, numbered: int, verdict: str | None,
            names: Sequence[str]) -> None:
    y = HAND_TOP + 2 * HAND_ROW + 6
    blanks = len(board.blanks)
    spaces = rules.blank_spaces(blanks)
    if outcome is not None or verdict is not None:
        if verdict is not None:
            line = verdict
        elif outcome is not None and outcome.winner == BLACK:
            line = label("{who} wins: {reason}", who=label(SEAT_NAMES[BLACK]),
                         reason=label("White's main group is surrounded, no blank space left"))
        else:
            assert outcome is not None
            line = label("{who} wins: {reason}", who=label(SEAT_NAMES[outcome.winner or 0]),
                         reason=rules.reason_said(state))
        pen.rectangle((0, y - 4, WIDTH, HEIGHT), fill=WIN_BG)
        line, size = fit_line(line, WIDTH - 48, 24, names=names, smallest=18)
        pen.text((24, y + 4), line, size, True, INK, WIN_BG)
        pen.text((24, y + 38), label("Green outline: White's main group · green dots: its "
                                     "blank spaces · orange: the last card"),
                 16, False, INK, WIN_BG)
        return
    mover = label(SEAT_NAMES[state.turn])
    played = after_move(state.moves_played)
    parts = [played[:1].upper() + played[1:], label("{colour} to play", colour=mover)]
    last = state.last
    if last is not None and last.move:
        parts.append(label("last: {colour} {move}", colour=label(SEAT_NAMES[last.seat]),
                           move=last.move))
    if state.passes:
        parts.append(label("{colour} passed", colour=label(SEAT_NAMES[1 - state.turn])))
    # Read whole: smaller rather than cut (the blank spaces go on the line below).
    line, size = fit_line(" · ".join(parts), WIDTH - 48, 22, smallest=16)
    pen.text((24, y + 4), line, size, True, INK, BG)
    legend = [label("{spaces} (green dots)", spaces=spaces),
              label("gold: {colour}'s {n} usable sides", colour=mover, n=numbered),
              label("play CARD SIDE.ARROW")]
    if any(shade == WHITE and cell not in board.main for cell, shade in board.colour.items()):
        legend.append(label("hatched: white cut off"))
    pen.text((24, y + 38), fit_text(" · ".join(legend), WIDTH - 48, 16, False), 16, False,
             MUTED, BG)


def board_image(state: SigmaState, names: Sequence[str] | None = None,
                verdict: str | None = None) -> Image.Image:
    """The board in true colour; ``verdict``: how a game ended that the rules do not
    see (in place of whose turn it is)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    _draw(Pen(image), state, names, verdict)
    return image


def _draw(pen: Pen, state: SigmaState, names: Sequence[str] | None,
          verdict: str | None) -> list[tuple[int, object]]:
    """Draws the board; the picture's bands of rows (``png_of_bands``), keyed by what
    they show where that is a kept tile alone: the header, each hand."""
    board = state.board
    outcome = rules.outcome(state)
    over = outcome is not None or verdict is not None
    numbered = [] if over else board.sides(state.turn)
    note = _header(pen, state.deck)
    bands: list[tuple[int, object]] = [(0, None)]
    if _board(pen, state, board, numbered, over) or pen.palette is None:
        draw_hands(pen, state, board, outcome, names, verdict)
    else:
        # The board stayed in its area, so nothing else is drawn on the header's rows
        # or the hands': each of those is its tile alone, and so is its band.
        bands = [(0, ("header", note)), (HEADER, None)]
        for view in hand_views(state, board, outcome, names, verdict):
            top = HAND_TOP + view[0] * HAND_ROW
            pen.image.paste(hand_tile(view, pen.token), (0, top))
            bands.append((top, ("hand", view)))
        bands.append((HAND_TOP + 2 * HAND_ROW, None))
    shown = [n.strip() for n in names or () if n.strip()]
    _status(pen, state, board, outcome, len(numbered), verdict, shown)
    return bands


def render(state: SigmaState, names: Sequence[str] | None = None,
           verdict: str | None = None) -> bytes:
    """The board drawn straight in palette mode (see ``_Pen``): exactly the true-colour
    drawing mapped to the game's fixed palette, without mapping a million pixels."""
    palette = _fixed()
    # Drawn on an image one pixel wider, whose last column is each next row's PNG filter
    # byte (0): its memory is the PNG's rows as they are, after a first 0.
    rows = bytearray(_blank())
    image = Image.frombuffer("P", (WIDTH + 1, HEIGHT), rows, "raw", "P", 0, 1)
    image.readonly = False  # its memory is this bytearray, which is ours to draw on
    bands = _draw(Pen(image, palette), state, names, verdict)
    image.paste(0, (WIDTH, 0, WIDTH + 1, HEIGHT))  # what was drawn to the very right
    return png_of_bands(rows, (WIDTH, HEIGHT), palette.colours, bands)


def forget() -> None:
    """Drop every drawing kept (hands, texts): what tests that watch the
    drawing start from."""
    forget_hands()
    _header_tile.cache_clear()
    text_tile.cache_clear()
    forget_bands()


@lru_cache(maxsize=1)
def _blank() -> bytes:
    image = Image.new("P", (WIDTH + 1, HEIGHT), _fixed().index(BG))
    image.paste(0, (WIDTH, 0, WIDTH + 1, HEIGHT))
    return image.tobytes()


@lru_cache(maxsize=1)
def _fixed() -> Palette:
    return Palette(tuple((_palette().getpalette() or [])[: 3 * 256]))


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One palette for every board, fitted once per process to a few boards of a game
    (start, middle, end): mapping to a known palette is ten times faster than fitting
    one to each picture, and every colour the boards use is in these. Fitted on the
    first reconstruction, a deck that never changes, so that a new default deck does
    not change every picture."""
    from engine.sigma.deck import shipped_deck

    rng = random.Random(1)
    state = rules.settle(SigmaState(shipped_deck(PALETTE_DECK)))
    with labelled(None):  # in English: the same palette whichever language draws first
        samples = [board_image(state)]
        while rules.outcome(state) is None:
            moves = rules.placements(state)
            state = rules.place(state, moves[rng.randrange(len(moves))], "T4 1.1")
            if len(state.placed) == 9:
                samples.append(board_image(state))
        samples.append(board_image(state))
    sheet = Image.new("RGB", (WIDTH, HEIGHT * len(samples)))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (0, i * HEIGHT))
    palette = sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    del sheet, samples
    give_back_memory()
    return palette


# ---- the deck sheet ------------------------------------------------------------------


def deck_sheet(deck: Deck) -> bytes:
    """Every card of a deck, large, with names, counts and numbered arrows."""
    m = 34
    slot_w = 5 * m + 24
    per_row = max(1, (WIDTH - 40) // slot_w)
    sections = [
        (label("Preset cards"), [(p.card, 1, label("at ({row}, {column})", row=p.at[0],
                                                           column=p.at[1]))
                                 for p in deck.presets]),
        (label("White's hand · {n} cards", n=deck.hand_size(WHITE)),
         [(card, n, f"×{n}") for card, n in deck.hands[WHITE]]),
        (label("Black's hand · {n} cards", n=deck.hand_size(BLACK)),
         [(card, n, f"×{n}") for card, n in deck.hands[BLACK]]),
    ]
    slot_h = 5 * m + 70
    top_y = 130 if deck.rules else 100  # a line more for the rules variants
    height = top_y
    for _, cards in sections:
        height += 44 + max(1, -(-len(cards) // per_row)) * slot_h
    image = Image.new("RGB", (WIDTH, height + 20), BG)
    draw = ImageDraw.Draw(image)
    draw.text((24, 16), f"Sigma Escape · {deck.name}", font=font(28, True), fill=INK)
    source = (label("A RECONSTRUCTION: the real cards' pictures are lost")
              if deck.reconstruction else label("Source: {source}", source=deck.source))
    draw_text(image, (24, 56), fit_text(source, WIDTH - 48, 20), 20, True,
              LAST if deck.reconstruction else MUTED)
    if deck.rules:
        variants = label("Rules variants (not the rules page's): {rules}",
                         rules=", ".join(sorted(deck.rules)))
        draw_text(image, (24, 88), fit_text(variants, WIDTH - 48, 20), 20, True, INK)
    y = top_y
    for title, cards in sections:
        draw_text(image, (24, y), title, 22, True, INK)
        y += 44
        for i, (card, _, caption) in enumerate(cards):
            row, col = divmod(i, per_row)
            x = 24 + col * slot_w
            top = y + row * slot_h
            draw.rectangle((x, top, x + slot_w - 12, top + slot_h - 12), fill=TABLE)
            bx = x + (slot_w - 12 - len(card.rows[0]) * m) / 2
            by = top + m + (3 - len(card.rows)) * m / 2
            mini_card(Pen(image), card, bx, by, m, False)
            draw.text((x + (slot_w - 12) / 2, top + 5 * m + 6), card.name,
                      font=font(22, True), fill=INK, anchor="ma")
            draw_text(image, (x + (slot_w - 12) / 2, top + 5 * m + 34), caption, 17, False,
                      MUTED, "ma")
        y += max(1, -(-len(cards) // per_row)) * slot_h
    return to_png(image)
