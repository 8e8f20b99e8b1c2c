"""Reading and writing moves, and states as JSON and as position text."""

from __future__ import annotations

import json

import pytest

from engine.game import MoveError, NotAMove, PositionError
from engine.quoridor import PawnMove, Quoridor, WallMove
from engine.quoridor.notation import read_move

game = Quoridor()
START = game.new_state(2)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("e2", PawnMove(13)),
        ("E2", PawnMove(13)),
        (" e 2 ", PawnMove(13)),
        ("e3h", WallMove(20)),
        ("E3 H", WallMove(20)),
        ("e3 v", WallMove(84)),
        ("a1h", WallMove(0)),
        ("h8v", WallMove(127)),
    ],
)
def test_reads_any_case_and_spacing(text: str, move: PawnMove | WallMove) -> None:
    assert game.parse_move(START, text) == move


def test_canonical_notation_reads_back() -> None:
    for move in game.legal_moves(START):
        text = game.notation(move)
        assert text == text.lower() and " " not in text
        assert game.parse_move(START, text) == move
    assert game.notation(WallMove(20)) == "e3h"
    assert game.notation(WallMove(64 + 20)) == "e3v"
    assert game.notation(PawnMove(80)) == "i9"


@pytest.mark.parametrize("text", ["ok", "gg", "hello", "lol", "", "gg wp", "e2 please", "?"])
def test_chat_is_not_a_move(text: str) -> None:
    with pytest.raises(NotAMove):
        game.parse_move(START, text)


@pytest.mark.parametrize(
    ("text", "message", "token"),
    [
        ("j5", "there is no square j5: columns run a to i", "j5"),
        ("e0", "there is no square e0: rows run 1 to 9", "e0"),
        ("e10", "there is no square e10: rows run 1 to 9", "e10"),
        ("i3h", "there is no wall place i3h: a wall is named by the square nearest a1 "
                "that it touches, from a1 to h8", "i3h"),
        ("e9v", "there is no wall place e9v: a wall is named by the square nearest a1 "
                "that it touches, from a1 to h8", "e9v"),
        ("e3x", "'e3x' is not a move: a wall ends in h or v (e3h, e3v)", "e3x"),
        ("e5", "White's pawn on e1 cannot reach e5; it can go to d1, f1, e2", "e5"),
    ],
)
def test_precise_errors(text: str, message: str, token: str) -> None:
    with pytest.raises(MoveError) as info:
        game.parse_move(START, text)
    assert not isinstance(info.value, NotAMove)
    assert str(info.value) == message
    assert info.value.token == token


def test_replay_names_the_bad_move() -> None:
    with pytest.raises(MoveError, match=r"move 3 'e3v': e3v crosses the wall e3h"):
        game.replay(["e3h", "e8", "e3v"])


# ---- JSON -------------------------------------------------------------------------------------

def test_json_round_trip() -> None:
    state = game.replay(["e2", "b5", "e8", "h5", "e3h", "c5v"], seats=4, options={"ply-cap": 99})
    state = game.eliminate(state, 3)
    data = game.to_json(state)
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "seats": 4,
        "pawns": ["e2", "b5", "e8", "h5"],
        "walls": [["e3h"], ["c5v"], [], []],
        "walls_left": [4, 4, 5, 5],
        "turn": 2,
        "ply": 6,
        "last": "c5v",
        "last_from": None,
        "passed": [],
        "eliminated": [3],
        "ply_cap": 99,
    }
    assert game.from_json(data) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seats": 3}, "2 or 4 players"),
        ({"pawns": ["e1"]}, "'pawns' must be a list of 2 entries"),
        ({"pawns": ["e1", "z9"]}, "no square z9"),
        ({"pawns": ["e5", "e5"]}, "two pawns stand on the same square"),
        ({"walls": [["e3h", "e3v"], []], "walls_left": [8, 10]}, "wall e3v overlaps or crosses"),
        ({"walls": [["e3h"], []]}, "White's walls do not add up: 1 placed and 10 left"),
        (
            {"pawns": ["a1", "e9"], "walls": [["a1h", "b1v"], []], "walls_left": [8, 10]},
            "the walls cut White off from its goal",
        ),
        ({"turn": 2}, "turn must be a whole number from 0 to 1"),
        ({"walls_left": [11, 10]}, "walls left must be a whole number from 0 to 10"),
        ({"last": "e3h", "last_from": "e2"}, "last move was not a pawn move"),
    ],
)
def test_from_json_rejects_impossible_states(change: dict[str, object], message: str) -> None:
    data = game.to_json(START) | change
    with pytest.raises(PositionError, match=message):
        game.from_json(data)


def test_from_json_rejects_missing_fields() -> None:
    data = game.to_json(START)
    del data["pawns"]
    with pytest.raises(PositionError, match="malformed Quoridor state"):
        game.from_json(data)


# ---- position text ------------------------------------------------------------------------------

def test_position_text() -> None:
    state = game.parse_position("White e5 e3h d6v; Black e6 c7h; turn Black; ply 12")
    data = game.to_json(state)
    assert data["pawns"] == ["e5", "e6"]
    assert data["walls"] == [["e3h", "d6v"], ["c7h"]]
    assert data["walls_left"] == [8, 9]
    assert (data["turn"], data["ply"]) == (1, 12)
    four = game.parse_position("Red c5; Blue out a1h")
    assert four.seats == 4 and four.eliminated == (3,)
    assert game.parse_position("players 4").seats == 4
    capped = game.parse_position("White e5", {"ply-cap": 50})
    assert capped.ply_cap == 50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Green e5", "'Green e5' is not understood"),
        ("turn Red", "no seat Red"),
        ("players 3", "2 or 4 players"),
        ("Red e5; players 2", "Red and Blue play only in 4-player games"),
        ("White e5 " + " ".join(f"{c}1h" for c in "abcdefgh") + " a3h c3h e3h", "placed 11"),
        ("ply x", "ply is a whole number"),
    ],
)
def test_position_text_errors(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        game.parse_position(text)


@pytest.mark.parametrize(("text", "wall"), [
    ("e3 가로", "e3h"), ("e3세로", "e3v"), ("E3 横", "e3h"), ("e3 縦", "e3v"),
    ("e3 horizontal", "e3h"), ("e3 vertical", "e3v")])
def test_a_walls_direction_in_the_words_of_every_language(text: str, wall: str) -> None:
    assert str(read_move(text)) == wall
