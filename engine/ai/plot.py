"""The evaluation plot of a review: each side's win chance after every move.

The first seat's chance is the lower area in its colour, the second's the upper one
(with more than two seats, one line per seat); the positions solved exactly are
marked, and labelled moves get a dot (yellow: an inaccuracy, orange: a mistake, red: a
blunder), as on lichess's analysis board.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.ai.review import Review
from engine.fonts import dejavu

WIDTH, HEIGHT = 720, 260
MARGIN_X, MARGIN_Y = 44, 28
DOTS = {"inaccuracy": (230, 190, 40), "mistake": (235, 130, 30), "blunder": (215, 40, 40)}
SEAT_COLOURS = ((40, 40, 48), (200, 60, 60))
#: lines of a game of more than two seats: by the seat's colour name, else by seat
NAMED_COLOURS = {"white": (150, 150, 150), "black": (20, 20, 24), "red": (200, 50, 50),
                 "blue": (50, 110, 200), "green": (40, 150, 70), "yellow": (210, 170, 20)}
LINE_COLOURS = ((60, 60, 70), (200, 50, 50), (50, 110, 200), (40, 150, 70))
BACK = (246, 244, 240)


def plot(data: Review, names: list[str] | None = None) -> bytes:
    """A PNG of the review's win chances, start to end."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACK)
    draw = ImageDraw.Draw(image)
    left, top = MARGIN_X, MARGIN_Y
    right, bottom = WIDTH - 12, HEIGHT - MARGIN_Y
    values = data.first_win or [0.5]
    steps = max(1, len(values) - 1)

    def x_of(i: int) -> float:
        return left + (right - left) * i / steps

    def y_of(win: float) -> float:
        return bottom - (bottom - top) * win

    if data.wins:
        return _lines(data, names, image, draw, x_of, y_of)
    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    # Below the line: the first seat's chance; above it: the second's.
    draw.rectangle((left, top, right, bottom), fill=SEAT_COLOURS[1])
    draw.polygon([(left, bottom), *points, (points[-1][0], bottom)], fill=SEAT_COLOURS[0])
    draw.line(points, fill=(250, 250, 250), width=2)
    mid = y_of(0.5)
    draw.line((left, mid, right, mid), fill=(160, 160, 160), width=1)
    font = dejavu(12)
    if data.exact_from is not None:
        x = x_of(data.exact_from)
        draw.line((x, top, x, bottom), fill=(90, 170, 90), width=2)
        draw.text((min(x + 4, right - 80), top + 2), "exact", fill=(90, 170, 90), font=font)
    for ply in data.plies:
        colour = DOTS.get(ply.label)
        if colour is not None:
            x, y = x_of(ply.number), y_of(data.first_win[ply.number])
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour, outline=(255, 255, 255))
    labels = names or data.names
    draw.text((left, 6), f"{labels[1]} (above) and {labels[0]} (below): win chance",
              fill=SEAT_COLOURS[1], font=font)
    for win, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        draw.text((4, y_of(win) - 7), text, fill=(90, 90, 90), font=font)
    draw.text((right - 60, HEIGHT - 20), f"{len(values) - 1} moves", fill=(90, 90, 90),
              font=font)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _lines(data: Review, names: list[str] | None, image: Image.Image,
           draw: ImageDraw.ImageDraw, x_of: Callable[[int], float],
           y_of: Callable[[float], float]) -> bytes:
    """More than two seats: each seat's win chance as a line in its colour, labelled
    moves dotted on their player's line."""
    left, top = MARGIN_X, MARGIN_Y
    right, bottom = WIDTH - 12, HEIGHT - MARGIN_Y
    draw.rectangle((left, top, right, bottom), fill=(255, 255, 255), outline=(200, 200, 200))
    for share in (0.5, 1.0 / data.seats):
        draw.line((left, y_of(share), right, y_of(share)), fill=(215, 215, 215), width=1)
    font = dejavu(12)
    labels = names or data.names
    x = left
    for seat, curve in enumerate(data.wins):
        colour = NAMED_COLOURS.get(data.names[seat].lower(),
                                   LINE_COLOURS[seat % len(LINE_COLOURS)])
        points = [(x_of(i), y_of(v)) for i, v in enumerate(curve)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        text = f"{labels[seat]}"
        draw.text((x, 6), text, fill=colour, font=font)
        x += int(draw.textlength(text, font=font)) + 14
    draw.text((x, 6), "win chance", fill=(90, 90, 90), font=font)
    for ply in data.plies:
        dot = DOTS.get(ply.label)
        if dot is not None:
            px, py = x_of(ply.number), y_of(data.wins[ply.seat][ply.number])
            draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=dot, outline=(90, 90, 90))
    for win, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        draw.text((4, y_of(win) - 7), text, fill=(90, 90, 90), font=font)
    moves = len(data.wins[0]) - 1
    draw.text((right - 60, HEIGHT - 20), f"{moves} moves", fill=(90, 90, 90), font=font)
    return _png(image)
