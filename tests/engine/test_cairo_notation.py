"""Moves as players type them: every accepted spelling, chatter, precise errors."""

from __future__ import annotations

import pytest

from engine.cairo import CairoCorridor
from engine.cairo.notation import WORDS_BY_LANGUAGE, parse_cell, split_cells
from engine.game import MoveError, NotAMove

GAME = CairoCorridor()


@pytest.mark.parametrize(
    "text",
    ["D left", "d l", "DL", "dl", "d-left", "D - LEFT", "D  left", "D ←", "D←", "d ⬅️",
     "D⬅️", "D ⬅", "d-l", " DL ", "D Left", "d-⬅️"],
)
def test_spellings_of_d_left(text: str) -> None:
    assert GAME.parse_move(GAME.new_state(), text) == "DL"


@pytest.mark.parametrize(
    ("text", "cell"),
    [("X down", "XD"), ("x ↓", "XD"), ("x⬇️", "XD"), ("J up", "JU"), ("j ↑", "JU"),
     ("J⬆", "JU"), ("w-up", "WU"), ("a right", "AR"), ("A →", "AR"), ("a ➡️", "AR"),
     ("a➡", "AR"), ("ur", "UR"), ("U r", "UR"), ("e R", "ER"), ("tl", "TL"), ("Q u", "QU")],
)
def test_spellings(text: str, cell: str) -> None:
    assert GAME.parse_move(GAME.new_state(), text) == cell


def test_canonical_notation_reads_back_for_every_cell() -> None:
    state = GAME.new_state()
    for move in GAME.legal_moves(state):
        assert GAME.parse_move(state, GAME.notation(move)) == move


@pytest.mark.parametrize(
    "text",
    ["ok", "hello", "lol", "gg", "gl hf", "", "   ", "up", "left", "?", "D", "good luck",
     "nice", "DLL", "d lefty", "123", "brb", "hmm", "A left pentagon", "ty"],
)
def test_chatter_is_not_a_move(text: str) -> None:
    with pytest.raises(NotAMove):
        GAME.parse_move(GAME.new_state(), text)


def test_letter_outside_a_to_x() -> None:
    with pytest.raises(MoveError) as info:
        GAME.parse_move(GAME.new_state(), "y up")
    assert not isinstance(info.value, NotAMove)
    assert "Y" in str(info.value) and "A to X" in str(info.value)
    assert info.value.token == "y"
    with pytest.raises(MoveError) as info:
        GAME.parse_move(GAME.new_state(), "ZL")
    assert not isinstance(info.value, NotAMove)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A left", "A has no left pentagon; A has up, down, right"),
        ("al", "A has no left pentagon; A has up, down, right"),
        ("D up", "D has no up pentagon; D has left"),
        ("E ←", "E has no left pentagon; E has right"),
        ("X right", "X has no right pentagon; X has up, down, left"),
        ("t-down", "T has no down pentagon; T has left"),
    ],
)
def test_direction_the_group_lacks(text: str, message: str) -> None:
    with pytest.raises(MoveError) as info:
        GAME.parse_move(GAME.new_state(), text)
    assert not isinstance(info.value, NotAMove)
    assert str(info.value) == message


def test_occupied_cell_names_the_owner() -> None:
    state = GAME.replay(["D left", "JU"])
    with pytest.raises(MoveError, match="DL is already taken by Black"):
        GAME.parse_move(state, "d-left")
    with pytest.raises(MoveError, match="JU is already taken by Red"):
        GAME.parse_move(state, "J ↑")


def test_split_cells_keeps_spaced_spellings_together() -> None:
    assert split_cells("AU BL, D left, x-up d - l  A ← b⬅️ XD") == [
        "AU", "BL", "D left", "x-up", "d - l", "A ←", "b⬅", "XD",
    ]
    assert split_cells("zz9, AU") == ["zz9", "AU"]


def test_parse_cell_returns_indices_in_name_order() -> None:
    assert parse_cell("AD") == 0
    assert parse_cell("XU") == 71
    with pytest.raises(MoveError):
        parse_cell("A left")


def test_a_try_at_a_cell_says_what_is_missing() -> None:
    from engine.cairo.notation import incomplete_cell

    assert str(incomplete_cell("a")) == "A needs a direction: A has up, down, right (e.g. `A up`)"
    assert incomplete_cell("J upwards") is not None
    assert incomplete_cell("x-rightward") is not None
    for chat in ("gg", "ok", "a lot", "y", "I like it", "D left", ""):
        assert incomplete_cell(chat) is None, chat


@pytest.mark.parametrize(
    ("text", "cell"),
    [("D 왼쪽", "DL"), ("d왼쪽", "DL"), ("D-왼쪽", "DL"), ("X 아래", "XD"), ("X 아래쪽", "XD"),
     ("J 위", "JU"), ("A 오른쪽", "AR"), ("D 左", "DL"), ("d左", "DL"), ("X 下", "XD"),
     ("J 上", "JU"), ("A 右", "AR"), ("D ひだり", "DL"), ("A みぎ", "AR")],
)
def test_the_direction_words_of_every_language(text: str, cell: str) -> None:
    """Korean and Japanese direction words, whatever the server speaks."""
    assert GAME.parse_move(GAME.new_state(), text) == cell


def test_the_words_of_every_language_name_every_direction() -> None:
    for words in WORDS_BY_LANGUAGE.values():
        assert sorted(words) == ["D", "L", "R", "U"]
    assert split_cells("D 왼쪽, X 下 JU") == ["D 왼쪽", "X 下", "JU"]


@pytest.mark.parametrize("text", ["왼쪽", "左", "ㅋㅋ", "D 왼쪽쪽", "안녕", "こんにちは"])
def test_words_alone_are_chatter(text: str) -> None:
    with pytest.raises(NotAMove):
        GAME.parse_move(GAME.new_state(), text)
