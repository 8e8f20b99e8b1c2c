"""The evaluation plot of a review: each seat's win chance after every move, as a PNG.

Drawn with Pillow for a phone screen: 1000 pixels wide, large type, the first seat's
chance as a filled area (as lichess draws it) or one line per seat with more than
two, and a mark on every inaccuracy, mistake and blunder, the worst ones named.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.game import JSON
from engine.imaging import fit_text, font, to_png

RGB = tuple[int, int, int]
WIDTH, HEIGHT = 1000, 640
LEFT, RIGHT, TOP, BOTTOM = 78, 30, 112, 96
BG: RGB = (250, 248, 244)
INK: RGB = (34, 32, 30)
MUTED: RGB = (128, 122, 114)
GRID: RGB = (214, 208, 200)
MARKS: dict[str, RGB] = {
    "inaccuracy": (232, 178, 36),
    "mistake": (236, 118, 28),
    "blunder": (206, 38, 38),
}
SEATS: dict[str, RGB] = {
    "White": (246, 244, 238), "Black": (52, 50, 48), "Red": (206, 60, 48),
    "Blue": (52, 104, 214),
}
_FALLBACK: tuple[RGB, ...] = ((246, 244, 238), (52, 50, 48), (206, 60, 48), (52, 104, 214))


def _colour(side: str, seat: int) -> RGB:
    return SEATS.get(side, _FALLBACK[seat % len(_FALLBACK)])


def render_review(data: JSON, title: str = "") -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    names: list[str] = data["names"]
    sides: list[str] = data.get("sides") or names
    chances: list[list[float]] = data["chances"]
    seats = len(names)
    moves = max(1, len(chances) - 1)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def xy(i: int, chance: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / moves, y1 - (y1 - y0) * chance

    # Title and the players' accuracy.
    heading = title or f"{data.get('title', data['game'])} · review"
    draw.text((LEFT - 40, 18), fit_text(heading, WIDTH - 80, 30), font=font(30, bold=True),
              fill=INK)
    parts = []
    for seat in range(seats):
        accuracy = data["accuracy"][seat]
        shown = "–" if accuracy is None else f"{accuracy:.0f}%"
        parts.append(f"{names[seat]} {shown}")
    draw.text((LEFT - 40, 60), fit_text("accuracy: " + "   ".join(parts), WIDTH - 80, 24,
                                        bold=False), font=font(24), fill=MUTED)

    # The chart.
    if seats == 2:
        draw.rectangle((x0, y0, x1, y1), fill=_colour(sides[1], 1))
        points = [xy(i, c[0]) for i, c in enumerate(chances)]
        polygon = [(x0, y1), *points, (points[-1][0], y1)]
        draw.polygon(polygon, fill=_colour(sides[0], 0))
        draw.line(points, fill=(150, 120, 60), width=3)
    else:
        draw.rectangle((x0, y0, x1, y1), fill=(236, 232, 226))
    for value in (0.25, 0.5, 0.75):
        y = xy(0, value)[1]
        for gx in range(int(x0), int(x1), 14):
            draw.line((gx, y, min(gx + 7, x1), y), fill=GRID if seats > 2 else (150, 146, 140),
                      width=1 if value != 0.5 else 2)
    if seats > 2:
        for seat in range(seats):
            line = [xy(i, c[seat]) for i, c in enumerate(chances)]
            draw.line(line, fill=INK, width=7)
            draw.line(line, fill=_colour(sides[seat], seat), width=4)
        # Which line is whose, in the top right corner.
        y = y0 + 8
        for seat in range(seats):
            draw.rectangle((x1 - 160, y + 4, x1 - 136, y + 18), fill=_colour(sides[seat], seat),
                           outline=INK, width=2)
            draw.text((x1 - 128, y), fit_text(names[seat], 120, 18), font=font(18, bold=True),
                      fill=INK)
            y += 26
    draw.rectangle((x0, y0, x1, y1), outline=INK, width=2)

    # Axes.
    label = font(20)
    for value, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        draw.text((x0 - 10, xy(0, value)[1]), text, font=label, fill=INK, anchor="rm")
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200) if moves / s <= 10)
    for i in range(0, moves + 1, step):
        x = xy(i, 0)[0]
        draw.line((x, y1, x, y1 + 8), fill=INK, width=2)
        draw.text((x, y1 + 12), str(i), font=label, fill=INK, anchor="mt")
    draw.text(((x0 + x1) / 2, y1 + 40), "move", font=label, fill=MUTED, anchor="mt")
    if seats == 2:
        for y, name, anchor in ((y0 + 6, names[0], "lt"), (y1 - 6, names[1], "lb")):
            draw.text((x0 + 8, y), f"{name} wins", font=font(18, bold=True), fill=INK,
                      anchor=anchor, stroke_width=3, stroke_fill=BG)

    # Where the solver took over.
    verdict = data.get("verdict")
    if verdict:
        x = xy(verdict["from_move"] - 1, 0)[0]
        for gy in range(int(y0), int(y1), 12):
            draw.line((x, gy, x, min(gy + 6, y1)), fill=(40, 130, 90), width=3)
        right = x > x1 - 90
        draw.text((x - 6 if right else x + 6, y1 - 40), "solved", font=font(18, bold=True),
                  fill=(40, 130, 90), anchor="rm" if right else "lm", stroke_width=3,
                  stroke_fill=BG)

    # Marks on mistakes; the worst ones named.
    named = {m["number"] for m in data["mistakes"]}
    placed: list[tuple[float, float, float, float]] = []
    for row in data["moves"]:
        if not row["label"]:
            continue
        i = row["number"]
        chance = chances[i][0] if seats == 2 else chances[i][row["seat"]]
        x, y = xy(i, chance)
        radius = 11 if i in named else 8
        draw.ellipse((x - radius, y - radius, x + radius, y + radius),
                     fill=MARKS[row["label"]], outline=INK, width=2)
        if i in named:
            text = f"{i}. {row['move']}"
            face = font(20, bold=True)
            half = draw.textlength(text, font=face) / 2 + 4
            # Above the mark, else below it, else further up: clear of other names.
            for dy in (-40, 16, -66, 42, -92, 68):
                if not y0 <= y + dy <= y1 - 24:
                    continue
                left = min(max(x - half, x0 + 2), x1 - 2 * half - 2)
                box = (left, y + dy, left + 2 * half, y + dy + 24)
                if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                           for b in placed):
                    break
            placed.append(box)
            draw.text((box[0] + 4, box[1]), text, font=face, fill=INK, stroke_width=3,
                      stroke_fill=BG)

    # Legend.
    lx, ly = LEFT - 40, HEIGHT - 30
    for name, colour in MARKS.items():
        draw.ellipse((lx, ly - 9, lx + 18, ly + 9), fill=colour, outline=INK, width=2)
        draw.text((lx + 26, ly), name, font=font(20), fill=INK, anchor="lm")
        lx += 48 + int(draw.textlength(name, font=font(20)))
    return to_png(image)
