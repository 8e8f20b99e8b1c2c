"""Moves and their algebraic notation: ``e2`` moves the pawn, ``e3h`` / ``e3v`` places a wall."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from engine.game import MoveError, NotAMove
from engine.quoridor.geometry import SIZE, place, place_anchor

COLUMN_LETTERS = "abcdefghi"


@dataclass(frozen=True, slots=True)
class PawnMove:
    """The pawn of the seat to move goes to ``square`` (0..80, a1 = 0)."""

    square: int

    def __str__(self) -> str:
        return square_name(self.square)


@dataclass(frozen=True, slots=True)
class WallMove:
    """A wall goes to place ``place`` (0..63 horizontal, 64..127 vertical)."""

    place: int

    @property
    def vertical(self) -> bool:
        return self.place >= 64

    def __str__(self) -> str:
        return wall_name(self.place)


Move: TypeAlias = PawnMove | WallMove

# Every move there can be, made once: legal_moves hands these out without allocating.
PAWN_MOVES = tuple(PawnMove(s) for s in range(SIZE * SIZE))
WALL_MOVES = tuple(WallMove(p) for p in range(128))


def square_name(sq: int) -> str:
    return f"{COLUMN_LETTERS[sq % SIZE]}{sq // SIZE + 1}"


def wall_name(bit: int) -> str:
    column, row, vertical = place_anchor(bit)
    return f"{COLUMN_LETTERS[column]}{row + 1}{'v' if vertical else 'h'}"


def parse_square(name: str) -> int:
    """The square of a name like ``e2`` (any case); MoveError when there is none."""
    match = re.fullmatch(r"([a-z])(\d{1,2})", name.strip().lower())
    if match is None:
        raise MoveError(f"'{name}' is not a square (squares run a1 to i9)", name)
    return _square(match.group(1), int(match.group(2)), name)


def _square(letter: str, row: int, token: str) -> int:
    if letter not in COLUMN_LETTERS:
        raise MoveError(f"there is no square {token}: columns run a to i", token).because(
            "quoridor.no_column", square=token)
    if not 1 <= row <= SIZE:
        raise MoveError(f"there is no square {token}: rows run 1 to 9", token).because(
            "quoridor.no_row", square=token)
    return (row - 1) * SIZE + COLUMN_LETTERS.index(letter)


_MOVE = re.compile(r"([a-z])(\d{1,2})([a-z]?)")
# A wall's direction in the words of the languages garnet speaks, accepted in every
# language at once (``e3 가로``, ``e3 縦``): listed in docs/rules/quoridor.md.
WALL_WORDS_BY_LANGUAGE: dict[str, dict[str, str]] = {
    "en": {"h": "horizontal", "v": "vertical"},
    "ko": {"h": "가로", "v": "세로"},
    "ja": {"h": "横", "v": "縦"},
}
_WALL_WORDS = {word: letter for words in WALL_WORDS_BY_LANGUAGE.values()
               for letter, word in words.items()}
_WORDED = re.compile(r"([a-z]\d{1,2})(" + "|".join(_WALL_WORDS) + ")")


def read_move(text: str) -> Move:
    """The move a text names, before any look at the position.

    NotAMove when the text does not have the shape of a square or a wall (chat);
    MoveError when it does but names no square or wall place.
    """
    compact = re.sub(r"\s+", "", text).lower()
    worded = _WORDED.fullmatch(compact)
    if worded is not None:  # e3 가로: e3h
        compact = worded.group(1) + _WALL_WORDS[worded.group(2)]
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise NotAMove(
            f"'{text.strip()}' is not a move: name a square (e2) or a wall (e3h, e3v)",
            text.strip(),
        ).because("quoridor.not_a_move", text=text.strip())
    letter, digits, suffix = match.groups()
    row = int(digits)
    if not suffix:
        return PAWN_MOVES[_square(letter, row, compact)]
    if suffix not in "hv":
        raise MoveError(
            f"'{compact}' is not a move: a wall ends in h or v ({letter}{digits}h, "
            f"{letter}{digits}v)",
            compact,
        ).because("quoridor.wall_letter", text=compact, place=f"{letter}{digits}")
    if letter not in COLUMN_LETTERS[:-1] or not 1 <= row <= SIZE - 1:
        raise MoveError(
            f"there is no wall place {compact}: a wall is named by the square nearest a1 "
            "that it touches, from a1 to h8",
            compact,
        ).because("quoridor.no_wall_place", wall=compact)
    column = COLUMN_LETTERS.index(letter)
    return WALL_MOVES[place(column, row - 1, suffix == "v")]
