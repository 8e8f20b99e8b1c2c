"""The words every area says the same way: a stretch of time, a number of garnets, a
list of names."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from bot.texts.language import _, n_, numeral, text


@text
def span(seconds: float) -> str:
    """A stretch of time in the largest whole unit: "1 hour", "90 minutes", "2 days"."""
    minutes = max(1, math.ceil(seconds / 60 - 1e-9))
    for size, unit in ((1440, _("day")), (60, _("hour"))):
        if minutes % size == 0:
            n = minutes // size
            return n_("{n} {unit}",
                      "{n} {unit}s", n).format(n=n, unit=unit)
    return n_("1 minute",
              "{minutes} minutes", minutes).format(minutes=minutes)


@text
def garnets(n: int) -> str:
    """A number of garnets: "1 garnet", "1,000 garnets"."""
    return n_("{n} garnet", "{n} garnets", abs(n)).format(n=numeral(n))  # -1 garnet too


@text
def listed(items: Sequence[str], most: int = 20) -> str:
    """Items joined by commas; past ``most``, a count of the rest ("and 5 more")."""
    rest = _(" and {items} more").format(items=len(items) - most) if len(items) > most else ""
    return ", ".join(items[:most]) + rest


@text
def all_of(items: Iterable[str]) -> str:
    """Names joined by "and": "@a and @b"."""
    # TRANSLATORS: joins names: "@a and @b and @c"
    return _(" and ").join(items)


@text
def either(items: Iterable[str]) -> str:
    """Choices joined by "or": "`a:` or `b:`"."""
    # TRANSLATORS: joins choices: "`lots` or `void`"
    return _(" or ").join(items)


@text
def versus(items: Iterable[str]) -> str:
    """A match's players: "@a vs @b"."""
    # TRANSLATORS: joins a match's players: "@a (White) vs @b (Black)"
    return _(" vs ").join(items)
