"""Cairo Corridor (Markus Hagenauer, 2013) as a garnet game.

Moves are canonical cell names ("DL"). Seat 0, the First Player, places black pieces;
seat 1 red ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cairo.geometry import INDEX, NAMES, names_of
from engine.cairo.notation import MOVE_HELP, incomplete_cell, parse_cell, parse_position
from engine.cairo.rules import Analysis, analyse
from engine.cairo.state import SEAT_NAMES, TIE_RULES, CairoState
from engine.game import (
    JSON,
    Game,
    GameOverError,
    MoveError,
    OptionSpec,
    Outcome,
    pieces_of,
)
from engine.labels import label

Move = str

_TIE_PHRASES = {
    "first-player-loses": "a tie, and on a tie the First Player loses",
    "last-mover-loses": "a tie, and on a tie whoever placed the last piece loses",
    "draw": "a tie: the game is drawn",
}


class CairoCorridor(Game[CairoState, Move]):
    interface: ClassVar[int] = 1
    key: ClassVar[str] = "cairo"
    title: ClassVar[str] = "Cairo Corridor"
    aliases: ClassVar[tuple[str, ...]] = ("cairo corridor", "cairo-corridor", "cc")
    ai: ClassVar[str | None] = "engine.cairo.ai:AI"
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "tie",
            TIE_RULES[0],
            TIE_RULES,
            "who wins on equal scores: the First Player loses (Death Match rule), "
            "the last mover loses (Board Game Arena), or a draw",
            words=(("first-player-loses", "in a tie the First Player loses"),
                   ("last-mover-loses", "in a tie the player who moved last loses"),
                   ("draw", "a tie is a draw")),
            aliases=(("first-loses", "first-player-loses"), ("last-loses", "last-mover-loses")),
        ),
    )
    move_help: ClassVar[str] = MOVE_HELP
    move_example: ClassVar[str] = "D left"

    # ---- construction and serialisation -------------------------------------------

    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> CairoState:
        self.check_seats(seats)
        return CairoState(tie=str(self.check_options(options)["tie"]))

    def to_json(self, state: CairoState) -> JSON:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> CairoState:
        return CairoState.from_json(data)

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> CairoState:
        return parse_position(text, str(self.check_options(options)["tie"]))

    # ---- playing -------------------------------------------------------------------

    def to_move(self, state: CairoState) -> int | None:
        return None if analyse(state.black | state.red).over else state.turn

    def parse_move(self, state: CairoState, text: str) -> Move:
        index = parse_cell(text)
        self._check_legal(state, index)
        return NAMES[index]

    def incomplete(self, state: CairoState, text: str) -> MoveError | None:
        return incomplete_cell(text)

    def well_formed_moves(self, state: CairoState) -> list[Move]:
        """Every empty cell: which of them are legal is what a player must see."""
        if self.outcome(state) is not None:
            return []
        return names_of(state.empty)

    def legal_moves(self, state: CairoState) -> list[Move]:
        return names_of(analyse(state.black | state.red).legal(state.empty))

    def apply(self, state: CairoState, move: Move) -> CairoState:
        index = INDEX.get(move)
        if index is None:
            raise MoveError(f"'{move}' is not a cell name (AU ... XD)", move).because(
                "cairo.not_a_cell", text=move)
        self._check_legal(state, index)
        bit = 1 << index
        if state.turn == 0:
            return CairoState(state.black | bit, state.red, 1, state.tie, index)
        return CairoState(state.black, state.red | bit, 0, state.tie, index)

    def _check_legal(self, state: CairoState, index: int) -> None:
        analysis = analyse(state.black | state.red)
        name = NAMES[index]
        if analysis.over:
            raise GameOverError("the game is over: the Corridor is closed", name).because(
                "cairo.closed")
        owner = state.owner(index)
        if owner is not None:
            raise MoveError(f"{name} is already taken by {SEAT_NAMES[owner]}", name).because(
                "cairo.taken", cell=name, owner=SEAT_NAMES[owner])
        if analysis.critical >> index & 1:
            raise MoveError(f"{name} would leave no Corridor", name).because(
                "cairo.no_corridor", cell=name)

    def outcome(self, state: CairoState) -> Outcome | None:
        analysis = analyse(state.black | state.red)
        if not analysis.over:
            return None
        scores = _scores(state, analysis)
        reason = f"the Corridor is closed: Black {scores[0]}, Red {scores[1]}"
        if scores[0] != scores[1]:
            return Outcome(0 if scores[0] > scores[1] else 1, False, scores, reason)
        reason += "; " + _TIE_PHRASES[state.tie]
        if state.tie == "draw":
            return Outcome(None, True, scores, reason)
        if state.tie == "first-player-loses":
            return Outcome(1, False, scores, reason)
        # The seat to move did not place the last piece: the other one did.
        return Outcome(state.turn, False, scores, reason)

    def reason_said(self, state: CairoState, outcome: Outcome) -> str:
        """``outcome.reason`` in the language of the labels."""
        assert outcome.scores is not None
        scores = label(", ").join(label("{colour} {n}", colour=label(SEAT_NAMES[seat]), n=n)
                                  for seat, n in enumerate(outcome.scores))
        reason = label("the Corridor is closed: {scores}", scores=scores)
        if outcome.scores[0] != outcome.scores[1]:
            return reason
        return label("{reason}; {tie}", reason=reason, tie=label(_TIE_PHRASES[state.tie]))

    def notation(self, move: Move) -> str:
        return move

    def moves_played(self, state: CairoState) -> int:
        return state.placed

    def describe_position(self, state: CairoState) -> str:
        return " ".join(pieces_of(colour, names_of(mask))
                        for colour, mask in (("Black", state.black), ("Red", state.red)))

    def last_move(self, state: CairoState) -> str | None:
        return NAMES[state.last] if state.last is not None else None

    def status(self, state: CairoState) -> str:
        result = self.outcome(state)
        if result is not None:
            return _result_line(result)
        # While the game runs there is nothing to add to "X to move" that would not be
        # a hint (the running score tells where the Corridor is).
        return ""

    # ---- images --------------------------------------------------------------------

    def warm_up(self) -> None:
        """Build every cell's tile in every look (the render workers' warm-up), so that no
        board builds one: 1,008 tiles, 0.15 s."""
        from engine.cairo.render import build_tiles

        build_tiles()

    def render(
        self,
        state: CairoState,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
        verdict: str | None = None,
    ) -> bytes:
        from engine.cairo.render import render

        return render(state, self.outcome(state), hints=hints, names=names, verdict=verdict)

    # ---- analysis ------------------------------------------------------------------

    def analyze(self, state: CairoState) -> JSON:
        analysis = analyse(state.black | state.red)
        return {
            "corridor": names_of(analysis.region),
            "critical": names_of(analysis.critical),
            "legal": names_of(analysis.legal(state.empty)),
            "over": analysis.over,
            "score": list(_scores(state, analysis)),
        }


def _scores(state: CairoState, analysis: Analysis) -> tuple[int, int]:
    return (
        (state.black & analysis.adjacent).bit_count(),
        (state.red & analysis.adjacent).bit_count(),
    )


def _result_line(result: Outcome) -> str:
    assert result.scores is not None
    black, red = result.scores
    if result.winner is None:
        return f"Game over · Black {black}, Red {red} · draw"
    return f"Game over · Black {black}, Red {red} · {SEAT_NAMES[result.winner]} wins"
