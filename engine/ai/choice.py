"""What the searching players share: a win chance from an evaluation, and the choice
of a weaker level among the near-best moves.

Lichess's weaker levels do not play at random: they search less and pick among the
moves that are nearly as good as the best. ``pick`` does that deterministically for a
seeded random generator: every move whose win chance is within ``spread`` of the best
one's may be chosen, the better ones more often.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def logistic(value: float, scale: float) -> float:
    """A win chance from an evaluation: 1 / (1 + e^(-scale * value))."""
    x = scale * value
    if x > 40.0:
        return 1.0
    if x < -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def win_chance(value: float, win: float, scale: float) -> float:
    """The win chance of a search value: certain within 100 of a proven result
    (``win`` for a win, ``-win`` for a loss), else ``logistic``."""
    if value >= win - 100:
        return 1.0
    if value <= -win + 100:
        return 0.0
    return logistic(value, scale)


def pick(scored: Sequence[tuple[T, float]], spread: float, rng: random.Random) -> T:
    """One of ``(item, win chance)``: the best (the first of equals) when ``spread`` is
    0, else one within ``spread`` of the best, weighted towards the best."""
    best = max(chance for _, chance in scored)
    if spread <= 0.0:
        return next(item for item, chance in scored if chance == best)
    near = [(item, chance) for item, chance in scored if chance >= best - spread]
    weights = [1.0 - (best - chance) / (spread * 1.25) for _, chance in near]
    return rng.choices([item for item, _ in near], weights=weights)[0]
