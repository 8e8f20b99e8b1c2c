"""The rules of Sigma Escape as pure functions on states (docs/rules/sigma-escape.md §2).

A placement is (card, side, arrow): a card of the mover's hand (its index in the
deck's hand), a usable side numbered from 1 in the order of ``Board.sides``, and an
arrow of the card numbered from 1 in deck order. After every placement, and at the
start, ``settle`` runs the page's checks in order: no blank space (Black wins), both
hands empty (White wins), a legal placement for the player to move (they must make
it), else an automatic pass; a second pass in a row ends the game (White wins).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.game import Outcome
from engine.labels import label
from engine.sigma.deck import BARE_BLACK, BLACK, WHITE
from engine.sigma.geometry import NOTHING, Cell, step
from engine.sigma.state import Board, Placed, SigmaState

#: why a placement is illegal, by the order it is checked in
COVERS_NOTHING = "would cover the Nothing card"
WHITE_ON_BLACK = "would lay a white cell on a black one"


@dataclass(frozen=True, order=True)
class Placement:
    """Hand index of the card, side number and arrow number (both from 1)."""

    card: int
    side: int
    arrow: int


def sides(state: SigmaState, seat: int | None = None) -> list[tuple[Cell, int]]:
    """The usable sides of ``seat`` (default: the seat to move), numbered from 1."""
    return state.board.sides(state.turn if seat is None else seat)


def problem(state: SigmaState, seat: int, card: int, side: tuple[Cell, int],
            arrow: int) -> str | None:
    """Why laying ``seat``'s card ``card`` with arrow ``arrow`` (from 1) on ``side`` is
    illegal, or None when it is legal. Covering the Nothing cell is checked first."""
    shape = state.hand_card(seat, card).fits[arrow - 1][side[1]]
    ar, ac = step(*side)
    colour = state.board.colour
    armed = _armed(state.board)
    on_black = False
    for r, c in shape.cells:
        cell = (ar + r, ac + c)
        if cell == NOTHING:
            return COVERS_NOTHING
        if seat == WHITE and colour.get(cell) == BLACK and (armed is None or cell in armed):
            on_black = True
    return WHITE_ON_BLACK if on_black else None


def _armed(board: Board) -> set[Cell] | None:
    """The black cells a white card may not cover: all (None) by the rules page; under
    ``bare-black`` only those a black arrow shows on."""
    if BARE_BLACK not in board.rules:
        return None
    return {cell for cell, _ in board.arrows[BLACK]}


def placements(state: SigmaState, seat: int | None = None, first: bool = False
               ) -> list[Placement]:
    """Every legal placement of ``seat`` (default: the seat to move), sorted; with
    ``first``, at most one (enough to know whether the seat can place)."""
    seat = state.turn if seat is None else seat
    board = state.board
    colour = board.colour
    white = seat == WHITE
    armed = _armed(board)
    out: list[Placement] = []
    side_list = board.sides(seat)
    hand = state.deck.hands[seat]
    cards = [(i, hand[i][0].fits) for i, left in enumerate(board.hands[seat]) if left]
    for number, (cell, d) in enumerate(side_list, start=1):
        ar, ac = step(cell, d)
        for index, fits in cards:
            for a, per_side in enumerate(fits, start=1):
                for r, c in per_side[d].cells:
                    r += ar
                    c += ac
                    if (r == 0 and c == 0) or (white and colour.get((r, c)) == BLACK
                                               and (armed is None or (r, c) in armed)):
                        break
                else:
                    out.append(Placement(index, number, a))
                    if first:
                        return out
    out.sort()
    return out


def can_place(state: SigmaState, seat: int | None = None) -> bool:
    return bool(placements(state, seat, first=True))


def blank_spaces(n: int) -> str:
    """"3 blank spaces", in the language of the labels."""
    return label("1 blank space") if n == 1 else label("{n} blank spaces", n=n)


def spaces_left(left: int) -> str:
    """"3 blank spaces left", in the language of the labels."""
    return (label("1 blank space left") if left == 1
            else label("{n} blank spaces left", n=left))


def reason_said(state: SigmaState) -> str:
    """The reason ``outcome`` gives (in English), in the language of the labels."""
    board = state.board
    if not board.blanks:
        return label("White's main group is surrounded: no blank space")
    spaces = spaces_left(len(board.blanks))
    if not any(board.hands[0]) and not any(board.hands[1]):
        return label("all cards are played with {spaces}", spaces=spaces)
    return label("both players passed with {spaces}", spaces=spaces)


def outcome(state: SigmaState) -> Outcome | None:
    """The result by the page's checks 1, 2 and 4, or None while the game runs."""
    board = state.board
    if not board.blanks:
        return Outcome(BLACK, False, None, "White's main group is surrounded: no blank space")
    left = len(board.blanks)
    spaces = f"{left} blank space{'s' if left != 1 else ''} left"
    if not any(board.hands[0]) and not any(board.hands[1]):
        return Outcome(WHITE, False, None, f"all cards are played with {spaces}")
    if state.passes >= 2:
        return Outcome(WHITE, False, None, f"both players passed with {spaces}")
    return None


def settle(state: SigmaState) -> SigmaState:
    """Run the end checks and the automatic passes until someone must place or the
    game is over."""
    while outcome(state) is None and not can_place(state):
        state = replace(state, turn=1 - state.turn, passes=state.passes + 1)
    return state


def place(state: SigmaState, move: Placement, text: str = "") -> SigmaState:
    """The settled state after a placement already known to be legal."""
    seat = state.turn
    cell, d = state.board.sides(seat)[move.side - 1]
    card = state.hand_card(seat, move.card)
    shape = card.fits[move.arrow - 1][d]
    ar, ac = step(cell, d)
    at = (ar + shape.origin[0], ac + shape.origin[1])
    laid = Placed(seat, card.name, shape.turns, at, text)
    return settle(SigmaState(state.deck, (*state.placed, laid), 1 - seat, 0, 0))


def read_pass(state: SigmaState) -> SigmaState:
    """A ``pass`` text read where the engine passed by itself."""
    return replace(state, passes_read=state.passes_read + 1)
