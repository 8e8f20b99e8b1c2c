"""Pathwayz (Louis Lafair, 2014) behind garnet's Game interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import JSON, Game, GameOverError, Outcome, pieces_of
from engine.labels import label
from engine.pathwayz import rules
from engine.pathwayz.geometry import (
    BIT,
    CELLS,
    COL_A,
    COL_L,
    cheapest_route,
    connects,
    shortest_chain,
)
from engine.pathwayz.notation import CELL_NAMES, Move, notation, read_move
from engine.pathwayz.state import (
    BLACK,
    COLOUR_NAMES,
    WHITE,
    PathwayzState,
    parse_position_text,
    state_from_json,
    state_to_json,
)

_START = PathwayzState()


class Pathwayz(Game[PathwayzState, Move]):
    """Connect column a to column l on an 8x12 board; seat 0 is White and moves first."""

    interface = 1
    key = "pathwayz"
    title = "Pathwayz"
    ai = "engine.pathwayz.ai:AI"
    seat_counts = (2,)
    seat_names = COLOUR_NAMES
    move_example = "c5"
    move_help = (
        "type a cell like c5 for a piece of your colour, or c5* (also p c5) for a "
        "permanent piece of your opponent's colour that flips the pieces around it"
    )

    # ---- construction and serialisation ------------------------------------------

    def new_state(
        self, seats: int = 2, options: Mapping[str, Any] | None = None
    ) -> PathwayzState:
        self.check_seats(seats)
        self.check_options(options)
        return _START

    def to_json(self, state: PathwayzState) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> PathwayzState:
        return state_from_json(data)

    def parse_position(
        self, text: str, options: Mapping[str, Any] | None = None
    ) -> PathwayzState:
        self.check_options(options)
        return parse_position_text(text)

    # ---- playing -----------------------------------------------------------------

    def to_move(self, state: PathwayzState) -> int | None:
        return None if rules.outcome(state) is not None else state.turn

    def parse_move(self, state: PathwayzState, text: str) -> Move:
        move = read_move(text)
        self._check(state, move)
        return move

    def well_formed_moves(self, state: PathwayzState) -> list[Move]:
        """A normal and a permanent piece on every empty cell: all of them legal."""
        return rules.legal_moves(state)

    def legal_moves(self, state: PathwayzState) -> list[Move]:
        return rules.legal_moves(state)

    def apply(self, state: PathwayzState, move: Move) -> PathwayzState:
        self._check(state, move)
        return rules.place(state, move)

    def _check(self, state: PathwayzState, move: Move) -> None:
        result = rules.outcome(state)
        if result is not None:
            raise GameOverError(f"the game is over: {result.reason}")
        rules.check_move(state, move)

    def outcome(self, state: PathwayzState) -> Outcome | None:
        return rules.outcome(state)

    def notation(self, move: Move) -> str:
        return notation(move)

    def moves_played(self, state: PathwayzState) -> int:
        return state.occupied.bit_count()  # one piece a move; flips never empty a cell

    def reason_said(self, state: PathwayzState, outcome: Outcome) -> str:
        return rules.reason_said(state, outcome)

    def describe_position(self, state: PathwayzState) -> str:
        """Each colour's pieces by cell, a permanent one marked ``*`` as in moves."""

        def cells(mask: int) -> list[str]:
            return [CELL_NAMES[i] + ("*" if state.permanent >> i & 1 else "")
                    for i in range(len(CELL_NAMES)) if mask >> i & 1]

        return " ".join([pieces_of("White", cells(state.white)),
                         pieces_of("Black", cells(state.black)),
                         label("A * marks a permanent piece.")])

    def last_move(self, state: PathwayzState) -> str | None:
        move = state.last_move()
        return None if move is None else notation(move)

    def status(self, state: PathwayzState) -> str:
        result = rules.outcome(state)
        if result is not None:
            reason = rules.reason_said(state, result)
            if result.winner is None:
                return label("Draw: {reason}", reason=reason)
            return label("{who} wins: {reason}", who=label(COLOUR_NAMES[result.winner]),
                         reason=reason)
        move = state.last_move()
        if move is not None and move.permanent:
            flipped = state.flipped.bit_count()
            return (label("{move} flipped 1 piece", move=notation(move)) if flipped == 1
                    else label("{move} flipped {n} pieces", move=notation(move), n=flipped))
        return ""

    # ---- images and analysis -----------------------------------------------------

    def render(
        self,
        state: PathwayzState,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
        verdict: str | None = None,
    ) -> bytes:
        from engine.pathwayz.render import render

        return render(state, hints=hints, names=names, verdict=verdict)

    def analyze(self, state: PathwayzState) -> JSON:
        """Piece counts, chains, and how many empty cells each colour still needs.

        ``needs`` ignores flips: it is the fewest empty cells that, filled with
        normal pieces of that colour, would join a to l (null when walled off).
        """
        result = rules.outcome(state)
        data: JSON = {
            "to_move": self.to_move(state),
            "last": self.last_move(state),
            "flipped": [CELL_NAMES[i] for i in range(CELLS) if state.flipped & BIT[i]],
            "empty": CELLS - state.occupied.bit_count(),
            "permanent": state.permanent.bit_count(),
        }
        for colour in (WHITE, BLACK):
            own = state.white if colour == WHITE else state.black
            other = state.black if colour == WHITE else state.white
            route = cheapest_route(own, other)
            data[COLOUR_NAMES[colour].lower()] = {
                "pieces": own.bit_count(),
                "permanent": (own & state.permanent).bit_count(),
                "in_column_a": bool(own & COL_A),
                "in_column_l": bool(own & COL_L),
                "chain": [CELL_NAMES[i] for i in shortest_chain(own)] if connects(own) else [],
                "needs": None if route is None else route[0],
                "route": None if route is None else [CELL_NAMES[i] for i in route[1]],
            }
        data["over"] = result is not None
        data["winner"] = None if result is None else result.winner
        data["reason"] = None if result is None else result.reason
        data["legal"] = len(self.legal_moves(state))
        return data
