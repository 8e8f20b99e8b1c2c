"""The words every area says the same way: a stretch of time, a number of garnets, a
list of names."""

from __future__ import annotations

import math
from collections.abc import Sequence


def span(seconds: float) -> str:
    """A stretch of time in the largest whole unit: "1 hour", "90 minutes", "2 days"."""
    minutes = max(1, math.ceil(seconds / 60 - 1e-9))
    for size, unit in ((1440, "day"), (60, "hour")):
        if minutes % size == 0:
            n = minutes // size
            return f"{n} {unit}" if n == 1 else f"{n} {unit}s"
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def garnets(n: int) -> str:
    """A number of garnets: "1 garnet", "1,000 garnets"."""
    return f"{n:,} garnet" if n in (1, -1) else f"{n:,} garnets"


def listed(items: Sequence[str], most: int = 20) -> str:
    """Items joined by commas; past ``most``, a count of the rest ("and 5 more")."""
    rest = f" and {len(items) - most} more" if len(items) > most else ""
    return ", ".join(items[:most]) + rest
