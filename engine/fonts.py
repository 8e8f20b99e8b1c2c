"""Where the fonts of the images come from: one chain of faces, tried per character.

1. DejaVu Sans (regular and bold), shipped in ``engine/fonts``: Latin, Greek,
   Cyrillic, Arabic, Hebrew and most symbols, the same on every machine.
2. A CJK face for Chinese, Japanese and Korean names: Noto Sans CJK (Debian's
   ``fonts-noto-cjk``) or another of ``_CJK`` found on the machine.
3. A colour emoji face: Noto Color Emoji (``fonts-noto-color-emoji``). It is a
   bitmap font (CBDT) whose glyphs exist at one size only, ``EMOJI_SIZE``: they are
   drawn at that size and scaled to the text's.

The faces are looked for in ``FONT_DIRS`` (directories separated by the platform's
path separator), then in ``engine/fonts``, then in the usual font directories;
``CJK_FONT``, ``CJK_FONT_BOLD`` and ``EMOJI_FONT`` name files directly. A face that
is not found is left out with one warning in the log: its characters are then drawn
by DejaVu Sans where it has them, else as boxes, and nothing else changes.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

log = logging.getLogger(__name__)

SHIPPED = Path(__file__).with_name("fonts")
EMOJI_SIZE = 109  # the one size of Noto Color Emoji's bitmaps
_PROBE_SIZE = 24
_NOWHERE = "\U0010fffd"  # a private-use character no font draws: its glyph is .notdef

# File names by preference; the number is the face's index in a collection.
_CJK: tuple[tuple[str, str, int], ...] = (  # (regular, bold, index)
    ("NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc", 0),
    ("NotoSansCJKjp-Regular.otf", "NotoSansCJKjp-Bold.otf", 0),
    ("NotoSansCJKsc-Regular.otf", "NotoSansCJKsc-Bold.otf", 0),
    ("NotoSansCJKtc-Regular.otf", "NotoSansCJKtc-Bold.otf", 0),
    ("NotoSansCJKkr-Regular.otf", "NotoSansCJKkr-Bold.otf", 0),
    ("SourceHanSans-Regular.ttc", "SourceHanSans-Bold.ttc", 0),
    ("wqy-zenhei.ttc", "wqy-zenhei.ttc", 0),
    ("wqy-microhei.ttc", "wqy-microhei.ttc", 0),
    ("DroidSansFallbackFull.ttf", "DroidSansFallbackFull.ttf", 0),
)
_EMOJI = ("NotoColorEmoji.ttf", "Noto-COLRv1.ttf")
_SYSTEM_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts",
                "~/.fonts", "/Library/Fonts", "/System/Library/Fonts")


@dataclass(frozen=True)
class FaceFile:
    path: str
    index: int = 0


@dataclass(frozen=True)
class Fonts:
    """The faces found: DejaVu always, CJK and emoji when the machine has them."""

    cjk: tuple[FaceFile, FaceFile] | None  # regular, bold
    emoji: FaceFile | None


def _search_dirs() -> list[Path]:
    dirs = [Path(d).expanduser() for d in os.environ.get("FONT_DIRS", "").split(os.pathsep)
            if d.strip()]
    dirs.append(SHIPPED)
    dirs.extend(Path(d).expanduser() for d in _SYSTEM_DIRS)
    return [d for d in dirs if d.is_dir()]


def _index_files(dirs: list[Path]) -> dict[str, str]:
    """Font file name to its first path, in the order of ``dirs``."""
    found: dict[str, str] = {}
    for top in dirs:
        for root, _, files in os.walk(top):
            for name in files:
                found.setdefault(name, os.path.join(root, name))
    return found


def _loads(face: FaceFile, size: int = _PROBE_SIZE) -> bool:
    try:
        ImageFont.truetype(face.path, size, index=face.index)
    except OSError:
        return False
    return True


@lru_cache(maxsize=1)
def fonts() -> Fonts:
    """The faces of this process, looked for once (and warned about once)."""
    files = _index_files(_search_dirs())
    cjk = None
    given = os.environ.get("CJK_FONT", "").strip()
    if given:
        bold = os.environ.get("CJK_FONT_BOLD", "").strip() or given
        cjk = (FaceFile(given), FaceFile(bold))
    else:
        for regular, bold, index in _CJK:
            if regular in files:
                cjk = (FaceFile(files[regular], index),
                       FaceFile(files.get(bold, files[regular]), index))
                break
    if cjk is not None and not all(_loads(face) for face in cjk):
        log.warning("the CJK font %s cannot be read; Chinese, Japanese and Korean text "
                    "will show as boxes", cjk[0].path)
        cjk = None
    elif cjk is None:
        log.warning("no CJK font found (install Debian's fonts-noto-cjk, or set CJK_FONT "
                    "or FONT_DIRS): Chinese, Japanese and Korean names will show as boxes")
    emoji = None
    given = os.environ.get("EMOJI_FONT", "").strip()
    if given:
        emoji = FaceFile(given)
    else:
        emoji = next((FaceFile(files[name]) for name in _EMOJI if name in files), None)
    if emoji is not None and not _loads(emoji, EMOJI_SIZE):
        log.warning("the emoji font %s cannot be read at size %d; emoji will be drawn in "
                    "black and white", emoji.path, EMOJI_SIZE)
        emoji = None
    elif emoji is None:
        log.warning("no colour emoji font found (install Debian's fonts-noto-color-emoji, "
                    "or set EMOJI_FONT or FONT_DIRS): emoji will be drawn in black and white")
    return Fonts(cjk, emoji)


@lru_cache(maxsize=128)
def dejavu(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(SHIPPED / name), size)


@lru_cache(maxsize=128)
def cjk(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    found = fonts().cjk
    if found is None:
        return None
    face = found[1 if bold else 0]
    return ImageFont.truetype(face.path, size, index=face.index)


@lru_cache(maxsize=1)
def emoji() -> ImageFont.FreeTypeFont | None:
    """The colour emoji face at the one size its bitmaps have."""
    found = fonts().emoji
    if found is None:
        return None
    return ImageFont.truetype(found.path, EMOJI_SIZE, index=found.index)


def _signature(face: ImageFont.FreeTypeFont, text: str, mode: str) -> tuple[object, ...]:
    core, offset = face.getmask2(text, mode, anchor="ls")
    if core.size[0] == 0 or core.size[1] == 0:
        return (core.size, offset)
    return (core.size, offset, Image.Image()._new(core).tobytes())


@lru_cache(maxsize=8192)
def has_glyph(which: str, char: str) -> bool:
    """Whether the face ``which`` ("dejavu", "cjk", "emoji") draws ``char`` itself:
    its glyph differs from the .notdef box the face draws for what it lacks."""
    if which == "emoji":
        face, mode = emoji(), "RGBA"
    elif which == "cjk":
        face, mode = cjk(_PROBE_SIZE), "L"
    else:
        face, mode = dejavu(_PROBE_SIZE), "L"
    if face is None:
        return False
    return _signature(face, char, mode) != _notdef(which, mode)


@lru_cache(maxsize=4)
def _notdef(which: str, mode: str) -> tuple[object, ...]:
    face = emoji() if which == "emoji" else cjk(_PROBE_SIZE) if which == "cjk" else dejavu(
        _PROBE_SIZE)
    assert face is not None
    return _signature(face, _NOWHERE, mode)
