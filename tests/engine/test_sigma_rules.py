"""Every rule of the Sigma Escape page on hand-built positions and small test decks."""

from __future__ import annotations

import pytest

from engine.game import GameOverError, MoveError, NotAMove
from engine.sigma import SigmaEscape, SigmaState, rules
from engine.sigma.deck import shipped_deck
from engine.sigma.state import Placed
from tests.engine.sigma_cards import DOT, I2, I3, box_deck, start

GAME = SigmaEscape()
# The rules are checked on the first reconstruction, a shipped deck that never changes.
RECON = shipped_deck("reconstructed-v1")
V1 = {"deck": "reconstructed-v1"}


def legal(state: SigmaState) -> list[str]:
    return sorted(GAME.notation(m) for m in GAME.legal_moves(state))


def play(state: SigmaState, *texts: str) -> SigmaState:
    for text in texts:
        state = GAME.play(state, text)
    return state


# ---- the start -----------------------------------------------------------------------


def test_the_start_of_the_reconstructed_deck() -> None:
    state = GAME.new_state(2, V1)
    board = state.board
    assert GAME.to_move(state) == 0 and GAME.outcome(state) is None
    assert sorted(board.blanks) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert board.main == {(0, 0)}
    assert rules.sides(state, 0) == [((0, 0), 0), ((0, 0), 1), ((0, 0), 2), ((0, 0), 3)]
    assert rules.sides(state, 1) == [((-1, 3), 0), ((0, 2), 3), ((0, 4), 1), ((1, 3), 2)]
    assert len(state.hand_names(0)) == 10 and len(state.hand_names(1)) == 9
    assert GAME.summary(state)["hands"][1] == [
        "I3", "I3", "I3", "L4", "L4", "U5", "U5", "T4", "V5"]
    assert GAME.summary(state)["blank_spaces"] == 4


def test_placement_meets_arrows_face_to_face() -> None:
    # T4's arrow 3 (S on its stem) meets Nothing's S side: the T hangs below, upside down.
    state = GAME.play(GAME.new_state(2, V1), "T4 3.3")
    layer = state.board.layers[-1]
    assert sorted(layer.cells) == [(1, 0), (2, -1), (2, 0), (2, 1)]
    assert sorted(layer.arrows) == [((1, 0), 0), ((2, -1), 3), ((2, 1), 1)]
    assert GAME.to_move(state) == 1
    # the same card and side with arrow 1 (W on the bar's end): a quarter turn
    # clockwise points it N; the bar hangs down, the stem points W
    other = GAME.play(GAME.new_state(2, V1), "T4 3.1")
    assert sorted(other.board.layers[-1].cells) == [(1, 0), (2, -1), (2, 0), (3, 0)]


def test_every_arrow_fits_every_side_and_identical_results_are_separate() -> None:
    # Hub is one cell: its three arrows give the same cells on a side, three placements.
    moves = legal(GAME.new_state(2, V1))
    assert {"Hub 1.1", "Hub 1.2", "Hub 1.3"} <= set(moves)
    assert len(moves) == len(set(moves))


# ---- overlap ------------------------------------------------------------------------


def test_a_white_card_is_refused_on_a_black_cell() -> None:
    state = GAME.new_state(2, V1)
    with pytest.raises(MoveError, match=r"I3 2.1 would lay a white cell on a black one"):
        GAME.parse_move(state, "I3 2.1")
    assert "I3 2.1" not in legal(state) and "I2 2.1" not in legal(state)
    assert "Hub 2.1" in legal(state)  # one cell: only the blank next to Nothing


def test_a_placement_may_not_cover_the_nothing_card() -> None:
    state = GAME.play(GAME.new_state(2, V1), "T4 3.3")
    # Black's side 2 is the Special's W arm pointing at (0,1): an I3 there reaches (0,0).
    assert rules.sides(state)[1] == ((0, 2), 3)
    with pytest.raises(MoveError, match=r"I3 2.1 would cover the Nothing card"):
        GAME.parse_move(state, "I3 2.1")
    with pytest.raises(MoveError, match=r"no arrow of I3 fits side 2: I3 2.1 would cover"):
        GAME.parse_move(state, "I3 2")
    assert not any(m.startswith("I3 2.") for m in legal(state))


def test_a_black_card_covers_white_cells_and_their_arrows_are_gone() -> None:
    state = play(start(box_deck([{**I2, "count": 2}], [DOT])), "I2 1.1")
    board = state.board
    assert board.colour[(-2, 0)] == 0 and ((-2, 0), 0) in board.layers[-1].arrows
    assert sorted(board.blanks) == [(1, 0)]
    # Black's sides: Top N, LA's E arrow into the white cell, then the outward ones
    assert rules.sides(state) == [((-3, 0), 0), ((-2, -1), 1), ((-2, 1), 1), ((-1, -1), 3),
                                  ((2, -1), 3), ((2, 1), 1), ((3, 0), 2)]
    after = GAME.play(state, "Dot 2.4")
    board = after.board
    assert board.colour[(-2, 0)] == 1
    # the I2's arrow on (-2,0) is covered: gone, for White and for good
    assert ((-2, 0), 0) not in board.sides(0)
    assert ((-1, 0), 2) in board.sides(0)  # its other arrow still shows
    assert board.main == {(0, 0), (-1, 0)}


def test_an_own_card_covers_an_arrow_too() -> None:
    # White's I2 stands on (-1,0)-(-2,0); a white Hub laid on (-1,0) covers the I2's
    # arrow there (gone), while the I2's arrow on (-2,0) stays.
    state = play(GAME.new_state(2, V1), "I2 1.1", "I3 1.1")
    assert ((-1, 0), 2) in rules.sides(state) and ((-2, 0), 0) in rules.sides(state)
    side = rules.sides(state).index(((0, 0), 0)) + 1
    after = GAME.play(state, f"Hub {side}.2")
    assert after.board.layers[-1].cells == ((-1, 0),)
    board = after.board
    i2 = next(i for i, layer in enumerate(board.layers) if layer.name == "I2")
    assert board.top[(-1, 0)] == len(board.layers) - 1 != i2
    sides = rules.sides(after, 0)
    # on (-1,0) only the Hub's arrows count (E, S, W); the I2's S arrow there is gone,
    # while its N arrow on (-2,0), still showing, stays
    assert [d for cell, d in sides if cell == (-1, 0)] == [1, 2, 3]
    assert ((-2, 0), 0) in sides and board.top[(-2, 0)] == i2


def test_both_arrows_of_a_connection_stay_usable() -> None:
    state = play(GAME.new_state(2, V1), "I2 1.1", "I3 1.1")
    sides = rules.sides(state)
    # Nothing's N arrow and I2's S arrow face each other across one edge: both count.
    assert ((0, 0), 0) in sides and ((-1, 0), 2) in sides


# ---- White's main group ------------------------------------------------------------


def cut_off_state() -> SigmaState:
    """A white I2 below Nothing, its top cell covered by a black I3: the lower white
    cell (2,0) is cut off from the main group."""
    return SigmaState(RECON, (Placed(0, "I2", 1, (1, 0)), Placed(1, "I3", 0, (1, -1))), 0)


def test_white_is_refused_a_side_off_its_main_group() -> None:
    state = cut_off_state()
    board = state.board
    assert board.colour[(2, 0)] == 0 and (2, 0) not in board.main
    assert ((2, 0), 2) in [a for layer in board.layers for a in layer.arrows]
    assert rules.sides(state, 0) == [((0, 0), 0), ((0, 0), 1), ((0, 0), 2), ((0, 0), 3)]
    with pytest.raises(MoveError, match=r"there is no usable side 5 \(there are 4\)"):
        GAME.parse_move(state, "Hub 5.1")


def test_diagonals_never_connect_and_a_white_cell_not_joined_is_not_main() -> None:
    # A white Hub on (1,1), diagonal to Nothing, with black between: not the main group.
    state = SigmaState(RECON, (Placed(0, "Hub", 0, (1, 1)),), 0)
    assert (1, 1) not in state.board.main
    assert (1, 0) in state.board.blanks and (2, 1) not in state.board.blanks


def test_black_may_use_any_black_side() -> None:
    state = cut_off_state()
    black_sides = rules.sides(state, 1)
    assert ((1, -1), 3) in black_sides and ((1, 1), 1) in black_sides


# ---- the end -----------------------------------------------------------------------


def test_the_closing_example_white_must_fill_its_last_blank_space_and_loses() -> None:
    state = start(box_deck([{**I2, "count": 2}], [DOT]))
    state = play(state, "I2 1.1", "Dot 2.4")
    assert sorted(state.board.blanks) == [(1, 0)]
    # White's sides: I2's S arrow on (-1,0), then Nothing's four
    assert rules.sides(state) == [((-1, 0), 2), ((0, 0), 0), ((0, 0), 1), ((0, 0), 2),
                                  ((0, 0), 3)]
    with pytest.raises(MoveError, match="would cover the Nothing card"):
        GAME.parse_move(state, "I2 1.1")
    with pytest.raises(MoveError, match="would lay a white cell on a black one"):
        GAME.parse_move(state, "I2 2.1")
    assert legal(state) == ["I2 4.1", "I2 4.2"]  # only into the last blank space
    with pytest.raises(MoveError, match="White cannot pass"):
        GAME.parse_move(state, "pass")
    end = GAME.play(state, "I2 4.1")
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winner == 1
    assert "surrounded" in outcome.reason and not end.board.blanks
    assert GAME.to_move(end) is None and GAME.legal_moves(end) == []


def test_short_form_is_refused_when_several_arrows_fit() -> None:
    state = play(start(box_deck([{**I2, "count": 2}], [DOT])), "I2 1.1", "Dot 2.4")
    with pytest.raises(MoveError, match=r"I2 4 fits more than one way.*I2 4.1, I2 4.2"):
        GAME.parse_move(state, "I2 4")


def test_the_closing_example_with_black_out_of_cards_earlier_white_wins() -> None:
    state = start(box_deck([I2], []))
    end = GAME.play(state, "I2 1.1")
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason == "all cards are played with 1 blank space left"


def test_black_wins_whoever_placed_last_even_when_hands_are_empty() -> None:
    # check 1 comes before check 2: White's last card fills the last blank space
    state = play(start(box_deck([{**I2, "count": 2}], [])), "I2 1.1")
    assert GAME.to_move(state) == 0  # Black, out of cards, passed
    end = GAME.play(state, "I2 5.1")
    assert not any(end.board.hands[0]) and not any(end.board.hands[1])
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winner == 1


def test_a_pass_happens_by_itself_and_is_read_only_where_it_happened() -> None:
    deck = box_deck([{**I2, "count": 2}], [])
    state = play(start(deck), "I2 1.1")
    # Black has no card: it passes by itself; White must place again
    assert GAME.to_move(state) == 0 and state.passes == 1
    assert "Black passed" in GAME.status(state)
    read = GAME.play(state, "pass")
    assert read.passes_read == 1 and GAME.to_move(read) == 0
    with pytest.raises(MoveError, match="White cannot pass"):
        GAME.play(read, "pass")
    assert GAME.last_move(state) == "I2 1.1"
    # replays with and without the written pass agree
    with_pass = GAME.replay(["I2 1.1", "pass", "I2 5.1"], 2, {"deck": deck})
    without = GAME.replay(["I2 1.1", "I2 5.1"], 2, {"deck": deck})
    assert with_pass.placed == without.placed
    assert GAME.outcome(with_pass) == GAME.outcome(without)


def test_a_double_pass_ends_the_game_and_white_wins() -> None:
    deck = box_deck([I3], [DOT])
    state = start(deck)
    # White's I3 fits nowhere in the box: White passes at the start, Black is to move
    assert state.passes == 1 and GAME.to_move(state) == 1
    end = GAME.play(state, "Dot 1.1")
    # White still cannot place (pass), Black has no card left (pass): the game ends
    outcome = GAME.outcome(end)
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason == "both players passed with 2 blank spaces left"
    assert end.passes == 2 and GAME.to_move(end) is None
    # the texts: each pass where the engine passed, or left out; one too many is wrong
    for texts in (["pass", "Dot 1.1", "pass", "pass"], ["Dot 1.1"], ["pass", "Dot 1.1"],
                  ["Dot 1.1", "pass"]):
        assert GAME.outcome(GAME.replay(texts, 2, {"deck": deck})) == outcome
    with pytest.raises(MoveError, match="move 2 'pass'"):
        GAME.replay(["pass", "pass"], 2, {"deck": deck})
    with pytest.raises(GameOverError):
        GAME.replay(["Dot 1.1", "pass", "pass", "pass"], 2, {"deck": deck})


def test_a_game_over_at_the_start() -> None:
    deck = box_deck([I3], [])
    state = start(deck)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and state.passes == 2
    assert GAME.legal_moves(state) == [] and GAME.to_move(state) is None


# ---- notation and errors -------------------------------------------------------------


def test_side_numbering_by_row_column_then_n_e_s_w() -> None:
    state = play(GAME.new_state(2, V1), "Y2 4.1", "I3 1.1")
    sides = rules.sides(state)
    assert sides == sorted(sides)
    keys = [(cell[0], cell[1], d) for cell, d in sides]
    assert keys == sorted(keys)


def test_move_errors_say_what_is_wrong() -> None:
    state = GAME.new_state(2, V1)
    with pytest.raises(MoveError, match=r"no such card in your hand: White has no card 'V5'"):
        GAME.parse_move(state, "V5 1.1")
    with pytest.raises(NotAMove):
        GAME.parse_move(state, "Zorro 1.1")
    with pytest.raises(NotAMove):
        GAME.parse_move(state, "hello there")
    with pytest.raises(MoveError, match=r"there is no usable side 7 \(there are 4\)"):
        GAME.parse_move(state, "T4 7.2")
    with pytest.raises(MoveError, match=r"T4 has no arrow 4 \(it has 3 arrows\)"):
        GAME.parse_move(state, "T4 1.4")
    after = play(state, "Hub 1.1", "I3 1.1")
    with pytest.raises(MoveError, match=r"White has no Hub left"):
        GAME.parse_move(after, "hub 1.1")


def test_names_are_read_in_any_case_and_written_as_in_the_deck() -> None:
    state = GAME.new_state(2, V1)
    assert GAME.notation(GAME.parse_move(state, "l3+ 1.2")) == "L3+ 1.2"
    assert GAME.notation(GAME.parse_move(state, "  hub   2 . 1 ")) == "Hub 2.1"
    # the short form when exactly one arrow fits
    only = [m for m in legal(state) if m.startswith("Y2 2.")]
    assert only == ["Y2 2.3"]
    assert GAME.notation(GAME.parse_move(state, "Y2 2")) == "Y2 2.3"


def test_a_move_after_the_end_is_refused() -> None:
    state = GAME.play(start(box_deck([I2], [])), "I2 1.1")
    with pytest.raises(GameOverError, match="the game is over"):
        GAME.parse_move(state, "I2 4.1")
