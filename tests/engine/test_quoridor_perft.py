"""Perft counts from the start, and random games as properties."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bench import perft
from engine.quoridor import Quoridor
from tests.engine.quoridor_reference import reference_moves

game = Quoridor()


# ---- perft ----------------------------------------------------------------------------------

def test_perft_from_the_start() -> None:
    state = game.new_state(2)
    assert perft(game, state, 1) == 131
    assert perft(game, state, 2) == 16677
    assert perft(game, game.new_state(4), 1) == 131


def test_perft_depth_two_matches_the_reference() -> None:
    state = game.new_state(2)
    total = 0
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        expected = reference_moves(child)
        assert {game.notation(m) for m in game.legal_moves(child)} == expected, str(move)
        total += len(expected)
    assert total == 16677


# ---- properties of random games ----------------------------------------------------------------

@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 4]), cap=st.integers(1, 150))
def test_random_games_keep_paths_and_end(seed: int, seats: int, cap: int) -> None:
    rng = random.Random(seed)
    state = game.new_state(seats, {"ply-cap": cap})
    for _ in range(cap + 1):
        if game.outcome(state) is not None:
            break
        distances = game.distances(state)
        assert all(distances[s] is not None for s in state.active)
        seat = game.to_move(state)
        assert seat is not None and seat not in state.eliminated
        moves = game.legal_moves(state)
        assert moves, "the seat to move always has a move"
        move = rng.choice(moves)
        assert game.parse_move(state, game.notation(move)) == move
        after = game.apply(state, move)
        assert game.from_json(game.to_json(after)) == after
        assert after.ply == state.ply + 1
        state = after
        if seats == 4 and rng.random() < 0.02 and game.outcome(state) is None:
            state = game.eliminate(state, rng.choice(state.active))
    outcome = game.outcome(state)
    assert outcome is not None
    assert state.ply <= cap
    assert outcome.draw == (outcome.winner is None)
