"""Reading cells as players type them, and positions as analysts write them.

A cell is a group letter (A-X) and a direction from it: ``D left``, ``d l``, ``DL``,
``d-left``, ``D ←``, ``D ⬅️``. Canonical form: letter + U/D/L/R ("DL").
"""

from __future__ import annotations

import re

from engine.cairo.geometry import DIRECTION_WORDS, GROUP_DIRECTIONS, INDEX, LETTERS, NAMES
from engine.cairo.state import CairoState, checked
from engine.game import MoveError, NotAMove, PositionError

_DIRECTION_SPELLINGS: dict[str, str] = {
    "u": "U", "up": "U", "↑": "U", "⬆": "U",
    "d": "D", "down": "D", "↓": "D", "⬇": "D",
    "l": "L", "left": "L", "←": "L", "⬅": "L",
    "r": "R", "right": "R", "→": "R", "➡": "R",
}  # fmt: skip
# The direction words of the languages garnet speaks, accepted in every language at
# once (``D 왼쪽``, ``D 左``): a player types the words of their own language whatever
# the server speaks. Listed in docs/rules/cairo-corridor.md and docs/playing.md.
WORDS_BY_LANGUAGE: dict[str, dict[str, str]] = {
    "en": {"U": "up", "D": "down", "L": "left", "R": "right"},
    "ko": {"U": "위", "D": "아래", "L": "왼쪽", "R": "오른쪽"},
    "ja": {"U": "上", "D": "下", "L": "左", "R": "右"},
}
_MORE_WORDS = {  # other ways the same words are written
    "위쪽": "U", "윗쪽": "U", "아래쪽": "D", "밑": "D", "좌": "L", "우": "R",
    "うえ": "U", "した": "D", "ひだり": "L", "みぎ": "R",
}  # fmt: skip
_DIRECTION_SPELLINGS |= {word: direction for words in WORDS_BY_LANGUAGE.values()
                         for direction, word in words.items()} | _MORE_WORDS

_ARROWS = "↑⬆↓⬇←⬅→➡"
# Longest first: "아래쪽" before "아래", "up" before "u".
_WORD = "|".join(sorted((re.escape(w) for w in _DIRECTION_SPELLINGS if w not in _ARROWS),
                        key=len, reverse=True))
# A letter, an optional space/hyphen separator, a direction. The direction must end
# the text, so that "ok", "lol" or "gg" never read as moves.
_CELL = re.compile(rf"([a-z])\s*(?:-\s*)?({_WORD}|[{_ARROWS}])", re.IGNORECASE | re.ASCII)
_TOKEN = re.compile(
    rf"(?<![a-z])[a-z]\s*(?:-\s*)?(?:{_WORD}|[{_ARROWS}])(?![a-z])|[^\s,]+",
    re.IGNORECASE | re.ASCII,
)
_VARIATION_SELECTOR = "\ufe0f"

MOVE_HELP = (
    "type the group letter and a direction from it, e.g. `D left`, `X down`, `JU` "
    "(u/d/l/r, up/down/left/right or arrows)"
)


def _normalise(text: str) -> str:
    # any run of whitespace (chat clients send no-break spaces too) becomes one space
    return " ".join(text.replace(_VARIATION_SELECTOR, "").split())


def parse_cell(text: str) -> int:
    """The index of the cell ``text`` names.

    NotAMove when the text does not look like a cell at all; MoveError naming the
    problem when it is a letter and a direction that together name no cell.
    """
    cleaned = _normalise(text)
    match = _CELL.fullmatch(cleaned)
    if match is None:
        raise NotAMove(f"'{text.strip()}' is not a move: {MOVE_HELP}", text.strip()).because(
            "cairo.not_a_move", text=text.strip(), words=WORDS_BY_LANGUAGE)
    letter = match.group(1).upper()
    direction = _DIRECTION_SPELLINGS[match.group(2).lower()]
    if letter not in LETTERS:
        raise MoveError(
            f"there is no letter {letter} on the board: the letters are A to X",
            match.group(1),
        ).because("cairo.no_letter", letter=letter)
    name = letter + direction
    if name not in INDEX:
        has = ", ".join(DIRECTION_WORDS[d] for d in GROUP_DIRECTIONS[letter])
        raise MoveError(
            f"{letter} has no {DIRECTION_WORDS[direction]} pentagon; {letter} has {has}",
            cleaned,
        ).because("cairo.no_direction", letter=letter, direction=direction,
                  has=GROUP_DIRECTIONS[letter], words=WORDS_BY_LANGUAGE)
    return INDEX[name]


_LETTER_ALONE = re.compile(r"([a-x])", re.IGNORECASE | re.ASCII)
_LETTER_AND_WORD = re.compile(r"([a-x])\s*[\s-]\s*([a-z]+)", re.IGNORECASE | re.ASCII)
_DIRECTION_START = ("up", "down", "left", "right")


def incomplete_cell(text: str) -> MoveError | None:
    """What is missing when ``text`` is clearly a try at a cell but names none: a
    group letter alone (``J``), or with a word that begins like a direction and is not
    one (``J upward``). None for anything that may be chat."""
    cleaned = _normalise(text)
    alone = _LETTER_ALONE.fullmatch(cleaned)
    if alone is not None:
        letter = alone.group(1).upper()
        has = ", ".join(DIRECTION_WORDS[d] for d in GROUP_DIRECTIONS[letter])
        example = f"{letter} {DIRECTION_WORDS[GROUP_DIRECTIONS[letter][0]]}"
        return MoveError(f"{letter} needs a direction: {letter} has {has} (e.g. `{example}`)",
                         cleaned).because("cairo.needs_direction", letter=letter,
                                          has=GROUP_DIRECTIONS[letter], words=WORDS_BY_LANGUAGE)
    both = _LETTER_AND_WORD.fullmatch(cleaned)
    if (both is not None and both.group(2).lower() not in _DIRECTION_SPELLINGS
            and both.group(2).lower().startswith(_DIRECTION_START)):
        letter, word = both.group(1).upper(), both.group(2)
        has = ", ".join(DIRECTION_WORDS[d] for d in GROUP_DIRECTIONS[letter])
        return MoveError(f"'{word}' is not a direction: say up, down, left or right "
                         f"({letter} has {has})", cleaned).because(
            "cairo.not_a_direction", word=word, letter=letter, has=GROUP_DIRECTIONS[letter],
            words=WORDS_BY_LANGUAGE)
    return None


def split_cells(text: str) -> list[str]:
    """Cell texts of a list separated by commas or spaces ("AU BL, D left, x-up").

    A letter followed by a direction, even with a space or hyphen between, is one
    cell; anything else between separators is one token, for the caller to reject.
    """
    return [match.group(0) for match in _TOKEN.finditer(_normalise(text))]


_SEAT_WORDS = {"first": 0, "black": 0, "second": 1, "red": 1}


def parse_position(text: str, tie: str) -> CairoState:
    """A position from ``first: AU BL; second: XD[; to move: first|second]``.

    Without ``to move``, the First Player moves when both have placed as many pieces,
    the second when the First Player has one more; other counts need ``to move``.
    """
    masks = [0, 0]
    listed = [False, False]
    turn: int | None = None
    for clause in text.split(";"):
        if not clause.strip():
            continue
        key, colon, value = clause.partition(":")
        key = " ".join(key.lower().replace("-", " ").split())
        if not colon:
            raise PositionError(
                f"'{clause.strip()}' is not a clause: write 'first: cells', 'second: cells' "
                "or 'to move: first|second'"
            )
        if key in ("to move", "turn"):
            word = value.strip().lower()
            if word not in _SEAT_WORDS:
                raise PositionError(f"'to move' is first or second, not '{value.strip()}'")
            turn = _SEAT_WORDS[word]
            continue
        if key not in _SEAT_WORDS:
            raise PositionError(
                f"unknown clause '{key}': the clauses are first, second and to move"
            )
        seat = _SEAT_WORDS[key]
        if listed[seat]:
            raise PositionError(f"the pieces of {key} are listed twice")
        listed[seat] = True
        for token in split_cells(value):
            try:
                index = parse_cell(token)
            except MoveError as exc:
                if isinstance(exc, NotAMove):
                    message = f"'{token}' is not a cell (e.g. AU, D left, x-up)"
                    raise PositionError(message) from None
                raise PositionError(f"'{token}': {exc}") from None
            bit = 1 << index
            if masks[0] & bit or masks[1] & bit:
                where = "twice" if masks[seat] & bit else "for both players"
                named = NAMES[index]
                if token.upper() != named:
                    named += f" ('{token}')"
                raise PositionError(f"{named} is listed {where}")
            masks[seat] |= bit
    black, red = masks
    if turn is None:
        difference = black.bit_count() - red.bit_count()
        if difference not in (0, 1):
            raise PositionError(
                f"first has {black.bit_count()} pieces and second {red.bit_count()}: "
                "say whose turn it is with 'to move: first' or 'to move: second'"
            )
        turn = difference
    return checked(black, red, turn, tie)
