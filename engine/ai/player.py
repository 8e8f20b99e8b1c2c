"""The vocabulary of computer players: a budget, a decision, a player."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.game import JSON


@dataclass(frozen=True)
class Budget:
    """How hard a player may think about one move.

    ``iterations``: search iterations (playouts) per move; ``seconds``: a cap on the
    move time (0: none); ``exact``: positions this small, in the game's own measure
    (Cairo Corridor: playable corridor cells), are solved exactly; ``spread``: the
    player picks among moves whose win rate is within this of the best one's;
    ``traps``: where its search proves no win, a player that can may play for the
    opponent's likely mistakes (Sigma Escape's level 5); a review turns it off, as it
    wants the search's own best move.
    """

    iterations: int
    seconds: float = 0.0
    exact: int = 0
    spread: float = 0.0
    level: int = 0
    traps: bool = True


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


@dataclass(frozen=True)
class Exact:
    """A solved position: the margin for the side to move and the moves that keep it."""

    margin: int
    best: tuple[str, ...]


S = TypeVar("S")


@dataclass(frozen=True)
class GameAI(Generic[S]):
    """A game's computer player, as its registry entry names it (``engine.registry``):
    what ``engine.ai``, reviews and benches may ask of it, and nothing else.

    - ``unit``: the game's own unit of advantage ("point", "tempo", ...) or None; a
      review gives the loss of a mistake in it;
    - ``make_player(budget)``: the searching player;
    - ``evaluate(state, seat)``: a one-ply evaluation for the ``greedy`` player;
    - ``solve(state)`` (optional): the exact value of a position, as JSON;
    - ``exact(nodes)`` (optional): a solver on a node budget, for reviews: it answers
      a position with its ``Exact`` value or None when the budget runs out (one table
      shared by the positions it is asked);
    - ``bench(positions, seconds, seed)`` (optional): speed figures (by default its
      top level's search speed, ``search_speed``).
    """

    unit: str | None
    make_player: Callable[[Budget], Player]
    evaluate: Callable[[S, int], float]
    solve: Callable[[S], JSON] | None = None
    exact: Callable[[int], Callable[[S], Exact | None]] | None = None
    bench: Callable[[list[S], float, int], JSON] | None = None


def search_speed(player: Player, positions: Sequence[Any], seconds: float,
                 seed: int) -> dict[str, float]:
    """How fast ``player`` searches: its decisions over ``positions`` until ``seconds``
    have passed (at least one), as the engine's benches report it."""
    nodes = decisions = 0
    start = time.perf_counter()
    for state in positions:
        nodes += player.decide(state, seed).nodes
        decisions += 1
        if time.perf_counter() - start > seconds:
            break
    elapsed = time.perf_counter() - start
    return {"search_nodes_per_second": round(nodes / elapsed),
            "top_level_seconds_per_move": round(elapsed / decisions, 3)}
