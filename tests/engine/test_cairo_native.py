"""Cairo Corridor's analysis in C (engine/cairo/_native.c) gives exactly the Python
search's answers: on any arrangement of pieces, and along random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cairo import CairoCorridor, rules
from engine.cairo.geometry import ALL, COUNT

pytestmark = pytest.mark.skipif(rules._native is None, reason="the C extension is not built")


def _native(occupied: int) -> rules.Analysis:
    region_low, region_high, critical_low, critical_high = rules._native.analyse(
        occupied & rules._LOW, occupied >> 64)
    return rules.Analysis(region_low | region_high << 64, critical_low | critical_high << 64)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=ALL), st.integers(min_value=0, max_value=COUNT))
def test_any_arrangement(cells: int, keep: int) -> None:
    # From a full board to a sparse one: clear all but ``keep`` of the cells drawn.
    occupied = cells
    while occupied.bit_count() > keep:
        occupied &= occupied - 1
    assert _native(occupied) == rules.analyse_python(occupied)


def test_along_random_games() -> None:
    game = CairoCorridor()
    rng = random.Random(3)
    for _ in range(30):
        state = game.new_state(2)
        while game.outcome(state) is None:
            occupied = state.black | state.red
            assert _native(occupied) == rules.analyse_python(occupied)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        assert _native(state.black | state.red) == rules.analyse_python(state.black | state.red)


def test_the_game_uses_it() -> None:
    assert rules.NATIVE or __import__("os").environ.get("GARNET_PURE_PYTHON") == "1"
    rules.analyse.cache_clear()
    assert rules.analyse(0) == rules.analyse_python(0)
