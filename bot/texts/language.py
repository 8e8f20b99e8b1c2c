"""Which language a sentence is said in, and the catalogs that say it.

garnet speaks English (the source: every message is written in English in
``bot/texts``), Korean and Japanese. The sentences stay functions with named arguments;
inside, each says its words through ``_`` (one message) or ``n_`` (a message with a
number: the language's plural rule, from CLDR through Babel), which look the message up
in the catalog of the language being spoken now (``speaking``).

Whose language: a public post is said in the server's language, an answer to one person
in that person's. A request is carried out in the server's language (what it posts for
everyone comes out right however it was put together), and its answer to the asker is
said again in the asker's (``said_in``). For that a text function is marked ``@text``:
what it returns is a ``Said``, a ``str`` that remembers the call that made it, so it can
be said again in another language. A ``Said`` that was pasted into a bigger string is a
plain string again and stays in the language it was said in; an answer meant for one
person is made by one text function (which may take other texts as arguments: those are
said again too).

The catalogs are ``bot/locale/<language>/LC_MESSAGES/garnet.po`` (``garnet.pot`` the
template), compiled to ``.mo`` when garnet is installed (see docs/translating.md).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from gettext import NullTranslations
from pathlib import Path
from typing import Any, ParamSpec

from babel.core import Locale, UnknownLocaleError
from babel.dates import format_skeleton
from babel.numbers import format_decimal
from babel.support import Translations

#: the languages garnet speaks, the source first
LANGUAGES = ("en", "ko", "ja")
SOURCE = "en"
#: the catalogs' folder and domain
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "garnet"

_SPEAKING: ContextVar[str] = ContextVar("garnet_language", default=SOURCE)

P = ParamSpec("P")


def language() -> str:
    """The language being spoken now."""
    return _SPEAKING.get()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Say everything inside in ``lang`` (one of ``LANGUAGES``; anything else: English)."""
    token = _SPEAKING.set(lang if lang in LANGUAGES else SOURCE)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def from_discord(locale: str | None) -> str | None:
    """garnet's language for a Discord locale (``"ko"``, ``"ja"``, ``"en-US"``,
    ``"en-GB"``), or None for a language garnet does not speak."""
    if not locale:
        return None
    base = str(locale).split("-", 1)[0].lower()
    return base if base in LANGUAGES else None


@functools.cache
def catalog(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English, or a missing catalog: the source)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == SOURCE or not path.is_file():
        return NullTranslations()
    with path.open("rb") as f:
        return Translations(f, domain=DOMAIN)


def _(message: str) -> str:
    """``message`` in the language spoken now ("" stays "": gettext would answer the
    catalog's header)."""
    return catalog(language()).gettext(message) if message else message


def N_(message: str) -> str:
    """``message`` marked for the catalogs but said later, through ``_`` (a module's
    table of words, read when a text says one of them)."""
    return message


def n_(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` in the language spoken now."""
    return catalog(language()).ngettext(singular, plural, n)


def numeral(n: float) -> str:
    """A number as the language spoken now writes it ("1,234" in English)."""
    return format_decimal(n, locale=locale_of(language()))


def moment(at: float, english: str, *skeletons: str) -> str:
    """An instant (UTC) as the language spoken now writes it: English by garnet's own
    ``strftime`` pattern (``"%b %d %H:%M"``), every other language by CLDR's pattern for
    each skeleton (``"MMMd"``, ``"Hm"``: Babel), joined by spaces ("3월 5일 07:09")."""
    if language() == SOURCE:
        return time.strftime(english, time.gmtime(at))
    when = datetime.fromtimestamp(at, UTC)
    return " ".join(format_skeleton(s, when, tzinfo=UTC, locale=locale_of(language()))
                    for s in skeletons)


@functools.cache
def locale_of(lang: str) -> str:
    """The CLDR locale of a language garnet speaks (Babel's numbers, dates and plurals);
    one CLDR does not know (a pseudo-locale such as ``en-XA``) writes as its base."""
    if lang == SOURCE:
        return "en_US"
    try:
        return str(Locale.parse(lang.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        return locale_of(lang.split("-", 1)[0]) if "-" in lang else "en_US"


class Said(str):
    """A sentence as said in one language, which can be said again in another."""

    _again: Callable[[], str]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled or copied, it is the plain string it says (a call cannot travel).
        return (str, (str(self),))

    def said_in(self, lang: str) -> str:
        with speaking(lang):
            return self._again()


def said_in(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a ``Said``; anything else as it is."""
    return text.said_in(lang) if isinstance(text, Said) else text


def _again(value: Any) -> Any:
    if isinstance(value, Said):
        return value._again()
    if isinstance(value, tuple | list):
        return type(value)(_again(v) for v in value)
    return value


def text(fn: Callable[P, str]) -> Callable[P, str]:
    """Mark a text function: what it says can be said again in another language.

    A text function is pure (its words depend only on its arguments and the language),
    so saying it again is calling it again, with its text arguments said again too.
    """

    @functools.wraps(fn)
    def say(*args: P.args, **kwargs: P.kwargs) -> str:
        said = Said(fn(*args, **kwargs))
        said._again = lambda: fn(*[_again(a) for a in args],
                                 **{k: _again(v) for k, v in kwargs.items()})
        return said

    return say
