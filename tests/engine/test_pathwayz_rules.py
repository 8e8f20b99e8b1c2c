"""Pathwayz rules on hand-built positions: flips, chains, who wins, draws."""

from __future__ import annotations

import pytest

from engine.game import GameOverError, MoveError
from engine.pathwayz import Pathwayz, PathwayzState
from engine.pathwayz.notation import CELL_NAMES, read_cell

GAME = Pathwayz()


def cells(text: str) -> int:
    mask = 0
    for name in text.split():
        mask |= 1 << read_cell(name)
    return mask


def names(mask: int) -> set[str]:
    return {CELL_NAMES[i] for i in range(96) if mask >> i & 1}


def pos(text: str) -> PathwayzState:
    return GAME.parse_position(text)


def colour_at(state: PathwayzState, name: str) -> str:
    colour = state.colour(read_cell(name))
    return "-" if colour is None else "wb"[colour]


def test_start() -> None:
    state = GAME.new_state()
    assert GAME.to_move(state) == 0
    assert GAME.seat_name(state, 0) == "White" and GAME.seat_name(state, 1) == "Black"
    assert len(GAME.legal_moves(state)) == 192
    assert GAME.outcome(state) is None
    assert GAME.last_move(state) is None


def test_normal_piece_shows_movers_colour_and_flips_nothing() -> None:
    state = GAME.play(pos("white: b2; black: c3 c2; to move: white"), "b3")
    assert colour_at(state, "b3") == "w"
    assert colour_at(state, "c3") == "b" and colour_at(state, "c2") == "b"
    assert state.flipped == 0 and state.permanent == 0
    assert GAME.to_move(state) == 1
    state = GAME.play(state, "d4")
    assert colour_at(state, "d4") == "b"


def test_permanent_piece_shows_opponents_colour() -> None:
    state = GAME.play(GAME.new_state(), "c5*")
    assert colour_at(state, "c5") == "b"
    assert state.permanent == cells("c5")
    state = GAME.play(state, "d6*")
    assert colour_at(state, "d6") == "w"
    # c5 is permanent: the neighbouring permanent piece did not flip it.
    assert colour_at(state, "c5") == "b"
    assert state.flipped == 0


def test_flips_in_a_corner_are_clipped_and_include_own_pieces() -> None:
    state = pos("white: b1 b2; black: a2; to move: white")
    after = GAME.play(state, "a1*")
    assert colour_at(after, "a1") == "b"
    assert colour_at(after, "a2") == "w"
    # White's own pieces flip too.
    assert colour_at(after, "b1") == "b" and colour_at(after, "b2") == "b"
    assert names(after.flipped) == {"a2", "b1", "b2"}


def test_flips_in_the_far_corner() -> None:
    state = pos("white: k8 k7; black: l7; to move: black")
    after = GAME.play(state, "l8*")
    assert colour_at(after, "l8") == "w"
    assert (colour_at(after, "k8"), colour_at(after, "k7"), colour_at(after, "l7")) == (
        "b", "b", "w",
    )
    assert names(after.flipped) == {"k8", "k7", "l7"}


def test_flips_on_an_edge_touch_the_five_neighbours_only() -> None:
    ring = "d1 f1 d2 e2 f2"
    far = "c1 g1 c2 g2 d3 e3 f3"
    state = pos(f"white: {ring} {far}; to move: black")
    after = GAME.play(state, "e1*")
    assert names(after.flipped) == set(ring.split())
    for name in ring.split():
        assert colour_at(after, name) == "b"
    for name in far.split():
        assert colour_at(after, name) == "w"


@pytest.mark.parametrize(
    ("placed", "outside"),
    [
        # In the bitmask l4 sits next to a5 (and a4 next to l3): a shift without
        # masking would flip pieces on the far side of the board.
        ("l4", "a3 a4 a5"),
        ("a4", "l3 l4 l5"),
        ("l8", "a1 a8"),
        ("a1", "l1 l8"),
    ],
)
def test_flips_do_not_wrap_around_the_board(placed: str, outside: str) -> None:
    state = pos(f"white: {outside}; to move: black")
    after = GAME.play(state, placed + "*")
    assert after.flipped == 0
    for name in outside.split():
        assert colour_at(after, name) == "w"


def test_permanent_pieces_never_flip() -> None:
    state = pos("white: c4* d4; black: c3* d3; to move: white")
    after = GAME.play(state, "c5*")  # shows Black; neighbours c4*, d4 (and b4.. empty)
    assert colour_at(after, "c4") == "w"
    assert colour_at(after, "d4") == "b"
    assert names(after.flipped) == {"d4"}
    after = GAME.play(after, "d2*")  # shows White; neighbours c3* and d3 among others
    assert colour_at(after, "c3") == "b"
    assert colour_at(after, "d3") == "w"
    assert names(after.flipped) == {"d3"}


DIAGONAL = "a1 b2 c3 d4 e5 f6 g7 h8 i7 j6 k5"


def test_a_diagonal_only_chain_wins() -> None:
    state = pos(f"white: {DIAGONAL}; black: a8 b8 c8 d8 e8 f8 g8 h1 i1 j1 k1; to move: white")
    assert GAME.outcome(state) is None
    after = GAME.play(state, "l4")
    result = GAME.outcome(after)
    assert result is not None
    assert (result.winner, result.draw, result.scores) == (0, False, None)
    assert result.reason == "White connected a to l"
    assert GAME.to_move(after) is None
    assert GAME.legal_moves(after) == []
    with pytest.raises(GameOverError, match="the game is over: White connected a to l"):
        GAME.parse_move(after, "a5")
    with pytest.raises(GameOverError):
        GAME.apply(after, GAME.legal_moves(state)[0])


def test_a_gap_of_one_column_is_no_chain() -> None:
    state = pos(f"white: {DIAGONAL}; black: a8 b8 c8 d8 e8 f8 g8 h1 i1 j1 k1; to move: white")
    after = GAME.play(state, "l3")  # two rows below k5: not adjacent
    assert GAME.outcome(after) is None


def test_black_wins_with_a_chain_along_an_edge() -> None:
    row = " ".join(f"{f}8" for f in "abcdefghijk")
    state = pos(f"white: {' '.join(f'{f}1' for f in 'abcdefghijk')}; black: {row}; "
                "to move: black")
    result = GAME.outcome(GAME.play(state, "l8"))
    assert result is not None and result.winner == 1
    assert result.reason == "Black connected a to l"


# White's row 2 is broken only by a black normal piece on f2; Black's row 4 is broken
# only at e4, bridged by e3. A permanent piece on e3 shows Black and flips f2 to
# White; d2, e2, d4 and f4 are permanent so that the flip breaks nothing.
BOTH = (
    "white: a2 b2 c2 d2* e2* g2 h2 i2 j2 k2 l2 a7 b7 c7; "
    "black: f2 a4 b4 c4 d4* f4* g4 h4 i4 j4 k4 l4 a8 b8 c8"
)


def test_one_move_completing_both_chains_wins_for_the_mover() -> None:
    state = pos(BOTH + "; to move: white")
    assert GAME.outcome(state) is None
    after = GAME.play(state, "e3*")
    assert colour_at(after, "e3") == "b" and colour_at(after, "f2") == "w"
    assert after.chains == 3
    result = GAME.outcome(after)
    assert result is not None and result.winner == 0
    assert result.reason == "White connected a to l (both chains completed: the mover wins)"


def test_one_move_completing_both_chains_wins_for_black_as_mover() -> None:
    # The same picture with the colours swapped and Black to move.
    swapped = BOTH.replace("white:", "TMP:").replace("black:", "white:").replace("TMP:", "black:")
    after = GAME.play(pos(swapped + "; to move: black"), "e3*")
    result = GAME.outcome(after)
    assert result is not None and result.winner == 1
    assert result.reason.startswith("Black connected a to l (both chains")


def test_a_permanent_piece_completing_only_the_opponents_chain_loses() -> None:
    state = pos(
        "white: a2 b2 c2 a7 b7 c7 e7 f7; "
        "black: a4 b4 c4 d4* f4* g4 h4 i4 j4 k4 l4 a8 b8; to move: white"
    )
    after = GAME.play(state, "e3*")
    result = GAME.outcome(after)
    assert result is not None and result.winner == 1
    assert result.reason == "Black connected a to l (completed by White's move)"


def test_a_flip_completing_only_the_opponents_chain_loses() -> None:
    # Black's row 5 lacks f5, a White normal piece; Black's permanent piece on f6
    # (showing White) flips it to Black.
    row = "a5 b5 c5 d5 e5* g5* h5 i5 j5 k5 l5"
    state = pos(f"black: {row} a1 b1; white: f5 a8 b8 c8 d8 e8 f8 g8 h8 i8 j8 k8 a3; "
                "to move: black")
    after = GAME.play(state, "f6*")
    assert colour_at(after, "f5") == "b"
    result = GAME.outcome(after)
    assert result is not None and result.winner == 1
    assert result.reason == "Black connected a to l"


def test_a_move_completing_only_the_movers_chain_wins_even_after_flipping() -> None:
    row = "a5 b5 c5 d5 e5* g5* h5 i5 j5 k5 l5"
    state = pos(f"white: {row} a1; black: f5 a8 b8 c8 d8 e8 f8 g8 h8 i8 j8 k8 l1 a3; "
                "to move: black")
    after = GAME.play(state, "f6*")  # Black's permanent piece shows White: f5 -> White
    result = GAME.outcome(after)
    assert result is not None and result.winner == 0
    assert result.reason == "White connected a to l (completed by Black's move)"


def stripes(skip: str) -> str:
    """Columns a, c, e, ... White and b, d, f, ... Black, with one cell left out."""
    white = [f"{f}{r}" for f in "acegik" for r in range(1, 9)]
    black = [f"{f}{r}" for f in "bdfhjl" for r in range(1, 9)]
    white = [c for c in white if c != skip]
    black = [c for c in black if c != skip]
    return f"white: {' '.join(white)}; black: {' '.join(black)}"


def test_a_full_board_without_a_chain_is_a_draw() -> None:
    state = pos(stripes("d4"))
    assert GAME.to_move(state) == 1
    assert len(GAME.legal_moves(state)) == 2
    after = GAME.play(state, "d4")
    result = GAME.outcome(after)
    assert result is not None
    assert (result.winner, result.draw) == (None, True)
    assert result.reason == "the board is full with no chain"
    assert GAME.legal_moves(after) == []
    assert GAME.status(after) == "Draw: the board is full with no chain"


def test_filling_the_board_with_a_permanent_piece_can_still_draw() -> None:
    after = GAME.play(pos(stripes("d4")), "d4*")  # shows White, flips c/e columns near it
    assert colour_at(after, "d4") == "w"
    assert names(after.flipped) == {"c3", "c4", "c5", "e3", "e4", "e5", "d3", "d5"}
    # Column b is still all Black and column a all White: neither side has a chain.
    result = GAME.outcome(after)
    assert result is not None and result.draw


def test_the_last_cell_completing_a_chain_is_a_win_not_a_draw() -> None:
    # Row 1 and column a are White, all else Black, f1 empty: only f1 can join
    # White's halves, and Black has nothing in column a.
    white = [f"{f}1" for f in "abcdeghijkl"] + [f"a{r}" for r in range(2, 9)]
    black = [f"{f}{r}" for f in "bcdefghijkl" for r in range(2, 9)]
    state = pos(f"white: {' '.join(white)}; black: {' '.join(black)}; to move: white")
    assert GAME.outcome(state) is None
    after = GAME.play(state, "f1")
    assert after.occupied.bit_count() == 96
    result = GAME.outcome(after)
    assert result is not None and result.winner == 0 and not result.draw


def test_occupied_and_illegal_moves_are_refused_by_apply() -> None:
    state = pos("white: c5 d5*; black: e5; to move: black")
    with pytest.raises(MoveError, match=r"^c5 is occupied by a White piece$"):
        GAME.parse_move(state, "c5*")
    with pytest.raises(MoveError, match=r"^d5 is occupied by a permanent White piece$"):
        GAME.parse_move(state, "d5")
    with pytest.raises(MoveError, match=r"^e5 is occupied by a Black piece$"):
        GAME.apply(state, GAME.parse_move(GAME.new_state(), "e5"))


def test_legal_moves_are_every_empty_cell_both_ways() -> None:
    state = pos("white: c5 d5*; black: e5; to move: black")
    moves = {GAME.notation(m) for m in GAME.legal_moves(state)}
    assert len(moves) == 2 * 93
    assert "c5" not in moves and "d5*" not in moves and "e5" not in moves
    assert {"a1", "a1*", "l8", "l8*"} <= moves


def test_status_names_the_side_to_move_and_flips() -> None:
    state = GAME.replay(["c5", "d5*"])
    assert GAME.status(state) == "d5* flipped 1 piece"
    assert GAME.last_move(state) == "d5*"
