"""The Cairo Corridor computer player: MCTS, then the exact solver.

As soon as a position is small enough for the level (at most ``budget.exact``
playable corridor cells) the player solves it exactly and plays a best move. Before
that it runs Monte Carlo tree search:

- the tree is over placements in the corridor region plus one "pass" (a piece on a
  dead cell; they are all alike), so the branching is that of the region;
- tree nodes small enough for the solver (``_TREE_EXACT`` playable cells) are
  solved exactly and never played out again;
- playouts are random games on the region alone: each placement costs one Tarjan
  pass over the region, which also gives the new region and its critical cells, so
  a move is always legal; dead cells are played rarely (passes are a tempo resource,
  not a plan);
- the reward is mostly the win (by the match's tie rule) and a little the margin, so
  that a won game is won by more and a lost one fought for.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine.ai.player import Budget, Decision, Exact, GameAI
from engine.cairo.geometry import (
    ALL,
    BOTTOM,
    COUNT,
    LEFT,
    NAMES,
    NEIGHBOURS,
    RIGHT,
    TOP,
    around,
)
from engine.cairo.rules import analyse
from engine.cairo.solver import Solver, SolveTimeout
from engine.cairo.solver import solve as _solve
from engine.cairo.state import CairoState
from engine.game import JSON

_analyse = analyse.__wrapped__

_TREE_EXACT = 7  # tree nodes with this few playable cells are solved exactly
_TREE_SOLVE_NODES = 4_000  # ... within this many solver nodes
_ROOT_SOLVE_NODES = 400_000
_PASS_WEIGHT = 0.25  # a dead cell is this likely, against a corridor cell, in playouts
_MARGIN_SHARE = 0.2  # the share of the margin in the reward
_C = 0.8


def _win(margin: int, seat: int, last: int, tie: str) -> float:
    """The result for ``seat`` of a final margin (for that seat); ``last`` placed the
    last piece (-1: unknown)."""
    if margin > 0:
        return 1.0
    if margin < 0:
        return 0.0
    if tie == "first-player-loses":
        return 1.0 if seat == 1 else 0.0
    if tie == "last-mover-loses" and last >= 0:
        return 1.0 if last != seat else 0.0
    return 0.5


def _reward(win: float, margin: float) -> float:
    shaped = 0.5 + margin / 20.0
    shaped = 0.0 if shaped < 0.0 else 1.0 if shaped > 1.0 else shaped
    return (1.0 - _MARGIN_SHARE) * win + _MARGIN_SHARE * shaped


class _Node:
    __slots__ = (
        "black", "children", "critical", "dead", "exact", "margins", "move", "red",
        "region", "rewards", "seat", "untried", "visits", "wins",
    )

    def __init__(self, move: int, region: int, critical: int, black: int, red: int,
                 seat: int, dead: int) -> None:
        self.move = move  # the bit placed to get here; 0: a pass
        self.region = region
        self.critical = critical
        self.black = black
        self.red = red
        self.seat = seat  # to move here
        self.dead = dead
        self.children: list[_Node] = []
        self.untried: list[int] = []
        self.exact: int | None = None  # margin for the seat to move, when solved
        self.visits = 0
        self.rewards = 0.0  # for the seat that moved into this node
        self.wins = 0.0
        self.margins = 0.0

    @property
    def playable(self) -> int:
        return (self.region & ~self.critical).bit_count()


class CairoPlayer:
    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.name = f"ai:{budget.level}" if budget.level else "ai"
        self.solver = Solver(max_entries=1_000_000)

    # ---- the decision ---------------------------------------------------------------

    def decide(self, state: CairoState, seed: int) -> Decision:
        rng = random.Random(seed)
        self.solver.table.clear()  # the same decision for the same seed, whatever came before
        occupied = state.black | state.red
        a = analyse(occupied)
        if a.over:
            raise ValueError("the game is over")
        playable = (a.region & ~a.critical).bit_count()
        dead_cells = ALL & ~occupied & ~a.region
        if playable <= self.budget.exact:
            try:
                solution = _solve(state, self.solver, nodes=_ROOT_SOLVE_NODES)
            except SolveTimeout:
                pass
            else:
                move = rng.choice(solution.best)
                win = _win(solution.margin, state.turn, -1, state.tie)
                return Decision(move, win, float(solution.margin), exact=True,
                                nodes=solution.nodes)
        root = self._node(0, a.region, a.critical, state.black, state.red, state.turn,
                          dead_cells.bit_count(), root=True)
        iterations = self._search(root, state.tie, rng)
        if root.exact is not None and not root.children:
            raise AssertionError("a solved root is handled above")
        best = self._choose(root, rng)
        move_bit = best.move or (dead_cells & -dead_cells)
        if best.exact is not None:
            margin = float(-best.exact)
            win = _win(-best.exact, state.turn, -1, state.tie)
        else:
            # The position's value is the root's mean over the search, not the best
            # child's: the best of some forty noisy means overrates the side to move.
            visits = max(root.visits, 1)
            margin = -root.margins / visits
            win = 1.0 - root.wins / visits
        return Decision(NAMES[move_bit.bit_length() - 1], win, margin,
                        exact=False, nodes=iterations)

    def _choose(self, root: _Node, rng: random.Random) -> _Node:
        kids = root.children
        solved = [c for c in kids if c.exact is not None]
        if len(solved) == len(kids):
            top = max(-c.exact for c in solved if c.exact is not None)
            return rng.choice([c for c in solved if c.exact is not None and -c.exact == top])
        most = max(c.visits for c in kids)
        best = max(kids, key=lambda c: (c.visits, c.rewards))
        spread = self.budget.spread
        if spread <= 0:
            return best
        rate = best.rewards / max(best.visits, 1)
        near = [c for c in kids
                if c.visits >= most / 10 and c.rewards / max(c.visits, 1) >= rate - spread]
        return rng.choices(near, weights=[c.visits for c in near])[0]

    # ---- the tree -------------------------------------------------------------------

    def _node(self, move: int, region: int, critical: int, black: int, red: int,
              seat: int, dead: int, root: bool = False) -> _Node:
        node = _Node(move, region, critical, black, red, seat, dead)
        if critical == region:
            adjacent = around(region)
            me, other = (black, red) if seat == 0 else (red, black)
            node.exact = (me & adjacent).bit_count() - (other & adjacent).bit_count()
            return node
        if not root and (region & ~critical).bit_count() <= _TREE_EXACT:
            me, other = (black, red) if seat == 0 else (red, black)
            solver = self.solver
            solver.nodes = 0
            solver.node_limit = _TREE_SOLVE_NODES
            try:
                node.exact = solver.value(region, me, other, dead & 1)
            except SolveTimeout:
                pass
            finally:
                solver.node_limit = 0
            if node.exact is not None:
                return node
        rest = region & ~critical
        moves = []
        while rest:
            bit = rest & -rest
            rest ^= bit
            moves.append(bit)
        if dead:
            moves.append(0)
        node.untried = moves
        return node

    def _child(self, node: _Node, move: int) -> _Node:
        black, red, seat = node.black, node.red, node.seat
        if move == 0:
            return self._node(0, node.region, node.critical, black, red, 1 - seat,
                              node.dead - 1)
        after = _analyse(ALL & ~(node.region ^ move))
        dead = node.dead + node.region.bit_count() - 1 - after.region.bit_count()
        if seat == 0:
            black |= move
        else:
            red |= move
        return self._node(move, after.region, after.critical, black, red, 1 - seat, dead)

    def _search(self, root: _Node, tie: str, rng: random.Random) -> int:
        budget = self.budget
        deadline = time.perf_counter() + budget.seconds if budget.seconds else 0.0
        log = math.log
        sqrt = math.sqrt
        rand = rng.random
        done = 0
        for done in range(1, budget.iterations + 1):
            node = root
            path = [root]
            while node.exact is None:
                if node.untried:
                    move = node.untried.pop(int(rand() * len(node.untried)))
                    child = self._child(node, move)
                    node.children.append(child)
                    node = child
                    path.append(node)
                    break
                if all(c.exact is not None for c in node.children):
                    node.exact = max(-c.exact for c in node.children if c.exact is not None)
                    break
                scale = _C * sqrt(log(node.visits))
                best_value = -1.0
                chosen = node.children[0]
                for c in node.children:
                    v = c.rewards / c.visits + scale / sqrt(c.visits)
                    if v > best_value:
                        best_value, chosen = v, c
                node = chosen
                path.append(node)
            if node.exact is not None:
                margin = node.exact if node.seat == 0 else -node.exact
                last = -1
            else:
                margin, last = _playout(node, rng)
            for n in path:
                n.visits += 1
                mover = 1 - n.seat
                m = margin if mover == 0 else -margin
                w = _win(m, mover, last, tie)
                n.wins += w
                n.margins += m
                n.rewards += _reward(w, m)
            if deadline and not done & 15 and time.perf_counter() > deadline:
                break
            if root.exact is not None:
                break
        return done


def _playout(node: _Node, rng: random.Random,
             moves: list[int] | None = None) -> tuple[int, int]:
    """A random game from the node: (final margin for Black, seat of the last placer).

    A placement is drawn among the corridor cells not yet known to be critical (cells
    found critical stay so) and tested: when the cell's neighbours in the region stay
    connected through the cells around it, the region only loses that cell, which a
    few mask operations show; otherwise one Tarjan pass gives the new region and all
    its critical cells. ``moves`` (for tests) receives the placed bits, 0 for a pass.
    """
    region, known = node.region, node.critical
    black, red, seat, dead = node.black, node.red, node.seat, node.dead
    last = 1 - seat
    rand = rng.random
    full = ALL
    analyse_ = _analyse
    neighbours = NEIGHBOURS
    near = _NEAR
    top, bottom, left, right = TOP, BOTTOM, LEFT, RIGHT
    exact = True  # known holds every critical cell
    while True:
        free = region & ~known
        if not free:
            break
        n = free.bit_count()
        pick = rand() * (n + dead * _PASS_WEIGHT)
        if pick >= n:
            if not exact:
                # A pass is legal only while the game goes on: make sure some corridor
                # cell is still playable.
                known = analyse_(full & ~region).critical
                exact = True
                if known == region:
                    break
            dead -= 1
            bit = 0
        else:
            k = int(pick)
            while k:
                free &= free - 1
                k -= 1
            bit = free & -free
            cell = bit.bit_length() - 1
            touching = neighbours[cell] & region
            local = near[cell] & region
            # Flood from one neighbour through the cells near ``cell``.
            reached = touching & -touching
            frontier = reached
            while frontier and touching & ~reached:
                grow = 0
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    grow |= neighbours[low.bit_length() - 1]
                frontier = grow & local & ~reached
                reached |= frontier
            if not touching & ~reached:
                rest = region ^ bit
                if not (rest & top and rest & bottom and rest & left and rest & right):
                    known |= bit
                    continue
                region = rest
                exact = False
            else:
                a = analyse_(full & ~(region ^ bit))
                if not a.region:
                    known |= bit
                    continue
                dead += region.bit_count() - 1 - a.region.bit_count()
                region, known = a.region, a.critical
                exact = True
            if seat == 0:
                black |= bit
            else:
                red |= bit
        if moves is not None:
            moves.append(bit)
        last = seat
        seat = 1 - seat
    adjacent = around(region)
    return (black & adjacent).bit_count() - (red & adjacent).bit_count(), last


# The cells at most two steps from each cell, but not the cell itself.
_NEAR: tuple[int, ...] = tuple(
    (around(NEIGHBOURS[i] | (1 << i)) | NEIGHBOURS[i]) & ~(1 << i) for i in range(COUNT)
)


# ---- the computer player the registry names (AI, a GameAI) ------------------------


def make_player(budget: Budget) -> CairoPlayer:
    return CairoPlayer(budget)


def evaluate(state: CairoState, seat: int) -> float:
    """One-ply evaluation for ``greedy``: the running score margin, or the result."""
    a = analyse(state.black | state.red)
    adjacent = a.adjacent
    mine = state.red if seat else state.black
    theirs = state.black if seat else state.red
    margin = (mine & adjacent).bit_count() - (theirs & adjacent).bit_count()
    if a.over:
        return 100.0 * (2 * _win(margin, seat, 1 - state.turn, state.tie) - 1) + margin
    return float(margin)


UNIT = "point"


def solve(state: CairoState, seconds: float = 0.0) -> JSON:
    solution = _solve(state, seconds=seconds)
    return {"margin": solution.margin, "best": solution.best, "nodes": solution.nodes}


def bench(positions: list[CairoState], seconds: float, seed: int) -> JSON:
    """Playouts per second from mid-game positions, MCTS iterations per second of the
    top level from the opening, solver nodes per second on late positions."""
    from engine.ai.player import LEVELS
    from engine.cairo.solver import playable

    rng = random.Random(seed)
    player = CairoPlayer(LEVELS[max(LEVELS)])
    roots = [player._node(0, a.region, a.critical, p.black, p.red, p.turn,
                          (ALL & ~p.occupied & ~a.region).bit_count(), root=True)
             for p in positions if not (a := analyse(p.black | p.red)).over]
    playouts = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for node in roots[:50]:
            _playout(node, rng)
        playouts += len(roots[:50])
    playout_rate = playouts / (time.perf_counter() - start)

    opening = CairoState()
    timed = CairoPlayer(Budget(iterations=10**9, seconds=seconds, exact=0))
    start = time.perf_counter()
    iterations = timed.decide(opening, seed).nodes
    iteration_rate = iterations / (time.perf_counter() - start)

    # Late positions: random games played to 14 playable corridor cells.
    from engine.cairo.game import CairoCorridor

    game = CairoCorridor()
    solver = Solver()
    nodes = 0
    solved = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not solved:
        state = game.new_state()
        while playable(state) > 14:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is not None:
            continue
        solver.table.clear()
        solver.infos.clear()
        nodes += _solve(state, solver).nodes
        solved += 1
    solve_seconds = time.perf_counter() - start
    return {
        "playouts_per_second": round(playout_rate),
        "mcts_iterations_per_second": round(iteration_rate),
        "solver_nodes_per_second": round(nodes / solve_seconds),
        "solves_at_14_playable_per_second": round(solved / solve_seconds, 2),
    }


def exact(nodes: int) -> Callable[[CairoState], Exact | None]:
    """A solver of ``nodes`` per position, one table for all it is asked (a review's)."""
    shared = Solver(max_entries=1_000_000)

    def run(state: CairoState) -> Exact | None:
        try:
            solution = _solve(state, shared, nodes=nodes)
        except SolveTimeout:
            return None
        return Exact(solution.margin, tuple(solution.best))

    return run


AI: GameAI[CairoState] = GameAI(UNIT, make_player, evaluate, solve=solve, exact=exact,
                                bench=bench)
