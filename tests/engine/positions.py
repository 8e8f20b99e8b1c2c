"""Positions for the engine's tests: seeded random play from the start."""

from __future__ import annotations

import random
from typing import Any

from engine.cairo import CairoCorridor, CairoState
from engine.cairo.geometry import ALL, NAMES
from engine.cairo.rules import analyse
from engine.cairo.solver import playable
from engine.registry import get_game


def midgame(key: str, seed: int, plies: int, seats: int = 2,
            options: dict[str, Any] | None = None) -> Any:
    """The position after up to ``plies`` random moves (seeded), stopping before one
    that would end the game."""
    game = get_game(key)
    rng = random.Random(seed)
    state = game.new_state(seats, options)
    for _ in range(plies):
        moves = game.legal_moves(state)
        after = game.apply(state, rng.choice(moves))
        if game.outcome(after) is not None:
            break
        state = after
    return state


def tie_game(seed: int = 6) -> list[str]:
    """The moves of a random Cairo Corridor game (seeded) that ends level, 11–11."""
    game = get_game("cairo")
    rng = random.Random(seed)
    state, moves = game.new_state(2, {}), []
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.notation(move))
        state = game.apply(state, move)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (11, 11)
    return moves


def endgame(rng: random.Random, most_playable: int, dead_left: int) -> CairoState:
    """A random game played until at most ``most_playable`` corridor cells are
    playable, then all dead cells but ``dead_left`` filled (alternately)."""
    game = CairoCorridor()
    state = game.new_state()
    while playable(state) > most_playable:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    region = analyse(state.black | state.red).region
    dead = [i for i in range(len(NAMES)) if (ALL & ~state.occupied & ~region) >> i & 1]
    rng.shuffle(dead)
    black, red = state.black, state.red
    for k, i in enumerate(dead[dead_left:]):
        if k % 2:
            black |= 1 << i
        else:
            red |= 1 << i
    return CairoState(black, red, rng.randrange(2), state.tie)
