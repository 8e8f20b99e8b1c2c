"""The analysis cache keeps every live match's position between its moves."""

from __future__ import annotations

import random

from engine.cairo import CairoCorridor
from engine.cairo.rules import analyse

GAME = CairoCorridor()


def test_two_hundred_interleaved_matches_do_not_thrash_the_cache() -> None:
    rng = random.Random(4)
    matches = [GAME.new_state() for _ in range(200)]
    analyse.cache_clear()
    moves = 0
    for _ in range(6):  # rounds: every match moves once, in turn
        for i, state in enumerate(matches):
            legal = GAME.legal_moves(state)  # the move is checked against this position
            after = GAME.apply(state, rng.choice(legal))
            GAME.outcome(after)  # the host judges the position after it
            matches[i] = after
            moves += 1
    info = analyse.cache_info()
    # One new position per move; the position a move starts from was analysed when the
    # move before it was judged, 199 other moves earlier. (64 entries: two per move.)
    assert info.misses <= moves + 200
