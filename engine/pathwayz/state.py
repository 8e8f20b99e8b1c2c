"""A Pathwayz position as an immutable value, and its JSON and text forms.

JSON names cells ("c5") rather than storing bitmasks, so a stored game can be read
by eye and by clients whose integers stop at 53 bits.

Text syntax: ``white: a1 b2*; black: c3; to move: black`` (``*`` marks a permanent
piece showing that colour; ``to move`` defaults to the side whose turn it is after
that many pieces, White first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.game import JSON, MoveError, PositionError
from engine.pathwayz.geometry import BIT, NEIGHBOURS, connects
from engine.pathwayz.notation import CELL_NAMES, Move, cells_text, read_cell

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("White", "Black")

#: bits of ``PathwayzState.chains``
WHITE_CHAIN, BLACK_CHAIN = 1, 2


@dataclass(frozen=True)
class PathwayzState:
    """A position: which cells show white or black, which pieces are permanent.

    ``white``, ``black`` and ``permanent`` are sets of cells as bitmasks
    (``permanent`` is a subset of the other two). ``turn`` is the colour to move
    (0 White, 1 Black), even once the game is over. ``last`` is the cell of the move
    that led here (-1 at the start); whether it was permanent is read from
    ``permanent``. ``flipped`` are the cells that move turned over.

    ``chains`` (White's chain bit 1, Black's bit 2) is derived from the pieces when
    the state is built; it is not part of the value, only a summary of it.
    """

    white: int = 0
    black: int = 0
    permanent: int = 0
    turn: int = WHITE
    last: int = -1
    flipped: int = 0
    chains: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        chains = (WHITE_CHAIN if connects(self.white) else 0) | (
            BLACK_CHAIN if connects(self.black) else 0
        )
        object.__setattr__(self, "chains", chains)

    @property
    def occupied(self) -> int:
        return self.white | self.black

    @property
    def mover(self) -> int:
        """The colour that made the last move (the one not on turn)."""
        return 1 - self.turn

    def colour(self, cell: int) -> int | None:
        """WHITE, BLACK or None for an empty cell."""
        if self.white & BIT[cell]:
            return WHITE
        if self.black & BIT[cell]:
            return BLACK
        return None

    def last_move(self) -> Move | None:
        if self.last < 0:
            return None
        return Move(self.last, bool(self.permanent & BIT[self.last]))


# ---- JSON ----------------------------------------------------------------------------


def state_to_json(state: PathwayzState) -> JSON:
    last = state.last_move()
    return {
        "white": cells_text(state.white),
        "black": cells_text(state.black),
        "permanent": cells_text(state.permanent),
        "to_move": state.turn,
        "last": str(last) if last is not None else None,
        "flipped": cells_text(state.flipped),
    }


def _cells(data: Mapping[str, Any], key: str) -> int:
    names = data.get(key, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise PositionError(f"'{key}' must be a list of cell names like \"c5\"")
    cells = 0
    for name in names:
        cell = _cell(name)
        if cells & BIT[cell]:
            raise PositionError(f"'{key}' lists {CELL_NAMES[cell]} twice")
        cells |= BIT[cell]
    return cells


def _cell(name: str) -> int:
    try:
        return read_cell(name)
    except MoveError as exc:
        raise PositionError(str(exc)) from None


def state_from_json(data: Mapping[str, Any]) -> PathwayzState:
    if not isinstance(data, Mapping):
        raise PositionError("a Pathwayz state is a JSON object")
    unknown = set(data) - {"white", "black", "permanent", "to_move", "last", "flipped"}
    if unknown:
        raise PositionError(f"unknown keys in a Pathwayz state: {', '.join(sorted(unknown))}")
    white, black = _cells(data, "white"), _cells(data, "black")
    permanent, flipped = _cells(data, "permanent"), _cells(data, "flipped")
    turn = data.get("to_move", WHITE)
    if turn not in (WHITE, BLACK) or isinstance(turn, bool):
        raise PositionError(f"'to_move' is 0 (White) or 1 (Black), not {turn!r}")
    last_text = data.get("last")
    last = -1
    if last_text is not None:
        if not isinstance(last_text, str):
            raise PositionError("'last' is a move like \"c5\" or \"c5*\", or null")
        permanent_last = last_text.strip().endswith("*")
        last = _cell(last_text.strip().rstrip("*"))
        if bool(permanent & BIT[last]) != permanent_last:
            kind = "permanent" if permanent & BIT[last] else "normal"
            raise PositionError(f"the last move {last_text} does not match the {kind} piece there")
    return checked(white, black, permanent, turn, last, flipped)


def checked(
    white: int, black: int, permanent: int, turn: int, last: int = -1, flipped: int = 0
) -> PathwayzState:
    """A state built from parts, after checking that they fit together."""
    both = white & black
    if both:
        raise PositionError(f"{CELL_NAMES[both.bit_length() - 1]} is both white and black")
    loose = permanent & ~(white | black)
    if loose:
        raise PositionError(
            f"permanent cell {CELL_NAMES[loose.bit_length() - 1]} has no colour"
        )
    if last >= 0:
        mover = 1 - turn
        shows = WHITE if white & BIT[last] else BLACK if black & BIT[last] else None
        if shows is None:
            raise PositionError(f"the last move {CELL_NAMES[last]} is on an empty cell")
        # A normal piece shows its mover's colour, a permanent one the opponent's.
        expected = turn if permanent & BIT[last] else mover
        if shows != expected:
            raise PositionError(
                f"the last move {CELL_NAMES[last]} shows {COLOUR_NAMES[shows]}, which "
                f"{COLOUR_NAMES[mover]}'s move cannot have placed there"
            )
    allowed = NEIGHBOURS[last] & (white | black) & ~permanent if last >= 0 else 0
    if last >= 0 and not permanent & BIT[last]:
        allowed = 0
    if flipped & ~allowed:
        stray = flipped & ~allowed
        raise PositionError(
            f"{CELL_NAMES[stray.bit_length() - 1]} cannot have been flipped by the last move"
        )
    return PathwayzState(white, black, permanent, turn, last, flipped)


# ---- the text form of ``--position`` --------------------------------------------


def parse_position_text(text: str) -> PathwayzState:
    white = black = permanent = 0
    turn: int | None = None
    seen: set[str] = set()
    for part in text.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition(":")
        key = " ".join(key.lower().split())
        if not sep or key not in ("white", "black", "to move"):
            raise PositionError(
                f"'{part.strip()}' is not a part of a Pathwayz position "
                "(e.g. \"white: a1 b2*; black: c3; to move: black\")"
            )
        if key in seen:
            raise PositionError(f"'{key}' is given twice")
        seen.add(key)
        if key == "to move":
            side = value.strip().lower()
            if side not in ("white", "black"):
                raise PositionError(f"'to move' is white or black, not '{value.strip()}'")
            turn = WHITE if side == "white" else BLACK
            continue
        for token in value.replace(",", " ").split():
            is_permanent = token.endswith("*")
            cell = _cell(token.rstrip("*"))
            bit = BIT[cell]
            if (white | black) & bit:
                raise PositionError(f"{CELL_NAMES[cell]} is given twice")
            if key == "white":
                white |= bit
            else:
                black |= bit
            if is_permanent:
                permanent |= bit
    if turn is None:
        turn = (white | black).bit_count() % 2
    return checked(white, black, permanent, turn)
