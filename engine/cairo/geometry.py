"""The Cairo Corridor board, built from the construction in docs/rules/cairo-corridor.md.

Nothing here is typed in by hand except the construction itself: 24 group centres
in a staggered grid, each hexagon cut into up to four pentagons, a pentagon kept iff
it lies inside the 38 x 38 square. Adjacency comes from shared edges, the sides from
vertex coordinates. Coordinates are integer "quarter units", y pointing down.

Cells are numbered in the order of their canonical names ("AD", "AR", "AU", "BD",
...), so bit ``i`` of a bitmask is cell ``CELLS[i]`` and walking a mask from its
lowest bit lists cell names sorted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from operator import or_

from engine.bits import set_bits

SIZE = 38
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
DIRECTIONS = ("U", "D", "L", "R")
DIRECTION_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}

# Vertex offsets from the group centre, around each pentagon.
_OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    "U": ((-3, -3), (0, -4), (3, -3), (2, 0), (-2, 0)),
    "D": ((-2, 0), (2, 0), (3, 3), (0, 4), (-3, 3)),
    "L": ((-3, -3), (-2, 0), (-3, 3), (-6, 2), (-6, -2)),
    "R": ((3, -3), (6, -2), (6, 2), (3, 3), (2, 0)),
}

Point = tuple[int, int]


@dataclass(frozen=True)
class Cell:
    """One pentagon: its bit index, canonical name and outline."""

    index: int
    letter: str
    direction: str
    vertices: tuple[Point, ...]

    @property
    def name(self) -> str:
        return self.letter + self.direction

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def centroid(self) -> tuple[float, float]:
        """Area centroid (where a piece or mark is drawn)."""
        area = cx = cy = 0.0
        pts = self.vertices
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
            cross = x0 * y1 - x1 * y0
            area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        return cx / (3 * area), cy / (3 * area)


def group_centre(letter: str) -> Point:
    number = LETTERS.index(letter)
    row, column = divmod(number, 4)
    return 4 + 12 * column - 6 * (row % 2), 4 + 6 * row


def _inside(point: Point) -> bool:
    return 0 <= point[0] <= SIZE and 0 <= point[1] <= SIZE


def _build_cells() -> tuple[Cell, ...]:
    found: list[tuple[str, str, tuple[Point, ...]]] = []
    for letter in LETTERS:
        cx, cy = group_centre(letter)
        for direction in DIRECTIONS:
            vertices = tuple((cx + dx, cy + dy) for dx, dy in _OFFSETS[direction])
            if all(_inside(v) for v in vertices):
                found.append((letter, direction, vertices))
    found.sort(key=lambda item: item[0] + item[1])
    return tuple(Cell(i, letter, d, vs) for i, (letter, d, vs) in enumerate(found))


def _build_adjacency(cells: tuple[Cell, ...]) -> tuple[tuple[int, ...], ...]:
    owners: dict[frozenset[Point], list[int]] = {}
    for cell in cells:
        vs = cell.vertices
        for a, b in zip(vs, vs[1:] + vs[:1], strict=True):
            owners.setdefault(frozenset((a, b)), []).append(cell.index)
    neighbours: list[set[int]] = [set() for _ in cells]
    for sharing in owners.values():
        if len(sharing) > 2:
            raise AssertionError("an edge is shared by more than two pentagons")
        if len(sharing) == 2:
            i, j = sharing
            neighbours[i].add(j)
            neighbours[j].add(i)
    return tuple(tuple(sorted(n)) for n in neighbours)


def _side_mask(cells: tuple[Cell, ...], on_side: Callable[[int, int], bool]) -> int:
    mask = 0
    for cell in cells:
        if any(on_side(x, y) for x, y in cell.vertices):
            mask |= cell.bit
    return mask


CELLS: tuple[Cell, ...] = _build_cells()
COUNT = len(CELLS)
NAMES: tuple[str, ...] = tuple(cell.name for cell in CELLS)
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
ALL = (1 << COUNT) - 1

#: neighbour indices of each cell, ascending
NEIGHBOUR_LISTS: tuple[tuple[int, ...], ...] = _build_adjacency(CELLS)
#: neighbour bitmask of each cell
NEIGHBOURS: tuple[int, ...] = tuple(sum(1 << j for j in ns) for ns in NEIGHBOUR_LISTS)

TOP = _side_mask(CELLS, lambda x, y: y <= 1)
BOTTOM = _side_mask(CELLS, lambda x, y: y >= SIZE - 1)
LEFT = _side_mask(CELLS, lambda x, y: x <= 1)
RIGHT = _side_mask(CELLS, lambda x, y: x >= SIZE - 1)
SIDES: dict[str, int] = {"top": TOP, "bottom": BOTTOM, "left": LEFT, "right": RIGHT}

#: the directions each group letter has, in the order up, down, left, right
GROUP_DIRECTIONS: dict[str, tuple[str, ...]] = {
    letter: tuple(d for d in DIRECTIONS if letter + d in INDEX) for letter in LETTERS
}


cells_of = set_bits  # the set bits of a mask, lowest first


# Names of the cells of each byte of a mask: turning a mask into a sorted name list
# is then nine table look-ups instead of one step per cell.
_BYTES = (COUNT + 7) // 8
_NAME_TABLE: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple(NAMES[8 * j + b] for b in range(8) if value >> b & 1 and 8 * j + b < COUNT)
        for value in range(256)
    )
    for j in range(_BYTES)
)


# The union of the neighbour masks of the cells of each byte of a mask.
_NEIGHBOUR_TABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        reduce(or_, (NEIGHBOURS[8 * j + b] for b in range(8)
                     if value >> b & 1 and 8 * j + b < COUNT), 0)
        for value in range(256)
    )
    for j in range(_BYTES)
)


def around(mask: int) -> int:
    """The cells next to the cells of ``mask`` and not in it."""
    out = 0
    rest = mask
    for table in _NEIGHBOUR_TABLE:
        if rest & 255:
            out |= table[rest & 255]
        rest >>= 8
    return out & ~mask


def names_of(mask: int) -> list[str]:
    """Canonical names of the cells of a mask, sorted."""
    out: list[str] = []
    for table in _NAME_TABLE:
        if mask & 255:
            out += table[mask & 255]
        mask >>= 8
    return out
