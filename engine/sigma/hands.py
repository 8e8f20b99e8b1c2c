"""Sigma Escape's players' rows under the board: each player's swatch, line (colour,
name, cards left) and pill, and their hand, small cards with numbered arrows and how
many of each are left.

A row is kept as a palette tile until anyone plays (the pill moves); within it each
card is a tile of its own, kept until its player plays it, pasted over the line.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops

from engine.game import Outcome
from engine.labels import label
from engine.sigma.deck import BLACK, WHITE, Card
from engine.sigma.look import (
    BG,
    BLACK_CELL,
    FADED,
    GOLD,
    HAND_BADGE,
    HAND_ROW,
    HAND_TOP,
    INK,
    MINI,
    WHITE_CELL,
    WIDTH,
    WIN_BG,
    card_width,
    mini_card,
)
from engine.sigma.pen import Colour, Pen, palette_of
from engine.sigma.state import SEAT_NAMES, Board, SigmaState
from engine.text import fit_line, text_length


def draw_hands(pen: Pen, state: SigmaState, board: Board,
           outcome: Outcome | None, names: Sequence[str] | None, verdict: str | None) -> None:
    for hand in hand_views(state, board, outcome, names, verdict):
        _hand(pen, hand)


# A player's row: seat, label, its size, the pill (text and fill) or None, the hand's
# cards and how many of each are left.
HandView = tuple[int, str, int, tuple[str, Colour] | None, tuple[tuple[Card, int], ...],
                  tuple[int, ...]]


def hand_views(state: SigmaState, board: Board, outcome: Outcome | None,
                names: Sequence[str] | None, verdict: str | None) -> list[HandView]:
    views: list[HandView] = []
    for seat in (WHITE, BLACK):
        left = sum(board.hands[seat])
        # Each side's aim beside its colour (the rules' mouse and cat say no more to a
        # player, and beside a name they read as a nickname).
        said = label("{colour} (to escape)" if seat == WHITE else "{colour} (to surround)",
                     colour=label(SEAT_NAMES[seat]))
        shown = []
        if names and seat < len(names) and names[seat].strip():
            shown = [names[seat].strip()]
            said = label("{colour} · {name}", colour=said, name=shown[0])
        said = (label("{line} · 1 card left", line=said) if left == 1
                else label("{line} · {n} cards left", line=said, n=left))
        said, size = fit_line(said, 620, 22, names=shown)
        pill: tuple[str, Colour] | None = None
        if outcome is None and verdict is None and state.turn == seat:
            pill = (label("to play"), GOLD)
        elif outcome is not None and outcome.winner == seat:
            pill = (label("wins"), WIN_BG)
        views.append((seat, said, size, pill, tuple(state.deck.hands[seat]),
                      tuple(board.hands[seat])))
    return views


def _hand(pen: Pen, view: HandView) -> None:
    seat, label, size, pill, hand, counts = view
    hand_head(pen, seat, label, size, pill)
    for card, x, m, count in _hand_cards(hand, counts):
        _hand_card(pen, seat, card, count, x, m)


def hand_head(pen: Pen, seat: int, label: str, size: int,
               pill: tuple[str, Colour] | None) -> None:
    """A player's swatch, line and pill."""
    y = HAND_TOP + seat * HAND_ROW
    swatch = WHITE_CELL if seat == WHITE else BLACK_CELL
    pen.rectangle((24, y + 4, 46, y + 26), fill=swatch, outline=INK, width=2)
    pen.text((56, y + 2), label, size, True, INK, BG)
    if pill is not None:
        _pill(pen, WIDTH - 24, y, *pill)


def _hand_cards(hand: tuple[tuple[Card, int], ...],
                counts: tuple[int, ...]) -> list[tuple[Card, float, int, int]]:
    """Each card of a hand with where it goes (left, cell size) and how many are left."""
    widths = [card_width(card, MINI, HAND_BADGE) + 16 for card, _ in hand]
    m = MINI
    if sum(widths) > WIDTH - 40:  # a big hand: smaller cards
        m = max(10, int(MINI * (WIDTH - 40) / sum(widths)))
    out = []
    x = 30.0
    for (card, _), count in zip(hand, counts, strict=True):
        out.append((card, x, m, count))
        x += card_width(card, m, HAND_BADGE) + 16
    return out


def _hand_card(pen: Pen, seat: int, card: Card, count: int, x: float, m: int) -> None:
    """A card of a hand with its caption (its name, how many are left)."""
    cy = HAND_TOP + seat * HAND_ROW + 34
    w = card_width(card, m, HAND_BADGE)
    faded = count == 0
    top = cy + m + (3 - len(card.rows)) * m / 2
    mini_card(pen, card, x + (w - len(card.rows[0]) * m) / 2, top, m, faded, HAND_BADGE)
    pen.text((x + w / 2, cy + 5 * m + 6), _caption(card, count), max(12, m - 4), True,
             FADED if faded else INK, BG, "ma")


def _caption(card: Card, count: int) -> str:
    if count == 0:
        return f"{card.name} ×0"
    return card.name + (f" ×{count}" if count > 1 else "")


@lru_cache(maxsize=256)
def hand_tile(view: HandView, token: int) -> Image.Image:
    """A player's row drawn alone, in palette entries: it changes when anyone plays
    (whose turn it is), its cards only when its player plays, so each card is a tile of
    its own (``_card_tile``), pasted over the line."""
    palette = palette_of(token)
    seat = view[0]
    tile = Image.new("P", (WIDTH, HAND_ROW), _ground(token))
    hand_head(Pen(tile, palette, (0, -(HAND_TOP + seat * HAND_ROW))), *view[:4])
    right = 0
    core = tile.im
    for card, x, m, count in _hand_cards(view[4], view[5]):
        left, end, whole, split = _card_tile(seat, card, count, x, m, token)
        # Below the line, a card that does not reach into the one before it is pasted
        # whole, without a mask (through a mask, a pixel costs ten times as much).
        for image, box, mask in whole if left < right else split:
            if mask is None:
                core.paste(image, box)
            else:
                core.paste(image, box, mask)
        right = end
    return tile


@lru_cache(maxsize=8)
def _ground(token: int) -> int:
    """The palette entry of a row's ground (found by mapping a pixel: keep it)."""
    return palette_of(token).index(BG)


# The rows of a hand's row that its line (swatch, name, pill) may draw on: below them a
# card is the only thing drawn (``tests/engine/test_sigma_render.py`` holds it).
HEAD_ROWS = 32
_SAME = [255] + [0] * 255  # Image.point: a difference of 0 is a pixel drawn on both
Paste = tuple[Any, tuple[int, int, int, int], Any]


@lru_cache(maxsize=1024)
def _card_tile(seat: int, card: Card, count: int, x: float, m: int,
               token: int) -> tuple[int, int, tuple[Paste, ...], tuple[Paste, ...]]:
    """A card of a hand drawn alone where it goes on its row: the left and right of the
    pixels it draws, and two ways to paste them (Image.core's paste: image, box, mask):
    all through their mask, or through it above ``HEAD_ROWS`` and whole below.

    The card is drawn on two grounds: the pixels that come out the same on both are its
    own (it draws over what is under it, never reading it, so pasting them is drawing
    it there)."""
    palette = palette_of(token)
    w = card_width(card, m, HAND_BADGE)
    caption = text_length(_caption(card, count), max(12, m - 4), True)
    left = max(0, int(min(x, x + (w - caption) / 2)) - m)
    right = min(WIDTH, int(max(x + w, x + (w + caption) / 2)) + m + 1)
    ground = _ground(token)
    drawn = []
    for fill in (ground, (ground + 1) % 256):
        image = Image.new("P", (right - left, HAND_ROW), fill)
        _hand_card(Pen(image, palette, (-left, -(HAND_TOP + seat * HAND_ROW))), seat, card,
                   count, x, m)
        drawn.append(image)
    first, second = (Image.frombytes("L", im.size, im.tobytes()) for im in drawn)
    mask = ImageChops.difference(first, second).point(_SAME)
    x0, y0, x1, y1 = mask.getbbox() or (0, 0, 1, 1)
    image = drawn[0]

    def paste(top: int, bottom: int, masked: bool) -> Paste:
        box = (x0, top, x1, bottom)
        return (image.crop(box).im, (left + x0, top, left + x1, bottom),
                mask.crop(box).im if masked else None)

    whole = (paste(y0, y1, True),)
    split = whole if y1 <= HEAD_ROWS else (paste(HEAD_ROWS, y1, False),) if y0 >= HEAD_ROWS else (
        paste(y0, HEAD_ROWS, True), paste(HEAD_ROWS, y1, False))
    return left + x0, left + x1, whole, split


def _pill(pen: Pen, right: int, y: int, text: str, fill: Colour) -> None:
    w = text_length(text, 20, True)
    pen.rounded_rectangle((right - w - 20, y, right, y + 30), radius=8, fill=fill)
    pen.text((right - w - 10, y + 4), text, 20, True, INK, fill)


def forget() -> None:
    """Drop the rows and cards kept."""
    hand_tile.cache_clear()
    _card_tile.cache_clear()
