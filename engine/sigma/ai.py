"""The Sigma Escape computer player: alpha-beta over blank spaces and open sides.

Both hands are public (docs/rules/sigma-escape.md §1), so the game is one of perfect
information and a short one: at most one placement per card, 19 with the reconstructed deck. The
player searches it with negamax, alpha-beta, iterative deepening and a transposition
table, to the end of the game once few cards are left.

- The search runs on a model of the table made for speed: the cells showing white and
  black are two bitboards over a padded grid (a cell is a bit, a step is a shift), a
  card laid is its precomputed mask shifted to the side it meets, and the open sides
  are small tuples of ints. White's main group is a flood of shifts; its blank spaces
  are the empty cells next to it.
- Placements that lay the same card on the same cells with the same arrows lead to the
  same position and are searched once.
- The evaluation (for White) is the blank spaces of the main group, those of them
  beyond Black's reach (the cells one card laid on a black side may cover), the usable
  sides of each player (White's that point at an empty cell to grow, those beyond
  Black's reach to grow away; Black's to close in), the cards left in hand (Black
  needs cards to close the last spaces) and the blank spaces no card Black holds can
  cover next turn, by the cards' shapes. Reach is what makes Black chase with purpose:
  a blank space no black side is near counts three times, and more again when no
  card Black holds fits it.
"""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from engine.ai.choice import pick, win_chance
from engine.ai.player import Budget, Decision, GameAI
from engine.ai.search import TIME_CAP, WIN, Negamax, Timeout
from engine.game import JSON
from engine.sigma import native
from engine.sigma.deck import BARE_BLACK, BLACK, KEPT_ARROWS, OPEN_SIDES, WHITE, Deck
from engine.sigma.endgame import ENDGAME, prove
from engine.sigma.geometry import DELTA
from engine.sigma.state import SigmaState

UNIT = None
_WIN = WIN
_W = 48  # grid row length in bits
_ROW0, _COL0 = 24, 24  # grid cell (0, 0) is bit (_ROW0 * _W + _COL0)
_BASE = 3 * _W + 3  # offset of a shape's arrow cell in its relative mask
_STEP = tuple(dr * _W + dc for dr, dc in DELTA)  # N E S W
_LEFT_EDGE = sum(1 << (r * _W) for r in range(2 * _ROW0)) * 0b11
_EDGES = _LEFT_EDGE | (_LEFT_EDGE << (_W - 2))
_NOTHING = 1 << (_ROW0 * _W + _COL0)

# Evaluation weights (White's view): a blank space, a usable side of White, one of
# Black, a card in Black's hand, a card in White's hand, a blank space out of Black's
# reach (``_reach``: no card laid on a black side can cover it next turn), a usable
# side of White out of it, one pointing at an empty cell (room to grow), a blank space
# no card Black holds can cover next turn (``_uncovered``: the reach with the cards'
# shapes). A side of White's that points at a covered cell is worth less than none:
# Black is closing in there. Fitted by hill-climbing on a level-3 Black against a
# random White (the chaser must follow a White that spreads; docs/sigma-deck.md §3,
# §7), from a logistic fit of game results on the features: (1.0, 0.25, 0.15, 0.6,
# 0.0) before issue 29.
WEIGHTS = (0.5, -0.5, 0.4, 0.45, 0.0, 1.0, 0.5, 1.5, 0.5)
_SCALE = 0.06  # logistic scale of the evaluation (fitted on games of the levels)

# Per level: (greatest depth, node budget).
_LEVELS = {1: (1, 1_000), 2: (2, 4_000), 3: (3, 10_000), 4: (4, 20_000), 5: (8, 40_000)}
# Per level: the own placements the look-ahead against natural replies reads (0: none);
# after the first, only the best _WIDTH by the static order. Its node budget: a look of
# 3 at width 8 takes up to about 20,000 (0.2 s in C).
_LOOKS = {5: 3}
_WIDTH = 8
_SWINDLE_NODES = 60_000
# Only moves the search rates within this of its best (one blank space) are weighed
# against natural replies: against a searching opponent the search's judgement holds.
_SWINDLE_MARGIN = 1.0


def _index(cell: tuple[int, int]) -> int:
    return (cell[0] + _ROW0) * _W + cell[1] + _COL0


def _cell(index: int) -> tuple[int, int]:
    return index // _W - _ROW0, index % _W - _COL0


# A card's shapes: per arrow, per side direction: (cell mask relative to _BASE,
# arrows as offsets * 4 + direction relative to the arrow's cell).
Shape = tuple[int, tuple[int, ...]]


def _shapes(deck: Deck) -> tuple[tuple[tuple[tuple[Shape, ...], ...], ...], ...]:
    """``[seat][card][arrow][direction]``."""
    out = []
    for hand in deck.hands:
        cards = []
        for card, _ in hand:
            arrows = []
            for per_side in card.fits:
                sides = []
                for shape in per_side:
                    mask = 0
                    for r, c in shape.cells:
                        mask |= 1 << (_BASE + r * _W + c)
                    marks = tuple((r * _W + c) * 4 + d for (r, c), d in shape.arrows)
                    sides.append((mask, marks))
                arrows.append(tuple(sides))
            cards.append(tuple(arrows))
        out.append(tuple(cards))
    return tuple(out)


_SHAPES: dict[int, tuple[Deck, Any]] = {}


def _deck_shapes(deck: Deck) -> Any:
    found = _SHAPES.get(id(deck))
    if found is None or found[0] is not deck:
        found = (deck, _shapes(deck))
        _SHAPES[id(deck)] = found
    return found[1]


def _main(white: int, group: int = _NOTHING) -> int:
    """White's main group: the white cells joined to ``group`` (a part of it)."""
    while True:
        grown = (group | (group << 1) | (group >> 1) | (group << _W) | (group >> _W)) & white
        grown |= group
        if grown == group:
            return group
        group = grown


# The cells a card laid on a side may cover: the 5 x 5 square around the side's cell
# (a card's box is at most 3 x 3 and holds the cell), relative to its top-left corner.
_SQUARE = sum(1 << (r * _W + c) for r in range(5) for c in range(5))
_SQUARE_AT = 2 * _W + 2  # the offset of the square's centre


def _reach(arrows: tuple[int, ...]) -> int:
    """The cells one card laid on ``arrows`` (marks) may cover: Black's reach."""
    reach = 0
    for x in arrows:
        reach |= _SQUARE << ((x >> 2) + _STEP[x & 3] - _SQUARE_AT)
    return reach


def _uncovered(node: Node, model: _Model, blanks: int) -> int:
    """The ``blanks`` Black cannot cover next turn: outside every legal placement of a
    card it holds on one of its sides (``_reach`` with the cards' shapes). A side whose
    square holds no blank space is skipped, and the search stops once every blank space
    is covered: only the blank spaces count."""
    shapes = model.shapes[BLACK]
    held = [shapes[i] for i, n in enumerate(node[5][BLACK]) if n]
    left = blanks
    for x in model.sides(node, BLACK):
        if not left:
            break
        d = x & 3
        at = (x >> 2) + _STEP[d]
        shift = at - _BASE
        if shift < 0 or not left & (_SQUARE << (at - _SQUARE_AT)):
            continue
        for card in held:
            for per_side in card:
                cells = per_side[d][0] << shift
                if not cells & (_NOTHING | _EDGES):
                    left &= ~cells
    return left


def _blanks(white: int, black: int, group: int) -> int:
    near = (group << 1) | (group >> 1) | (group << _W) | (group >> _W)
    return near & ~(white | black)


# A node: (white cells, black cells, White's main group, White's arrows, Black's
# arrows, hands, turn, passes); arrows are sorted ints index * 4 + direction, hands
# the counts per card.
Node = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...],
             int, int]
# A placement: (move, card, cells, arrows' marks, anchor, arrow cells covered); see
# ``_Model.placements``.
Raw = tuple[tuple[int, int, int], int, int, tuple[int, ...], int, int]


# A child in the search: (placement, node after it).
Kid = tuple[tuple[int, int, int], Node]


class OutOfModel(Exception):
    """The table reaches beyond the grid of the fast model."""


def node_of(state: SigmaState) -> Node:
    board = state.board
    white = black = 0
    for cell, colour in board.colour.items():
        r, c = cell
        if not (r >= 3 - _ROW0 and 2 - _COL0 <= c < _W - 2 - _COL0):
            raise OutOfModel(cell)
        if colour == WHITE:
            white |= 1 << _index(cell)
        else:
            black |= 1 << _index(cell)
    arrows = [[_index(cell) * 4 + d for cell, d in board.arrows[seat]] for seat in (WHITE, BLACK)]
    return (white, black, _main(white), tuple(sorted(arrows[0])), tuple(sorted(arrows[1])),
            board.hands, state.turn, state.passes)


class _Model:
    """Moves and their results on the fast model, for one deck."""

    def __init__(self, deck: Deck, weights: tuple[float, ...] | None = None) -> None:
        self.weights = weights or WEIGHTS
        self.shapes = _deck_shapes(deck)
        # The deck's rules variants (engine.sigma.deck.RULES).
        self.open = OPEN_SIDES in deck.rules
        self.kept = KEPT_ARROWS in deck.rules
        self.bare = BARE_BLACK in deck.rules
        self.names = [[card.name for card, _ in hand] for hand in deck.hands]

    def sides(self, node: Node, seat: int) -> tuple[int, ...]:
        white, black, group, warrows, barrows, _, _, _ = node
        if self.open:  # only the sides facing a cell no card covers
            taken = white | black
            if seat == BLACK:
                return tuple(a for a in barrows if not taken >> ((a >> 2) + _STEP[a & 3]) & 1)
            return tuple(a for a in warrows if group >> (a >> 2) & 1
                         and not taken >> ((a >> 2) + _STEP[a & 3]) & 1)
        if seat == BLACK:
            return barrows
        return tuple(a for a in warrows if group >> (a >> 2) & 1)

    def placements(self, node: Node) -> list[Raw]:
        """Every legal placement of the seat to move, as (move, card, cells, arrows'
        marks, anchor, arrow cells it covers), one per distinct result as far as
        cheaply seen, in the order of the game's notation; ``move`` is (card, side
        number, arrow number)."""
        black, hands, turn = node[1], node[5], node[6]
        shapes = self.shapes[turn]
        out: list[Raw] = []
        seen: set[tuple[int, int, int, tuple[int, ...]]] = set()
        held = [i for i, n in enumerate(hands[turn]) if n]
        # The cells that hold arrows: a card off them covers none.
        marked = armed = 0
        for x in node[3]:
            marked |= 1 << (x >> 2)
        for x in node[4]:
            armed |= 1 << (x >> 2)
        marked |= armed
        # White may not cover black cells (under bare-black, those an arrow shows on).
        closed = 0 if turn == BLACK else black & armed if self.bare else black
        forbidden = _NOTHING | closed | _EDGES
        for number, mark in enumerate(self.sides(node, turn), start=1):
            d = mark & 3
            anchor = (mark >> 2) + _STEP[d]
            shift = anchor - _BASE
            if shift < 0:
                continue
            for card in held:
                for a, per_side in enumerate(shapes[card], start=1):
                    rel, marks = per_side[d]
                    cells = rel << shift
                    if cells & forbidden:
                        continue
                    key = (card, cells, anchor, marks)
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(((card, number, a), card, cells, marks, anchor,
                                cells & marked))
        return out

    def child(self, node: Node, raw: Raw) -> Node:
        """The node after a placement (before the end checks; see ``settle``)."""
        white, black, group, warrows, barrows, hands, turn, _ = node
        _, card, cells, marks, anchor, covered = raw
        new = [anchor * 4 + m for m in marks]
        left = list(hands[turn])
        left[card] -= 1
        if covered:  # under kept-arrows, a card takes only the other colour's arrows
            if not self.kept or turn == BLACK:
                warrows = tuple(x for x in warrows if not covered >> (x >> 2) & 1)
            if not self.kept or turn == WHITE:
                barrows = tuple(x for x in barrows if not covered >> (x >> 2) & 1)
        if turn == WHITE:
            w = white | cells
            # The card meets the main group: grow the group through it.
            main = _main(w, group | (1 << anchor))
            # An edge holds one arrow of a colour (two only under kept-arrows).
            return (w, black & ~cells, main, tuple(sorted({*warrows, *new})), barrows,
                    (tuple(left), hands[1]), 1, 0)
        w = white & ~cells
        main = _main(w) if cells & group else group
        return (w, black | cells, main, warrows, tuple(sorted({*barrows, *new})),
                (hands[0], tuple(left)), 0, 0)

    def text(self, seat: int, move: tuple[int, int, int]) -> str:
        card, side, arrow = move
        return f"{self.names[seat][card]} {side}.{arrow}"


def _static(node: Node, model: _Model) -> float:
    """The evaluation for White."""
    white, black, group, _, _, hands, _, _ = node
    barrows = model.sides(node, BLACK)
    blanks = _blanks(white, black, group)
    sides = model.sides(node, WHITE)
    reach = _reach(barrows)
    taken = white | black
    safe = live = 0
    for x in sides:
        at = (x >> 2) + _STEP[x & 3]
        safe += not reach >> at & 1
        live += not taken >> at & 1
    blank, white_side, black_side, black_card, white_card, far, free, room, shut = \
        model.weights
    # The square of ``_reach`` holds cells no card of Black's fits: a blank space no
    # card Black holds can cover next turn (a hole beside Nothing that no black side
    # faces, a space the shapes of its last cards miss) counts more again.
    open_ = _uncovered(node, model, blanks).bit_count() if shut else 0
    return (blank * blanks.bit_count() + white_side * len(sides) - black_side * len(barrows)
            - black_card * sum(hands[BLACK]) + white_card * sum(hands[WHITE])
            + far * (blanks & ~reach).bit_count() + free * safe + room * live
            + shut * open_)


class _Search(Negamax[Node, Node, Kid]):
    """The shared negamax (``engine.ai.search``) over the fast model: a node counts
    when entered, the end and the passes are settled before the table is asked, the
    horizon is the static evaluation, and only nodes two plies or more from it order
    their children."""

    MOVE = 0

    def __init__(self, model: _Model, nodes: int, deadline: float) -> None:
        super().__init__(nodes, deadline, 127)
        self.model = model
        self.kids: dict[tuple[int, int, int], Node] = {}
        self.mover = WHITE
        self._moves: list[Raw] = []  # the placements ``enter`` found, for ``children``

    def settle(self, node: Node, moves: bool = True) -> tuple[Node, float | None, list[Raw]]:
        """The node after the end checks and automatic passes, its result for White
        (None while the game goes on) and the placements of the seat to move. Without
        ``moves``, only the checks that need no placement (no blank space, both hands
        empty): for the leaves of the search."""
        white, black, group, warrows, barrows, hands, turn, passes = node
        if not _blanks(white, black, group):
            return node, -_WIN, []
        if not any(hands[0]) and not any(hands[1]):
            return node, _WIN, []
        if not moves:
            return node, None, []
        while True:
            if passes >= 2:
                return node, _WIN, []
            found = self.model.placements(node)
            if found:
                return node, None, found
            passes += 1
            turn = 1 - turn
            node = (white, black, group, warrows, barrows, hands, turn, passes)

    def enter(self, node: Node, depth: int, alpha: float, beta: float,
              ply: int) -> float | None:
        self._tick()
        turn = node[6]
        node, result, moves = self.settle(node, depth > 0)
        if node[6] != turn and result is None:  # the seat to move passed
            self.nodes -= 1
            return -self.value(node, depth, -beta, -alpha, ply)
        sign = 1.0 if turn == WHITE else -1.0
        if result is not None:
            return sign * (result - ply if result > 0 else result + ply)
        if depth <= 0:
            return sign * _static(node, self.model)
        # A node that goes on is the one entered (a pass recursed above).
        self._moves = moves
        return None

    def key(self, node: Node) -> Node:
        return node

    def children(self, node: Node, depth: int, alpha: float, beta: float,
                 ply: int) -> list[Kid]:
        moves = self._moves
        if depth >= 2:
            return self.ordered(node, moves, 1.0 if node[6] == WHITE else -1.0)
        model = self.model
        return [(raw[0], model.child(node, raw)) for raw in moves]

    def ordered(self, node: Node, moves: list[Raw], sign: float
                ) -> list[tuple[tuple[int, int, int], Node]]:
        """(move, child), best first for the mover by the static evaluation."""
        model = self.model
        scored = []
        for raw in moves:
            child = model.child(node, raw)
            if not _blanks(child[0], child[1], child[2]):
                key = sign * _WIN
            else:
                key = -sign * _static(child, model)
            scored.append((key, raw[0], child))
        scored.sort(key=lambda c: c[0])
        return [(move, child) for _, move, child in scored]

    def start(self, node: Node) -> tuple[int, float | None, list[tuple[int, int, int]]]:
        """The root after its end checks and passes: (seat to move, result for White
        or None, placements best first by the static order)."""
        node, result, moves = self.settle(node)
        if result is not None or not moves:
            return node[6], result, []
        kids = self.ordered(node, moves, 1.0 if node[6] == WHITE else -1.0)
        self.kids = dict(kids)
        self.mover = node[6]
        return node[6], None, [move for move, _ in kids]

    def values(self, moves: list[tuple[int, int, int]], depth: int, margin: float,
               window: float = 0.0) -> list[float] | None:
        """The value of each of the root's ``moves`` (in that order) searched ``depth``
        plies, within a window that only tells the moves within ``margin`` of the best
        apart, or with ``window``, each within (-window, window): only the sign is sure
        then, which is all a solve to the end asks (won or lost); None when the budget
        ran out."""
        try:
            return self.root_values([(move, self.kids[move]) for move in moves], depth,
                                    margin, window)
        except Timeout:
            return None

    # ---- the natural-reply look-ahead: what the player plays when it sees no win ----

    def natural(self, moves: list[tuple[int, int, int]], looks: int, width: int = 0
                ) -> list[float] | None:
        """The value for the mover of each of the root's ``moves`` when the opponent
        answers every placement with its natural reply (the first of the static order:
        what a player reading one placement ahead plays) and the mover plays its best,
        ``looks`` placements of its own (the root's the first; after it, only its
        ``width`` best by the static order, 0: all) before the static evaluation; None
        when the budget ran out."""
        sign = 1.0 if self.mover == WHITE else -1.0
        try:
            return [self._reply(self.kids[move], looks - 1, sign, width) for move in moves]
        except Timeout:
            return None

    def _tick(self) -> None:
        """Count a node; out of the budget or the time: stop the search."""
        self.nodes += 1
        self.check()

    def _reply(self, node: Node, looks: int, sign: float, width: int) -> float:
        self._tick()
        node, result, moves = self.settle(node)
        if result is not None:
            return sign * result
        mover = 1.0 if node[6] == WHITE else -1.0
        if mover == sign:  # the opponent passed
            return self._mine(node, looks, sign, width)
        return self._mine(self.ordered(node, moves, mover)[0][1], looks, sign, width)

    def _mine(self, node: Node, looks: int, sign: float, width: int) -> float:
        self._tick()
        node, result, moves = self.settle(node, looks > 0)
        if result is not None:
            return sign * result
        if looks <= 0:
            return sign * _static(node, self.model)
        if (1.0 if node[6] == WHITE else -1.0) != sign:  # the mover passed
            return self._reply(node, looks, sign, width)
        if 0 < width < len(moves):  # only the mover's best by the static order
            kids = self.ordered(node, moves, sign)[:width]
        else:
            kids = [(raw[0], self.model.child(node, raw)) for raw in moves]
        return max(self._reply(child, looks - 1, sign, width) for _, child in kids)


class SigmaPlayer:
    def __init__(self, budget: Budget, weights: tuple[float, ...] | None = None) -> None:
        self.budget = budget
        self.weights = weights
        self.name = f"ai:{budget.level}" if budget.level else "ai"
        self.depth, self.nodes = _LEVELS[budget.level or max(_LEVELS)]
        self.parity = True
        self.looks = _LOOKS.get(budget.level, 0) if budget.traps else 0
        if not budget.level:
            self.nodes = budget.iterations * 20

    def decide(self, state: SigmaState, seed: int) -> Decision:
        rng = random.Random(seed)
        scale = _SCALE
        model = _Model(state.deck, self.weights or WEIGHTS)
        # The move time caps the search (``engine.ai.search.deadline``); the C search
        # is given the seconds.
        seconds = min(self.budget.seconds, TIME_CAP) if self.budget.seconds else 0.0
        began = time.perf_counter()
        try:
            root = node_of(state)
        except OutOfModel:
            return _outside(state)
        solved, spent = self._endgame(model, state.deck, root, seconds / 2)
        if solved is not None:
            return solved
        if seconds:  # what the endgame's solve left of the move time
            seconds = max(seconds - (time.perf_counter() - began), 0.05)
        search = _searcher(model, state.deck, self.nodes, seconds)
        turn, result, moves = search.start(root)
        if result is not None or not moves:
            raise ValueError("the game is over")
        margin = 4.0 * self.budget.spread / scale
        values: list[tuple[Any, float]] = []
        # Searches end on a move of Black's, whose replies cut White's group: White
        # looks 2, 4, ... plies ahead, Black 1, 3, ...
        parity = self.parity and self.depth >= 4
        first = 2 if turn == WHITE and parity else 1
        for depth in range(first, self.depth + 1, 2 if parity else 1):
            found = search.values(moves, depth, margin)
            if found is None:
                break
            values = sorted(zip(moves, found, strict=True), key=lambda mv: -mv[1])
            moves = [m for m, _ in values]
            if abs(values[0][1]) >= _WIN - 100:
                break  # the end is in sight: the result is known
        if not values:  # not even one ply within the budget: the static order
            values = [(m, 0.0) for m in moves]
        trap = None
        if self.looks and values[0][1] < _WIN - 100:
            # The look-ahead has what is left of the move time, if anything is.
            left = seconds - (time.perf_counter() - began) if seconds else 0.0
            if not seconds or left > 0.05:
                trap = self._swindle(model, state, root, left, values)
        move = trap or pick([(m, _chance(v, scale)) for m, v in values], self.budget.spread,
                            rng)
        value = dict(values)[move]
        return Decision(model.text(turn, move), _chance(value, scale), None,
                        exact=abs(value) >= _WIN - 100, nodes=spent + search.nodes)

    def _endgame(self, model: _Model, deck: Deck, root: Node, seconds: float
                 ) -> tuple[Decision | None, int]:
        """The top levels' exact endgame (``engine.sigma.endgame``): once few enough
        cards are left, the first placement a solve to the end proves won, and the
        nodes the solve used; no decision when it proves no win within its budget."""
        cards = sum(root[5][0]) + sum(root[5][1])
        most, nodes = ENDGAME.get(self.budget.level, (0, 0))
        if cards > most:
            return None, 0
        search = _searcher(model, deck, nodes, seconds)
        turn, result, moves = search.start(root)
        if result is not None or len(moves) < 2:
            return None, search.nodes
        won = prove(search, moves, cards).won
        if won is None:
            return None, search.nodes
        return Decision(model.text(turn, won), 1.0, None, exact=True,
                        nodes=search.nodes), search.nodes

    def _swindle(self, model: _Model, state: SigmaState, root: Node, seconds: float,
                 values: list[tuple[Any, float]]) -> Any:
        """The move for a position the search (``values``, best first) finds no forced
        win in: of the moves it does not see lose, the one that fares best against
        the opponent's natural replies (see ``_Search.natural``), the search's best
        among equals; None when there is no choice or no time.

        The search assumes a perfect opponent, and in the seat that is worse off
        (White, in this deck) every move then looks alike: lost, or a little less bad
        by the evaluation. Against a player who answers with the reply that looks best
        at once, a line that makes that reply a mistake wins; so the top level plays
        for it, as a person playing a lost position sets a trap, and never gives up a
        win its search has proved."""
        alive = [(m, v) for m, v in values
                 if v > -(_WIN - 100) and v >= values[0][1] - _SWINDLE_MARGIN]
        if len(alive) < 2:
            return None
        search = _searcher(model, state.deck, _SWINDLE_NODES, seconds)
        search.start(root)
        moves = [m for m, _ in alive]
        found = search.natural(moves, self.looks, _WIDTH)
        if found is None:
            return None
        best = max(found)
        return moves[found.index(best)]


class _RootSearch(Protocol):
    @property
    def nodes(self) -> int: ...

    def start(self, node: Node) -> tuple[int, float | None, list[tuple[int, int, int]]]: ...

    def values(self, moves: list[tuple[int, int, int]], depth: int, margin: float,
               window: float = 0.0) -> list[float] | None: ...

    def natural(self, moves: list[tuple[int, int, int]], looks: int, width: int = 0
                ) -> list[float] | None: ...


def _searcher(model: _Model, deck: Deck, nodes: int, seconds: float) -> _RootSearch:
    """The search in C where it is built and the deck fits it, else in Python: the same
    search, node for node (tests/engine/test_sigma_native.py)."""
    if native.AVAILABLE:
        try:
            return native.NativeSearch(deck, model.weights, nodes, seconds)
        except ValueError:  # a deck beyond the C model's sizes
            pass
    return _Search(model, nodes, time.perf_counter() + seconds if seconds else 0.0)


def _outside(state: SigmaState) -> Decision:
    """A table too wide for the model (never seen in play): the placement that leaves
    the most blank spaces (White) or the fewest (Black), by the rules themselves."""
    from engine.sigma.game import SigmaEscape

    game = SigmaEscape()
    sign = 1 if state.turn == WHITE else -1
    scored = []
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        scored.append((sign * len(after.board.blanks), game.notation(move)))
    return Decision(max(scored)[1], 0.5, None, nodes=len(scored))


def _chance(value: float, scale: float) -> float:
    return win_chance(value, _WIN, scale)


# ---- the computer player the registry names (AI, a GameAI) ------------------------


def make_player(budget: Budget) -> SigmaPlayer:
    return SigmaPlayer(budget)


def evaluate(state: SigmaState, seat: int) -> float:
    """One-ply evaluation for ``greedy``: blank spaces, usable sides and Black's cards
    (the result once the game is over), for ``seat``."""
    from engine.sigma.rules import outcome

    result = outcome(state)
    sign = 1.0 if seat == WHITE else -1.0
    if result is not None:
        return sign * (_WIN if result.winner == WHITE else -_WIN)
    try:
        node = node_of(state)
    except OutOfModel:
        return sign * len(state.board.blanks)
    return sign * _static(node, _Model(state.deck))


def bench(positions: list[SigmaState], seconds: float, seed: int) -> JSON:
    """Search nodes per second of the top level."""
    from engine.ai.player import LEVELS, search_speed

    return dict(search_speed(SigmaPlayer(LEVELS[max(LEVELS)]), positions, seconds, seed))


AI: GameAI[SigmaState] = GameAI(UNIT, make_player, evaluate, bench=bench)
