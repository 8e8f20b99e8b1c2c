"""Matches between two players, for measuring strength (``python -m engine duel``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.ai import Player
from engine.game import Game


@dataclass
class DuelResult:
    games: int
    wins: list[int]  # [first player, second player]
    draws: int

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws}


def _seed(seed: int, game: int, ply: int) -> int:
    return (seed * 1_000_003 + game * 7_919 + ply * 104_729) & 0x7FFFFFFF


def opening(game: Game[Any, Any], plies: int, seed: int, seats: int = 2,
            options: Mapping[str, Any] | None = None) -> Any:
    """The position after ``plies`` uniformly random moves from the start (fewer if
    the game would end), the same for the same seed."""
    rng = random.Random(_seed(seed, 9_999_991, 0))
    state = game.new_state(seats, options)
    for _ in range(plies):
        moves = game.legal_moves(state)
        after = [game.apply(state, m) for m in moves]
        going = [s for s in after if game.outcome(s) is None]
        if not going:
            break
        state = rng.choice(going)
    return state


def play_game(game: Game[Any, Any], players: list[Player], seed: int,
              options: Mapping[str, Any] | None = None, number: int = 0,
              start: Any = None) -> int | None:
    """One game, ``players[s]`` in seat s, from ``start`` (default: the start of the
    game); the winning seat, or None for a draw."""
    state = game.new_state(len(players), options) if start is None else start
    ply = 0
    while (outcome := game.outcome(state)) is None:
        seat = game.to_move(state)
        assert seat is not None
        decision = players[seat].decide(state, _seed(seed, number, ply))
        state = game.play(state, decision.move)
        ply += 1
    return outcome.winner


def duel(
    game: Game[Any, Any],
    first: Player,
    second: Player,
    games: int,
    seed: int = 1,
    swap: bool = False,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    openings: int = 0,
) -> DuelResult:
    """``games`` games of ``first`` against ``second``. Without ``swap`` the first
    player always takes seat 0; with it, seats alternate (games 2k and 2k + 1 are a
    pair with the seats swapped, and the same seed). With ``openings``, each game (each
    pair, with ``swap``) starts after that many random plies, drawn from its seed."""
    result = DuelResult(games, [0, 0], 0)
    for number in range(games):
        swapped = swap and number % 2 == 1
        players = [second, first] if swapped else [first, second]
        pair = number // 2 if swap else number
        start = opening(game, openings, _seed(seed, pair, 1), 2, options) if openings else None
        winner = play_game(game, players, seed, options, pair, start)
        if winner is None:
            result.draws += 1
            who: int | None = None
        else:
            who = 1 - winner if swapped else winner
            result.wins[who] += 1
        if progress:
            progress(number, who)
    return result
