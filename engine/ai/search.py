"""The one alpha-beta search of the computer players of Quoridor, Pathwayz and Sigma
Escape: negamax with a transposition table, the table's move first, over a small
protocol each game implements.

A game's search subclasses ``Negamax`` and says

- ``enter(node, depth, alpha, beta, ply)``: the node's value without its children,
  or None: where a game counts the node and watches its budget (``check``), ends
  the game, evaluates a leaf or passes;
- ``key(node)``: the node's key in the table;
- ``children(node, depth, alpha, beta, ply)``: the children to search, best first
  by the game's own order, each a tuple whose item ``MOVE`` is its move; or a value
  when the node needs none (a win in one, a full board, a pass);
- ``child_value(node, kid, depth, alpha, beta, ply)``: a child's value for the node's side
  (by default ``-value`` of it, one ply deeper): where a game evaluates a child
  statically at the horizon, or searches a child of its own side (Quoridor's four
  seats, paranoid: three seats play as one);
- ``root_child(kid, depth, low, high)``: a root move's value within the window;

and keeps its own evaluation, move order, levels and iterative deepening. Values
are for the side to move in ``node`` (with a side of several seats, for that side).
Sigma Escape's search (``engine.sigma.ai``) is the reference its C search is held to
node for node (tests/engine/test_sigma_native.py); tests/engine/test_search_golden.py
holds all three to what they searched before they shared this one.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from engine.ai.player import Budget

#: a won position's value (less the plies to the win)
WIN = 1000.0
#: the move time caps a search at this many seconds
TIME_CAP = 3.0

N = TypeVar("N")  # a node of the search
K = TypeVar("K")  # its key in the table
Kid = TypeVar("Kid", bound=tuple[Any, ...])  # a child: its move at item MOVE


class Timeout(Exception):
    """The search ran out of its node budget or its time."""


def deadline(budget: Budget) -> float:
    """The ``time.perf_counter`` at which a search of ``budget`` stops (0: none). The
    move time caps the search at ``TIME_CAP``; a budget without one (seconds 0:
    ``duel --fixed``) searches its node budget whatever the machine's load."""
    seconds = min(budget.seconds, TIME_CAP) if budget.seconds else 0.0
    return time.perf_counter() + seconds if seconds else 0.0


class Negamax(ABC, Generic[N, K, Kid]):
    #: where a child tuple holds its move
    MOVE: ClassVar[int] = 1

    def __init__(self, nodes: int, deadline: float, mask: int) -> None:
        self.limit = nodes
        self.deadline = deadline
        self.mask = mask  # the clock is read when ``nodes & mask`` is 0
        self.nodes = 0
        self.table: dict[K, tuple[int, float, int, Any]] = {}

    def check(self) -> None:
        """Out of the node budget or the time: stop the search."""
        if self.nodes > self.limit or (
                self.deadline and not self.nodes & self.mask
                and time.perf_counter() > self.deadline):
            raise Timeout

    # ---- the protocol of a game ------------------------------------------------------

    @abstractmethod
    def enter(self, node: N, depth: int, alpha: float, beta: float,
              ply: int) -> float | None: ...

    @abstractmethod
    def key(self, node: N) -> K: ...

    @abstractmethod
    def children(self, node: N, depth: int, alpha: float, beta: float,
                 ply: int) -> list[Kid] | float: ...

    def child_value(self, node: N, kid: Kid, depth: int, alpha: float, beta: float,
                    ply: int) -> float:
        return -self.value(kid[-1], depth - 1, -beta, -alpha, ply + 1)

    def root_child(self, kid: Kid, depth: int, low: float, high: float) -> float:
        return -self.value(kid[-1], depth - 1, -high, -low, 1)

    # ---- the search ------------------------------------------------------------------

    def value(self, node: N, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax value of ``node`` for its side, searched ``depth`` plies."""
        early = self.enter(node, depth, alpha, beta, ply)
        if early is not None:
            return early
        key = self.key(node)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_flag, first = entry
            if e_depth >= depth and (e_flag == 0 or (e_flag > 0 and e_value >= beta)
                                     or (e_flag < 0 and e_value <= alpha)):
                return e_value
        kids = self.children(node, depth, alpha, beta, ply)
        if isinstance(kids, float):
            return kids
        at = self.MOVE
        if first is not None:
            kids.sort(key=lambda kid: kid[at] != first)
        alpha0 = alpha
        best = -2 * WIN
        best_move = kids[0][at]
        for kid in kids:
            v = self.child_value(node, kid, depth, alpha, beta, ply)
            if v > best:
                best, best_move = v, kid[at]
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = -1 if best <= alpha0 else 1 if best >= beta else 0
        self.table[key] = (depth, best, flag, best_move)
        return best

    def deepen(self, kids_at: Callable[[int, list[Any]], list[Kid]], depths: int,
               margin: float, keep: bool = False) -> list[tuple[Any, float]]:
        """The one iterative deepening of the games' players: depth 1, 2, … ``depths``,
        each depth's root children (``kids_at(depth, order)``: the moves in the last
        depth's order, best first) valued by ``root_values``, until a win is in sight or
        the budget runs out (``Timeout``: the last full depth stands). ``keep``: a move
        the deeper search left out keeps its shallower value, ranked after the moves it
        searched. The moves and their values, best first; ValueError when not even one
        depth was searched (no move: the game is over)."""
        values: list[tuple[Any, float]] = []
        order: list[Any] = []
        for depth in range(1, depths + 1):
            try:
                kids = kids_at(depth, order)
                found = list(zip([kid[self.MOVE] for kid in kids],
                                 self.root_values(kids, depth, margin), strict=True))
            except Timeout:
                break
            if keep and values and depth > 1:
                deeper = dict(found)
                floor = min(deeper.values())
                values = [(m, deeper.get(m, min(v, floor - 1e-6))) for m, v in values]
            else:
                values = found
            values.sort(key=lambda mv: -mv[1])
            order = [m for m, _ in values]
            if values[0][1] >= WIN - 10:
                break
        if not values:
            raise ValueError("the game is over")
        return values

    def root_values(self, kids: list[Kid], depth: int, margin: float,
                    window: float = 0.0) -> list[float]:
        """The value of each root child (in that order) searched ``depth`` plies,
        within a window that only tells the moves within ``margin`` of the best apart
        (lower ones are upper bounds), or with ``window``, each within (-window,
        window): only the sign is sure then. Raises Timeout."""
        out: list[float] = []
        best = -2 * WIN
        for kid in kids:
            low, high = ((-window, window) if window > 0
                         else (best - margin - 1e-9, 2 * WIN))
            v = self.root_child(kid, depth, low, high)
            out.append(v)
            best = max(best, v)
        return out
