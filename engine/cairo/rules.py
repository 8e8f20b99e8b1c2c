"""Corridors, critical cells and scoring, on 72-bit cell masks.

The corridor region is the connected group of empty cells touching all four sides
(the board admits at most one). A cell of the region is *critical* when filling it
leaves no Corridor; every other empty cell is a legal move, dead pockets included.

One depth-first search over the region finds it and its critical cells at once:
Tarjan's articulation points, where each DFS subtree also carries its cell mask so
that the pieces a removal splits off can be tested for touching all four sides.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from engine.caching import kept_as_tuples
from engine.cairo.geometry import ALL, BOTTOM, COUNT, LEFT, NEIGHBOUR_LISTS, RIGHT, TOP, around

_BLOCKED = 1 << 20  # a discovery time no real one reaches: occupied cells look visited
_LOW = (1 << 64) - 1

_native: Any
try:  # by name: importing it from the package would import the package's game first
    _native = import_module("engine.cairo._native")
except ImportError:  # not built (no C compiler at install): the Python search is used
    _native = None
else:
    _native.configure(NEIGHBOUR_LISTS, TOP, BOTTOM, LEFT, RIGHT)
# ``GARNET_PURE_PYTHON=1`` turns the C analysis off, as it does Sigma Escape's C search.
NATIVE = _native is not None and os.environ.get("GARNET_PURE_PYTHON", "") != "1"


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the rules need to know about one arrangement of pieces.

    ``region`` is the corridor region (0 when no Corridor exists), ``critical`` its
    cells whose filling would leave no Corridor, ``adjacent`` the cells next to the
    region (all occupied, since the region is a maximal group of empty cells).
    """

    region: int
    critical: int

    @property
    def adjacent(self) -> int:
        return around(self.region)

    @property
    def over(self) -> bool:
        """Every cell of the region is critical: no piece can touch the Corridor any more."""
        return self.critical == self.region

    def legal(self, empty: int) -> int:
        """The cells a piece may go on: empty and not critical; none once the game is over."""
        if self.critical == self.region:
            return 0
        return empty & ~self.critical


# Positions whose analysis is kept: a live match's position is asked about several
# times over a move (legal moves, outcome, status, its board), and with hundreds of
# matches live in one process, turns interleave; 64 entries were thrashed by 200
# matches. 8192 keeps the current and previous positions of 4,000 live matches, in
# about 2 MB. Searches (solver, AI) use the uncached function and keep their own tables.
# Kept as plain tuples, which the garbage collector does not walk (``engine.caching``).
ANALYSIS_CACHE = 8192


@kept_as_tuples(ANALYSIS_CACHE, Analysis, lambda found: (found.region, found.critical))
def analyse(occupied: int) -> Analysis:
    """Region, critical cells and the region's neighbours for the given occupied cells.

    Cached by occupancy: one position is asked about several times in a row (legal
    moves, outcome, status, rendering); a state never changes, so neither does this.
    Computed in C where the extension is built (``_native.c``, the same search step for
    step as ``analyse_python``, some fifteen times faster), in Python otherwise.
    """
    if NATIVE:
        region_low, region_high, critical_low, critical_high = _native.analyse(
            occupied & _LOW, occupied >> 64)
        return Analysis(region_low | region_high << 64, critical_low | critical_high << 64)
    return analyse_python(occupied)


def analyse_python(occupied: int) -> Analysis:
    """``analyse`` in Python: the reference the C search is held to, and what runs where
    the extension is not built."""
    empty = ALL & ~occupied
    # Discovery times; occupied cells start "discovered" so the search never enters them.
    disc: list[int] = []
    rest = empty
    for table in _UNVISITED:
        disc += table[rest & 255]
        rest >>= 8
    low = [0] * COUNT
    # Cells whose removal splits off pieces of the component, none of which touches
    # all four sides on its own, with the union of those pieces.
    pending: list[tuple[int, int]] = []
    clock = 1
    neighbour_lists = NEIGHBOUR_LISTS

    def visit(v: int, parent: int) -> int:
        """Tarjan's DFS from v; returns the mask of v's subtree."""
        nonlocal clock
        d = clock
        clock += 1
        disc[v] = d
        lo = d
        subtree = 1 << v
        split = 0
        saved = False
        for w in neighbour_lists[v]:
            dw = disc[w]
            if dw == 0:
                child = visit(w, v)
                subtree |= child
                lw = low[w]
                if lw >= d:
                    split |= child
                    if not saved and child & TOP and child & BOTTOM and child & LEFT and (
                        child & RIGHT
                    ):
                        saved = True
                elif lw < lo:
                    lo = lw
            elif dw < lo and w != parent:
                lo = dw
        low[v] = lo
        if split and not saved:
            pending.append((v, split))
        return subtree

    todo = empty & TOP
    while todo:
        region = visit((todo & -todo).bit_length() - 1, -1)
        if region & BOTTOM and region & LEFT and region & RIGHT:  # TOP holds by the start
            return Analysis(region, _critical(region, pending))
        todo &= ~region
        pending.clear()
    return Analysis(0, 0)


def _critical(region: int, pending: list[tuple[int, int]]) -> int:
    # A cell that alone holds one side of the region is always critical; any other
    # cell that splits nothing off leaves the region connected and on all four sides.
    critical = 0
    for side in (TOP, BOTTOM, LEFT, RIGHT):
        on_side = region & side
        if on_side and not on_side & (on_side - 1):
            critical |= on_side
    for v, split in pending:
        remainder = region & ~split & ~(1 << v)
        if not (
            remainder & TOP and remainder & BOTTOM and remainder & LEFT and remainder & RIGHT
        ):
            critical |= 1 << v
    return critical


# For each byte of the empty mask, the initial discovery times of its eight cells:
# 0 (empty, not yet discovered) or _BLOCKED (occupied).
_UNVISITED: tuple[tuple[list[int], ...], ...] = tuple(
    tuple(
        [0 if value >> b & 1 else _BLOCKED for b in range(min(8, COUNT - 8 * j))]
        for value in range(256)
    )
    for j in range((COUNT + 7) // 8)
)
