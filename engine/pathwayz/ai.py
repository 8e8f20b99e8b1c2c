"""The Pathwayz computer player: alpha-beta over connection distances.

- The evaluation is the *connection distance* of each colour: the fewest empty cells
  that, filled with its pieces, would join column a to column l (its own pieces are
  free to pass, the other colour's block; flips are left to the search). The mover's
  value is the opponent's distance minus its own, so a move that both shortens one's
  own route and lengthens the opponent's counts twice. Unlike "longest own path minus
  0.4 x the opponent's" it sees walls of the opponent's pieces and gaps that one piece
  closes. A colour one cell from connecting, with the move, has won.
- Distances are computed on bitboards: the cells reachable at cost k from column a
  grow a layer at a time by a shift-and-mask flood, so a distance is a few dozen
  integer operations. Layers from both sides give the cells on some cheapest route.
- The search is negamax with alpha-beta, iterative deepening and a transposition
  table. The moves searched are normal and permanent pieces on the cheapest routes of
  either colour and next to them; children are ordered by their static value and
  interior nodes keep the best few.
"""

from __future__ import annotations

import random
import time

from engine.ai.choice import pick, win_chance
from engine.ai.player import Budget, Decision, GameAI
from engine.ai.search import WIN, Negamax, deadline
from engine.game import JSON
from engine.pathwayz.geometry import BIT, CELLS, COL_A, COL_L, FULL, NEIGHBOURS
from engine.pathwayz.notation import CELL_NAMES
from engine.pathwayz.state import WHITE, PathwayzState

UNIT = "cell"
_WIN = WIN
_FAR = 40  # the distance of a colour walled off
_TEMPO = 0.5  # the move is worth about half a cell
_SCALE = 0.4  # logistic scale: the win chance of an evaluation in cells (fitted)
_NOT_A = FULL & ~COL_A
_NOT_L = FULL & ~COL_L
_COLS = 12

# Per level: (greatest depth, node budget, children kept at interior nodes). Level 5
# looks a ply deeper than level 4: at depth 3 with more nodes and wider it only drew
# level 4 (9-11 in the ladder); at depth 4 it won 13-7 (docs/strength.md).
_LEVELS = {1: (1, 2_000, 8), 2: (2, 8_000, 8), 3: (2, 20_000, 14), 4: (3, 25_000, 8),
           5: (4, 120_000, 10)}


def _grow(x: int) -> int:
    x |= ((x << 1) & _NOT_A) | ((x >> 1) & _NOT_L)
    return (x | (x << _COLS) | (x >> _COLS)) & FULL


def _flood(seed: int, own: int) -> int:
    """``seed`` and every cell of ``own`` joined to it."""
    while True:
        x = seed | ((seed << 1) & _NOT_A) | ((seed >> 1) & _NOT_L)
        grown = seed | ((x | (x << _COLS) | (x >> _COLS)) & own)
        if grown == seed:
            return seed
        seed = grown


def _layers(own: int, empty: int, start: int, end: int, limit: int) -> list[int]:
    """``layers[k]``: the cells reachable from column ``start`` by filling at most k
    empty cells; stops at the first layer touching ``end`` (or ``limit`` layers, or
    when nothing more is reachable)."""
    reach = _flood(own & start, own)
    layers = [reach]
    entry = start & empty
    while not reach & end and len(layers) <= limit:
        x = reach | ((reach << 1) & _NOT_A) | ((reach >> 1) & _NOT_L)
        grown = reach | ((x | (x << _COLS) | (x >> _COLS)) & empty) | entry
        grown = _flood(grown, own)
        if grown == reach:
            break
        reach = grown
        layers.append(reach)
    return layers


def distance(own: int, other: int) -> int:
    """Fewest empty cells that join a to l for the colour of ``own``; ``_FAR`` when
    walled off, 0 when joined."""
    empty = FULL & ~(own | other)
    layers = _layers(own, empty, COL_A, COL_L, _FAR)
    return len(layers) - 1 if layers[-1] & COL_L else _FAR


def route(own: int, other: int) -> tuple[int, int]:
    """(distance, the empty cells on some cheapest route)."""
    empty = FULL & ~(own | other)
    forward = _layers(own, empty, COL_A, COL_L, _FAR)
    if not forward[-1] & COL_L:
        return _FAR, 0
    cost = len(forward) - 1
    backward = _layers(own, empty, COL_L, COL_A, cost)
    cells = 0
    previous = forward[0]
    for k in range(1, cost + 1):
        new = forward[k] & ~previous
        previous = forward[k]
        j = cost + 1 - k
        if j < len(backward):
            cells |= new & backward[j]
    return cost, cells & empty


def _static(mine: int, theirs: int) -> float:
    """The value for the side to move with distances ``mine`` and ``theirs``."""
    if mine == 0:
        return _WIN
    if theirs == 0:
        return -_WIN
    if mine == 1:
        return _WIN - 1  # the move joins it
    return theirs - mine + _TEMPO


def _play(white: int, black: int, permanent: int, turn: int, cell: int,
          perm: bool) -> tuple[int, int, int]:
    bit = BIT[cell]
    if not perm:
        if turn == WHITE:
            return white | bit, black, permanent
        return white, black | bit, permanent
    flips = NEIGHBOURS[cell] & (white | black) & ~permanent
    to_black = flips & white
    to_white = flips & black
    white = (white ^ to_black) | to_white
    black = (black ^ to_white) | to_black
    if turn == WHITE:
        black |= bit
    else:
        white |= bit
    return white, black, permanent | bit


# A node: (white, black, permanent, turn); a move: cell, plus CELLS for a permanent piece.
Node = tuple[int, int, int, int]


# A child in the search: (static value for the mover, move, node after it).
Kid = tuple[float, int, Node]


class _Search(Negamax[Node, Node, Kid]):
    """The shared negamax (``engine.ai.search``): children are counted when made and
    valued statically; interior nodes keep the best ``kept``, and a child at the
    horizon, or lost, is its static value."""

    def __init__(self, kept: int, nodes: int, deadline: float) -> None:
        super().__init__(nodes, deadline, 63)
        self.kept = kept

    def moves(self, node: Node, everything: bool) -> list[Kid]:
        """(value for the mover, move, child), best first. Without ``everything``, only
        moves on or next to a cheapest route of either colour."""
        white, black, permanent, turn = node
        me, them = (white, black) if turn == WHITE else (black, white)
        empty = FULL & ~(white | black)
        if everything:
            cells = empty
        else:
            _, mine = route(me, them)
            _, theirs = route(them, me)
            cells = _grow(mine | theirs) & empty
            if not cells:
                cells = empty
        out: list[tuple[float, int, Node]] = []
        while cells:
            low = cells & -cells
            cells ^= low
            cell = low.bit_length() - 1
            for perm in (False, True):
                w, b, p = _play(white, black, permanent, turn, cell, perm)
                m, t = (w, b) if turn == WHITE else (b, w)
                dm = distance(m, t)
                dt = distance(t, m)
                if dm == 0:  # the mover's chain: a win, even when both join
                    value = _WIN
                elif dt == 0:
                    value = -_WIN
                else:
                    value = -_static(dt, dm)
                out.append((value, cell + (CELLS if perm else 0), (w, b, p, 1 - turn)))
        self.nodes += len(out)
        out.sort(key=lambda c: -c[0])
        return out

    def enter(self, node: Node, depth: int, alpha: float, beta: float,
              ply: int) -> float | None:
        self.check()
        return None

    def key(self, node: Node) -> Node:
        return node

    def children(self, node: Node, depth: int, alpha: float, beta: float,
                 ply: int) -> list[Kid] | float:
        kids = self.moves(node, False)
        if not kids:
            return 0.0  # a full board: a draw
        if kids[0][0] >= _WIN:
            return _WIN - ply
        return kids[: self.kept]

    def child_value(self, node: Node, kid: Kid, depth: int, alpha: float, beta: float,
                    ply: int) -> float:
        static = kid[0]
        if depth <= 1 or static <= -_WIN:
            return static if static > -_WIN else -_WIN + ply + 1
        return -self.value(kid[2], depth - 1, -beta, -alpha, ply + 1)

    def root_child(self, kid: Kid, depth: int, low: float, high: float) -> float:
        static = kid[0]
        if depth <= 1 or abs(static) >= _WIN:
            return static
        return -self.value(kid[2], depth - 1, -high, -low, 1)

    def root_kids(self, node: Node, depth: int, kept: int, order: list[int]) -> list[Kid]:
        """The root's children in the order to search them: by the last depth's values,
        only the best ``kept`` beyond the first ply."""
        kids = self.moves(node, True)
        if order:
            rank = {m: i for i, m in enumerate(order)}
            kids.sort(key=lambda c: rank.get(c[1], len(rank)))
        if depth > 1:
            kids = kids[:kept]
        return kids


class PathwayzPlayer:
    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.name = f"ai:{budget.level}" if budget.level else "ai"
        level = budget.level or max(_LEVELS)
        self.depth, self.nodes, self.kept = _LEVELS[level]
        if not budget.level:
            self.nodes = budget.iterations * 20

    def decide(self, state: PathwayzState, seed: int) -> Decision:
        rng = random.Random(seed)
        search = _Search(self.kept, self.nodes, deadline(self.budget))
        root: Node = (state.white, state.black, state.permanent, state.turn)
        margin = 4.0 * self.budget.spread / _SCALE
        values = search.deepen(
            lambda depth, order: search.root_kids(root, depth, 3 * self.kept, order),
            self.depth, margin, keep=True)
        move = pick([(m, _chance(v)) for m, v in values], self.budget.spread, rng)
        value = dict(values)[move]
        text = CELL_NAMES[move % CELLS] + ("*" if move >= CELLS else "")
        exact = abs(value) >= _WIN - 100
        margin_cells = None if exact else value - _TEMPO
        return Decision(text, _chance(value), margin_cells, exact=exact, nodes=search.nodes)


def _chance(value: float) -> float:
    return win_chance(value, _WIN, _SCALE)


# ---- the computer player the registry names (AI, a GameAI) ------------------------


def make_player(budget: Budget) -> PathwayzPlayer:
    return PathwayzPlayer(budget)


def evaluate(state: PathwayzState, seat: int) -> float:
    """One-ply evaluation for ``greedy``: the other colour's connection distance minus
    ``seat``'s (the result once the game is over)."""
    from engine.pathwayz.rules import outcome

    result = outcome(state)
    if result is not None:
        return 0.0 if result.winner is None else _WIN if result.winner == seat else -_WIN
    me, them = (state.white, state.black) if seat == WHITE else (state.black, state.white)
    return float(distance(them, me) - distance(me, them))


def bench(positions: list[PathwayzState], seconds: float, seed: int) -> JSON:
    """Connection distances and search nodes per second."""
    from engine.ai.player import LEVELS, search_speed

    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        for p in positions:
            distance(p.white, p.black)
        count += len(positions)
    distances = count / (time.perf_counter() - start)
    speed = search_speed(PathwayzPlayer(LEVELS[max(LEVELS)]), positions, seconds, seed)
    return {"distances_per_second": round(distances), **speed}


AI: GameAI[PathwayzState] = GameAI(UNIT, make_player, evaluate, bench=bench)
