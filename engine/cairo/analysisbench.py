"""``python -m engine bench cairo --reference``: the analysis against the naive reference.

On the mid-game positions of ``engine bench`` (seeded random games), each position is
analysed cold (the analysis cache emptied first) by the game's ``analyze`` (the
Corridor, its critical cells, the legal moves, the end, the running score) and by
``engine.cairo.reference.analysis`` (sets of names, a search of the empty cells' groups
for every empty cell); and the core alone, ``rules.analyse`` uncached against the
reference's legal moves; and both again with the analysis in Python (``analyse_python``,
as it was before the C analysis and is where the extension is not built). The answers
must be the same. Each position's time is the
least of ``rounds`` runs taken in turn, so that other work on the machine weighs on
neither side more; the figures are the sums over the positions and their ratios.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.cairo import reference, rules
from engine.cairo.game import CairoCorridor
from engine.cairo.geometry import ALL, names_of


def _least(rounds: int, run: Callable[..., object], *args: Any) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        run(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def reference_bench(positions: int = 200, rounds: int = 5, seed: int = 1) -> dict[str, Any]:
    from engine.bench import random_game

    game = CairoCorridor()
    rng = random.Random(seed)
    pool: list[Any] = []
    while len(pool) < positions:
        states = random_game(game, 2, rng)
        n = len(states)
        pool.extend(s for s in states[n // 4: max(n // 4 + 1, 3 * n // 4)]
                    if game.outcome(s) is None)
    pool = pool[:positions]
    analyse = rules.analyse.__wrapped__
    totals = {"reference": 0.0, "analyze": 0.0, "reference_core": 0.0, "core": 0.0,
              "analyze_python": 0.0, "core_python": 0.0}
    identical = True

    for state in pool:
        black, red = names_of(state.black), names_of(state.red)
        occupied = state.black | state.red
        empty = set(names_of(ALL & ~occupied))
        rules.analyse.cache_clear()
        identical &= reference.analysis(black, red) == game.analyze(state)
        totals["reference"] += _least(rounds, reference.analysis, black, red)
        totals["analyze"] += _cold(game, state, rounds)
        totals["reference_core"] += _least(rounds, reference.legal, empty)
        totals["core"] += _least(rounds, analyse, occupied)
        # The same in Python, as it was before the C analysis (and is where not built).
        totals["core_python"] += _least(rounds, rules.analyse_python, occupied)
        native, rules.NATIVE = rules.NATIVE, False
        try:
            totals["analyze_python"] += _cold(game, state, rounds)
        finally:
            rules.NATIVE = native
    per = {key: round(value / len(pool) * 1e6, 1) for key, value in totals.items()}
    return {
        "positions": len(pool),
        "rounds": rounds,
        "identical": identical,
        "reference_us": per["reference"],
        "analyze_cold_us": per["analyze"],
        "speedup": round(totals["reference"] / totals["analyze"], 1),
        "reference_core_us": per["reference_core"],
        "core_us": per["core"],
        "core_speedup": round(totals["reference_core"] / totals["core"], 1),
        "native": rules.NATIVE,
        "python_analyze_cold_us": per["analyze_python"],
        "python_speedup": round(totals["reference"] / totals["analyze_python"], 1),
        "python_core_us": per["core_python"],
        "python_core_speedup": round(totals["reference_core"] / totals["core_python"], 1),
    }


def _cold(game: CairoCorridor, state: Any, rounds: int) -> float:
    """The least time of ``game.analyze`` with the analysis cache emptied before each
    (outside the time)."""
    best = float("inf")
    for _ in range(rounds):
        rules.analyse.cache_clear()
        t0 = time.perf_counter()
        game.analyze(state)
        best = min(best, time.perf_counter() - t0)
    return best
