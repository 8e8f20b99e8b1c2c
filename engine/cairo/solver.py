"""The exact Cairo Corridor endgame solver.

Negamax with alpha-beta and a transposition table over a *reduced* position:

- the corridor region R (critical cells never leave it, and no piece placed outside R
  can ever touch the final Corridor);
- the parity of the number of dead cells (empty cells outside R). Placing a piece on
  a dead cell changes nothing but the turn: it is a pass from a shared pool. With two
  more passes in the pool the value is the same (whoever gains from the smaller pool
  answers every extra pass with a pass), so only the parity matters: one pass is
  available when it is odd;
- the owners of the cells next to R that are not next to a critical cell. The pieces
  next to a critical cell touch the final Corridor whatever happens, so they only add
  a constant, kept out of the key.

Values are score margins: the final score of the side to move minus the opponent's,
both maximising their own margin. Ownership is stored as "mover" / "other", so a
position and its colour swap share an entry.

Everything the search needs about a region (its critical cells, the cells next to it,
the region after each legal placement) is computed once per region and cached: the
search itself only does integer operations on masks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.cairo.geometry import ALL, NAMES, around
from engine.cairo.rules import analyse
from engine.cairo.state import CairoState
from engine.game import EngineError

_analyse = analyse.__wrapped__  # uncached: the solver keeps its own cache by region

# (critical, sure, unsure, adjacent, children); a child is (bit, region after, parity
# of the cells the placement cut off, cell index).
Child = tuple[int, int, int, int]
Info = tuple[int, int, int, int, tuple[Child, ...]]

_INF = 1000


class SolveTimeout(EngineError):
    """The solver ran out of its node or time budget."""


@dataclass(frozen=True)
class Solution:
    margin: int
    best: list[str]
    nodes: int


class Solver:
    """One solver keeps its region cache and transposition table between calls."""

    def __init__(self, max_entries: int = 4_000_000) -> None:
        self.infos: dict[int, Info] = {}
        self.table: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.max_entries = max_entries
        self.nodes = 0
        self.node_limit = 0  # 0: none
        self.deadline = 0.0  # 0: none

    # ---- regions --------------------------------------------------------------------

    def info(self, region: int) -> Info:
        found = self.infos.get(region)
        if found is not None:
            return found
        critical = _analyse(ALL & ~region).critical
        adjacent = around(region)
        sure = around(critical) & adjacent
        size = region.bit_count()
        kids: list[Child] = []
        if critical != region:
            rest = region & ~critical
            while rest:
                bit = rest & -rest
                rest ^= bit
                after = _analyse(ALL & ~(region ^ bit)).region
                kids.append((bit, after, (size - 1 - after.bit_count()) & 1,
                             bit.bit_length() - 1))
            # Placements that cut off more of the region first: they end the game
            # sooner and are often the sharpest.
            kids.sort(key=lambda k: k[1].bit_count())
        found = (critical, sure, adjacent & ~sure, adjacent, tuple(kids))
        if len(self.infos) > 400_000:
            self.infos.clear()
        self.infos[region] = found
        return found

    # ---- the search -----------------------------------------------------------------

    def value(self, region: int, me: int, other: int, parity: int,
              alpha: int = -_INF, beta: int = _INF) -> int:
        """Margin for the mover (pieces ``me``) with ``parity`` passes available,
        within the window (alpha, beta): fail-soft bounds outside it."""
        return self._search(region, me, other, parity, alpha, beta)

    def _search(self, region: int, me: int, other: int, parity: int,
                alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise SolveTimeout("node budget exhausted")
        if self.deadline and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise SolveTimeout("time budget exhausted")
        info = self.infos.get(region)
        if info is None:
            info = self.info(region)
        _, sure, unsure, adjacent, kids = info
        if not kids:
            return (me & adjacent).bit_count() - (other & adjacent).bit_count()
        base = (me & sure).bit_count() - (other & sure).bit_count()
        mine = me & unsure
        theirs = other & unsure
        key = (region, mine, theirs, parity)
        table = self.table
        entry = table.get(key)
        first = 0
        if entry is not None:
            low, high, first = entry
            low += base
            high += base
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        else:
            low, high = -_INF, _INF
            # Bounds without search: at most every remaining placement in the region
            # goes one way, and every unsure piece stays or goes.
            free = len(kids)
            top = base + mine.bit_count() + free
            if top <= alpha:
                return top
            bottom = base - theirs.bit_count() - free
            if bottom >= beta:
                return bottom
        alpha0 = alpha
        best = -_INF
        best_bit = 0
        search = self._search
        if first:
            for bit, after, split, _ in kids:
                if bit == first:
                    best = -search(after, other, me | bit, parity ^ split, -beta, -alpha)
                    best_bit = bit
                    if best > alpha:
                        alpha = best
                    break
        if best < beta:
            for bit, after, split, _ in kids:
                if bit == first:
                    continue
                v = -search(after, other, me | bit, parity ^ split, -beta, -alpha)
                if v > best:
                    best = v
                    best_bit = bit
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if parity and best < beta:
                v = -search(region, other, me, 0, -beta, -alpha)
                if v > best:
                    best = v
                    best_bit = 0
        # Store relative to the constant part; keep what an older entry knew.
        if best <= alpha0:
            new = (low - base, min(high, best) - base, best_bit or first)
        elif best >= beta:
            new = (max(low, best) - base, high - base, best_bit)
        else:
            new = (best - base, best - base, best_bit)
        if len(table) >= self.max_entries:
            table.clear()
        table[key] = new
        return best


def reduced(state: CairoState) -> tuple[int, int, int, int]:
    """(corridor region, mover's pieces, other's pieces, number of dead cells)."""
    occupied = state.black | state.red
    region = analyse(occupied).region
    me, other = (state.black, state.red) if state.turn == 0 else (state.red, state.black)
    dead = (ALL & ~occupied & ~region).bit_count()
    return region, me, other, dead


def playable(state: CairoState) -> int:
    """Legal placements in the corridor region (dead cells not counted)."""
    a = analyse(state.black | state.red)
    return 0 if a.over else (a.region & ~a.critical).bit_count()


def solve(state: CairoState, solver: Solver | None = None, *, seconds: float = 0.0,
          nodes: int = 0) -> Solution:
    """The exact margin for the side to move and every move that achieves it.

    ``best`` lists canonical cell names, sorted; when passing is among the best moves,
    every dead cell is listed. Raises SolveTimeout past a given time or node budget.
    """
    solver = solver or Solver()
    solver.nodes = 0
    solver.node_limit = nodes
    solver.deadline = time.perf_counter() + seconds if seconds else 0.0
    try:
        region, me, other, dead = reduced(state)
        _, _, _, adjacent, kids = solver.info(region)
        if not kids:
            margin = (me & adjacent).bit_count() - (other & adjacent).bit_count()
            return Solution(margin, [], 1)
        margin = solver.value(region, me, other, dead & 1)
        best = 0
        # A move reaches the margin iff its child is worth at most -margin.
        for bit, after, split, _ in kids:
            if -solver.value(after, other, me | bit, (dead & 1) ^ split,
                             -margin, -margin + 1) >= margin:
                best |= bit
        if dead and -solver.value(region, other, me, (dead - 1) & 1,
                                  -margin, -margin + 1) >= margin:
            best |= ALL & ~(state.black | state.red) & ~region
        return Solution(margin, [NAMES[i] for i in range(len(NAMES)) if best >> i & 1],
                        solver.nodes)
    finally:
        solver.node_limit = 0
        solver.deadline = 0.0
