"""Sigma Escape's pen: draws a board in true colour, or straight in the entries of a
palette, where each colour's entry and each text's tile is found once.

Lines, fills and outlines are not anti-aliased, so drawn with a colour's palette entry
every pixel gets the entry the true colour maps to; text is drawn on its flat ground
(``bg``) and that little box mapped to the palette, kept (``text_tile``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import floor
from typing import Any

from PIL import Image, ImageDraw

from engine.palette import Palette
from engine.text import draw_text, text_art

Colour = tuple[int, int, int]
Ink = int | Colour


class Pen:
    """Draws on an RGB image, or on a palette image with the palette entry each colour
    maps to: lines, fills and outlines are not anti-aliased, so either way every pixel
    gets the entry the true colour maps to; text is drawn in true colour on its
    background (``bg``, flat under it) and that little box mapped to the palette."""

    def __init__(self, image: Image.Image, palette: Palette | None = None,
                 origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.palette = palette
        # The palette's number (``token``), and the entries of colours kept for it: a
        # board asks for some 400.
        self.token = -1 if palette is None else _token(palette)
        self._inks = {} if palette is None else _INKS[self.token]
        # Where the picture's (0, 0) is on ``image``: a part of it drawn alone (a hand).
        self.dx, self.dy = origin
        # Palette entries: straight to Pillow's core (the board's hundreds of lines and
        # rectangles, a hand's cards), at coordinates moved by the origin as ImageDraw
        # would be given them.
        self._core = self.draw.draw if palette is not None else None
        self._moved = origin != (0, 0)

    def _at(self, xy: Sequence[float]) -> tuple[float, ...]:
        dx, dy = self.dx, self.dy
        if not dx and not dy:
            return tuple(xy)
        return tuple(v + (dy if i % 2 else dx) for i, v in enumerate(xy))

    def ink(self, colour: Colour | None) -> Ink | None:
        if colour is None or self.palette is None:
            return colour
        found = self._inks.get(colour)
        if found is None:
            found = self._inks[colour] = self.palette.index(colour)
        return found

    def rectangle(self, box: Sequence[float], fill: Colour | None = None,
                  outline: Colour | None = None, width: int = 1) -> None:
        if self._core is not None:  # as ImageDraw.rectangle draws it, without its checks
            if self._moved:
                box = self._at(box)
            fill_ink, ink = self.ink(fill), self.ink(outline)
            if fill_ink is not None:
                self._core.draw_rectangle(box, fill_ink, 1)
            if ink is not None and ink != fill_ink and width != 0:
                self._core.draw_rectangle(box, ink, 0, width)
            return
        self.draw.rectangle(self._at(box), fill=self.ink(fill), outline=self.ink(outline),
                            width=width)

    def rounded_rectangle(self, box: Sequence[float], radius: float,
                          fill: Colour | None = None, outline: Colour | None = None,
                          width: int = 1) -> None:
        box = self._at(box)
        if self._core is not None:
            # ImageDraw.rounded_rectangle's own first steps (on the moved box, as it
            # would be given it): a box whose corners meet (a badge) is the ellipse it
            # draws through ImageDraw.ellipse, same box.
            x0, y0, x1, y1 = box
            d = min(x1 - x0, y1 - y0, radius * 2)
            x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
            if d >= x1 - x0 - 1:
                d = x1 - x0
                if d >= y1 - y0 - 1:
                    self._ellipse(box, fill, outline, width)
                    return
        self.draw.rounded_rectangle(box, radius=radius, fill=self.ink(fill),
                                    outline=self.ink(outline), width=width)

    def edge(self, xy: tuple[int, int, int, int], fill: Colour, width: int) -> None:
        """A cell's side, left to right or top to bottom: the rectangle that
        ImageDraw.line draws for it, filled as one (a wide line is a polygon to Pillow,
        several times slower)."""
        x0, y0, x1, y1 = xy
        if self._core is None or width < 2 or self._moved:
            self.line(xy, fill, width)
        elif y0 == y1:
            self._core.draw_rectangle((x0, y0 - (width - 1) // 2, x1, y0 + width // 2),
                                      self.ink(fill), 1)
        else:
            self._core.draw_rectangle((x0 - (width - 1) // 2, y0, x0 + width // 2, y1),
                                      self.ink(fill), 1)

    def edges(self, sides: Sequence[tuple[tuple[int, int, int, int], Colour]],
              width: int) -> None:
        """Cells' sides one after the other, each as ``edge`` draws it (a board's
        outlines: a hundred or more)."""
        core = self._core
        if core is None or width < 2 or self._moved:
            for xy, fill in sides:
                self.edge(xy, fill, width)
            return
        before, after = (width - 1) // 2, width // 2
        ink = self.ink
        for (x0, y0, x1, y1), fill in sides:
            if y0 == y1:
                core.draw_rectangle((x0, y0 - before, x1, y0 + after), ink(fill), 1)
            else:
                core.draw_rectangle((x0 - before, y0, x0 + after, y1), ink(fill), 1)

    def line(self, xy: Sequence[float], fill: Colour, width: int = 1) -> None:
        if self._core is not None:  # as ImageDraw.line draws it, without its checks
            self._core.draw_lines(self._at(xy) if self._moved else xy, self.ink(fill), width)
            return
        self.draw.line(self._at(xy), fill=self.ink(fill), width=width)

    def ellipse(self, box: Sequence[float], fill: Colour | None = None,
                outline: Colour | None = None, width: int = 1) -> None:
        self._ellipse(self._at(box), fill, outline, width)

    def _ellipse(self, box: Sequence[float], fill: Colour | None,
                 outline: Colour | None, width: int) -> None:
        """``ellipse`` of a box already moved by the origin."""
        if self._core is not None:  # as ImageDraw.ellipse draws it, without its checks
            fill_ink, ink = self.ink(fill), self.ink(outline)
            if fill_ink is not None:
                self._core.draw_ellipse(box, fill_ink, 1)
            if ink is not None and ink != fill_ink and width != 0:
                self._core.draw_ellipse(box, ink, 0, width)
            return
        self.draw.ellipse(box, fill=self.ink(fill), outline=self.ink(outline), width=width)

    def polygon(self, xy: list[tuple[float, float]], fill: Colour) -> None:
        if self._moved:
            xy = [(x + self.dx, y + self.dy) for x, y in xy]
        if self._core is not None:  # as ImageDraw.polygon fills it, without its checks
            self._core.draw_polygon(xy, self.ink(fill), 1)
            return
        self.draw.polygon(xy, fill=self.ink(fill))

    def text(self, xy: tuple[float, float], text: str, size: int, bold: bool, fill: Colour,
             bg: Colour, anchor: str = "la") -> None:
        xy = (xy[0] + self.dx, xy[1] + self.dy)
        if self.palette is None:
            draw_text(self.image, xy, text, size, bold, fill, anchor)
            return
        tile, mask, (w, h), (ax, ay) = text_tile(text, size, bold, anchor,
                                                 (xy[0] % 1, xy[1] % 1), fill, bg, self.token)
        x, y = floor(xy[0]) + ax, floor(xy[1]) + ay
        self.image.im.paste(tile, (x, y, x + w, y + h), mask)  # as Image.paste does


# Tables of Image.point (a function there is called for each of the 256 values).
_COVERED = [0] + [255] * 255  # anything: 255
TEXT_TILES = 1024  # texts kept mapped to a palette: badges' numbers, names, captions
# Palettes by number, so that what is kept for one is found without hashing its 768
# values each time; and per palette the entries of colours.
_TOKENS: dict[tuple[int, ...], int] = {}
_PALETTES: dict[int, Palette] = {}
_INKS: dict[int, dict[Colour, int]] = {}


def palette_of(token: int) -> Palette:
    """The palette of a pen's ``token``."""
    return _PALETTES[token]


def _token(palette: Palette) -> int:
    token = _TOKENS.get(palette.colours)
    if token is None:
        token = _TOKENS[palette.colours] = len(_TOKENS)
        _PALETTES[token] = palette
        _INKS[token] = {}
    return token


_COVERAGE = Image.frombytes("L", (256, 1), bytes(range(256)))


@lru_cache(maxsize=256)
def _blends(token: int, fill: Colour, bg: Colour) -> list[int]:
    """The palette entry of ``fill`` pasted over ``bg`` at each coverage 0..255, as
    Image.paste blends them (the same call, on a strip of the 256 coverages)."""
    strip = Image.new("RGB", (256, 1), bg)
    strip.paste(fill, (0, 0), _COVERAGE)
    return list(_PALETTES[token].quantize(strip).tobytes())


@lru_cache(maxsize=TEXT_TILES)
def text_tile(text: str, size: int, bold: bool, anchor: str, start: tuple[float, float],
              fill: Colour, bg: Colour, token: int) -> tuple[Any, ...]:
    """Text on its flat background mapped to palette ``token``, with the mask of its
    pixels: their cores (as pasted), size and offset from the anchor."""
    palette = _PALETTES[token]
    art = text_art(text, size, bold, anchor, start)
    if art.colour is None:
        # Glyphs alone: each pixel the ink over the ground by its coverage, one of 256
        # blends, whose entries are looked up once (``_blends``), not mapped per text.
        # (Through the core: Image.point rounds its table's 256 values in Python first.)
        core = art.mask.im
        return (core.point(_blends(token, fill, bg), None), core.point(_COVERED, None),
                art.mask.size, art.offset)
    region = Image.new("RGB", art.mask.size, bg)
    region.paste(fill, (0, 0), art.mask)
    covered = art.mask.point(_COVERED)
    if art.colour is not None:
        region.paste(art.colour, (0, 0), art.colour)
        covered.paste(255, (0, 0), art.colour.getchannel("A").point(_COVERED))
    return palette.quantize(region).im, covered.im, region.size, art.offset
