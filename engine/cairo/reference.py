"""A slow, obviously correct reading of the rules' Corridor: names and sets only.

Adjacency comes from the pentagons' vertices (two shared vertices: a shared edge), the
sides from their coordinates, the Corridor from a search of the empty cells' groups, and
a legal move is any empty cell whose filling leaves a Corridor. The tests hold
``engine.cairo.rules`` to it, and ``python -m engine bench cairo --reference`` measures
the analysis against it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.cairo.geometry import CELLS, SIZE

NAMES = [cell.name for cell in CELLS]
VERTICES = {cell.name: set(cell.vertices) for cell in CELLS}
ADJACENT = {
    a: {b for b in NAMES if b != a and len(VERTICES[a] & VERTICES[b]) == 2} for a in NAMES
}
SIDES = [
    {n for n in NAMES if any(y <= 1 for _, y in VERTICES[n])},
    {n for n in NAMES if any(y >= SIZE - 1 for _, y in VERTICES[n])},
    {n for n in NAMES if any(x <= 1 for x, _ in VERTICES[n])},
    {n for n in NAMES if any(x >= SIZE - 1 for x, _ in VERTICES[n])},
]


def components(cells: set[str]) -> list[set[str]]:
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            for b in ADJACENT[todo.pop()]:
                if b in left:
                    left.discard(b)
                    group.add(b)
                    todo.append(b)
        out.append(group)
    return out


def corridors(empty: set[str]) -> list[set[str]]:
    return [g for g in components(empty) if all(g & side for side in SIDES)]


def legal(empty: set[str]) -> set[str]:
    """The empty cells whose filling leaves a Corridor."""
    return {c for c in empty if corridors(empty - {c})}


def score(pieces: Iterable[str], corridor: set[str]) -> int:
    return sum(1 for p in pieces if ADJACENT[p] & corridor)


def analysis(black: Iterable[str], red: Iterable[str]) -> dict[str, Any]:
    """What ``CairoCorridor.analyze`` says of a position: the Corridor, its critical
    cells, the legal moves, whether it is over, the running score."""
    black, red = list(black), list(red)
    empty = set(NAMES) - set(black) - set(red)
    found = corridors(empty)
    corridor = found[0] if found else set()
    moves = legal(empty)
    over = not moves & corridor
    return {
        "corridor": sorted(corridor),
        "critical": sorted(corridor - moves),
        "legal": [] if over else sorted(moves),
        "over": over,
        "score": [score(black, corridor), score(red, corridor)],
    }
