"""Players that work for any game through the ``Game`` interface: yardsticks.

``random`` plays a uniformly random legal move; ``greedy`` the move with the best
one-ply evaluation (ties at random); ``uct:N`` is plain UCT (UCB1, C = sqrt 2) with
N iterations of uniformly random playouts, and no game knowledge at all.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from engine.ai.player import Decision
from engine.game import Game


class RandomPlayer:
    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.name = "random"

    def decide(self, state: Any, seed: int) -> Decision:
        moves = self.game.legal_moves(state)
        move = random.Random(seed).choice(moves)
        return Decision(self.game.notation(move), 0.5, None, nodes=0)


class GreedyPlayer:
    def __init__(self, game: Game[Any, Any], evaluate: Callable[[Any, int], float]) -> None:
        self.game = game
        self.evaluate = evaluate
        self.name = "greedy"

    def decide(self, state: Any, seed: int) -> Decision:
        game = self.game
        seat = game.to_move(state)
        assert seat is not None
        rng = random.Random(seed)
        best: list[Any] = []
        top = -math.inf
        for move in game.legal_moves(state):
            value = self.evaluate(game.apply(state, move), seat)
            if value > top:
                top, best = value, [move]
            elif value == top:
                best.append(move)
        return Decision(game.notation(rng.choice(best)), 0.5, None, nodes=len(best))


class _Node:
    __slots__ = ("children", "move", "untried", "visits", "wins")

    def __init__(self, move: Any, untried: list[Any]) -> None:
        self.move = move
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0  # for the seat that played ``move``


class UCTPlayer:
    """Plain UCT: the baseline the levels are measured against."""

    def __init__(self, game: Game[Any, Any], iterations: int) -> None:
        self.game = game
        self.iterations = iterations
        self.name = f"uct:{iterations}"

    def decide(self, state: Any, seed: int) -> Decision:
        game = self.game
        rng = random.Random(seed)
        me = game.to_move(state)
        assert me is not None
        root = _Node(None, list(game.legal_moves(state)))
        log = math.log
        sqrt = math.sqrt
        for _ in range(self.iterations):
            node = root
            current = state
            path = [root]
            movers = [me]
            while not node.untried and node.children:
                parent_log = log(node.visits)
                node = max(
                    node.children,
                    key=lambda c: c.wins / c.visits + 1.4142 * sqrt(parent_log / c.visits),
                )
                seat = game.to_move(current)
                current = game.apply(current, node.move)
                path.append(node)
                movers.append(seat if seat is not None else me)
            if node.untried:
                move = node.untried.pop(rng.randrange(len(node.untried)))
                seat = game.to_move(current)
                current = game.apply(current, move)
                child = _Node(move, list(game.legal_moves(current)))
                node.children.append(child)
                node = child
                path.append(node)
                movers.append(seat if seat is not None else me)
            while (outcome := game.outcome(current)) is None:
                current = game.apply(current, rng.choice(game.legal_moves(current)))
            for node, seat in zip(path, movers, strict=True):
                node.visits += 1
                if outcome.winner is None:
                    node.wins += 0.5
                elif path[0] is not node and outcome.winner == seat:
                    node.wins += 1.0
        best = max(root.children, key=lambda c: c.visits)
        return Decision(
            game.notation(best.move), best.wins / max(best.visits, 1), None,
            nodes=self.iterations,
        )
