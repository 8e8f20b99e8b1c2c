"""A Cairo Corridor position: who holds which cells, whose turn, which tie rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cairo.geometry import ALL, INDEX, NAMES, names_of
from engine.cairo.rules import analyse
from engine.game import JSON, PositionError

PIECES = 30
SEAT_NAMES = ("Black", "Red")
TIE_RULES = ("first-player-loses", "last-mover-loses", "draw")


@dataclass(frozen=True, slots=True)
class CairoState:
    """Seat 0 (the First Player) places black pieces, seat 1 red ones.

    ``black`` and ``red`` are cell masks (bit i = ``geometry.CELLS[i]``); ``turn`` is
    the seat to place next, which the game reports as None once the game is over;
    ``last`` is the cell of the latest piece, when the state came from a move.
    """

    black: int = 0
    red: int = 0
    turn: int = 0
    tie: str = TIE_RULES[0]
    last: int | None = None

    @property
    def occupied(self) -> int:
        return self.black | self.red

    @property
    def empty(self) -> int:
        return ALL & ~(self.black | self.red)

    @property
    def placed(self) -> int:
        """Pieces on the board."""
        return (self.black | self.red).bit_count()

    def pieces(self, seat: int) -> int:
        return self.red if seat else self.black

    def owner(self, index: int) -> int | None:
        if self.black >> index & 1:
            return 0
        if self.red >> index & 1:
            return 1
        return None

    def to_json(self) -> JSON:
        return {
            "black": names_of(self.black),
            "red": names_of(self.red),
            "turn": self.turn,
            "tie": self.tie,
            "last": NAMES[self.last] if self.last is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CairoState:
        if not isinstance(data, Mapping):
            raise PositionError("a Cairo Corridor state is a JSON object")
        unknown = set(data) - {"black", "red", "turn", "tie", "last"}
        if unknown:
            raise PositionError(f"unknown field '{sorted(unknown)[0]}' in a Cairo Corridor state")
        black = _mask(data.get("black", []), "black")
        red = _mask(data.get("red", []), "red")
        turn = data.get("turn", 0)
        if turn not in (0, 1) or isinstance(turn, bool):
            raise PositionError(f"'turn' is 0 or 1, not {turn!r}")
        tie = data.get("tie", TIE_RULES[0])
        if tie not in TIE_RULES:
            raise PositionError(f"'tie' is one of {', '.join(TIE_RULES)}, not {tie!r}")
        last_name = data.get("last")
        last = None
        if last_name is not None:
            if last_name not in INDEX or not (black | red) >> INDEX[last_name] & 1:
                raise PositionError(f"'last' must be an occupied cell, not {last_name!r}")
            last = INDEX[last_name]
        return checked(black, red, turn, tie, last)


def _mask(names: Any, field: str) -> int:
    if not isinstance(names, list):
        raise PositionError(f"'{field}' is a list of cell names")
    mask = 0
    for name in names:
        if not isinstance(name, str) or name not in INDEX:
            raise PositionError(f"'{name}' in '{field}' is not a cell name")
        bit = 1 << INDEX[name]
        if mask & bit:
            raise PositionError(f"{name} is listed twice in '{field}'")
        mask |= bit
    return mask


def checked(black: int, red: int, turn: int, tie: str, last: int | None = None) -> CairoState:
    """A state after the checks every position must pass, or PositionError."""
    both = black & red
    if both:
        raise PositionError(f"{names_of(both)[0]} holds both a black and a red piece")
    for seat, mask in enumerate((black, red)):
        if mask.bit_count() > PIECES:
            raise PositionError(
                f"{SEAT_NAMES[seat]} has {mask.bit_count()} pieces; each player has {PIECES}"
            )
    if analyse(black | red).region == 0:
        raise PositionError("this position has no Corridor: no group of empty cells "
                            "touches all four sides")
    return CairoState(black, red, turn, tie, last)
