"""Computer players: one interface for every game.

A *player* turns a state and a seed into a ``Decision``: the move it plays, how it
judges the position (a win probability for the side to move, plus the game's own
unit where there is one: a points margin for Cairo Corridor), and how much it
searched. The same state, budget and seed always give the same decision, as long as
the budget's move time (a safety cap) is not what stopped the search.

Levels 1 to 5 are budgets, as on lichess: a fixed search budget and a move time per
level; the weaker levels choose among near-best moves rather than at random.

Each game names its computer player in its registry entry (``engine.registry``): a
``GameAI`` (``engine.ai.player``) with ``make_player``, ``evaluate``, ``unit`` and,
where the game has them, ``solve``, ``exact`` (a node-budgeted solver) and ``bench``.
The searches of Quoridor, Pathwayz and Sigma Escape share one negamax
(``engine.ai.search``).

``random``, ``greedy`` and ``uct:N`` (plain UCT with random playouts) work through
the ``Game`` interface alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ai.player import LEVELS, Budget, Decision, GameAI, Player, search_speed
from engine.game import JSON, EngineError, Game
from engine.registry import get_ai, get_game, has_ai

__all__ = ["LEVELS", "Budget", "Decision", "GameAI", "Player", "bench_figures", "evaluator",
           "hooks", "level_budget", "player_for", "player_from_spec", "player_with",
           "solver"]


def hooks(game_key: str) -> GameAI[Any]:
    """A game's computer player, as its registry entry names it."""
    return get_ai(game_key)


def level_budget(level: int) -> Budget:
    if level not in LEVELS:
        raise EngineError(f"levels are 1 to {max(LEVELS)}, not {level}")
    return LEVELS[level]


def player_for(game_key: str, level: int) -> Player:
    """The searching player of a game at a level (1 weakest, 5 strongest)."""
    return get_ai(game_key).make_player(level_budget(level))


def player_with(game_key: str, budget: Budget) -> Player:
    """The searching player of a game with a budget of one's own (a review's, or a
    level's with a shorter move time)."""
    return get_ai(game_key).make_player(budget)


def evaluator(game_key: str) -> Callable[[Any, int], float]:
    return get_ai(game_key).evaluate


def solver(game_key: str) -> Callable[[Any], JSON]:
    solve = get_ai(game_key).solve
    if solve is None:
        raise EngineError(f"there is no exact solver for {get_game(game_key).title}")
    return solve


def bench_figures(game: Game[Any, Any], positions: list[Any], seconds: float,
                  seed: int) -> JSON:
    """The computer player's speed figures for ``python -m engine bench`` (playouts
    and solver nodes per second), or nothing for a game without a player. A player
    without figures of its own (``GameAI.bench``) gives its top level's search speed."""
    if not has_ai(game.key):
        return {}
    ai = get_ai(game.key)
    if ai.bench is None:
        return dict(search_speed(ai.make_player(LEVELS[max(LEVELS)]), positions, seconds,
                                 seed))
    return ai.bench(positions, seconds, seed)


def player_from_spec(game: Game[Any, Any], spec: str, fixed: bool = False) -> Player:
    """``random``, ``greedy``, ``ai:LEVEL`` or ``uct:ITERATIONS``. With ``fixed`` a
    level searches its node or iteration budget without its move-time cap, so that a
    measurement does not depend on the machine's load."""
    from dataclasses import replace

    from engine.ai.baseline import GreedyPlayer, RandomPlayer, UCTPlayer

    text = spec.strip().lower()
    kind, _, arg = text.partition(":")
    if kind == "random" and not arg:
        return RandomPlayer(game)
    if kind == "greedy" and not arg:
        return GreedyPlayer(game, evaluator(game.key))
    if kind in ("ai", "uct") and arg.isdigit():
        if kind == "ai":
            if fixed:
                return player_with(game.key, replace(level_budget(int(arg)), seconds=0.0))
            return player_for(game.key, int(arg))
        if int(arg) < 1:
            raise EngineError("uct needs at least 1 iteration")
        return UCTPlayer(game, int(arg))
    raise EngineError(f"unknown player '{spec}' (random, greedy, ai:1..5, uct:N)")
