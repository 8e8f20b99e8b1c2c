"""Sigma Escape's search in C against the Python one, its reference.

The C search (engine/sigma/_native.c) promises the same search node for node: the same
placements in the same order, the same values to the last bit and the same node counts,
on positions from random play at every depth the levels use. The project's install
builds it; a machine without a C compiler has only the Python search, and says so here.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.ai.player import LEVELS
from engine.balance import solve
from engine.registry import get_game
from engine.sigma import ai, endgame, native
from engine.sigma.deck import DEFAULT_DECK, deck_from_data, shipped_deck
from engine.sigma.state import SigmaState

pytestmark = pytest.mark.skipif(
    not native.AVAILABLE, reason="the C extension was not built (no C compiler?)")


def _position(seed: int) -> SigmaState:
    game = get_game("sigma")
    rng = random.Random(seed)
    state: SigmaState = game.new_state()
    for _ in range(rng.randrange(0, 14)):
        moves = game.legal_moves(state)
        after = game.apply(state, rng.choice(moves))
        if game.outcome(after) is not None:
            break
        state = after
    return state


def _both(seed: int, nodes: int = 10**6) -> tuple[ai.Node, ai._Search, native.NativeSearch]:
    """A position's root and the two searches of it, on one budget."""
    state = _position(seed)
    model = ai._Model(state.deck)
    return (ai.node_of(state), ai._Search(model, nodes, 0.0),
            native.NativeSearch(state.deck, model.weights, nodes, 0.0))


@pytest.mark.parametrize("seed", range(6))
def test_the_c_search_is_the_python_search_node_for_node(seed: int) -> None:
    # 40,000 nodes: five of the positions finish depth 4 within it (at most 34,000),
    # seed 1's (78 moves) stops in the middle of it, at the same node in both; its
    # whole depth 4 (293,000 nodes) took the Python search 19 s.
    root, python, c = _both(seed, nodes=40_000)
    turn, result, moves = python.start(root)
    assert c.start(root) == (turn, result, moves)
    assert result is None and moves
    # Iterative deepening as the player does it: one table across the depths, the
    # moves reordered by the last depth's values, a margin that leaves some unsplit.
    for depth in (1, 2, 3, 4):
        margin = 2.0 if depth == 3 else 0.0
        expected = python.values(moves, depth, margin)
        assert c.values(moves, depth, margin) == expected
        assert c.nodes == python.nodes
        if expected is None:  # out of the budget, both at the same node
            assert depth == 4 and seed == 1
            break
        moves = [m for m, _ in sorted(zip(moves, expected, strict=True), key=lambda v: -v[1])]


def test_the_c_search_stops_at_its_node_budget_as_the_python_one_does() -> None:
    root, python, c = _both(3, nodes=500)
    _, _, moves = python.start(root)
    c.start(root)
    assert python.values(moves, 2, 0.0) is not None
    assert c.values(moves, 2, 0.0) is not None
    assert python.values(moves, 4, 0.0) is None
    assert c.values(moves, 4, 0.0) is None
    assert c.nodes == python.nodes == 501


def test_the_c_search_sees_the_end_of_the_game() -> None:
    """Late positions solved to the end: both searches agree on won and lost."""
    game = get_game("sigma")
    for seed in range(4):
        rng = random.Random(100 + seed)
        state: SigmaState = game.new_state()
        while True:
            after = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.outcome(after) is not None or len(after.placed) >= 16:
                break
            state = after
        model = ai._Model(state.deck)
        root = ai.node_of(state)
        python = ai._Search(model, 10**7, 0.0)
        c = native.NativeSearch(state.deck, model.weights, 10**7, 0.0)
        _, _, moves = python.start(root)
        c.start(root)
        exact = python.values(moves, 30, 0.0)
        assert exact is not None and all(abs(v) >= 900 for v in exact)
        assert c.values(moves, 30, 0.0) == exact
        # A solve that only asks won or lost (a window of ±1) gives each move's sign.
        python, c = ai._Search(model, 10**7, 0.0), native.NativeSearch(
            state.deck, model.weights, 10**7, 0.0)
        python.start(root)
        c.start(root)
        signs = python.values(moves, 30, 0.0, window=1.0)
        assert signs is not None and [v > 0 for v in signs] == [v > 0 for v in exact]
        assert c.values(moves, 30, 0.0, window=1.0) == signs
        assert c.nodes == python.nodes


@pytest.mark.realtime  # the searches stop at a node count or their time, whichever first
def test_the_player_plays_the_same_moves_in_c_and_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    level = LEVELS[3]
    states = [_position(seed) for seed in range(4)]
    player = ai.SigmaPlayer(level)
    in_c = [player.decide(s, 1) for s in states]
    monkeypatch.setattr(native, "AVAILABLE", False)
    in_python = [player.decide(s, 1) for s in states]
    assert in_c == in_python


def test_a_deck_too_big_for_the_c_model_is_searched_in_python() -> None:
    """33 distinct cards in White's hand: beyond the C model (32), the player searches
    in Python and still plays a legal move."""
    data = shipped_deck(DEFAULT_DECK).to_data()
    one = data["white"][0]
    data["white"] = [one | {"name": f"C{i}", "count": 1} for i in range(33)]
    deck = deck_from_data(data)
    state = SigmaState(deck)
    model = ai._Model(deck)
    with pytest.raises(ValueError, match="distinct cards"):
        native.NativeSearch(deck, model.weights, 10, 0.0)
    assert isinstance(ai._searcher(model, deck, 10, 0.0), ai._Search)
    game = get_game("sigma")
    move = ai.SigmaPlayer(LEVELS[1]).decide(state, 1).move
    assert move in {game.notation(m) for m in game.legal_moves(state)}


@pytest.mark.parametrize(("seed", "looks", "width"), [(0, 3, 8), (2, 3, 8), (3, 2, 3)])
def test_the_look_ahead_against_natural_replies_is_the_same_in_c_and_in_python(
        seed: int, looks: int, width: int) -> None:
    root, python, c = _both(seed)
    _, _, moves = python.start(root)
    c.start(root)
    expected = python.natural(moves, looks, width)
    assert expected is not None and len(expected) == len(moves)
    assert c.natural(moves, looks, width) == expected
    assert c.nodes == python.nodes > len(moves)
    with pytest.raises(ValueError, match="width"):
        c.natural(moves, looks, -1)
    with pytest.raises(ValueError, match="range"):  # an index past the root's placements
        c._search.natural([len(moves)], looks)


def _late(seed: int, cards: int) -> SigmaState:
    """A position of random play with ``cards`` cards or fewer left in the two hands."""
    game = get_game("sigma")
    rng = random.Random(seed)
    while True:
        state: SigmaState = game.new_state()
        while sum(state.board.hands[0]) + sum(state.board.hands[1]) > cards:
            after = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.outcome(after) is not None:
                break
            state = after
        else:
            return state


@pytest.mark.parametrize(("seed", "cards", "nodes", "won", "lost"), [
    (0, 5, 10_000, True, False),  # White to move: a placement proved won
    (1, 6, 10_000, False, True),  # Black to move: every placement proved lost
    (1, 6, 2_000, False, False),  # the same out of its budget: nothing proved
])
def test_the_exact_endgame_proves_the_same_in_c_and_in_python(
        seed: int, cards: int, nodes: int, won: bool, lost: bool) -> None:
    state = _late(seed, cards)
    model = ai._Model(state.deck)
    root = ai.node_of(state)
    left = sum(root[5][0]) + sum(root[5][1])
    python = ai._Search(model, nodes, 0.0)
    c = native.NativeSearch(state.deck, model.weights, nodes, 0.0)
    _, _, moves = python.start(root)
    c.start(root)
    proof = endgame.prove(python, moves, left)
    assert (proof.won is not None, proof.lost) == (won, lost)
    assert endgame.prove(c, moves, left) == proof
    assert c.nodes == python.nodes


def test_the_top_levels_play_the_endgame_s_win_in_c_and_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = _late(0, 5)
    decisions = []
    for level in (4, 5):
        player = ai.SigmaPlayer(replace(LEVELS[level], seconds=0.0))
        in_c = player.decide(state, 1)
        with monkeypatch.context() as patch:
            patch.setattr(native, "AVAILABLE", False)
            assert player.decide(state, 1) == in_c
        decisions.append(in_c)
    assert decisions[0] == decisions[1]
    assert decisions[0].exact and decisions[0].win == 1.0
    # The placement played is the first the solve proves won, by the rules too.
    game = get_game("sigma")
    after = game.play(state, decisions[0].move)
    assert game.outcome(after) is not None or solve(after, 10_000) == game.to_move(state)
