"""Text in the images: any script and emoji, measured, shortened and drawn.

A text is cut into *clusters* (what a reader sees as one character: a letter with its
accents, an emoji with its skin tone or joined family), each cluster is given the
first face of ``engine.fonts`` that draws it (colour emoji to the emoji face), and
neighbouring clusters of one face form a *run*, laid out by that face (Arabic joins,
emoji sequences combine). Runs sit on one baseline, that of DejaVu Sans.

Names are shortened by *display width*: a wide East Asian character or an emoji
counts two cells, as in a terminal or a chat client's monospace; ``fit_line`` shrinks
and shortens the names in a verdict, never the verdict itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from math import floor, modf

from PIL import Image, ImageFont

from engine import fonts

ELLIPSIS = "…"
_ZWJ = "\u200d"
# Characters of the Basic Multilingual Plane shown as emoji by default (Unicode's
# Emoji_Presentation); the planes above hold most emoji, which all are.
_BMP_EMOJI = frozenset(
    "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕"
)


# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a name
# is drawn as typed, never reversed over what follows it. Right-to-left scripts need none
# of them: the layout orders Arabic and Hebrew by itself.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def printable(text: str) -> str:
    """``text`` as one line the faces can lay out: each control character, line or
    paragraph separator (CR, LF, U+0085, U+001C-U+001F, U+2028, U+2029…) becomes a
    space, and bidirectional controls are dropped. (The layout engine refuses a line
    holding a line break: a name with one would keep every board of its match from
    being drawn.)"""
    if text.isprintable():
        return text
    return "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
                   for c in text.translate(_BIDI_CONTROLS))


# ---- clusters and display width ----------------------------------------------------

def _extends(cluster: str, char: str) -> bool:
    """Whether ``char`` belongs to the cluster before it."""
    code = ord(char)
    if cluster.endswith(_ZWJ) or char == _ZWJ:
        return True
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0xE0020 <= code <= 0xE007F:
        return True  # variation selectors, emoji tags
    if 0x1F3FB <= code <= 0x1F3FF:  # skin tones
        return True
    if 0x1F1E6 <= code <= 0x1F1FF:  # the second regional indicator of a flag
        return len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF
    return unicodedata.category(char) in ("Mn", "Me", "Mc")


def clusters(text: str) -> list[str]:
    out: list[str] = []
    for char in text:
        if out and _extends(out[-1], char):
            out[-1] += char
        else:
            out.append(char)
    return out


def is_emoji(cluster: str) -> bool:
    """Whether a cluster is shown as an emoji (in colour, two cells wide)."""
    base = ord(cluster[0])
    if "\ufe0f" in cluster or _ZWJ in cluster[1:] or "\u20e3" in cluster:
        return True
    return (base >= 0x1F000 and base not in range(0x1F100, 0x1F1E6)) or cluster[0] in _BMP_EMOJI


def cells(cluster: str) -> int:
    """Display width of a cluster: 2 for wide East Asian characters and emoji."""
    if is_emoji(cluster) or unicodedata.east_asian_width(cluster[0]) in ("W", "F"):
        return 2
    if unicodedata.category(cluster[0]) in ("Mn", "Me", "Cf", "Cc"):
        return 0
    return 1


def display_width(text: str) -> int:
    return sum(cells(c) for c in clusters(text))


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` display cells, an ellipsis included, between clusters."""
    parts = clusters(text)
    if sum(cells(c) for c in parts) <= width:
        return text
    kept, used = [], 0
    for cluster in parts:
        if used + cells(cluster) > width - 1:
            break
        kept.append(cluster)
        used += cells(cluster)
    return "".join(kept).rstrip() + ELLIPSIS


# ---- runs ----------------------------------------------------------------------------

def _face_of(cluster: str) -> str:
    if is_emoji(cluster) and fonts.has_glyph("emoji", cluster[0]):
        return "emoji"
    for which in ("dejavu", "cjk", "emoji"):
        if fonts.has_glyph(which, cluster[0]):
            return which
    if cells(cluster) == 0:
        return "dejavu"
    return "cjk" if unicodedata.east_asian_width(cluster[0]) in ("W", "F") and fonts.cjk(
        12) is not None else "dejavu"


@lru_cache(maxsize=1)
def _plain() -> frozenset[str]:
    """Characters below U+0300 that DejaVu Sans draws: none extends a cluster or is an
    emoji, so a text of them alone is one run of DejaVu Sans."""
    return frozenset(c for c in map(chr, range(0x20, 0x300))
                     if c.isprintable() and fonts.has_glyph("dejavu", c))


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[str, str], ...]:
    """(face, text) pieces of ``text`` in order; each emoji is a piece of its own."""
    if text and _plain().issuperset(text):  # a board's lines: no cluster to look at
        return (("dejavu", text),)
    out: list[list[str]] = []
    for cluster in clusters(printable(text)):
        face = _face_of(cluster)
        if out and out[-1][0] == face and face != "emoji":
            out[-1][1] += cluster
        else:
            out.append([face, cluster])
    return tuple((face, part) for face, part in out)


def _face(which: str, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    if which == "cjk":
        face = fonts.cjk(size, bold)
        if face is not None:
            return face
    return fonts.dejavu(size, bold)


def _emoji_scale(size: int) -> float:
    return size / fonts.EMOJI_SIZE


def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` in pixels, as ``draw_text`` lays it out."""
    return _length(text, size, bold)


@lru_cache(maxsize=8192)
def _length(text: str, size: int, bold: bool) -> float:
    words = text.split(" ")
    if len(words) > 1 and text.strip(" ") and runs(text) == (("dejavu", text),) and not any(
            _kerned(a, b, size, bold) for a, b in _around_spaces(words)):
        # A line's advance is its words' and spaces' (laid out alone: kept), where no
        # kerning pair holds a space: a board's new line is measured without its layout.
        return sum(_length(w, size, bold) for w in words) + (len(words) - 1) * _length(
            " ", size, bold)
    total = 0.0
    for which, part in runs(text):
        if which == "emoji":
            face = fonts.emoji()
            assert face is not None
            total += face.getlength(part) * _emoji_scale(size)
        else:
            total += _face(which, size, bold).getlength(part)
    return total


def _around_spaces(words: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs of characters each space of a line split into ``words`` stands in."""
    pairs = []
    for before, after in pairwise(words):
        pairs += [(before[-1:] or " ", " "), (" ", after[:1] or " ")]
    return pairs


@lru_cache(maxsize=4096)
def _kerned(first: str, second: str, size: int, bold: bool) -> bool:
    """Whether DejaVu Sans lays the pair out closer or further than its two apart."""
    face = fonts.dejavu(size, bold)
    return face.getlength(first + second) != face.getlength(first) + face.getlength(second)


# ---- drawing ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TextArt:
    """A text ready to paste: coverage of its plain glyphs (to fill with the ink), its
    emoji in colour (or None), both at ``offset`` from the anchor point."""

    mask: Image.Image
    colour: Image.Image | None
    offset: tuple[int, int]

    def box(self, xy: tuple[float, float]) -> tuple[int, int, int, int]:
        x, y = floor(xy[0]) + self.offset[0], floor(xy[1]) + self.offset[1]
        return x, y, x + self.mask.width, y + self.mask.height


def _from_core(core: object) -> Image.Image:
    return Image.Image()._new(core)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _baseline_shift(size: int, bold: bool, vertical: str) -> int:
    """How far below an anchor of DejaVu Sans (``vertical``: a, m, s, d) its baseline is."""
    face = fonts.dejavu(size, bold)
    _, (_, at) = face.getmask2("x", "L", anchor="l" + vertical)
    _, (_, base) = face.getmask2("x", "L", anchor="ls")
    return at - base


def text_art(text: str, size: int, bold: bool = False, anchor: str = "la",
             start: tuple[float, float] = (0.0, 0.0)) -> TextArt:
    """``text`` drawn for an anchor (as Pillow's anchors: "la", "lm", "mm", "rs"…) at
    the fractional position ``start``; cached, for names and labels recur."""
    fx, fy = round(start[0] % 1, 3), round(start[1] % 1, 3)
    return _art(text, size, bold, anchor, fx, fy)


# Texts and words kept drawn: a board's lines are new from move to move, their words
# are not (some 40 words of a game's lines, at up to 64 fractional starts each).
ARTS = 8192


@lru_cache(maxsize=ARTS)
def _art(text: str, size: int, bold: bool, anchor: str, fx: float, fy: float) -> TextArt:
    pieces = runs(text)
    if len(pieces) == 1 and pieces[0][0] == "dejavu":
        if anchor[0] in "lmr" and " " in text:
            words = _words(text, size, bold, "l" + anchor[1], fx, fy)
            if words is not None:
                return _anchored(words, text, size, bold, anchor[0])
        # DejaVu Sans alone: exactly what ImageDraw.text draws.
        core, offset = fonts.dejavu(size, bold).getmask2(
            pieces[0][1], "L", anchor=anchor, start=(fx, fy))
        return TextArt(_from_core(core), None, offset)
    horizontal, vertical = anchor[0], anchor[1]
    if vertical not in "amsd":
        vertical = "a"
    width = _length(text, size, bold)
    x = fx - {"l": 0.0, "m": width / 2, "r": width}.get(horizontal, 0.0)
    baseline = fy + _baseline_shift(size, bold, vertical)
    placed: list[tuple[Image.Image, int, int, bool]] = []
    for which, part in pieces:
        if which == "emoji":
            face = fonts.emoji()
            assert face is not None
            scale = _emoji_scale(size)
            core, (ox, oy) = face.getmask2(part, "RGBA", anchor="ls")
            glyph = _from_core(core)
            w = max(1, round(glyph.width * scale))
            h = max(1, round(glyph.height * scale))
            glyph = glyph.resize((w, h), Image.Resampling.LANCZOS)
            placed.append((glyph, round(x + ox * scale), round(baseline + oy * scale), True))
            x += face.getlength(part) * scale
        else:
            face = _face(which, size, bold)
            frac, whole = modf(x)
            core, (ox, oy) = face.getmask2(part, "L", anchor="ls", start=(frac, 0.0))
            placed.append((_from_core(core), int(whole) + ox, floor(baseline) + oy, False))
            x += face.getlength(part)
    left = min(px for _, px, _, _ in placed)
    top = min(py for _, _, py, _ in placed)
    right = max(px + im.width for im, px, _, _ in placed)
    bottom = max(py + im.height for im, _, py, _ in placed)
    size_ = (max(1, right - left), max(1, bottom - top))
    mask = Image.new("L", size_, 0)
    colour = None
    for image, px, py, coloured in placed:
        at = (px - left, py - top)
        if coloured:
            if colour is None:
                colour = Image.new("RGBA", size_, (0, 0, 0, 0))
            colour.alpha_composite(image, at)
        elif image.width and image.height:
            mask.paste(255, (*at, at[0] + image.width, at[1] + image.height), image)
    return TextArt(mask, colour, (left, top))


def _words(text: str, size: int, bold: bool, anchor: str, fx: float,
           fy: float) -> TextArt | None:
    """A left-anchored line of DejaVu Sans put together from its words, each drawn (and
    kept) alone where the whole line's layout puts it: the same pixels as the line drawn
    whole, at a fraction of the cost when most of its words were drawn before (a board's
    status line changes every move; "Move", "to", "play"... do not).

    Pillow renders each glyph at its whole pixel, the pen's fractional position only
    rounding where that pixel is; a word started at its fractional place on the line
    gets each glyph on the same pixel. That holds only where nothing joins a word to its
    neighbour: no kerning or shaping across a space (the advances add up exactly, as
    multiples of 1/64 pixel) and no glyph reaching over a space into the next word's box
    (where Pillow would blend the two): otherwise None, and the line is drawn whole."""
    parts = text.split(" ")
    space = _length(" ", size, bold)
    if sum(_length(w, size, bold) for w in parts) + space * (len(parts) - 1) != _length(
            text, size, bold):
        return None
    placed: list[tuple[TextArt, int, int]] = []
    # The pen in 64ths of a pixel, as Pillow keeps it: its start rounded once, then the
    # advances added exactly (a start carried as a float and rounded again at each word
    # can land a 64th off, and a glyph a pixel off).
    pen = round(fx * 64)
    for word in parts:
        if word:
            art = _art(word, size, bold, anchor, (pen % 64) / 64, fy)
            left = pen // 64 + art.offset[0]
            if placed and left < placed[-1][1] + placed[-1][0].mask.width:
                return None
            placed.append((art, left, art.offset[1]))
        pen += round((_length(word, size, bold) + space) * 64)
    if not placed:
        return None
    left = placed[0][1]
    top = min(y for _, _, y in placed)
    right = placed[-1][1] + placed[-1][0].mask.width
    bottom = max(y + art.mask.height for art, _, y in placed)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    core = mask.im
    for art, x0, y0 in placed:  # Image.paste's checks cost more than a word's pixels
        x, y = x0 - left, y0 - top
        core.paste(art.mask.im, (x, y, x + art.mask.width, y + art.mask.height))
    return TextArt(mask, None, (left, top))


def _anchored(art: TextArt, text: str, size: int, bold: bool, horizontal: str) -> TextArt:
    """A left-anchored line anchored at its middle ("m") or right ("r") instead: moved
    left by whole pixels, as Pillow moves it (by its advance in 64ths of a pixel,
    rounded to a pixel: the glyphs keep their pixels)."""
    if horizontal == "l":
        return art
    advance = round(_length(text, size, bold) * 64)
    if horizontal == "m":
        advance //= 2
    return TextArt(art.mask, art.colour, (art.offset[0] - (advance + 32) // 64, art.offset[1]))


def draw_text(image: Image.Image, xy: tuple[float, float], text: str, size: int,
              bold: bool = False, fill: tuple[int, int, int] = (0, 0, 0),
              anchor: str = "la") -> tuple[int, int, int, int]:
    """Draw ``text`` on an RGB image as ``ImageDraw.text`` would, with every face of the
    chain; returns the box drawn on."""
    art = text_art(text, size, bold, anchor, xy)
    box = art.box(xy)
    if art.mask.getbbox() is not None:
        image.paste(fill, box, art.mask)
    if art.colour is not None:
        image.paste(art.colour, box, art.colour)
    return box


# ---- fitting -----------------------------------------------------------------------------

def fit_text(text: str, width: float, size: int, bold: bool = True) -> str:
    """The text, shortened with an ellipsis (between clusters) until it fits ``width``
    pixels."""
    if _length(text, size, bold) <= width:
        return text
    parts = clusters(text)
    low, high = 0, len(parts)  # the longest prefix that fits is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if _length("".join(parts[:middle]).rstrip() + ELLIPSIS, size, bold) <= width:
            low = middle
        else:
            high = middle
    return "".join(parts[:low]).rstrip() + ELLIPSIS


def fit_line(text: str, width: float, size: int, *, bold: bool = True,
             names: Sequence[str] = (), smallest: int | None = None) -> tuple[str, int]:
    """A line that must be read whole, such as a verdict, fitted to ``width`` pixels:
    at ``size`` if it fits; else in a smaller font, down to ``smallest``; then with the
    ``names`` in it shortened by display width, the longest first, down to four cells;
    and only then cut at the end. Returns the text and the size to draw it at."""
    smallest = size if smallest is None else min(size, smallest)
    while size > smallest and _length(text, size, bold) > width:
        size -= 1
    if _length(text, size, bold) <= width:
        return text, size
    shown = {name: name for name in sorted(set(names), key=len, reverse=True)
             if name and name in text}
    line = text
    while _length(line, size, bold) > width and shown:
        longest = max(shown, key=lambda n: display_width(shown[n]))
        now = display_width(shown[longest])
        if now <= 4:
            break
        shown[longest] = shorten(longest, now - 1)
        line = text
        for name, short in shown.items():
            line = line.replace(name, short)
    return fit_text(line, width, size, bold), size
