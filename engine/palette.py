"""Boards drawn in palette mode on cached static layers, and written as small PNGs.

A game's *layer* is what does not change during a game: the empty board with its
letters and outlines, drawn once in true colour, and the same mapped to the game's
fixed palette of 256 colours, kept as the PNG's rows. A render copies those rows (a
``Canvas``, drawn on in place), pastes ready-made palette tiles of pieces and marks
into them, pastes the parts that recur from board to board (legend rows) as they were
mapped the first time (``Canvas.cached``), and maps only the boxes drawn on in true
colour (the status line's glyphs, overlays) to the palette. Mapping to a fixed palette
is per pixel, so a box mapped alone gets exactly the pixels the whole picture would:
the result is the true-colour drawing mapped to the palette, at a fraction of the
cost.

The PNG is written here too: rows of palette indices compressed with ISA-L's deflate
(the ``isal`` package) where it is installed, several times faster than zlib at the
same size; with the standard ``zlib`` otherwise.
"""

from __future__ import annotations

import contextlib
import ctypes
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops

from engine.text import draw_text, text_art

_zlib: Any = zlib
try:  # pragma: no cover - which one depends on the machine
    from isal import isal_zlib

    _zlib = isal_zlib
except ImportError:  # pragma: no cover
    pass


def _deflate(*parts: bytes | bytearray | memoryview) -> bytes:
    """The zlib stream of ``parts`` one after the other."""
    if len(parts) == 1:
        data: bytes = _zlib.compress(parts[0], 1)
        return data
    stream = _zlib.compressobj(1)
    return b"".join([*(stream.compress(part) for part in parts), stream.flush()])

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_EXTRA = 16  # palette entries kept for the colours of emoji in names
# Parts of the picture kept mapped to the palette (``Canvas.cached``), per layer: legend
# rows, some 40 KB apiece, so at most 10 MB a layer (a few layers a worker). Past it
# they are dropped all at once and drawn again as needed (as every board did before).
CACHED_PARTS = 256


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_of_rows(rows: bytes | bytearray, size: tuple[int, int], palette: Sequence[int],
                trailing: bool = False) -> bytes:
    """A PNG of a palette image from its rows, each already led by filter byte 0; or,
    ``trailing``, each followed by the next one's (its image one pixel wider than the
    picture, the last column 0)."""
    width, height = size
    colours = bytes(palette[: 3 * 256]).ljust(3 * 256, b"\0")  # every index is valid
    data = _deflate(b"\0", memoryview(rows)[:-1]) if trailing else _deflate(rows)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours),
        _chunk(b"IDAT", data),
        _chunk(b"IEND", b""),
    ))


# Bands of PNG rows kept compressed by what they show (``png_of_bands``): a few KB each.
BANDS = 512
_BANDS: dict[object, tuple[bytes, int]] = {}
_ADLER = 65521


def _adler_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs and the second's
    length (zlib's ``adler32_combine``)."""
    rem = length % _ADLER
    low = first & 0xFFFF
    high = (rem * low) % _ADLER
    low += (second & 0xFFFF) + _ADLER - 1
    high += (first >> 16) + (second >> 16) + _ADLER - rem
    low = low - _ADLER if low >= _ADLER else low
    low = low - _ADLER if low >= _ADLER else low
    high = high - 2 * _ADLER if high >= 2 * _ADLER else high
    high = high - _ADLER if high >= _ADLER else high
    return low | high << 16


def png_of_bands(rows: bytes | bytearray, size: tuple[int, int], palette: Sequence[int],
                 bands: Sequence[tuple[int, object]]) -> bytes:
    """``png_of_rows(rows, size, palette, trailing=True)``, with the rows cut into bands
    (each from its first row, the first from row 0, to the next's) and each band with a
    key (not None) compressed once and kept under it: a band whose pixels recur (Sigma
    Escape's header, a hand until its player plays) costs nothing to compress again.
    The key must say everything the band's pixels depend on.

    The image data is each band's raw deflate stream ended by a sync flush (byte
    aligned, no match reaching back across it), one after the other, then an empty
    final block; its Adler-32 is the bands' combined. The pixels are the same; the file
    is a little larger (each band starts without the previous one's history)."""
    width, height = size
    stride = width + 1
    view = memoryview(rows)
    parts = [b"\x78\x01"]
    adler = 1
    for i, (first, key) in enumerate(bands):
        end = (bands[i + 1][0] if i + 1 < len(bands) else height) * stride
        kept = _BANDS.get(key) if key is not None else None
        if kept is None:
            # The stream's byte j is the rows' j - 1 (each row's last byte is the next
            # one's filter byte); its first, the first row's filter byte, is 0.
            band = b"\0" + view[: end - 1] if first == 0 else view[first * stride - 1: end - 1]
            stream = _zlib.compressobj(1, zlib.DEFLATED, -15)
            kept = (stream.compress(band) + stream.flush(zlib.Z_SYNC_FLUSH),
                    _zlib.adler32(band))
            if key is not None:
                if len(_BANDS) >= BANDS:
                    _BANDS.clear()
                _BANDS[key] = kept
        parts.append(kept[0])
        adler = _adler_combine(adler, kept[1], end - first * stride)
    parts += (b"\x03\x00", struct.pack(">I", adler))  # an empty final block, then Adler-32
    colours = bytes(palette[: 3 * 256]).ljust(3 * 256, b"\0")
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours),
        _chunk(b"IDAT", b"".join(parts)),
        _chunk(b"IEND", b""),
    ))


def forget_bands() -> None:
    """Drop the bands kept compressed."""
    _BANDS.clear()


def png_of(image: Image.Image) -> bytes:
    """A PNG of a palette ("P") image."""
    assert image.mode == "P"
    framed = Image.new("P", (image.width + 1, image.height), 0)
    framed.paste(image, (1, 0))
    return png_of_rows(framed.tobytes(), image.size, image.getpalette() or [])


@dataclass(frozen=True)
class Palette:
    """A fixed palette: ``colours`` (flat RGB) are the entries in use; the rest of 256
    is free for the colours of emoji a picture's names may hold."""

    colours: tuple[int, ...]

    @property
    def image(self) -> Image.Image:
        return _palette_image(self.colours)

    @property
    def free(self) -> int:
        return 256 - len(self.colours) // 3

    def quantize(self, image: Image.Image) -> Image.Image:
        """A true-colour image mapped to the palette, pixel by pixel (no dithering)."""
        return image.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)

    def index(self, colour: Colour) -> int:
        """The entry a flat area of ``colour`` gets."""
        pixel = self.quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
        assert isinstance(pixel, int)
        return pixel

    def extended(self, images: Sequence[Image.Image]) -> Palette:
        """This palette with its free entries fitted to the colours of ``images``."""
        room = min(self.free, _EXTRA)
        if not images or room <= 0:
            return self
        height = sum(im.height for im in images)
        sheet = Image.new("RGB", (max(im.width for im in images), height))
        y = 0
        for im in images:
            sheet.paste(im.convert("RGB"), (0, y))
            y += im.height
        fitted = sheet.quantize(room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        extra = tuple((fitted.getpalette() or [])[: 3 * room])
        return Palette(self.colours + extra)

    @staticmethod
    def fit(samples: Sequence[Image.Image], exact: Sequence[Colour], count: int,
            close: bool = False) -> Palette:
        """``count`` colours fitted to sample pictures, then ``exact`` ones, so that the
        flat fills never shift. Median cut; ``close``: maximum coverage refined by two
        rounds of k-means, which follows anti-aliased edges far more closely (a mean
        error of a third of a level where median cut leaves one and a half) and costs
        a few hundred milliseconds once per process."""
        sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
        y = 0
        for sample in samples:
            sheet.paste(sample.convert("RGB"), (0, y))
            y += sample.height
        method = Image.Quantize.MAXCOVERAGE if close else Image.Quantize.MEDIANCUT
        fitted = sheet.quantize(count, method=method, dither=Image.Dither.NONE,
                                kmeans=2 if close else 0)
        colours = list((fitted.getpalette() or [])[: 3 * count])
        for colour in exact:
            colours.extend(colour)
        del sheet, fitted
        give_back_memory()
        return Palette(tuple(colours))


def give_back_memory() -> None:
    """Return the heap that fitting freed to the system (glibc keeps it otherwise: some
    50 MB in every render worker for the rest of its life)."""
    with contextlib.suppress(AttributeError, OSError):  # not glibc: nothing to do
        ctypes.CDLL(None).malloc_trim(0)


_IMAGES: dict[tuple[int, ...], Image.Image] = {}


def _palette_image(colours: tuple[int, ...]) -> Image.Image:
    found = _IMAGES.get(colours)
    if found is None:
        if len(_IMAGES) > 64:
            _IMAGES.clear()
        found = _IMAGES[colours] = Image.new("P", (1, 1))
        found.putpalette(list(colours))
    return found


@dataclass(frozen=True)
class Layer:
    """A static layer: the picture in true colour and mapped to the palette. The palette
    image is one pixel wider than the picture, its first column filter bytes of PNG
    rows, so that its bytes are the PNG's rows as they are. ``parts``: what
    ``Canvas.cached`` made on it."""

    rgb: Image.Image
    palette: Palette
    framed: Image.Image = field(init=False)
    parts: dict[tuple[object, ...], Image.Image] = field(
        init=False, default_factory=dict, repr=False, compare=False)

    rows: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        framed = Image.new("P", (self.rgb.width + 1, self.rgb.height), 0)
        framed.putpalette(list(self.palette.colours))
        framed.paste(self.palette.quantize(self.rgb), (1, 0))
        object.__setattr__(self, "framed", framed)
        object.__setattr__(self, "rows", framed.tobytes())

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.size


class Canvas:
    """One picture drawn on a layer: palette tiles pasted as they are, parts that recur
    (legend rows) kept mapped, true-colour drawing in boxes (``work``) mapped to the
    palette at the end. ``coloured``: emoji the picture's texts hold, whose colours the
    palette's free entries are fitted to (then nothing drawn is kept: it is mapped to
    that picture's palette)."""

    def __init__(self, layer: Layer, coloured: Sequence[Image.Image] = ()) -> None:
        self.layer = layer
        self.palette = layer.palette.extended(coloured) if coloured else layer.palette
        # The picture is drawn straight in the PNG's rows: a copy of the layer's, which
        # an image of Pillow's core maps (never copied again: ``tobytes`` cost a tenth
        # of a board). Tiles are pasted through that core, as Image.paste would after
        # its checks (which cost more than a tile's copy).
        self._rows = bytearray(layer.rows)
        self._core = Image.frombuffer("P", layer.framed.size, self._rows, "raw", "P", 0, 1).im
        self._work: list[tuple[Box, Image.Image]] = []

    def paste(self, tile: Image.Image, xy: tuple[int, int],
              mask: Image.Image | None = None) -> None:
        """A palette tile (mapped to this layer's palette) at ``xy``."""
        x = xy[0] + 1
        box = (x, xy[1], x + tile.width, xy[1] + tile.height)
        if mask is None:
            self._core.paste(tile.im, box)
        else:
            self._core.paste(tile.im, box, mask.im)

    def place(self, tile: Placed) -> None:
        """A tile made ready by ``placed``: its core, box and mask as pasted."""
        self._core.paste(*tile)

    def work(self, box: Box) -> Image.Image:
        """A true-colour copy of the layer in ``box`` to draw on; what is drawn there is
        mapped to the palette and pasted at the end, in the order asked for."""
        region = self.layer.rgb.crop(box)
        self._work.append((box, region))
        return region

    def cached(self, box: Box, key: tuple[object, ...],
               draw: Callable[[Image.Image], object]) -> None:
        """The part of the picture in ``box`` that ``draw`` draws over the layer and
        that depends on ``key`` alone (a legend row: a name, a count, whose turn):
        drawn and mapped to the palette the first time, pasted as it is after that.
        No box may overlap another's or a ``work`` box."""
        if self.palette is not self.layer.palette:
            draw(self.work(box))
            return
        parts = self.layer.parts
        tile = parts.get((box, *key))
        if tile is None:
            region = self.layer.rgb.crop(box)
            draw(region)
            tile = self.palette.quantize(region)
            if len(parts) >= CACHED_PARTS:
                parts.clear()
            parts[(box, *key)] = tile
        self.paste(tile, (box[0], box[1]))

    def text(self, xy: tuple[float, float], text: str, size: int, bold: bool = False,
             fill: Colour = (0, 0, 0), anchor: str = "la") -> None:
        """Text as ``engine.text.draw_text`` draws it, over the layer alone (nothing else
        drawn under it): only its own box is mapped to the palette."""
        art = text_art(text, size, bold, anchor, xy)
        x0, y0, x1, y1 = art.box(xy)
        width, height = self.layer.size
        box = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
        if box[0] < box[2] and box[1] < box[3]:
            draw_text(self.work(box), (xy[0] - box[0], xy[1] - box[1]), text, size, bold,
                      fill, anchor)

    def finish(self) -> bytes:
        """The PNG."""
        palette = self.palette
        for box, region in self._work:
            self.paste(palette.quantize(region), (box[0], box[1]))
        return png_of_rows(self._rows, self.layer.size, palette.colours)


def write(target: Image.Image | Canvas, xy: tuple[float, float], text: str, size: int,
          bold: bool = False, fill: Colour = (0, 0, 0), anchor: str = "la") -> None:
    """Text on a true-colour image (``engine.text.draw_text``) or on a canvas
    (``Canvas.text``): one drawing of a line of a legend for both."""
    if isinstance(target, Canvas):
        target.text(xy, text, size, bold, fill, anchor)
    else:
        draw_text(target, xy, text, size, bold, fill, anchor)


# A tile ready to paste (``Canvas.place``): its image's and its mask's cores, and the box
# on the PNG's rows (one column right of the picture's).
Placed = tuple[object, ...]


def placed(tile: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> Placed:
    """``tile`` at ``xy`` (through ``mask``), ready for ``Canvas.place``: a board pastes
    dozens, and each call through Image.paste costs more than its pixels."""
    box = (xy[0] + 1, xy[1], xy[0] + 1 + tile.width, xy[1] + tile.height)
    if mask is None:
        return tile.im, box
    # A mask of 0 and 255 as one bit a pixel: the same pixels pasted, a fifth faster.
    return tile.im, box, mask.convert("1", dither=Image.Dither.NONE).im


_ANY = [0] + [255] * 255  # Image.point's table: anything to 255


def changes(tile: Image.Image, under: Image.Image, mask: Image.Image,
            xy: tuple[int, int]) -> Placed | None:
    """``tile`` at ``xy`` through ``mask`` (0 or 255), ready for ``Canvas.place`` and cut
    to the pixels where it differs from ``under`` (the palette picture beneath it, as
    big): all that pasting it changes. None where it changes nothing."""
    differs = ImageChops.difference(_indices(tile), _indices(under)).point(_ANY)
    changed = ImageChops.multiply(differs, mask)
    cut = changed.getbbox()
    if cut is None:
        return None
    return placed(tile.crop(cut), (xy[0] + cut[0], xy[1] + cut[1]), changed.crop(cut))


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's entries as a greyscale image (to compare them)."""
    return Image.frombytes("L", image.size, image.tobytes())
