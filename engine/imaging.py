"""Drawing helpers every game's renderer shares: fonts, fitting text, PNG output.

DejaVu Sans ships with the package, so images look the same on every machine; names
in other scripts and emoji are drawn with the faces ``engine.fonts`` finds, character
by character (``engine.text``).
"""

from __future__ import annotations

import io

from PIL import Image, ImageFont

from engine import fonts, text
from engine.palette import png_of

ELLIPSIS = text.ELLIPSIS


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans: for text that is always in it (labels, numbers, moves)."""
    return fonts.dejavu(size, bold)


def fit_text(line: str, width: float, size: int, bold: bool = True) -> str:
    """The text, shortened with an ellipsis until it fits ``width`` pixels (every face
    of the chain measured, never inside a character)."""
    return text.fit_text(line, width, size, bold)


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
    if image.mode == "P" and "transparency" not in image.info:
        return png_of(image)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
