"""Pathwayz notation, errors, positions and JSON."""

from __future__ import annotations

import json
import re

import pytest

from engine.game import MoveError, NotAMove, PositionError
from engine.pathwayz import Move, Pathwayz
from engine.pathwayz.notation import read_cell

GAME = Pathwayz()
START = GAME.new_state()
C5 = read_cell("c5")


@pytest.mark.parametrize(
    "text",
    ["c5*", "C5*", "c5 *", " c 5 * ", "p c5", "P C5", "pc5", "perm c5", "PERM C5",
     "permanent c5", "c5 p", "c5p", "C5P", "c5 perm", "c5 permanent", "* c5"],
)
def test_permanent_spellings(text: str) -> None:
    assert GAME.parse_move(START, text) == Move(C5, True)


@pytest.mark.parametrize("text", ["c5", "C5", " c5 ", "c 5", "C 5"])
def test_normal_spellings(text: str) -> None:
    assert GAME.parse_move(START, text) == Move(C5, False)


def test_canonical_notation_round_trips_for_every_move() -> None:
    moves = GAME.legal_moves(START)
    texts = [GAME.notation(m) for m in moves]
    assert "a1" in texts and "l8*" in texts and "c5*" in texts
    assert all(GAME.parse_move(START, t) == m for t, m in zip(texts, moves, strict=True))
    assert len(set(texts)) == 192


@pytest.mark.parametrize(
    ("text", "token"),
    [("m3", "m3"), ("M3", "m3"), ("a9", "a9"), ("a0", "a0"), ("l10", "l10"),
     ("m3*", "m3"), ("p z1", "z1"), ("q 4 p", "q4")],
)
def test_cells_off_the_board_are_named(text: str, token: str) -> None:
    with pytest.raises(MoveError) as info:
        GAME.parse_move(START, text)
    assert type(info.value) is MoveError
    assert str(info.value) == f"{token} is off the board: columns a-l, rows 1-8"
    assert info.value.token == token


@pytest.mark.parametrize(
    "text", ["ok", "gg", "hello", "lol", "", "  ", "good luck", "c", "5", "c5 c6", "nice",
             "gg wp", "5c", "brb", "c5!", "perm", "l8r"],
)
def test_chat_is_not_a_move(text: str) -> None:
    with pytest.raises(NotAMove):
        GAME.parse_move(START, text)


def test_occupied_cells_say_by_what() -> None:
    state = GAME.replay(["c5", "d5*", "e5"])
    # d5* flipped c5 to Black.
    with pytest.raises(MoveError, match=r"^c5 is occupied by a Black piece$") as info:
        GAME.parse_move(state, "p c5")
    assert info.value.token == "c5"
    with pytest.raises(MoveError, match=r"^d5 is occupied by a permanent White piece$"):
        GAME.parse_move(state, "D5")
    with pytest.raises(MoveError, match=r"^e5 is occupied by a White piece$"):
        GAME.parse_move(state, "e5")


def test_replay_names_the_bad_move() -> None:
    with pytest.raises(MoveError, match=r"^move 3 'c5\*': c5 is occupied by a White piece$"):
        GAME.replay(["c5", "d4", "c5*"])


def test_last_move_is_canonical() -> None:
    state = GAME.replay(["C5 P"])
    assert GAME.last_move(state) == "c5*"
    assert GAME.last_move(GAME.play(state, " D 4 ")) == "d4"


def test_json_round_trip() -> None:
    state = GAME.replay(["c5", "d5*", "a1p", "b2*", "c3*", "c4 p", "e5", "d4*"])
    data = GAME.to_json(state)
    assert json.loads(json.dumps(data)) == data
    assert data["last"] == "d4*"
    assert data["flipped"] == ["c5", "e5"]
    assert data["to_move"] == 0
    back = GAME.from_json(data)
    assert back == state
    assert back.chains == state.chains
    assert GAME.from_json(GAME.to_json(START)) == START


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"black": ["c5"]}, "c5 is both white and black"),
        ({"white": ["m3"]}, "m3 is off the board"),
        ({"white": ["c5", "c5"]}, "lists c5 twice"),
        ({"permanent": ["h8"]}, "permanent cell h8 has no colour"),
        ({"to_move": 2}, "'to_move' is 0 (White) or 1 (Black)"),
        ({"last": "h8"}, "the last move h8 is on an empty cell"),
        ({"last": "c5*"}, "does not match the normal piece"),
        ({"flipped": ["c5"]}, "c5 cannot have been flipped by the last move"),
        ({"colour": "x"}, "unknown keys in a Pathwayz state: colour"),
        ({"white": "c5"}, "'white' must be a list of cell names"),
    ],
)
def test_bad_json_is_refused(change: dict[str, object], message: str) -> None:
    data = GAME.to_json(GAME.replay(["c5"]))
    data.update(change)
    with pytest.raises(PositionError, match=re.escape(message)):
        GAME.from_json(data)


def test_json_refuses_a_last_move_of_the_wrong_colour() -> None:
    data = GAME.to_json(GAME.replay(["c5"]))
    data["to_move"] = 0
    with pytest.raises(PositionError, match="Black's move cannot have placed there"):
        GAME.from_json(data)


def test_position_syntax() -> None:
    state = GAME.parse_position("White: a1 b2*, c3;  black: d4 e5*")
    assert GAME.to_move(state) == 1  # five pieces: Black's turn
    assert state.permanent.bit_count() == 2
    assert state.colour(read_cell("e5")) == 1
    assert GAME.to_move(GAME.parse_position("white: a1\nto move: white")) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("white: a1; black: a1", "a1 is given twice"),
        ("white: a1; white: b1", "'white' is given twice"),
        ("red: a1", "'red: a1' is not a part of a Pathwayz position"),
        ("white: m3", "m3 is off the board"),
        ("white: a1; to move: red", "'to move' is white or black, not 'red'"),
    ],
)
def test_bad_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        GAME.parse_position(text)


def test_analyze_counts_routes() -> None:
    state = GAME.parse_position("white: a1 b1 c1 d1 e1 f1 g1 h1 i1 j1; black: a5 b5")
    data = GAME.analyze(state)
    assert data["white"]["needs"] == 2
    route = data["white"]["route"]
    assert [cell[0] for cell in route] == ["k", "l"] and set(route) <= {"k1", "k2", "l1", "l2"}
    assert data["black"]["needs"] == 10
    assert data["legal"] == 2 * (96 - 12)
    assert data["over"] is False
    assert "score" not in data
