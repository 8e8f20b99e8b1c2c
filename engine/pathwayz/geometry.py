"""The 8x12 Pathwayz board as bitmasks: cell geometry, flips and a-to-l chains.

Cell ``row * 12 + col`` is bit ``1 << (row * 12 + col)``; row 0 is row "1" and col 0
is column "a". A set of cells is an int, so a whole neighbourhood or a flood-fill
step is a handful of shifts and masks instead of a loop over cells.
"""

from __future__ import annotations

from collections import deque

from engine.bits import set_bits

ROWS = 8
COLS = 12
CELLS = ROWS * COLS
FULL = (1 << CELLS) - 1

COL_A = sum(1 << (row * COLS) for row in range(ROWS))
COL_L = COL_A << (COLS - 1)
_NOT_A = FULL & ~COL_A
_NOT_L = FULL & ~COL_L
_ROW_BITS = (1 << COLS) - 1

BIT: tuple[int, ...] = tuple(1 << i for i in range(CELLS))


def grow(cells: int) -> int:
    """The cells plus their eight neighbours, clipped at the board edge."""
    # Masking before the vertical step keeps a row-end bit from wrapping onto the
    # next row's first column.
    cells |= ((cells << 1) & _NOT_A) | ((cells >> 1) & _NOT_L)
    return (cells | (cells << COLS) | (cells >> COLS)) & FULL


#: the eight surrounding cells of each cell (the cell itself excluded)
NEIGHBOURS: tuple[int, ...] = tuple(grow(BIT[i]) & ~BIT[i] for i in range(CELLS))


def connects(cells: int) -> bool:
    """Whether ``cells`` hold an 8-connected chain from column a to column l."""
    # A chain needs a piece in every column; folding the rows onto row 0 tests that
    # in three steps and rejects most positions before any flood fill.
    folded = cells | (cells >> (4 * COLS))
    folded |= folded >> (2 * COLS)
    folded |= folded >> COLS
    if folded & _ROW_BITS != _ROW_BITS:
        return False
    reach = cells & COL_A
    while True:
        spread = reach | ((reach << 1) & _NOT_A) | ((reach >> 1) & _NOT_L)
        after = (spread | (spread << COLS) | (spread >> COLS)) & cells
        if after & COL_L:
            return True
        if after == reach:
            return False
        reach = after


indices = set_bits  # the set bits of a mask, lowest first


def _neighbour_list(i: int) -> list[int]:
    return indices(NEIGHBOURS[i])


_ADJACENT: tuple[tuple[int, ...], ...] = tuple(tuple(_neighbour_list(i)) for i in range(CELLS))


def shortest_chain(cells: int) -> list[int]:
    """A shortest a-to-l chain inside ``cells`` (cell numbers from a to l), or []."""
    parent: dict[int, int] = {}
    queue: deque[int] = deque()
    for i in indices(cells & COL_A):
        parent[i] = -1
        queue.append(i)
    while queue:
        i = queue.popleft()
        if i % COLS == COLS - 1:
            path = [i]
            while parent[path[-1]] >= 0:
                path.append(parent[path[-1]])
            return path[::-1]
        for j in _ADJACENT[i]:
            if j not in parent and cells >> j & 1:
                parent[j] = i
                queue.append(j)
    return []


def cheapest_route(own: int, blocked: int) -> tuple[int, list[int]] | None:
    """Fewest empty cells that, filled by one colour, join column a to column l.

    ``own`` are that colour's cells (free to pass), ``blocked`` the other colour's
    (impassable); flips are ignored. Returns the count and one such set of empty
    cells, in order from a to l, or None when the other colour walls a off from l.
    """
    inf = CELLS + 1
    cost = [inf] * CELLS
    parent = [-1] * CELLS
    queue: deque[int] = deque()
    for i in range(0, CELLS, COLS):
        if blocked >> i & 1:
            continue
        cost[i] = 0 if own >> i & 1 else 1
        if cost[i]:
            queue.append(i)
        else:
            queue.appendleft(i)
    done = [False] * CELLS
    while queue:  # 0-1 BFS: own cells cost nothing, empty cells one
        i = queue.popleft()
        if done[i]:
            continue
        done[i] = True
        if i % COLS == COLS - 1:
            route = []
            j = i
            while j >= 0:
                if not own >> j & 1:
                    route.append(j)
                j = parent[j]
            return cost[i], route[::-1]
        for j in _ADJACENT[i]:
            if blocked >> j & 1:
                continue
            step = 0 if own >> j & 1 else 1
            if cost[i] + step < cost[j]:
                cost[j] = cost[i] + step
                parent[j] = i
                if step:
                    queue.append(j)
                else:
                    queue.appendleft(j)
    return None
