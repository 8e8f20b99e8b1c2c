"""Legality, the end and the score on hand-built positions; the game interface."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.cairo import CairoCorridor, CairoState
from engine.game import GameOverError, MoveError, NotAMove, OptionError, PositionError
from engine.registry import get_game
from tests.engine.cairo_positions import (
    AROUND,
    AWAY,
    BLACK_WINS,
    CORRIDOR,
    TIE,
    TIE_BLACK_LAST,
    TIE_MOVES,
    position,
)

GAME = CairoCorridor()

def test_registry_knows_the_game() -> None:
    game = get_game("cairo")
    assert isinstance(game, CairoCorridor)
    assert game.key == "cairo" and game.title == "Cairo Corridor"
    assert game.seat_counts == (2,)
    (tie,) = game.option_specs
    assert tie.name == "tie" and tie.default == "first-player-loses"
    assert tie.choices == ("first-player-loses", "last-mover-loses", "draw")


def test_start() -> None:
    state = GAME.new_state()
    assert GAME.to_move(state) == 0
    assert GAME.seat_name(state, 0) == "Black" and GAME.seat_name(state, 1) == "Red"
    assert len(GAME.legal_moves(state)) == 72
    assert GAME.outcome(state) is None
    assert GAME.last_move(state) is None
    assert GAME.status(state) == ""


def test_options() -> None:
    assert GAME.new_state(options={"tie": "Draw"}).tie == "draw"
    with pytest.raises(OptionError, match="'sudden'"):
        GAME.new_state(options={"tie": "sudden"})
    with pytest.raises(OptionError, match="'komi'"):
        GAME.new_state(options={"komi": "1"})
    with pytest.raises(OptionError):
        GAME.new_state(seats=4)


def test_moves_alternate_and_are_recorded() -> None:
    state = GAME.replay(["D left", "JU", "w-up"])
    assert state.black.bit_count() == 2 and state.red.bit_count() == 1
    assert GAME.to_move(state) == 1
    assert GAME.last_move(state) == "WU"
    assert GAME.status(state) == ""
    assert "DL" not in GAME.legal_moves(state)


def test_apply_takes_canonical_cells_only() -> None:
    state = GAME.new_state()
    with pytest.raises(MoveError, match="'dl'"):
        GAME.apply(state, "dl")
    with pytest.raises(MoveError):
        GAME.apply(state, "AL")


def test_sole_cell_of_a_side_is_critical() -> None:
    # the top side is filled but for CU, which reaches the rest only through CD
    state = GAME.parse_position("first: AU BU BR CR; second: AR BL CL DL")
    info = GAME.analyze(state)
    assert info["critical"] == ["CD", "CU"]
    assert "CU" not in info["legal"] and "CU" in info["corridor"]
    assert "GR" in info["legal"]
    with pytest.raises(MoveError) as err:
        GAME.parse_move(state, "c up")
    assert str(err.value) == "CU would leave no Corridor"
    assert not isinstance(err.value, NotAMove)
    with pytest.raises(MoveError, match="CD would leave no Corridor"):
        GAME.apply(state, "CD")


def test_dead_pocket_is_legal() -> None:
    state = GAME.parse_position("first: AD; second: AR")
    info = GAME.analyze(state)
    assert "AU" not in info["corridor"]  # walled in: a dead pocket
    assert "AU" in info["legal"] and "AU" not in info["critical"]
    after = GAME.play(state, "A up")
    assert GAME.outcome(after) is None
    assert GAME.to_move(after) == 1
    assert "AU" not in GAME.analyze(after)["legal"]


def test_position_syntax() -> None:
    state = GAME.parse_position("first: AU BL; second: XD")
    assert GAME.to_move(state) == 1
    assert GAME.analyze(state)["score"] == [2, 1]
    same = GAME.parse_position("black: a-up, B left ; red: x ↓")
    assert same == state
    assert GAME.to_move(GAME.parse_position("first: AU; second: XD")) == 0
    assert GAME.to_move(GAME.parse_position("first: AU; second: XD; to move: second")) == 1
    assert GAME.to_move(GAME.parse_position("first: AU BL CU; to move: first")) == 0
    assert GAME.parse_position("") == GAME.new_state()
    assert GAME.parse_position("first: AU", {"tie": "draw"}).tie == "draw"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first: AU QQ", "'QQ' is not a cell"),
        ("first: AU A left", "'A left': A has no left pentagon"),
        ("first: AU; second: y up", "there is no letter Y"),
        ("first: AU; second: a-up", "AU ('a-up') is listed for both players"),
        ("first: AU AU", "AU is listed twice"),
        ("first: AU BL CU", "first has 3 pieces and second 0"),
        ("second: AU", "first has 0 pieces and second 1"),
        ("first AU", "'first AU' is not a clause"),
        ("third: AU", "unknown clause 'third'"),
        ("first: AU; to move: nobody", "'to move' is first or second, not 'nobody'"),
        ("first: AU; first: BL", "listed twice"),
        ("first: AU AR BU BL BR; second: CU CL CR DL", "no Corridor"),
    ],
)
def test_position_errors(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.parse_position(text)


def test_more_than_thirty_pieces_is_an_error() -> None:
    with pytest.raises(PositionError, match="Black has 31 pieces"):
        GAME.parse_position(position(AROUND + AWAY[:5], [], "; to move: second"))


def test_the_hand_built_board_is_finished() -> None:
    state = GAME.parse_position(BLACK_WINS)
    info = GAME.analyze(state)
    assert info == {
        "corridor": sorted(CORRIDOR),
        "critical": sorted(CORRIDOR),
        "legal": [],
        "over": True,
        "score": [14, 12],
    }
    assert GAME.to_move(state) is None
    assert GAME.legal_moves(state) == []
    result = GAME.outcome(state)
    assert result is not None
    assert (result.winner, result.draw, result.scores) == (0, False, (14, 12))
    assert result.reason == "the Corridor is closed: Black 14, Red 12"
    assert GAME.status(state) == "Game over · Black 14, Red 12 · Black wins"


def test_after_the_end_moves_are_refused_and_chatter_ignored() -> None:
    state = GAME.parse_position(BLACK_WINS)
    with pytest.raises(NotAMove):
        GAME.parse_move(state, "gg")
    with pytest.raises(GameOverError):
        GAME.parse_move(state, "C left")
    with pytest.raises(GameOverError):
        GAME.apply(state, "CL")


def test_one_move_before_the_end() -> None:
    # JU open: it joins the Corridor and is its only non-critical cell
    black = [c for c in AROUND[:13] if c != "JU"] + AWAY[:15]
    state = GAME.parse_position(position(black, AROUND[13:] + AWAY[15:]))
    assert GAME.to_move(state) == 1
    info = GAME.analyze(state)
    assert info["corridor"] == sorted([*CORRIDOR, "JU"])
    assert info["legal"] == ["JU"]
    assert info["critical"] == sorted(CORRIDOR)
    assert info["over"] is False
    with pytest.raises(MoveError, match="RU would leave no Corridor"):
        GAME.parse_move(state, "R up")
    after = GAME.play(state, "J up")
    result = GAME.outcome(after)
    assert result is not None and result.scores == (12, 14)
    assert result.winner == 1
    assert GAME.last_move(after) == "JU"


def test_game_ends_with_a_dead_pocket_still_empty() -> None:
    state = GAME.parse_position(TIE_BLACK_LAST)
    info = GAME.analyze(state)
    assert info["over"] is True and info["corridor"] == sorted(CORRIDOR)
    assert "AU" not in info["corridor"]
    assert GAME.legal_moves(state) == []


@pytest.mark.parametrize(
    ("text", "tie", "winner", "draw", "phrase"),
    [
        (TIE, "first-player-loses", 1, False, "the First Player loses"),
        (TIE_BLACK_LAST, "first-player-loses", 1, False, "the First Player loses"),
        (TIE, "last-mover-loses", 0, False, "whoever placed the last piece loses"),
        (TIE_BLACK_LAST, "last-mover-loses", 1, False, "whoever placed the last piece loses"),
        (TIE, "draw", None, True, "drawn"),
    ],
)
def test_ties(text: str, tie: str, winner: int | None, draw: bool, phrase: str) -> None:
    state = GAME.parse_position(text, {"tie": tie})
    result = GAME.outcome(state)
    assert result is not None
    assert result.scores == (13, 13)
    assert (result.winner, result.draw) == (winner, draw)
    assert result.reason.startswith("the Corridor is closed: Black 13, Red 13; ")
    assert phrase in result.reason


def test_default_tie_rule_is_first_player_loses() -> None:
    result = GAME.outcome(GAME.parse_position(TIE))
    assert result is not None and result.winner == 1


def test_last_mover_follows_real_play() -> None:
    # Red's last piece ends it, so under last-mover-loses Red loses
    before = GAME.replay(TIE_MOVES[:-1], options={"tie": "last-mover-loses"})
    assert GAME.outcome(before) is None and GAME.legal_moves(before) == [TIE_MOVES[-1]]
    state = GAME.play(before, TIE_MOVES[-1])
    result = GAME.outcome(state)
    assert result is not None and result.scores == (13, 13)
    assert GAME.last_move(state) == TIE_MOVES[-1] == "WU"
    # the same board as the hand-built TIE, which knows no last move
    assert replace(state, last=None) == GAME.parse_position(TIE, {"tie": "last-mover-loses"})
    assert result.winner == 0


def test_status_gives_no_hints() -> None:
    state = GAME.parse_position("first: AU BU BR CR; second: AR BL CL DL")
    text = GAME.status(state)
    assert text == ""
    for word in ("CU", "critical", "Corridor", "score"):
        assert word not in text


def test_json_round_trip() -> None:
    state = GAME.replay(["D left", "JU", "w-up"], options={"tie": "draw"})
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    assert data == {"black": ["DL", "WU"], "red": ["JU"], "turn": 1, "tie": "draw",
                    "last": "WU"}
    assert GAME.from_json(data) == state
    final = GAME.parse_position(TIE_BLACK_LAST)
    assert GAME.from_json(GAME.to_json(final)) == final


@pytest.mark.parametrize(
    "data",
    [
        {"black": ["AL"], "red": [], "turn": 0},
        {"black": ["AU"], "red": ["AU"], "turn": 0},
        {"black": ["AU", "AU"], "red": [], "turn": 1},
        {"black": "AU", "red": [], "turn": 1},
        {"black": [], "red": [], "turn": 2},
        {"black": [], "red": [], "turn": 0, "tie": "coin"},
        {"black": ["AU"], "red": [], "turn": 1, "last": "XD"},
        {"black": [], "red": [], "turn": 0, "colour": "blue"},
        {"black": ["AU", "AR", "BU", "BL", "BR"], "red": ["CU", "CL", "CR", "DL"], "turn": 1},
    ],
)
def test_from_json_rejects_malformed_states(data: dict[str, object]) -> None:
    with pytest.raises(PositionError):
        GAME.from_json(data)


def test_state_is_immutable() -> None:
    state = GAME.new_state()
    with pytest.raises(AttributeError):
        state.black = 1  # type: ignore[misc]
    assert isinstance(state, CairoState)
