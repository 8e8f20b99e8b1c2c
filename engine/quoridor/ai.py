"""The Quoridor computer player: alpha-beta over shortest paths, in tempi.

- The evaluation is a race in tempi: each pawn's shortest path to its goal (walls
  count, pawns do not), in the order the seats move, plus a little for every wall
  still in hand. With two players it is ``d(opponent) - d(me)`` plus half a tempo for
  the side to move; a race whose loser has no wall left is as good as decided.
- The search is minimax with alpha-beta, iterative deepening and a transposition
  table. With four players it is *paranoid*: the other three are taken to play
  together against the seat to move, which keeps alpha-beta sound at a shallow depth.
- Wall pruning: a wall that leaves one shortest path of a pawn whole cannot lengthen
  that pawn's path, nor cut it off. So the only walls worth searching are those that
  cross a shortest path of an opponent (``path_cuts``), and a wall's effect is found
  by searching again only for the pawns whose path it crosses; a pawn cut off means
  the wall is illegal. Walls are ordered by what they gain, pawn moves by distance;
  interior nodes keep only the best few walls.
- The state of the search is a handful of ints (pawn squares, one wall mask, the
  open-step masks of the board); a child's masks come from its parent's with a few
  operations.
"""

from __future__ import annotations

import math
import random

from engine.ai.choice import pick, win_chance
from engine.ai.player import Budget, Decision, GameAI
from engine.ai.search import WIN, Negamax, deadline
from engine.quoridor.geometry import (
    ALL_SQUARES,
    FORBIDS,
    POINTS,
    SIZE,
    STOPS_EAST,
    STOPS_NORTH,
    Geometry,
    geometry,
    path_cuts,
    pawn_targets,
)
from engine.quoridor.notation import square_name, wall_name
from engine.quoridor.state import QuoridorState

UNIT = "tempo"
_WIN = WIN
_WALL = 1.6  # a wall in hand, in tempi
_SURE = 3.0  # bonus for a race the opponent can no longer change
_SCALE = 0.55  # logistic scale: win chance of an evaluation in tempi (fitted on games)
# A level's spread of win chance, narrowed: a step sideways costs only a tempo (about
# 0.13 of win chance), and a weak level that wanders sideways never ends a game.
_SPREAD = 0.4

# Per wall place: the open-step masks it leaves (ANDed with a parent's).
_KEEP_N = tuple(ALL_SQUARES & ~STOPS_NORTH[b] for b in range(128))
_KEEP_S = tuple(ALL_SQUARES & ~(STOPS_NORTH[b] << SIZE) for b in range(128))
_KEEP_E = tuple(ALL_SQUARES & ~STOPS_EAST[b] for b in range(128))
_KEEP_W = tuple(ALL_SQUARES & ~(STOPS_EAST[b] << 1) for b in range(128))
_KEEP_FREE = tuple(((1 << 128) - 1) & ~FORBIDS[b] for b in range(128))

# Per level: (greatest depth, node budget, walls kept at interior nodes).
_LEVELS = {1: (1, 2_000, 6), 2: (2, 6_000, 8), 3: (3, 15_000, 10), 4: (4, 30_000, 12),
           5: (6, 50_000, 12)}


def _dist(start: int, goal: int, geo: Geometry) -> int:
    """Fewest steps from square ``start`` to ``goal``; -1 when cut off."""
    north, south, east, west = geo.north, geo.south, geo.east, geo.west
    seen = frontier = 1 << start
    steps = 0
    while not frontier & goal:
        frontier = (((frontier & north) << SIZE) | ((frontier & south) >> SIZE)
                    | ((frontier & east) << 1) | ((frontier & west) >> 1)) & ~seen
        if not frontier:
            return -1
        seen |= frontier
        steps += 1
    return steps


def _layers(goal: int, geo: Geometry) -> list[int]:
    """Squares by their distance to ``goal``: ``layers[k]`` are k steps away."""
    north, south, east, west = geo.north, geo.south, geo.east, geo.west
    seen = frontier = goal
    layers = [goal]
    while frontier:
        # Steps taken backwards: a square reaches the frontier by an open step.
        frontier = (((frontier >> SIZE) & north) | ((frontier << SIZE) & south)
                    | ((frontier >> 1) & east) | ((frontier << 1) & west)) & ~seen
        frontier &= ALL_SQUARES
        seen |= frontier
        layers.append(frontier)
    return layers


def _child_geo(geo: Geometry, bit: int) -> Geometry:
    return Geometry(geo.north & _KEEP_N[bit], geo.south & _KEEP_S[bit],
                    geo.east & _KEEP_E[bit], geo.west & _KEEP_W[bit],
                    geo.free & _KEEP_FREE[bit], geo.points | POINTS[bit])


# A node: (pawns, walls, walls left, turn, geometry, distances)
Node = tuple[tuple[int, ...], int, tuple[int, ...], int, Geometry, tuple[int, ...]]
# A move: square (0..80) for the pawn, 100 + place for a wall.
_WALL_BASE = 100


def _move_text(move: int) -> str:
    return wall_name(move - _WALL_BASE) if move >= _WALL_BASE else square_name(move)


# A child in the search: (value for the mover, move, node after it).
Kid = tuple[float, int, Node]
Key = tuple[tuple[int, ...], int, tuple[int, ...], int]


class _Search(Negamax[Node, Key, Kid]):
    """The shared negamax (``engine.ai.search``), its values for the root seat's side
    or the others' (paranoid: with four seats the other three are one side, so a child
    of the same side is searched without a change of sign). Children are counted when
    made and valued statically; a child at the horizon is its static value."""

    def __init__(self, state: QuoridorState, walls_kept: int, nodes: int,
                 deadline: float, wall: float = 0.0) -> None:
        super().__init__(nodes, deadline, 255)
        self.wall = wall or _WALL
        self.seats = state.seats
        self.active = tuple(state.active)
        self.goals = state.layout.goals
        self.root = state.turn
        self.walls_kept = walls_kept

    # ---- evaluation ------------------------------------------------------------------

    def score(self, dists: tuple[int, ...], left: tuple[int, ...], turn: int,
              seat: int) -> float:
        """The race for ``seat`` in tempi (positive: ahead)."""
        n = self.seats
        active = self.active
        if len(active) == 2:
            other = active[1] if active[0] == seat else active[0]
            mine = (dists[seat] - 1) * 2 + (0 if turn == seat else 1)
            theirs = (dists[other] - 1) * 2 + (0 if turn == other else 1)
            value = (theirs - mine) / 2 + self.wall * (left[seat] - left[other])
            if value > 0 and not left[other]:
                value += _SURE
            elif value < 0 and not left[seat]:
                value -= _SURE
            return value
        order = {s: (s - turn) % n for s in active}
        mine = (dists[seat] - 1) * n + order[seat]
        worst = min(((dists[o] - 1) * n + order[o] - mine) / n
                    for o in active if o != seat)
        others = max(left[o] for o in active if o != seat)
        return worst + self.wall * (left[seat] - others)

    def node(self, state: QuoridorState) -> Node:
        geo = geometry(state.all_walls)
        dists = tuple(_dist(state.pawns[s], self.goals[s], geo) if s in self.active else 99
                      for s in range(self.seats))
        return (state.pawns, state.all_walls, state.walls_left, state.turn, geo, dists)

    # ---- move generation -------------------------------------------------------------

    def moves(self, node: Node, walls_kept: int) -> list[Kid]:
        """(value for the mover, move, child) in the order to search them; a pawn move
        onto the goal is worth ``_WIN``. Wall moves beyond ``walls_kept`` are dropped
        (0: keep all)."""
        pawns, walls, left, turn, geo, dists = node
        active = self.active
        goals = self.goals
        n = self.seats
        nxt = self._next(turn)
        out: list[tuple[float, int, Node]] = []
        occupied = 0
        for s in active:
            if s != turn:
                occupied |= 1 << pawns[s]
        targets = pawn_targets(pawns[turn], occupied, geo)
        if targets:
            layers = _layers(goals[turn], geo)
            while targets:
                low = targets & -targets
                targets ^= low
                sq = low.bit_length() - 1
                d = next((k for k, layer in enumerate(layers) if layer & low), 99)
                moved = (*pawns[:turn], sq, *pawns[turn + 1:])
                nd = (*dists[:turn], d, *dists[turn + 1:])
                child = (moved, walls, left, nxt, geo, nd)
                value = _WIN if d == 0 else self.score(nd, left, nxt, turn)
                out.append((value, sq, child))
        if left[turn]:
            cuts = [path_cuts(pawns[s], goals[s], geo) if s in active else 0
                    for s in range(n)]
            candidates = 0
            for s in active:
                if s != turn:
                    candidates |= cuts[s]
            candidates &= geo.free
            spent = (*left[:turn], left[turn] - 1, *left[turn + 1:])
            walled: list[tuple[float, int, Node]] = []
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                bit = low.bit_length() - 1
                g = _child_geo(geo, bit)
                nd_list = list(dists)
                ok = True
                for s in active:
                    if cuts[s] & low:
                        d = _dist(pawns[s], goals[s], g)
                        if d < 0:
                            ok = False
                            break
                        nd_list[s] = d
                if not ok:
                    continue
                nd = tuple(nd_list)
                if nd == dists:
                    continue  # lengthens no path: not worth a wall here
                child = (pawns, walls | low, spent, nxt, g, nd)
                walled.append((self.score(nd, spent, nxt, turn), _WALL_BASE + bit, child))
            walled.sort(key=lambda c: -c[0])
            if walls_kept:
                del walled[walls_kept:]
            out.extend(walled)
        self.nodes += len(out)
        out.sort(key=lambda c: -c[0])
        return out

    def _next(self, turn: int) -> int:
        active = self.active
        n = self.seats
        for k in range(1, n + 1):
            s = (turn + k) % n
            if s in active:
                return s
        return turn

    # ---- the search ------------------------------------------------------------------

    def enter(self, node: Node, depth: int, alpha: float, beta: float,
              ply: int) -> float | None:
        self.check()
        return None

    def key(self, node: Node) -> Key:
        return (node[0], node[1], node[2], node[3])

    def relay(self, turn: int, child: Node, depth: int, alpha: float, beta: float,
              ply: int) -> float:
        """The value of ``child`` for the side of seat ``turn``."""
        root = self.root
        if (child[3] == root) == (turn == root):
            return self.value(child, depth, alpha, beta, ply)
        return -self.value(child, depth, -beta, -alpha, ply)

    def children(self, node: Node, depth: int, alpha: float, beta: float,
                 ply: int) -> list[Kid] | float:
        kids = self.moves(node, self.walls_kept)
        if not kids:  # a seat that cannot act passes (four players only)
            pawns, walls, left, turn, geo, dists = node
            passed = (pawns, walls, left, self._next(turn), geo, dists)
            return self.relay(turn, passed, depth, alpha, beta, ply)
        if kids[0][0] >= _WIN:
            return _WIN - ply
        return kids

    def child_value(self, node: Node, kid: Kid, depth: int, alpha: float, beta: float,
                    ply: int) -> float:
        if depth <= 1:
            if node[3] == self.root:
                return kid[0]
            child = kid[2]
            return -self.score(child[5], child[2], child[3], self.root)
        return self.relay(node[3], kid[2], depth - 1, alpha, beta, ply + 1)

    def root_child(self, kid: Kid, depth: int, low: float, high: float) -> float:
        if kid[0] >= _WIN:
            return _WIN
        if depth <= 1:
            return kid[0]
        return self.relay(self.root, kid[2], depth - 1, low, high, 1)

    def root_kids(self, node: Node, order: list[int]) -> list[Kid]:
        """The root's children, every wall kept, by the last depth's values."""
        kids = self.moves(node, 0)
        if order:
            rank = {m: i for i, m in enumerate(order)}
            kids.sort(key=lambda c: rank.get(c[1], len(rank)))
        return kids


class QuoridorPlayer:
    def __init__(self, budget: Budget, wall: float = 0.0) -> None:
        self.budget = budget
        self.wall = wall
        self.name = f"ai:{budget.level}" if budget.level else "ai"
        level = budget.level or max(_LEVELS)
        self.depth, self.nodes, self.walls_kept = _LEVELS[level]
        if not budget.level:
            self.nodes = budget.iterations * 20

    def decide(self, state: QuoridorState, seed: int) -> Decision:
        rng = random.Random(seed)
        search = _Search(state, self.walls_kept, self.nodes, deadline(self.budget),
                         self.wall)
        root = search.node(state)
        # The spread in tempi around even chances.
        spread = self.budget.spread * _SPREAD
        margin = 4.0 * spread / _SCALE
        values = search.deepen(lambda _, order: search.root_kids(root, order), self.depth,
                               margin)
        total = search.nodes
        two = len(search.active) == 2
        scored = [(m, _chance(v, two)) for m, v in values]
        move = pick(scored, spread, rng)
        value = dict(values)[move]
        # A forced result is exact with two seats; with four, paranoid search only
        # proves what three opponents playing together could do.
        return Decision(_move_text(move), _chance(value, two), _tempo(value),
                        exact=two and abs(value) >= _WIN - 100, nodes=total)


def _chance(value: float, two: bool) -> float:
    if two or abs(value) >= _WIN - 100:
        return win_chance(value, _WIN, _SCALE)
    # Four players: even chances are one in four.
    return 1.0 / (1.0 + 3.0 * math.exp(-_SCALE * max(-40.0, min(40.0, value))))


def _tempo(value: float) -> float | None:
    """The evaluation in tempi; none for a forced result."""
    return None if abs(value) >= _WIN - 100 else value


# ---- the computer player the registry names (AI, a GameAI) ------------------------


def make_player(budget: Budget) -> QuoridorPlayer:
    return QuoridorPlayer(budget)


def evaluate(state: QuoridorState, seat: int) -> float:
    """One-ply evaluation for ``greedy``: the race in tempi for ``seat``, or the result."""
    goals = state.layout.goals
    for s in state.active:
        if goals[s] >> state.pawns[s] & 1:
            return _WIN if s == seat else -_WIN
    if seat in state.eliminated:
        return -_WIN
    search = _Search(state, 0, 0, 0.0)
    _, _, left, turn, _, dists = search.node(state)
    return search.score(dists, left, turn, seat)


AI: GameAI[QuoridorState] = GameAI(UNIT, make_player, evaluate)
