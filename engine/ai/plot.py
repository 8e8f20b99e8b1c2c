"""The evaluation plot of a review: each side's win chance after every move.

Two seats: the first seat's chance is the lower area, the second's the upper one,
each in its player's colour (a White player's area is white, a Black player's black,
Cairo Corridor's Red red), under a legend that names the players and their colours;
the positions solved exactly are marked, and labelled moves get a dot (yellow: an
inaccuracy, orange: a mistake, red: a blunder), as on lichess's analysis board. More
than two seats: one line per seat in its colour. Both have a move axis below.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

from engine.ai.review import Review
from engine.fonts import dejavu

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 48, 40  # the frame's margins: legend above, axis below
DOTS = {"inaccuracy": (230, 190, 40), "mistake": (235, 130, 30), "blunder": (215, 40, 40)}
#: a seat's colour by its colour's name, else by seat
NAMED_COLOURS = {"white": (238, 238, 232), "black": (36, 36, 42), "red": (200, 50, 50),
                 "blue": (50, 110, 200), "green": (40, 150, 70), "yellow": (210, 170, 20)}
SEAT_COLOURS = ((60, 60, 70), (200, 50, 50), (50, 110, 200), (40, 150, 70))
#: a line in a game of more than two seats: white does not show on white
LINE_WHITE = (150, 150, 150)
CURVE = (60, 130, 230)  # the line between the two areas: apart from every seat colour
BACK = (250, 249, 246)
INK = (70, 70, 70)
FRAME = (120, 120, 120)
EXACT = (40, 150, 70)

Point = Callable[[int], float]


def seat_colour(data: Review, seat: int) -> tuple[int, int, int]:
    """The colour of a seat's player, by its colour's name ("White", "Red")."""
    return NAMED_COLOURS.get(data.names[seat].lower(), SEAT_COLOURS[seat % len(SEAT_COLOURS)])


def who(data: Review, names: Sequence[str] | None, seat: int) -> str:
    """"Alice (White)", or the colour alone when no names are given."""
    colour = data.names[seat]
    name = names[seat] if names and seat < len(names) else ""
    return f"{name} ({colour})" if name and name != colour else colour


def plot(data: Review, names: list[str] | None = None) -> bytes:
    """A PNG of the review's win chances, start to end; ``names``: the players', by
    seat (the legend gives each with their colour)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACK)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    values = data.first_win or [0.5]
    steps = max(1, len(values) - 1)

    def x_of(i: int) -> float:
        return left + (right - left) * i / steps

    def y_of(win: float) -> float:
        return bottom - (bottom - top) * win

    font = dejavu(12)
    if data.wins:
        _lines(data, names, draw, x_of, y_of)
    else:
        points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
        # Below the line: the first seat's chance; above it: the second's.
        draw.rectangle((left, top, right, bottom), fill=seat_colour(data, 1))
        draw.polygon([(left, bottom), *points, (points[-1][0], bottom)],
                     fill=seat_colour(data, 0))
        _half(draw, y_of(0.5))
        draw.line(points, fill=CURVE, width=2)
        for ply in data.plies:
            colour = DOTS.get(ply.label)
            if colour is not None:
                x, y = x_of(ply.number), y_of(data.first_win[ply.number])
                draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour, outline=(255, 255, 255))
        _legend(draw, font, [(seat_colour(data, 1), f"{who(data, names, 1)}: above"),
                             (seat_colour(data, 0), f"{who(data, names, 0)}: below")])
    draw.rectangle((left, top, right, bottom), outline=FRAME)
    if data.exact_from is not None:
        x = x_of(data.exact_from)
        draw.line((x, top, x, bottom), fill=EXACT, width=2)
        draw.text((min(x + 4, right - 110), top + 3), "exact from here", fill=EXACT,
                  font=font, stroke_width=2, stroke_fill=BACK)
    _dots_legend(draw, font)
    for win, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        draw.text((4, y_of(win) - 7), text, fill=INK, font=font)
    _axis(draw, font, x_of, steps, bottom)
    return _png(image)


def _half(draw: ImageDraw.ImageDraw, y: float) -> None:
    """The 50% line, dashed."""
    for x in range(LEFT, WIDTH - RIGHT, 8):
        draw.line((x, y, min(x + 4, WIDTH - RIGHT), y), fill=(150, 150, 150), width=1)


def _legend(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
            entries: Sequence[tuple[tuple[int, int, int], str]]) -> None:
    """The players' colours, each a swatch and its words, on the first line."""
    draw.text((4, 6), "Win chance:", fill=INK, font=font)
    x = 12 + int(draw.textlength("Win chance:", font=font))
    for colour, text in entries:
        draw.rectangle((x, 7, x + 12, 19), fill=colour, outline=FRAME)
        draw.text((x + 17, 6), text, fill=INK, font=font)
        x += 17 + int(draw.textlength(text, font=font)) + 16


def _dots_legend(draw: ImageDraw.ImageDraw,
                 font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> None:
    """What the dots mean, on the second line."""
    x = LEFT
    for label, colour in DOTS.items():
        draw.ellipse((x, 28, x + 9, 37), fill=colour, outline=FRAME)
        draw.text((x + 13, 25), label, fill=INK, font=font)
        x += 13 + int(draw.textlength(label, font=font)) + 14


def _axis(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
          x_of: Point, moves: int, bottom: int) -> None:
    """The move axis: a tick at round move numbers (the position after that move)."""
    step = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if moves / s <= 12),
                1000)
    for move in range(0, moves + 1, step):
        x = x_of(move)
        draw.line((x, bottom, x, bottom + 4), fill=FRAME, width=1)
        text = str(move)
        width = draw.textlength(text, font=font)
        draw.text((x - width / 2, bottom + 5), text, fill=INK, font=font)
    label = "move"
    width = draw.textlength(label, font=font)
    draw.text(((LEFT + WIDTH - RIGHT - width) / 2, HEIGHT - 17), label, fill=INK, font=font)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _lines(data: Review, names: Sequence[str] | None, draw: ImageDraw.ImageDraw,
           x_of: Point, y_of: Callable[[float], float]) -> None:
    """More than two seats: each seat's win chance as a line in its colour, labelled
    moves dotted on their player's line."""
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    draw.rectangle((left, top, right, bottom), fill=(255, 255, 255))
    for share in (0.5, 1.0 / data.seats):
        draw.line((left, y_of(share), right, y_of(share)), fill=(215, 215, 215), width=1)
    entries = []
    for seat, curve in enumerate(data.wins):
        colour = seat_colour(data, seat)
        if colour == NAMED_COLOURS["white"]:
            colour = LINE_WHITE
        points = [(x_of(i), y_of(v)) for i, v in enumerate(curve)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        entries.append((colour, who(data, names, seat)))
    _legend(draw, dejavu(12), entries)
    for ply in data.plies:
        dot = DOTS.get(ply.label)
        if dot is not None:
            px, py = x_of(ply.number), y_of(data.wins[ply.seat][ply.number])
            draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=dot, outline=(90, 90, 90))
