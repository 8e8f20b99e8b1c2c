"""Drawing helpers every game's renderer shares: fonts and PNG output.

The fonts ship with the package (DejaVu Sans), so images look the same on every
machine whatever fonts it has installed.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

_FONTS = Path(__file__).with_name("fonts")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_FONTS / name), size)


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
