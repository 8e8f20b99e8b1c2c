"""Drawing helpers every game's renderer shares: fonts and PNG output.

The fonts ship with the package (DejaVu Sans), so images look the same on every
machine whatever fonts it has installed.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

_FONTS = Path(__file__).with_name("fonts")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_FONTS / name), size)


def fit_text(text: str, width: int, size: int, bold: bool = True) -> str:
    """The text, shortened with an ellipsis until it fits ``width`` pixels."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of a board image, fast to make and small to upload.

    Boards are flat colours plus anti-aliased edges, which a 256-colour palette
    holds without visible loss; encoding the palette image is several times faster
    than full RGB and the file is less than half the size.
    """
    if image.mode == "RGBA":
        image = image.convert("RGB")
    if image.mode == "RGB":
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


BANNER_BG = (250, 204, 72)
BANNER_INK = (40, 30, 16)


def add_banner(png: bytes, text: str) -> bytes:
    """The image with ``text`` in a band below it: how a game ended when the board
    cannot tell (a time-out, a resignation, the host's decision)."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = board.size
    size = max(18, width // 34)
    band = size * 2 + 8
    canvas = Image.new("RGB", (width, height + band), BANNER_BG)
    canvas.paste(board, (0, 0))
    draw = ImageDraw.Draw(canvas)
    typeface = font(size, bold=True)
    while draw.textlength(text, font=typeface) > width - 32 and len(text) > 4:
        text = text[:-2].rstrip() + "…"
    draw.text((width // 2, height + band // 2), text, font=typeface, fill=BANNER_INK,
              anchor="mm")
    return to_png(canvas)
