"""Reading and writing Pathwayz moves and positions.

A move is a cell, ``c5``; a permanent piece adds ``*`` (``c5*``). Players may also
type ``p c5``, ``perm c5``, ``permanent c5``, ``c5 p`` or ``c5p``; case and spaces
do not matter.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.game import MoveError, NotAMove
from engine.pathwayz.geometry import BIT, CELLS, COLS, ROWS

FILES = "abcdefghijkl"
OFF_BOARD = "columns a-l, rows 1-8"

CELL_NAMES: tuple[str, ...] = tuple(f"{FILES[i % COLS]}{i // COLS + 1}" for i in range(CELLS))


class Move(NamedTuple):
    """A piece placed on a cell: a normal one, or a permanent one (``permanent``)."""

    cell: int
    permanent: bool

    def __str__(self) -> str:
        return notation(self)


#: every move there is, so that listing legal moves builds no new objects
MOVES: tuple[tuple[Move, Move], ...] = tuple(
    (Move(i, False), Move(i, True)) for i in range(CELLS)
)

_CELL = re.compile(r"(?P<file>[a-z])(?P<rank>[0-9]+)")
_MOVE = re.compile(
    r"(?P<pre>permanent|perm|p|\*)?(?P<file>[a-z])(?P<rank>[0-9]+)(?P<post>\*|permanent|perm|p)?"
)


def notation(move: Move) -> str:
    return CELL_NAMES[move.cell] + ("*" if move.permanent else "")


def read_move(text: str) -> Move:
    """The move a text names, whatever the board looks like.

    Raises NotAMove when the text is not move-shaped and MoveError (naming the cell)
    when it names a cell that does not exist.
    """
    compact = "".join(text.split()).lower()
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise NotAMove(
            f"'{text.strip()}' is not a Pathwayz move (e.g. c5, or c5* for a permanent piece)"
        ).because("pathwayz.not_a_move", text=text.strip())
    cell = read_cell(match["file"] + match["rank"])
    return MOVES[cell][1 if match["pre"] or match["post"] else 0]


def read_cell(name: str) -> int:
    """The cell number of a name like ``c5``; MoveError names it when there is no such cell."""
    name = name.strip().lower()
    match = _CELL.fullmatch(name)
    if match is None:
        raise MoveError(f"'{name}' is not a cell (cells are like c5: {OFF_BOARD})",
                        name).because("pathwayz.no_cell", cell=name)
    col = ord(match["file"]) - ord("a")
    row = int(match["rank"]) - 1
    if col >= COLS or not 0 <= row < ROWS:
        raise MoveError(f"{name} is off the board: {OFF_BOARD}", name).because(
            "pathwayz.off_board", cell=name)
    return row * COLS + col


def cells_text(cells: int) -> list[str]:
    """The names of a set of cells, in board order (a1, b1, ... l8)."""
    return [CELL_NAMES[i] for i in range(CELLS) if cells & BIT[i]]
