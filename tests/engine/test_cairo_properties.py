"""Random games against a slow, obviously correct reading of docs/rules/cairo-corridor.md
(``engine.cairo.reference``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cairo import CairoCorridor, CairoState
from engine.cairo.reference import NAMES, corridors
from engine.cairo.reference import legal as reference_legal
from engine.cairo.reference import score as reference_score

GAME = CairoCorridor()


def empty_cells(state: CairoState) -> set[str]:
    data = GAME.to_json(state)
    return set(NAMES) - set(data["black"]) - set(data["red"])


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(
    ["first-player-loses", "last-mover-loses", "draw"]))
def test_random_game(seed: int, tie: str) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(options={"tie": tie})
    placed = 0
    while GAME.outcome(state) is None:
        empty = empty_cells(state)
        found = corridors(empty)
        assert len(found) == 1  # always a Corridor, and only one
        legal = GAME.legal_moves(state)
        assert legal
        if placed % 6 == 0:  # the full reference is slow: check every sixth position
            assert set(legal) == reference_legal(empty)
            info = GAME.analyze(state)
            assert set(info["corridor"]) == found[0]
            assert set(info["critical"]) == found[0] - set(legal)
        state = GAME.apply(state, rng.choice(legal))
        placed += 1
        assert placed <= 60
    data = GAME.to_json(state)
    empty = empty_cells(state)
    (corridor,) = corridors(empty)
    # the end: no cell of the Corridor can be filled any more
    assert all(not corridors(empty - {c}) for c in corridor)
    assert GAME.legal_moves(state) == [] and GAME.to_move(state) is None
    assert len(data["black"]) <= 30 and len(data["red"]) <= 30
    result = GAME.outcome(state)
    assert result is not None
    black = reference_score(data["black"], corridor)
    red = reference_score(data["red"], corridor)
    assert result.scores == (black, red)
    if black != red:
        assert result.winner == (0 if black > red else 1)
    elif tie == "draw":
        assert result.draw and result.winner is None
    elif tie == "first-player-loses":
        assert result.winner == 1
    else:
        assert result.winner == 1 - (1 if data["last"] in data["red"] else 0)
    assert GAME.from_json(data) == state


@settings(max_examples=80, deadline=None)
@given(st.sets(st.sampled_from(NAMES), max_size=40))
def test_analysis_of_arbitrary_arrangements(cells: set[str]) -> None:
    """Any arrangement that keeps a Corridor, including ones no game would reach."""
    ordered = sorted(cells)
    black, red = ordered[::2], ordered[1::2]
    empty = set(NAMES) - cells
    found = corridors(empty)
    text = f"first: {' '.join(black)}; second: {' '.join(red)}"
    if not found:
        try:
            GAME.parse_position(text)
        except Exception as exc:  # a position without a Corridor must be refused
            assert "no Corridor" in str(exc)
            return
        raise AssertionError("a position without a Corridor was accepted")
    state = GAME.parse_position(text)
    info = GAME.analyze(state)
    legal = reference_legal(empty)
    assert set(info["corridor"]) == found[0]
    assert set(info["critical"]) == found[0] - legal
    assert info["over"] == (not legal & found[0])
    assert info["legal"] == ([] if info["over"] else sorted(legal))
    assert info["score"] == [reference_score(black, found[0]), reference_score(red, found[0])]
