"""Quoridor (Mirko Marchesi, 1997) for 2 or 4 players as a garnet game.

Moves are algebraic: a square for the pawn ("e2"), or a wall by its anchor square and
h or v ("e3h"). Seat 0 is White and moves first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import (
    JSON,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionSpec,
    Outcome,
)
from engine.labels import label
from engine.quoridor import rules
from engine.quoridor.notation import (
    PAWN_MOVES,
    WALL_MOVES,
    Move,
    PawnMove,
    read_move,
    square_name,
    wall_name,
)
from engine.quoridor.state import (
    DEFAULT_PLY_CAP,
    MAX_PLY_CAP,
    QuoridorState,
    parse_position_text,
    start_state,
    state_from_json,
    state_to_json,
)


class Quoridor(Game[QuoridorState, Move]):
    interface = 1
    key = "quoridor"
    title = "Quoridor"
    ai = "engine.quoridor.ai:AI"
    seat_counts = (2, 4)
    option_specs = (
        OptionSpec(
            name="ply-cap",
            default=DEFAULT_PLY_CAP,
            choices=None,
            help="a game with more plies than this is a draw",
            minimum=1,
            maximum=MAX_PLY_CAP,
            phrase="a draw after {value} plies",
        ),
    )
    move_example = "e2"
    move_help = (
        "name the square your pawn goes to (e2), or place a wall by the square nearest "
        "a1 that it touches plus h or v (e3h, e3v)"
    )

    # ---- construction and serialisation -------------------------------------------

    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> QuoridorState:
        self.check_seats(seats)
        return start_state(seats, int(self.check_options(options)["ply-cap"]))

    def parse_position(
        self, text: str, options: Mapping[str, Any] | None = None
    ) -> QuoridorState:
        """A position such as ``White e5 e3h; Black e6 d4v c7h; turn Black``.

        See ``state.parse_position_text`` for the syntax.
        """
        return parse_position_text(text, self.new_state(2, options).ply_cap)

    def to_json(self, state: QuoridorState) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> QuoridorState:
        return state_from_json(data)

    # ---- playing -------------------------------------------------------------------

    def seats(self, state: QuoridorState) -> int:
        return state.seats

    def seat_name(self, state: QuoridorState, seat: int) -> str:
        return state.layout.names[seat]

    def to_move(self, state: QuoridorState) -> int | None:
        return None if rules.outcome(state) is not None else state.turn

    def parse_move(self, state: QuoridorState, text: str) -> Move:
        over = rules.outcome(state)
        try:
            move = read_move(text)
        except NotAMove:
            raise
        except MoveError:
            if over is None:
                raise
            raise GameOverError(f"the game is over: {over.reason}", text.strip()) from None
        if over is not None:
            raise GameOverError(f"the game is over: {over.reason}", text.strip())
        rules.check(state, move)
        return move

    def well_formed_moves(self, state: QuoridorState) -> list[Move]:
        """Every square and every wall place: where a wall would shut a path is for
        the player to see."""
        if rules.outcome(state) is not None:
            return []
        walls = WALL_MOVES if state.walls_left[state.turn] else ()
        return [*PAWN_MOVES, *walls]

    def legal_moves(self, state: QuoridorState) -> list[Move]:
        return rules.legal_moves(state)

    def sample_positions(self, seats: int, rng: Any, count: int) -> list[QuoridorState]:
        """Positions with walls on the board and in hand, where move generation costs.

        Uniformly random play spends every wall within a few plies (walls are most of
        the legal moves), so its middles time pawn moves only; real players mostly
        move and place a wall now and then.
        """
        positions: list[QuoridorState] = []
        while len(positions) < count:
            state = self.new_state(seats)
            for _ in range(rng.randrange(20, 60)):
                moves = rules.legal_moves(state)
                if not moves:
                    break
                pawns = [m for m in moves if isinstance(m, PawnMove)]
                walls = [m for m in moves if not isinstance(m, PawnMove)]
                pick = rng.choice(walls) if walls and rng.random() < 0.3 else rng.choice(
                    pawns or walls)
                after = rules.apply(state, pick)
                if rules.outcome(after) is not None:
                    break
                state = after
            if any(state.walls_left) and rules.outcome(state) is None:
                positions.append(state)
        return positions

    def apply(self, state: QuoridorState, move: Move) -> QuoridorState:
        return rules.apply(state, move)

    def outcome(self, state: QuoridorState) -> Outcome | None:
        return rules.outcome(state)

    def notation(self, move: Move) -> str:
        return str(move)

    def moves_played(self, state: QuoridorState) -> int:
        return state.ply  # a seat with no move passes without a move of its own

    def reason_said(self, state: QuoridorState, outcome: Outcome) -> str:
        return rules.reason_said(state, outcome)

    def describe_position(self, state: QuoridorState) -> str:
        names = state.layout.names
        parts = []
        for seat in range(state.seats):
            pawn = (label("out of the game") if seat in state.eliminated
                    else label("pawn on {square}", square=square_name(state.pawns[seat])))
            walls = [wall_name(b) for b in range(state.walls[seat].bit_length())
                     if state.walls[seat] >> b & 1]
            parts.append(label("{colour}: {pawn}, {n} walls left, walls placed: {walls}.",
                               colour=label(names[seat]), pawn=pawn,
                               n=state.walls_left[seat],
                               walls=label(", ").join(walls) or label("none")))
        return " ".join(parts)

    def last_move(self, state: QuoridorState) -> str | None:
        return str(state.last) if state.last is not None else None

    def status(self, state: QuoridorState) -> str:
        return rules.status(state)

    # ---- seats leaving a 4-player game --------------------------------------------

    def eliminate(self, state: QuoridorState, seat: int) -> QuoridorState:
        return rules.eliminate(state, seat)

    # ---- images and analysis ---------------------------------------------------------

    def warm_up(self) -> None:
        """Build every pawn's, mark's and lone wall's tile, on two and four players'
        boards (the render workers' warm-up), so that no board builds one: 2,832
        tiles, 0.2 s."""
        from engine.quoridor.render import build_tiles

        build_tiles([self.new_state(seats) for seats in self.seat_counts])

    def render(
        self,
        state: QuoridorState,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
        verdict: str | None = None,
    ) -> bytes:
        from engine.quoridor.render import render

        return render(state, hints=hints, names=names, verdict=verdict)

    def analyze(self, state: QuoridorState) -> JSON:
        return {
            "to_move": self.to_move(state),
            "distances": rules.distances(state),
            "walls_left": list(state.walls_left),
            "legal_moves": len(rules.legal_moves(state)),
        }

    def distances(self, state: QuoridorState) -> list[int | None]:
        """Each pawn's fewest steps to its goal, walls considered and pawns not."""
        return rules.distances(state)
