"""Random Pathwayz games against a slow, plain reference of the rules."""

from __future__ import annotations

import itertools
import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pathwayz import Pathwayz, PathwayzState
from engine.pathwayz.geometry import connects, shortest_chain

GAME = Pathwayz()

Board = dict[tuple[int, int], tuple[int, bool]]  # (col, row) -> (colour, permanent)


def ref_board(state: PathwayzState) -> Board:
    board: Board = {}
    for col in range(12):
        for row in range(8):
            i = row * 12 + col
            if state.white >> i & 1:
                board[col, row] = (0, bool(state.permanent >> i & 1))
            elif state.black >> i & 1:
                board[col, row] = (1, bool(state.permanent >> i & 1))
    return board


def around(col: int, row: int) -> list[tuple[int, int]]:
    return [
        (col + dc, row + dr)
        for dc in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (dc or dr) and 0 <= col + dc < 12 and 0 <= row + dr < 8
    ]


def ref_connected(board: Board, colour: int) -> bool:
    seen = {(0, row) for row in range(8) if board.get((0, row), (None,))[0] == colour}
    queue = deque(seen)
    while queue:
        col, row = queue.popleft()
        if col == 11:
            return True
        for cell in around(col, row):
            if cell not in seen and board.get(cell, (None,))[0] == colour:
                seen.add(cell)
                queue.append(cell)
    return False


def ref_play(board: Board, mover: int, col: int, row: int, permanent: bool) -> Board:
    after = dict(board)
    if permanent:
        for cell in around(col, row):
            if cell in after and not after[cell][1]:
                after[cell] = (1 - after[cell][0], False)
        after[col, row] = (1 - mover, True)
    else:
        after[col, row] = (mover, False)
    return after


def ref_result(board: Board, mover: int) -> tuple[int | None, bool] | None:
    """(winner, draw) by docs/rules/pathwayz.md, or None while the game goes on."""
    white, black = ref_connected(board, 0), ref_connected(board, 1)
    if white and black:
        return mover, False
    if white or black:
        return (0 if white else 1), False
    if len(board) == 96:
        return None, True
    return None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), permanent_share=st.floats(0.0, 1.0))
def test_random_games_follow_the_reference(seed: int, permanent_share: float) -> None:
    rng = random.Random(seed)
    state = GAME.new_state()
    board: Board = {}
    plies = 0
    while GAME.outcome(state) is None:
        mover = GAME.to_move(state)
        assert mover == plies % 2
        moves = GAME.legal_moves(state)
        assert len(moves) == 2 * (96 - plies)
        wanted = rng.random() < permanent_share
        move = rng.choice([m for m in moves if m.permanent == wanted])
        after = GAME.apply(state, move)

        col, row = move.cell % 12, move.cell // 12
        board = ref_play(board, mover, col, row, move.permanent)
        assert ref_board(after) == board
        # Permanent pieces never change and are never removed.
        assert after.permanent & state.permanent == state.permanent
        assert after.white & state.permanent == state.white & state.permanent
        assert after.black & state.permanent == state.black & state.permanent
        assert after.white & after.black == 0
        assert after.flipped == (state.white ^ after.white) & ~(1 << move.cell)
        assert GAME.last_move(after) == GAME.notation(move)

        result = GAME.outcome(after)
        expected = ref_result(board, mover)
        if expected is None:
            assert result is None
        else:
            assert result is not None
            assert (result.winner, result.draw) == expected
        assert GAME.from_json(GAME.to_json(after)) == after
        state = after
        plies += 1
        assert plies <= 96
    assert GAME.legal_moves(state) == []
    assert GAME.to_move(state) is None
    result = GAME.outcome(state)
    assert result is not None
    if result.draw:
        assert plies == 96


@st.composite
def random_masks(draw: st.DrawFn) -> int:
    density = draw(st.floats(0.35, 0.75))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return sum(1 << i for i in range(96) if rng.random() < density)


@settings(max_examples=300, deadline=None)
@given(mask=random_masks())
def test_chain_check_agrees_with_the_reference(mask: int) -> None:
    board: Board = {(i % 12, i // 12): (0, False) for i in range(96) if mask >> i & 1}
    expected = ref_connected(board, 0)
    assert connects(mask) == expected
    chain = shortest_chain(mask)
    assert bool(chain) == expected
    if chain:
        assert chain[0] % 12 == 0 and chain[-1] % 12 == 11
        assert all(mask >> c & 1 for c in chain)
        for a, b in itertools.pairwise(chain):
            assert (b % 12, b // 12) in around(a % 12, a // 12)
