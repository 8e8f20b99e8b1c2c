"""Every rule of docs/rules/quoridor.md on hand-built positions."""

from __future__ import annotations

import pytest

from engine.game import EngineError, GameOverError, MoveError, OptionError
from engine.quoridor import PawnMove, Quoridor, QuoridorState, WallMove

game = Quoridor()


def pos(text: str, **options: object) -> QuoridorState:
    return game.parse_position(text, options or None)


def pawn_targets(state: QuoridorState) -> set[str]:
    return {str(m) for m in game.legal_moves(state) if isinstance(m, PawnMove)}


def walls(state: QuoridorState) -> set[str]:
    return {str(m) for m in game.legal_moves(state) if isinstance(m, WallMove)}


def error(state: QuoridorState, text: str) -> str:
    with pytest.raises(MoveError) as info:
        game.parse_move(state, text)
    return str(info.value)


# ---- the start -------------------------------------------------------------------------

def test_two_player_start() -> None:
    state = game.new_state(2)
    assert game.seats(state) == 2
    assert [game.seat_name(state, s) for s in range(2)] == ["White", "Black"]
    assert game.to_json(state)["pawns"] == ["e1", "e9"]
    assert state.walls_left == (10, 10)
    assert game.to_move(state) == 0
    assert len(game.legal_moves(state)) == 131
    assert pawn_targets(state) == {"d1", "f1", "e2"}


def test_four_player_start_and_turn_order() -> None:
    state = game.new_state(4)
    assert [game.seat_name(state, s) for s in range(4)] == ["White", "Red", "Black", "Blue"]
    assert game.to_json(state)["pawns"] == ["e1", "a5", "e9", "i5"]
    assert state.walls_left == (5, 5, 5, 5)
    order = []
    for text in ["e2", "b5", "e8", "h5", "e3"]:
        order.append(game.to_move(state))
        state = game.play(state, text)
    assert order == [0, 1, 2, 3, 0]
    assert game.to_json(state)["pawns"] == ["e3", "b5", "e8", "h5"]


def test_seat_counts_and_ply_cap_option() -> None:
    with pytest.raises(OptionError, match="2 or 4 players, not 3"):
        game.new_state(3)
    with pytest.raises(OptionError, match="'ply-cap' is from 1 to 10000, not 0"):
        game.new_state(2, {"ply-cap": 0})
    with pytest.raises(OptionError, match="'ply-cap' is from 1 to 10000, not 10001"):
        game.new_state(2, {"ply-cap": 10_001})
    with pytest.raises(OptionError, match="no option 'tie'"):
        game.new_state(2, {"tie": "draw"})
    assert game.new_state(2).ply_cap == 300
    assert game.new_state(4, {"ply-cap": "40"}).ply_cap == 40


# ---- pawn moves and jumps ----------------------------------------------------------------

def test_steps_stop_at_walls_and_edges() -> None:
    state = pos("White a1 a1h; Black e9")
    assert pawn_targets(state) == {"b1"}
    assert "a wall stands between a1 and a2" in error(state, "a2")


def test_straight_jump() -> None:
    state = pos("White e4; Black e5")
    assert pawn_targets(state) == {"d4", "f4", "e3", "e6"}
    assert "Black's pawn stands on e5" in error(state, "e5")


def test_jump_at_the_edge_goes_diagonal() -> None:
    # Settled by docs/rules/quoridor.md: the board edge behind the pawn counts like a wall.
    state = pos("White e8; Black e9")
    assert pawn_targets(state) == {"e7", "d8", "f8", "d9", "f9"}
    corner = pos("White a8; Black a9")
    assert pawn_targets(corner) == {"a7", "b8", "b9"}


def test_jump_beside_a_wall_behind() -> None:
    state = pos("White e4; Black e5 e5h")
    assert pawn_targets(state) == {"d4", "f4", "e3", "d5", "f5"}
    assert "cannot reach e6" in error(state, "e6")


def test_diagonal_step_blocked_by_a_wall() -> None:
    # d5v stands between d5 and e5: the side step to d5 is barred, f5 is not.
    state = pos("White e4; Black e5 e5h d5v")
    assert pawn_targets(state) == {"d4", "f4", "e3", "f5"}


def test_no_jump_through_a_wall_between_the_pawns() -> None:
    state = pos("White e4 e4h; Black e5")
    assert pawn_targets(state) == {"d4", "f4", "e3"}


def test_sideways_jump() -> None:
    state = pos("White e4; Black f4")
    assert pawn_targets(state) == {"d4", "e3", "e5", "g4"}
    walled = pos("White e4; Black f4 f4v")
    assert pawn_targets(walled) == {"d4", "e3", "e5", "f3", "f5"}


def test_third_pawn_behind_counts_like_a_wall() -> None:
    state = pos("White e4; Black e5; Red e6; Blue i5")
    assert pawn_targets(state) == {"d4", "f4", "e3", "d5", "f5"}


def test_never_onto_or_over_a_second_pawn() -> None:
    state = pos("White e4; Black e5; Red e6; Blue d5")
    assert pawn_targets(state) == {"d4", "f4", "e3", "f5"}
    assert error(state, "d5") == (
        "Blue's pawn stands on d5; White's pawn on e4 can go to e3, d4, f4, f5"
    )
    assert error(state, "e6").startswith("Red's pawn stands on e6")


def test_pawn_error_names_where_it_can_go() -> None:
    state = game.new_state(2)
    assert error(state, "e3") == "White's pawn on e1 cannot reach e3; it can go to d1, f1, e2"
    assert "already on e1" in error(state, "e1")


# ---- walls --------------------------------------------------------------------------------

def test_wall_overlap_crossing_and_touching() -> None:
    state = pos("White e1 e3h; turn Black")
    assert error(state, "e3h") == "there is already a wall at e3h"
    assert error(state, "d3h") == "d3h overlaps the wall e3h"
    assert error(state, "f3h") == "f3h overlaps the wall e3h"
    assert error(state, "e3v") == "e3v crosses the wall e3h"
    legal = walls(state)
    # End to end along the same line, and T junctions at the middle or an end, are legal.
    assert {"c3h", "g3h", "e4v", "e2v", "d3v", "f3v", "e2h", "e4h"} <= legal
    assert {"d3h", "e3h", "f3h", "e3v"}.isdisjoint(legal)
    assert len(legal) == 128 - 4


def test_vertical_overlap() -> None:
    state = pos("White e1 e3v; turn Black")
    assert error(state, "e4v") == "e4v overlaps the wall e3v"
    assert error(state, "e2v") == "e2v overlaps the wall e3v"
    assert error(state, "e3h") == "e3h crosses the wall e3v"
    assert {"e5v", "e1v", "d3v", "f3v"} <= walls(state)


def test_wall_may_not_cut_a_pawn_off() -> None:
    state = pos("White a1 a1h; Black e9; turn Black")
    assert error(state, "b1v") == "b1v would cut White off from row 9"
    assert "b1v" not in walls(state)
    assert "a2v" in walls(state)


def test_closing_off_an_empty_area_is_legal() -> None:
    state = pos("White e1 a1h; Black e9; turn Black")
    after = game.play(state, "b1v")
    assert game.to_json(after)["walls"] == [["a1h"], ["b1v"]]


def test_wall_cutting_one_of_four_pawns_is_illegal() -> None:
    state = pos("White a1 a1h; Red a5; Black e9; Blue i5; turn Red")
    assert error(state, "b1v") == "b1v would cut White off from row 9"
    assert "b1v" not in walls(state)
    # Red, Black and Blue keep their paths either way; only White's matters here.
    assert "b2v" in walls(state)


def test_wall_cutting_two_pawns_names_both() -> None:
    state = pos("White a1 a1h; Red b1; Black e9; Blue i5; turn Black")
    assert error(state, "b1v") == "b1v would cut White off from row 9 and Red off from column i"


def test_pawns_do_not_block_paths() -> None:
    # Row 4 to 5 is walled except above e4, where Black stands: still a path for White.
    state = pos("White e1 a4h c4h f4h; Black e5; turn White")
    assert "h4h" in walls(state)
    after = game.play(state, "h4h")
    assert game.to_json(after)["walls"][0] == ["a4h", "c4h", "f4h", "h4h"]


def test_no_walls_left_means_moving_the_pawn() -> None:
    placed = "a2h c2h e2h g2h a4h c4h e4h g4h a6h c6h"
    state = pos(f"White e1 {placed}; Black e9 b7v")
    assert state.walls_left == (0, 9)
    assert walls(state) == set()
    assert pawn_targets(state) == {"d1", "f1", "e2"}
    assert error(state, "h8h") == "White has no walls left and must move the pawn"


def test_no_pawn_move_means_placing_a_wall() -> None:
    state = pos("White a2; Red a1 a1v; Black a3; turn Red")
    assert pawn_targets(state) == set()
    assert walls(state)
    assert error(state, "b1") == (
        "a wall stands between a1 and b1; Red's pawn on a1 cannot move; place a wall"
    )


# ---- passes ---------------------------------------------------------------------------------

_STUCK_RED = (
    "White a2; Red a1 a1v c7h e7h g7h h2v; Black a3; Blue i5; turn White"
)  # Red: boxed in by a1v and the pawns on a2 and a3, and no walls left


def test_a_seat_with_no_move_passes_automatically() -> None:
    state = pos(_STUCK_RED)
    assert state.walls_left[1] == 0
    after = game.play(state, "h8h")
    assert game.to_move(after) == 2
    assert after.passed == (1,)
    assert game.status(after).startswith("Red had no move and passed")
    # The next move clears the note.
    later = game.play(after, "b8h")
    assert later.passed == ()
    assert game.to_move(later) == 3


def test_a_seat_that_can_move_again_does_not_pass() -> None:
    state = pos(_STUCK_RED)
    after = game.play(state, "a4")  # White jumps over Black: a2 is free for Red
    assert game.to_move(after) == 1
    assert after.passed == ()
    assert pawn_targets(after) == {"a2"}


def test_a_state_may_not_leave_the_seat_to_move_without_a_move() -> None:
    with pytest.raises(EngineError, match="Red is to move but has no move"):
        pos(_STUCK_RED.replace("turn White", "turn Red"))


# ---- the end ----------------------------------------------------------------------------------

def test_first_to_reach_the_goal_wins() -> None:
    state = pos("White e8; Black e2")
    won = game.play(state, "e9")
    outcome = game.outcome(won)
    assert outcome is not None
    assert (outcome.winner, outcome.draw, outcome.reason) == (0, False, "White reached row 9")
    assert game.to_move(won) is None
    assert game.legal_moves(won) == []
    with pytest.raises(GameOverError, match="the game is over: White reached row 9"):
        game.parse_move(won, "e1")
    with pytest.raises(GameOverError):
        game.apply(won, PawnMove(0))


def test_four_player_winner_on_a_column() -> None:
    state = pos("White e5; Red h3; Black e6; Blue b5; turn Red")
    won = game.play(state, "i3")
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason == "Red reached column i"


def test_ply_cap_draws() -> None:
    state = game.new_state(2, {"ply-cap": 4})
    for text in ["e2", "e8", "e3", "e7"]:
        assert game.outcome(state) is None
        state = game.play(state, text)
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.draw and outcome.winner is None
    assert outcome.reason == "no one reached their goal in 4 plies"
    assert game.legal_moves(state) == []
    with pytest.raises(GameOverError):
        game.parse_move(state, "e4")


def test_a_win_on_the_last_ply_before_the_cap_counts() -> None:
    state = pos("White e8; Black e2; ply 9", **{"ply-cap": 10})
    won = game.play(state, "e9")
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winner == 0


# ---- seats leaving ---------------------------------------------------------------------------

def test_eliminate_is_for_four_players_only() -> None:
    with pytest.raises(EngineError, match="2-player"):
        game.eliminate(game.new_state(2), 1)


def test_eliminated_pawn_leaves_the_board_and_walls_stay() -> None:
    state = pos("White e4; Red e5 c6h; Black e9; Blue i5")
    assert "e6" in pawn_targets(state)
    out = game.eliminate(state, 1)
    assert out.eliminated == (1,)
    assert game.to_move(out) == 0
    assert pawn_targets(out) == {"d4", "f4", "e3", "e5"}
    assert "c6h" in game.to_json(out)["walls"][1]
    assert "Red left the game" in game.status(out)
    with pytest.raises(EngineError, match="already left"):
        game.eliminate(out, 1)


def test_turns_skip_an_eliminated_seat() -> None:
    state = game.eliminate(game.new_state(4), 1)
    state = game.play(state, "e2")
    assert game.to_move(state) == 2
    state = game.eliminate(state, 2)  # the seat to move leaves: the turn goes on
    assert game.to_move(state) == 3


def test_an_eliminated_pawn_needs_no_path() -> None:
    boxed_red = pos("White e1; Red a1 a1h; Black e9; Blue i5; turn Black")
    assert "b1v" not in walls(boxed_red)
    assert "b1v" in walls(game.eliminate(boxed_red, 1))


def test_last_seat_standing_wins() -> None:
    state = game.new_state(4)
    for seat in (1, 2):
        state = game.eliminate(state, seat)
        assert game.outcome(state) is None
    state = game.eliminate(state, 0)
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (3, "the others left the game")
    with pytest.raises(GameOverError):
        game.eliminate(state, 3)


# ---- status and last move ----------------------------------------------------------------------

def test_status_and_last_move() -> None:
    state = game.new_state(2)
    assert game.last_move(state) is None
    assert game.status(state) == "walls left: White 10, Black 10"
    state = game.play(state, "E3 H")
    assert game.last_move(state) == "e3h"
    assert game.status(state) == "walls left: White 9, Black 10"
    state = game.play(state, "e8")
    assert game.last_move(state) == "e8"
    assert state.last_from == 76
