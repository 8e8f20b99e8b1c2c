"""The board as bitboards, and the searches the rules need.

Squares are numbered ``9 * row + column`` from 0 (a1 = 0, i1 = 8, a2 = 9, i9 = 80);
a set of squares is an int with one bit per square.

Walls have 128 places, one bit each: bit ``a`` is the horizontal wall at anchor ``a``
and bit ``64 + a`` the vertical one, where ``a = 8 * row + column`` of the anchor
square (a1..h8, the square of the wall nearest a1). A horizontal wall at anchor
(column c, row r) lies between rows r and r + 1 along columns c and c + 1; a vertical
one lies between columns c and c + 1 along rows r and r + 1.

Paths ignore pawns (the rules say pawns do not block paths), so every search here
works on walls alone, a step at a time for all squares of a frontier at once.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.bits import set_bits
from engine.caching import kept_as_tuples

SIZE = 9
SQUARES = SIZE * SIZE
ALL_SQUARES = (1 << SQUARES) - 1
PLACES = 128
ALL_PLACES = (1 << PLACES) - 1

ROWS = tuple(((1 << SIZE) - 1) << (SIZE * r) for r in range(SIZE))
COLUMNS = tuple(sum(1 << (SIZE * r + c) for r in range(SIZE)) for c in range(SIZE))


def square(column: int, row: int) -> int:
    return SIZE * row + column


def place(column: int, row: int, vertical: bool) -> int:
    return 8 * row + column + (64 if vertical else 0)


def place_anchor(bit: int) -> tuple[int, int, bool]:
    """(column, row, vertical) of a wall place."""
    vertical = bit >= 64
    anchor = bit - 64 if vertical else bit
    return anchor % 8, anchor // 8, vertical


# ---- what each wall place does -------------------------------------------------------

def _point(x: int, y: int) -> int:
    # Lattice points where grooves meet, x and y in 0..9; walls and the border pass
    # through them. Used to tell whether a new wall could close a region.
    return 1 << (x + 10 * y)


def _tables() -> tuple[tuple[int, ...], ...]:
    stops_north = []  # squares whose step north the wall stops
    stops_east = []  # squares whose step east the wall stops
    forbids = []  # places a wall there makes unavailable (overlap, crossing, itself)
    points = []  # lattice points the wall passes through
    for bit in range(PLACES):
        c, r, vertical = place_anchor(bit)
        here = square(c, r)
        if vertical:
            stops_north.append(0)
            stops_east.append((1 << here) | (1 << (here + SIZE)))
            taken = (1 << bit) | (1 << (bit - 64))
            if r >= 1:
                taken |= 1 << (bit - 8)
            if r <= 6:
                taken |= 1 << (bit + 8)
            points.append(_point(c + 1, r) | _point(c + 1, r + 1) | _point(c + 1, r + 2))
        else:
            stops_north.append((1 << here) | (1 << (here + 1)))
            stops_east.append(0)
            taken = (1 << bit) | (1 << (bit + 64))
            if c >= 1:
                taken |= 1 << (bit - 1)
            if c <= 6:
                taken |= 1 << (bit + 1)
            points.append(_point(c, r + 1) | _point(c + 1, r + 1) | _point(c + 2, r + 1))
        forbids.append(taken)
    return tuple(stops_north), tuple(stops_east), tuple(forbids), tuple(points)


STOPS_NORTH, STOPS_EAST, FORBIDS, POINTS = _tables()
BORDER_POINTS = sum(
    _point(x, y) for x in range(10) for y in range(10) if x in (0, 9) or y in (0, 9)
)

# The wall places that would stop a step north (or east) out of each square.
CUTS_NORTH = tuple(
    sum(1 << b for b in range(PLACES) if STOPS_NORTH[b] >> s & 1) for s in range(SQUARES)
)
CUTS_EAST = tuple(
    sum(1 << b for b in range(PLACES) if STOPS_EAST[b] >> s & 1) for s in range(SQUARES)
)


class Geometry(NamedTuple):
    """What a set of walls leaves open.

    ``north`` holds the squares whose step north is open (not on row 9, no wall in
    the way), and so on; ``free`` the wall places still available (no overlap, no
    crossing); ``points`` the lattice points on a wall or on the border.
    """

    north: int
    south: int
    east: int
    west: int
    free: int
    points: int


@kept_as_tuples(8192, Geometry)
def geometry(walls: int) -> Geometry:
    """The geometry of a set of wall places (cached: games revisit the same walls; as
    plain tuples, which the garbage collector does not walk: ``engine.caching``)."""
    stop_n = stop_e = taken = points = 0
    rest = walls
    while rest:
        low = rest & -rest
        bit = low.bit_length() - 1
        rest ^= low
        stop_n |= STOPS_NORTH[bit]
        stop_e |= STOPS_EAST[bit]
        taken |= FORBIDS[bit]
        points |= POINTS[bit]
    north = ALL_SQUARES & ~ROWS[SIZE - 1] & ~stop_n
    east = ALL_SQUARES & ~COLUMNS[SIZE - 1] & ~stop_e
    return Geometry(
        north=north,
        south=north << SIZE,
        east=east,
        west=east << 1,
        free=ALL_PLACES & ~taken,
        points=points | BORDER_POINTS,
    )


# ---- searches --------------------------------------------------------------------------

def _reaches(start: int, goal: int, north: int, south: int, east: int, west: int) -> bool:
    seen = frontier = 1 << start
    while not frontier & goal:
        frontier = (
            ((frontier & north) << SIZE)
            | ((frontier & south) >> SIZE)
            | ((frontier & east) << 1)
            | ((frontier & west) >> 1)
        ) & ~seen
        if not frontier:
            return False
        seen |= frontier
    return True


def distance(start: int, goal: int, geo: Geometry) -> int | None:
    """Fewest steps from ``start`` to any square of ``goal`` ignoring pawns; None if cut off."""
    north, south, east, west = geo.north, geo.south, geo.east, geo.west
    seen = frontier = 1 << start
    steps = 0
    while not frontier & goal:
        frontier = (
            ((frontier & north) << SIZE)
            | ((frontier & south) >> SIZE)
            | ((frontier & east) << 1)
            | ((frontier & west) >> 1)
        ) & ~seen
        if not frontier:
            return None
        seen |= frontier
        steps += 1
    return steps


def path_cuts(start: int, goal: int, geo: Geometry) -> int:
    """The wall places that would cut one shortest path from ``start`` to ``goal``.

    A wall outside this set leaves that path whole, so it cannot cut the pawn off;
    only the places inside need a search. All places when there is no path at all.
    """
    north, south, east, west = geo.north, geo.south, geo.east, geo.west
    seen = frontier = 1 << start
    layers = [frontier]
    while not frontier & goal:
        frontier = (
            ((frontier & north) << SIZE)
            | ((frontier & south) >> SIZE)
            | ((frontier & east) << 1)
            | ((frontier & west) >> 1)
        ) & ~seen
        if not frontier:
            return ALL_PLACES
        seen |= frontier
        layers.append(frontier)
    end = frontier & goal
    here = (end & -end).bit_length() - 1
    cuts = 0
    for layer in reversed(layers[:-1]):
        # Step back to any square of the previous layer with an open step to here.
        if here >= SIZE and layer >> (here - SIZE) & 1 and north >> (here - SIZE) & 1:
            here -= SIZE
            cuts |= CUTS_NORTH[here]
        elif layer >> (here + SIZE) & 1 and north >> here & 1:
            cuts |= CUTS_NORTH[here]
            here += SIZE
        elif here >= 1 and layer >> (here - 1) & 1 and east >> (here - 1) & 1:
            here -= 1
            cuts |= CUTS_EAST[here]
        else:
            cuts |= CUTS_EAST[here]
            here += 1
    return cuts


def cut_off(geo: Geometry, bit: int, pawns: list[tuple[int, int]]) -> list[int]:
    """Indexes into ``pawns`` ((square, goal) pairs) that wall place ``bit`` cuts off.

    A wall touching walls or the border at fewer than two points cannot close off a
    region (it joins at most one piece of the existing outline), so it needs no search.
    """
    if (POINTS[bit] & geo.points).bit_count() < 2:
        return []
    north = geo.north & ~STOPS_NORTH[bit]
    south = geo.south & ~(STOPS_NORTH[bit] << SIZE)
    east = geo.east & ~STOPS_EAST[bit]
    west = geo.west & ~(STOPS_EAST[bit] << 1)
    return [
        i
        for i, (start, goal) in enumerate(pawns)
        if not _reaches(start, goal, north, south, east, west)
    ]


def legal_walls(geo: Geometry, pawns: list[tuple[int, int]]) -> int:
    """The wall places where a wall may go: free, and cutting no pawn off its goal."""
    free = geo.free
    cuts = [path_cuts(start, goal, geo) for start, goal in pawns]
    risky = 0
    for cut in cuts:
        risky |= cut
    risky &= free
    if not risky:
        return free
    gpoints = geo.points
    bad = 0
    while risky:
        low = risky & -risky
        bit = low.bit_length() - 1
        risky ^= low
        if (POINTS[bit] & gpoints).bit_count() < 2:
            continue
        north = geo.north & ~STOPS_NORTH[bit]
        south = geo.south & ~(STOPS_NORTH[bit] << SIZE)
        east = geo.east & ~STOPS_EAST[bit]
        west = geo.west & ~(STOPS_EAST[bit] << 1)
        for (start, goal), cut in zip(pawns, cuts, strict=True):
            if cut & low and not _reaches(start, goal, north, south, east, west):
                bad |= low
                break
    return free & ~bad


def has_legal_wall(geo: Geometry, pawns: list[tuple[int, int]]) -> bool:
    """Whether any wall may be placed (stops at the first one found)."""
    rest = geo.free
    while rest:
        low = rest & -rest
        rest ^= low
        if not cut_off(geo, low.bit_length() - 1, pawns):
            return True
    return False


# ---- pawn steps ------------------------------------------------------------------------

# (offset, which open-step mask, the two sideways directions) for north, south, east, west.
_N, _S, _E, _W = 0, 1, 2, 3
_OFFSETS = (SIZE, -SIZE, 1, -1)
_SIDEWAYS = ((_E, _W), (_E, _W), (_N, _S), (_N, _S))


def pawn_targets(start: int, occupied: int, geo: Geometry) -> int:
    """The squares a pawn on ``start`` may move to, as a set.

    ``occupied`` holds the other pawns. A pawn steps to an open neighbour; onto a
    neighbouring pawn it may not, but it may jump straight over it, or, when a wall,
    the edge or a third pawn stands behind that pawn, step diagonally beside it.
    """
    opens = (geo.north, geo.south, geo.east, geo.west)
    targets = 0
    for direction in range(4):
        open_here = opens[direction]
        if not open_here >> start & 1:
            continue
        offset = _OFFSETS[direction]
        next_to = start + offset
        if not occupied >> next_to & 1:
            targets |= 1 << next_to
            continue
        if open_here >> next_to & 1 and not occupied >> (next_to + offset) & 1:
            targets |= 1 << (next_to + offset)
            continue
        for side in _SIDEWAYS[direction]:
            if opens[side] >> next_to & 1:
                beside = next_to + _OFFSETS[side]
                if not occupied >> beside & 1:
                    targets |= 1 << beside
    return targets


def blocked_step(start: int, target: int, geo: Geometry) -> bool:
    """Whether ``target`` neighbours ``start`` with a wall between them."""
    diff = target - start
    if diff == SIZE:
        return not geo.north >> start & 1
    if diff == -SIZE:
        return not geo.south >> start & 1
    if diff == 1 and start % SIZE != SIZE - 1:
        return not geo.east >> start & 1
    if diff == -1 and start % SIZE != 0:
        return not geo.west >> start & 1
    return False


bits = set_bits  # the set bits of a mask, lowest first
