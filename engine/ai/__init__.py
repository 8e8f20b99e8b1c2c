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
- ``bench(positions, seconds, seed) -> dict`` (optional): speed figures.

``random``, ``greedy`` and ``uct:N`` (plain UCT with random playouts) work through
the ``Game`` interface alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from engine.game import JSON, EngineError, Game
from engine.registry import get_game


@dataclass(frozen=True)
class Budget:
    """How hard a player may think about one move.

    ``iterations``: search iterations (playouts) per move; ``seconds``: a cap on the
    move time (0: none); ``exact``: positions this small, in the game's own measure
    (Cairo Corridor: playable corridor cells), are solved exactly; ``spread``: the
    player picks among moves whose win rate is within this of the best one's.
    """

    iterations: int
    seconds: float = 0.0
    exact: int = 0
    spread: float = 0.0
    level: int = 0


#: Budgets by level, weakest first. Seconds are a cap; iterations decide.
LEVELS: dict[int, Budget] = {
    1: Budget(iterations=50, seconds=1.0, exact=5, spread=0.2, level=1),
    2: Budget(iterations=200, seconds=2.0, exact=8, spread=0.1, level=2),
    3: Budget(iterations=600, seconds=4.0, exact=10, spread=0.04, level=3),
    4: Budget(iterations=1500, seconds=8.0, exact=12, spread=0.0, level=4),
    5: Budget(iterations=4000, seconds=15.0, exact=15, spread=0.0, level=5),
}


@dataclass(frozen=True)
class Decision:
    """A player's move and judgement of the position before it.

    ``win``: probability that the side to move wins; ``margin``: expected final
    margin in the game's unit (None for games without one); ``exact``: both come
    from a complete solution; ``nodes``: positions searched or playouts run.
    """

    move: str
    win: float
    margin: float | None
    exact: bool = False
    nodes: int = 0

    def to_json(self) -> JSON:
        return {
            "move": self.move,
            "win": round(self.win, 4),
            "margin": None if self.margin is None else round(self.margin, 2),
            "exact": self.exact,
            "nodes": self.nodes,
        }


class Player(Protocol):
    name: str

    def decide(self, state: Any, seed: int) -> Decision:
        """The move for the side to move; the state must not be over."""
        ...


# game key -> module with make_player / evaluate / solve
_MODULES: dict[str, str] = {
    "cairo": "engine.cairo.ai",
}


def _module(game_key: str) -> Any:
    if game_key not in _MODULES:
        raise EngineError(f"there is no computer player for {get_game(game_key).title} yet")
    return import_module(_MODULES[game_key])


def level_budget(level: int) -> Budget:
    if level not in LEVELS:
        raise EngineError(f"levels are 1 to {max(LEVELS)}, not {level}")
    return LEVELS[level]


def player_for(game_key: str, level: int) -> Player:
    """The searching player of a game at a level (1 weakest, 5 strongest)."""
    player: Player = _module(get_game(game_key).key).make_player(level_budget(level))
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


def player_from_spec(game: Game[Any, Any], spec: str) -> Player:
    """``random``, ``greedy``, ``ai:LEVEL`` or ``uct:ITERATIONS``."""
    from engine.ai.baseline import GreedyPlayer, RandomPlayer, UCTPlayer

    text = spec.strip().lower()
    kind, _, arg = text.partition(":")
    if kind == "random" and not arg:
        return RandomPlayer(game)
    if kind == "greedy" and not arg:
        return GreedyPlayer(game, evaluator(game.key))
    if kind in ("ai", "uct") and arg.isdigit():
        if kind == "ai":
            return player_for(game.key, int(arg))
        if int(arg) < 1:
            raise EngineError("uct needs at least 1 iteration")
        return UCTPlayer(game, int(arg))
    raise EngineError(f"unknown player '{spec}' (random, greedy, ai:1..5, uct:N)")
