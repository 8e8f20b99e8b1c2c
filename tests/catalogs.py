"""The catalogs as the tests read them (tests/bot/test_catalogs.py): the template, each
language's garnet.po as translations, the placeholders of a message, and the
pseudo-locale ``en-XA`` made from the template at test time."""

from __future__ import annotations

import io
import math
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.texts import language

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "bot" / "locale"
POT = LOCALE / "garnet.pot"
PSEUDO = "en-XA"
TRANSLATED = [lang for lang in language.LANGUAGES if lang != language.SOURCE]


def template() -> Catalog:
    with POT.open("rb") as f:
        return read_po(f)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "garnet.po"


def catalog(lang: str) -> Catalog:
    """``lang``'s garnet.po (a missing one fails the test that asks, saying so)."""
    path = po_path(lang)
    if not path.is_file():
        pytest.fail(f"no catalog for {lang}: {path.relative_to(ROOT)} (docs/translating.md "
                    f"says how to start one)")
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def translations(cat: Catalog) -> GNUTranslations:
    """``cat`` compiled as setup.py compiles it (untranslated messages left out)."""
    for message in list(cat):
        if message.id and not all(forms(message)):
            del cat[message.id]
    buffer = io.BytesIO()
    write_mo(buffer, cat, use_fuzzy=False)
    buffer.seek(0)
    return GNUTranslations(buffer)


def forms(message: Message) -> list[str]:
    """A message's translations: one, or one a plural form."""
    s = message.string
    return list(s) if isinstance(s, list | tuple) else [s]


def ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, list | tuple) else [str(message.id)]


def fields(text: str) -> set[tuple[str, str, str]]:
    """The placeholders of a message: (name, conversion, format spec)."""
    return {(name, conv or "", spec or "")
            for _, name, spec, conv in string.Formatter().parse(text) if name is not None}


def extracted(out: Path) -> Catalog:
    """The messages of the code now, as `make catalogs` extracts them."""
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract",
                    "-F", "babel.cfg", "--no-default-keywords", "-k", "_", "-k", "n_:1,2",
                    "-k", "N_", "-c", "TRANSLATORS:", "-o", str(out), "."],
                   cwd=ROOT, check=True, capture_output=True)
    with out.open("rb") as f:
        return read_po(f)


# ---- the pseudo-locale ------------------------------------------------------------------

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
# What a translator keeps as it is: placeholders, code, mentions and links, timestamps.
KEPT = re.compile(r"(\{[^{}]*\}|`[^`]*`|<[^<>]*>)")
OPEN, CLOSE = "⟦", "⟧"


def pseudo(message: str) -> str:
    """``message`` as the pseudo-locale says it: each line with words accented, about 35 %
    longer and bracketed (⟦…⟧), placeholders, code and links as they are."""
    lines = []
    for line in message.split("\n"):
        if not re.search(r"[A-Za-z]", KEPT.sub("", line)):
            lines.append(line)
            continue
        parts = KEPT.split(line)
        said = "".join(p if i % 2 else p.translate(ACCENTED) for i, p in enumerate(parts))
        pad = "·" * math.ceil(len(line) * 0.35)
        lines.append(f"{OPEN}{said}{pad}{CLOSE}")
    return "\n".join(lines)


def pseudo_catalog() -> Catalog:
    cat = Catalog(locale="en", domain="garnet")  # English's plural rule
    for message in template():
        if not message.id:
            continue
        if isinstance(message.id, list | tuple):
            cat.add(message.id, tuple(pseudo(i) for i in message.id))
        else:
            cat.add(message.id, pseudo(message.id))
    return cat


@contextmanager
def pseudo_locale() -> Iterator[None]:
    """Every message said in ``en-XA`` inside, whichever language is spoken (a server's,
    a member's): the catalogs' lookup (``language.catalog``, which ``_`` and ``n_`` ask)
    answers with the pseudo-locale's. Numbers and dates stay the speaker's."""
    buffer = io.BytesIO()
    write_mo(buffer, pseudo_catalog())
    buffer.seek(0)
    said = GNUTranslations(buffer)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(language, "catalog", lambda lang: said)
        yield
