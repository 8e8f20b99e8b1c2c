"""The solver's bar, measured: ``python -m engine bench cairo --solver``.

Positions come from seeded random games played until exactly ``playable`` corridor
cells are playable (games that skip past that number are drawn again), with the dead
cells outside the region left as they fell, and the side to move as the game gives
it. Each is solved from a cold start (an empty transposition table and region
cache), so every time is the time of a first solve.
"""

from __future__ import annotations

import random
import statistics
import time

from engine.cairo.game import CairoCorridor
from engine.cairo.solver import Solver, playable, solve
from engine.cairo.state import CairoState
from engine.game import JSON, EngineError


def positions(count: int, cells: int, seed: int) -> list[CairoState]:
    """``count`` positions with exactly ``cells`` playable corridor cells."""
    game = CairoCorridor()
    rng = random.Random(seed)
    found: list[CairoState] = []
    tries = 0
    while len(found) < count:
        tries += 1
        if tries > 50 * count + 100:
            raise EngineError(f"random games rarely pass through {cells} playable cells")
        state = game.new_state()
        while playable(state) > cells:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if playable(state) == cells and game.outcome(state) is None:
            found.append(state)
    return found


def solver_bench(count: int = 100, cells: int = 16, seed: int = 1,
                 limit: float = 5.0) -> JSON:
    """Cold solves of ``count`` positions: the slowest, median and 99th percentile
    time (wall; and the slowest in the process's CPU time, which other work on the
    machine does not inflate), the most nodes, and how many took longer than ``limit`` seconds."""
    if not 1 <= count <= 10_000 or not 1 <= cells <= 40:
        raise EngineError("positions: 1 to 10000; playable cells: 1 to 40")
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for state in positions(count, cells, seed):
        solver = Solver()
        start, start_cpu = time.perf_counter(), time.process_time()
        nodes.append(solve(state, solver).nodes)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    ordered = sorted(times)
    return {
        "game": "cairo",
        "solver_positions": count,
        "playable_cells": cells,
        "seconds_max": round(ordered[-1], 3),
        "seconds_p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "seconds_median": round(statistics.median(ordered), 3),
        "cpu_seconds_max": round(max(cpu), 3),
        "nodes_max": max(nodes),
        "over_limit": sum(t > limit for t in times),
        "limit_seconds": limit,
    }
