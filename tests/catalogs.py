"""The shipped catalogs compiled for a test: the .po files of bot/locale compiled to
.mo in a folder of the test's own, which the language core reads from then on (the
install compiles them into the package; a test does not depend on that having run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.texts import language
from bot.texts.language import LOCALE_DIR


@contextmanager
def compiled(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for po in LOCALE_DIR.glob("*/LC_MESSAGES/*.po"):
        target = folder / po.relative_to(LOCALE_DIR).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parents[1].name)
        with target.open("wb") as f:
            write_mo(f, catalog)
    monkeypatch.setattr(language, "LOCALE_DIR", folder)
    language.catalog.cache_clear()
    try:
        yield folder
    finally:
        language.catalog.cache_clear()
