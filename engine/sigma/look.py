"""How Sigma Escape's pictures look: sizes, colours, and what the board and the hands
both draw (badges, small cards)."""

from __future__ import annotations

from engine.sigma.deck import WHITE, Card
from engine.sigma.pen import Colour, Pen

WIDTH = 960
HEADER = 58
BOARD_W = WIDTH - 40
BOARD_H = 620
BOARD_X = 20
BOARD_Y = HEADER
HAND_TOP = BOARD_Y + BOARD_H + 12
HAND_ROW = 198
HEIGHT = HAND_TOP + 2 * HAND_ROW + 72
MAX_CELL = 64
# The deck whose boards the palette is fitted on (``_palette``): one that never changes.
PALETTE_DECK = "reconstructed-v1"
MIN_CELL = 28
MINI = 26  # cell size of the cards drawn in the hands
# Their arrows' numbers: badges of this many cells' radius, big enough to read on a
# phone, where the image is shown about 380 px wide.
HAND_BADGE = 0.6

BG: Colour = (244, 239, 229)
TABLE: Colour = (226, 232, 222)
GRID: Colour = (208, 214, 203)
WHITE_CELL: Colour = (255, 255, 255)
CUT_OFF: Colour = (214, 212, 206)
HATCH: Colour = (160, 156, 148)
BLACK_CELL: Colour = (34, 34, 38)
OUTLINE_ON_WHITE: Colour = (120, 116, 108)
OUTLINE_ON_BLACK: Colour = (150, 150, 158)
MAIN_EDGE: Colour = (30, 150, 70)
BLANK: Colour = (40, 170, 80)
BLANK_FILL: Colour = (205, 236, 200)
LAST: Colour = (240, 110, 20)
GOLD: Colour = (255, 193, 7)
INK: Colour = (40, 34, 28)
MUTED: Colour = (112, 100, 84)
ARROW_ON_WHITE: Colour = (110, 106, 100)
ARROW_ON_BLACK: Colour = (190, 190, 198)
FADED: Colour = (200, 196, 188)
WIN_BG: Colour = (250, 204, 72)


def draw_badge(pen: Pen, centre: tuple[float, float], text: str, radius: float,
               fill: Colour = GOLD, ink: Colour = INK) -> None:
    x, y = centre
    w = max(radius, radius * 0.62 * len(text))
    pen.rounded_rectangle((x - w, y - radius, x + w, y + radius), radius=radius, fill=fill,
                          outline=ink, width=max(1, round(radius / 9)))
    pen.text((x, y + 0.5), text, max(11, round(radius * 1.25)), True, ink, fill, "mm")


def mini_card(pen: Pen, card: Card, x: float, y: float, m: int, faded: bool,
               badge: float = 0.36) -> None:
    """A card of a hand with its box's top-left at (x, y), cells of ``m`` pixels, arrows
    numbered in deck order on badges of ``badge`` cells' radius."""
    fill = (WHITE_CELL if card.colour == WHITE else BLACK_CELL) if not faded else FADED
    rim = OUTLINE_ON_WHITE
    for r, c in card.cells:
        pen.rectangle((x + c * m, y + r * m, x + (c + 1) * m, y + (r + 1) * m), fill=fill,
                       outline=rim, width=1)
    for n, arrow in enumerate(card.arrows, start=1):
        r, c = arrow.cell
        cx, cy = x + (c + 0.5) * m, y + (r + 0.5) * m
        dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[arrow.dir]
        # Outside the card, clear of its cells however big the badge.
        away = m * max(0.95, badge + 0.55)
        centre = (cx + dc * away, cy + dr * away)
        if faded:
            draw_badge(pen, centre, str(n), m * badge, fill=BG, ink=FADED)
        else:
            draw_badge(pen, centre, str(n), m * badge)


def card_width(card: Card, m: int, badge: float = 0.36) -> int:
    margin = m * max(1.0, 2 * badge + 0.1)  # room for the badges on either side
    return round(max(len(card.rows[0]) * m + 2 * margin, 3 * m))
