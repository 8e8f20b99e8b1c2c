"""The unbounded square grid of Sigma Escape: cells, the four sides, quarter turns.

A cell is ``(row, col)``; rows grow downwards, columns to the right, and the Nothing
card lies on (0, 0). Sides are numbered clockwise: 0 = N, 1 = E, 2 = S, 3 = W.
"""

from __future__ import annotations

Cell = tuple[int, int]

NOTHING: Cell = (0, 0)
DIRS = "NESW"
N, E, S, W = 0, 1, 2, 3
DELTA: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIR_WORDS = ("north", "east", "south", "west")


def step(cell: Cell, d: int) -> Cell:
    """The cell next to ``cell`` in direction ``d``."""
    dr, dc = DELTA[d]
    return cell[0] + dr, cell[1] + dc


def opposite(d: int) -> int:
    return (d + 2) % 4


def rotate(cell: Cell, turns: int) -> Cell:
    """``cell`` turned ``turns`` quarter turns clockwise about (0, 0)."""
    r, c = cell
    for _ in range(turns % 4):
        r, c = c, -r
    return r, c


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    r, c = cell
    return (r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)


def parse_dir(text: str) -> int:
    """N, E, S or W (any case) as 0..3; ValueError otherwise."""
    index = DIRS.find(text.strip().upper())
    if index < 0 or len(text.strip()) != 1:
        raise ValueError(text)
    return index
