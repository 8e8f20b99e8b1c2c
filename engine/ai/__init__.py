"""Computer players: one interface for every game.

A *player* turns a state and a seed into a ``Decision``: the move it plays, how it
judges the position (a win probability for the side to move, plus the game's own
unit where there is one: a points margin for Cairo Corridor), and how much it
searched. The same state, budget and seed always give the same decision, as long as
the budget's move time (a safety cap) is not what stopped the search.

Levels 1 to 5 are budgets, as on lichess: a fixed search budget and a move time per
level; the weaker levels choose among near-best moves rather than at random.

Each game plugs in its own player in a module named in ``_MODULES``, which offers

- ``make_player(budget) -> Player``: the searching player;
- ``evaluate(state, seat) -> float``: a one-ply evaluation for the ``greedy`` player;
- ``solve(state) -> dict`` (optional): the exact value of a position;
- ``bench(positions, seconds, seed) -> dict`` (optional): speed figures;
- ``UNIT``: the game's own unit of advantage ("point", "tempo", ...) or None; a
  review gives the loss of a mistake in it (``engine.ai.review``).

``random``, ``greedy`` and ``uct:N`` (plain UCT with random playouts) work through
the ``Game`` interface alone.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from engine.ai.player import LEVELS, Budget, Decision, Player
from engine.game import JSON, EngineError, Game
from engine.registry import get_game

__all__ = ["LEVELS", "Budget", "Decision", "Player", "bench_figures", "evaluator", "hooks",
           "level_budget", "player_for", "player_from_spec", "player_with", "solver"]


# game key -> module with make_player / evaluate / solve
_MODULES: dict[str, str] = {
    "cairo": "engine.cairo.ai",
    "pathwayz": "engine.pathwayz.ai",
    "quoridor": "engine.quoridor.ai",
    "sigma": "engine.sigma.ai",
}


def _module(game_key: str) -> Any:
    if game_key not in _MODULES:
        raise EngineError(f"there is no computer player for {get_game(game_key).title} yet")
    return import_module(_MODULES[game_key])


def hooks(game_key: str) -> Any:
    """The module of a game's computer player (see above for what it offers)."""
    return _module(get_game(game_key).key)


def level_budget(level: int) -> Budget:
    if level not in LEVELS:
        raise EngineError(f"levels are 1 to {max(LEVELS)}, not {level}")
    return LEVELS[level]


def player_for(game_key: str, level: int) -> Player:
    """The searching player of a game at a level (1 weakest, 5 strongest)."""
    player: Player = _module(get_game(game_key).key).make_player(level_budget(level))
    return player


def player_with(game_key: str, budget: Budget) -> Player:
    """The searching player of a game with a budget of one's own (a review's, or a
    level's with a shorter move time)."""
    player: Player = _module(get_game(game_key).key).make_player(budget)
    return player


def evaluator(game_key: str) -> Callable[[Any, int], float]:
    fn: Callable[[Any, int], float] = _module(game_key).evaluate
    return fn


def solver(game_key: str) -> Callable[[Any], JSON]:
    module = _module(game_key)
    if not hasattr(module, "solve"):
        raise EngineError(f"there is no exact solver for {get_game(game_key).title}")
    fn: Callable[[Any], JSON] = module.solve
    return fn


def bench_figures(game: Game[Any, Any], positions: list[Any], seconds: float,
                  seed: int) -> JSON:
    """The computer player's speed figures for ``python -m engine bench`` (playouts
    and solver nodes per second), or nothing for a game without a player."""
    if game.key not in _MODULES:
        return {}
    module = _module(game.key)
    if not hasattr(module, "bench"):
        return {}
    figures: JSON = module.bench(positions, seconds, seed)
    return figures


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
