"""Positions for the engine's tests: seeded random play from the start."""

from __future__ import annotations

import random
from typing import Any

from engine.registry import get_game


def midgame(key: str, seed: int, plies: int, seats: int = 2) -> Any:
    """The position after up to ``plies`` random moves (seeded), stopping before one
    that would end the game."""
    game = get_game(key)
    rng = random.Random(seed)
    state = game.new_state(seats)
    for _ in range(plies):
        moves = game.legal_moves(state)
        after = game.apply(state, rng.choice(moves))
        if game.outcome(after) is not None:
            break
        state = after
    return state
