"""The board built from the construction passes every check of docs/rules/cairo-corridor.md."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.cairo.geometry import (
    BOTTOM,
    CELLS,
    COUNT,
    GROUP_DIRECTIONS,
    INDEX,
    LEFT,
    NAMES,
    NEIGHBOUR_LISTS,
    NEIGHBOURS,
    RIGHT,
    SIDES,
    SIZE,
    TOP,
    group_centre,
    names_of,
)


def _pairs() -> set[frozenset[int]]:
    return {frozenset((i, j)) for i, ns in enumerate(NEIGHBOUR_LISTS) for j in ns}


def test_seventy_two_cells_with_canonical_names() -> None:
    assert COUNT == 72
    assert len(set(NAMES)) == 72
    assert list(NAMES) == sorted(NAMES)
    assert all(len(n) == 2 and n[0] in "ABCDEFGHIJKLMNOPQRSTUVWX" and n[1] in "UDLR"
               for n in NAMES)


def test_group_sizes() -> None:
    sizes = Counter(len(ds) for ds in GROUP_DIRECTIONS.values())
    assert sizes == {4: 12, 3: 6, 1: 6}
    for letter in "DLT":
        assert GROUP_DIRECTIONS[letter] == ("L",)
    for letter in "EMU":
        assert GROUP_DIRECTIONS[letter] == ("R",)
    for letter in "AIQ":
        assert GROUP_DIRECTIONS[letter] == ("U", "D", "R")
    for letter in "HPX":
        assert GROUP_DIRECTIONS[letter] == ("U", "D", "L")


def test_adjacency_is_shared_edges() -> None:
    pairs = _pairs()
    assert len(pairs) == 156
    for i, j in combinations(range(COUNT), 2):
        shared = set(CELLS[i].vertices) & set(CELLS[j].vertices)
        # two shared vertices are an edge; one is a mere corner, never adjacency
        assert (frozenset((i, j)) in pairs) == (len(shared) >= 2)
    for i, ns in enumerate(NEIGHBOUR_LISTS):
        assert NEIGHBOURS[i] == sum(1 << j for j in ns)
        assert i not in ns


def test_degree_histogram() -> None:
    assert Counter(len(ns) for ns in NEIGHBOUR_LISTS) == {2: 4, 3: 8, 4: 20, 5: 40}


def _distances(points: list[tuple[int, int]]) -> list[list[int]]:
    return [[(ax - bx) ** 2 + (ay - by) ** 2 for bx, by in points] for ax, ay in points]


def test_all_pentagons_congruent() -> None:
    reference = _distances(list(CELLS[0].vertices))
    for cell in CELLS:
        vs = list(cell.vertices)
        orders = [vs[k:] + vs[:k] for k in range(5)]
        orders += [list(reversed(o)) for o in orders]
        # equal distance matrices under some vertex correspondence: congruent
        assert any(_distances(o) == reference for o in orders), cell.name


def test_all_pentagons_inside_the_square() -> None:
    for cell in CELLS:
        assert all(0 <= x <= SIZE and 0 <= y <= SIZE for x, y in cell.vertices)


def test_four_fold_rotational_symmetry() -> None:
    shapes = {frozenset(cell.vertices) for cell in CELLS}

    def turn(shape: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
        return frozenset((SIZE - y, x) for x, y in shape)

    assert {turn(s) for s in shapes} == shapes
    assert {turn(turn(s)) for s in shapes} == shapes
    # and a quarter turn is not the identity on the drawing
    assert any(turn(s) != s for s in shapes)


def test_sides_have_nine_cells_and_the_corners_two_sides() -> None:
    for side, mask in SIDES.items():
        assert mask.bit_count() == 9, side
    assert set(names_of(TOP & LEFT)) == {"AU"}
    assert set(names_of(TOP & RIGHT)) == {"DL"}
    assert set(names_of(BOTTOM & LEFT)) == {"UR"}
    assert set(names_of(BOTTOM & RIGHT)) == {"XD"}
    corners = {"AU", "DL", "UR", "XD"}
    for name in NAMES:
        on = sum(1 for mask in SIDES.values() if mask >> INDEX[name] & 1)
        assert on == (2 if name in corners else 1 if on else 0)


def test_sides_are_the_cells_with_fewer_than_five_neighbours() -> None:
    on_a_side = TOP | BOTTOM | LEFT | RIGHT
    few = {NAMES[i] for i, ns in enumerate(NEIGHBOUR_LISTS) if len(ns) < 5}
    assert set(names_of(on_a_side)) == few
    assert len(few) == 32


def test_group_centres_follow_the_construction() -> None:
    assert group_centre("A") == (4, 4)
    assert group_centre("D") == (40, 4)
    assert group_centre("E") == (-2, 10)
    assert group_centre("X") == (34, 34)
    # the one-pentagon groups have their centres off the board, beside their pentagon
    for letter in "DLTEMU":
        x, _ = group_centre(letter)
        assert x < 0 or x > SIZE


def test_names_of_lists_sorted_names() -> None:
    mask = (1 << INDEX["XD"]) | (1 << INDEX["AU"]) | (1 << INDEX["JL"])
    assert names_of(mask) == ["AU", "JL", "XD"]
    assert names_of(0) == []
    assert names_of((1 << COUNT) - 1) == list(NAMES)
