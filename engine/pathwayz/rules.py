"""How a move changes a Pathwayz position, which moves there are, and who has won.

Placing a piece: a normal piece shows the mover's colour; a permanent piece shows the
opponent's colour and flips every normal piece in the eight surrounding cells, the
mover's own included. Permanent pieces never flip. After each move both colours are
checked for a chain from column a to column l: if both have one the mover wins,
otherwise whoever has one wins; a full board without a chain is a draw.
"""

from __future__ import annotations

from engine.game import MoveError, Outcome
from engine.labels import label
from engine.pathwayz.geometry import BIT, CELLS, FULL, NEIGHBOURS
from engine.pathwayz.notation import CELL_NAMES, MOVES, Move
from engine.pathwayz.state import (
    BLACK,
    BLACK_CHAIN,
    COLOUR_NAMES,
    WHITE,
    WHITE_CHAIN,
    PathwayzState,
)


def _outcome_table() -> dict[tuple[int, int], Outcome]:
    table = {}
    for mover in (WHITE, BLACK):
        other = 1 - mover
        me, them = COLOUR_NAMES[mover], COLOUR_NAMES[other]
        own = WHITE_CHAIN if mover == WHITE else BLACK_CHAIN
        table[own, mover] = Outcome(mover, False, None, f"{me} connected a to l")
        table[own ^ 3, mover] = Outcome(
            other, False, None, f"{them} connected a to l (completed by {me}'s move)"
        )
        table[3, mover] = Outcome(
            mover, False, None, f"{me} connected a to l (both chains completed: the mover wins)"
        )
    return table


_OUTCOMES = _outcome_table()
DRAW = Outcome(None, True, None, "the board is full with no chain")


def reason_said(state: PathwayzState, over: Outcome) -> str:
    """``over.reason`` (the English of ``_OUTCOMES``) in the language of the labels."""
    if over.winner is None:
        return label("the board is full with no chain")
    mover, other = state.mover, 1 - state.mover
    me, them = label(COLOUR_NAMES[mover]), label(COLOUR_NAMES[other])
    if state.chains == 3:
        return label("{colour} connected a to l (both chains completed: the mover wins)",
                     colour=me)
    if over.winner == mover:
        return label("{colour} connected a to l", colour=me)
    return label("{colour} connected a to l (completed by {mover}'s move)", colour=them,
                 mover=me)


def outcome(state: PathwayzState) -> Outcome | None:
    if state.chains:
        return _OUTCOMES[state.chains, state.mover]
    if state.occupied == FULL:
        return DRAW
    return None


def legal_moves(state: PathwayzState) -> list[Move]:
    """A normal and a permanent piece on every empty cell; none once the game is over."""
    if outcome(state) is not None:
        return []
    occupied = state.occupied
    return [m for i in range(CELLS) if not occupied & BIT[i] for m in MOVES[i]]


def occupant(state: PathwayzState, cell: int) -> str:
    """How a player would describe what stands on a cell: 'a permanent White piece'."""
    colour = COLOUR_NAMES[WHITE if state.white & BIT[cell] else BLACK]
    return f"a permanent {colour} piece" if state.permanent & BIT[cell] else f"a {colour} piece"


def check_move(state: PathwayzState, move: Move) -> None:
    """Raise MoveError unless ``move`` may be played now (the game must still run)."""
    cell = move.cell
    if not 0 <= cell < CELLS:
        raise MoveError(f"there is no cell number {cell} on the board")
    if state.occupied & BIT[cell]:
        name = CELL_NAMES[cell]
        raise MoveError(f"{name} is occupied by {occupant(state, cell)}", name).because(
            "pathwayz.occupied", cell=name,
            colour=COLOUR_NAMES[WHITE if state.white & BIT[cell] else BLACK],
            permanent=bool(state.permanent & BIT[cell]))


def place(state: PathwayzState, move: Move) -> PathwayzState:
    """The position after ``move``, which must be legal (see ``check_move``)."""
    bit = BIT[move.cell]
    white, black = state.white, state.black
    if not move.permanent:
        if state.turn == WHITE:
            white |= bit
        else:
            black |= bit
        return PathwayzState(white, black, state.permanent, 1 - state.turn, move.cell, 0)
    # A permanent piece shows the opponent's colour, i.e. the colour about to move.
    flips = NEIGHBOURS[move.cell] & (white | black) & ~state.permanent
    to_black = flips & white
    to_white = flips & black
    white = (white ^ to_black) | to_white
    black = (black ^ to_white) | to_black
    if state.turn == WHITE:
        black |= bit
    else:
        white |= bit
    return PathwayzState(white, black, state.permanent | bit, 1 - state.turn, move.cell, flips)
