"""Nim's board: the pile as a row of stones, those taken faded. Drawn from numbers, so
a board costs a few milliseconds (garnet's render budget: engine/conformance.py)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

STONE = 28
PER_ROW = 15


def draw(left: int, stones: int, line: str) -> bytes:
    rows = (stones + PER_ROW - 1) // PER_ROW
    image = Image.new("RGB", (PER_ROW * STONE + 20, rows * STONE + 50), "#f4efe4")
    pen = ImageDraw.Draw(image)
    for n in range(stones):
        x, y = 10 + (n % PER_ROW) * STONE, 10 + (n // PER_ROW) * STONE
        colour = "#4a4a4a" if n < left else "#d8d2c4"
        pen.ellipse((x + 2, y + 2, x + STONE - 2, y + STONE - 2), fill=colour)
    pen.text((10, rows * STONE + 22), line, fill="#222222")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
