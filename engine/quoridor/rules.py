"""The game of Quoridor for 2 or 4 players, as /work/shared/rules/quoridor.md pins it down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.game import (
    JSON,
    EngineError,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionError,
    OptionSpec,
    Outcome,
)
from engine.quoridor.board import (
    FORBIDS,
    bits,
    blocked_step,
    cut_off,
    distance,
    geometry,
    has_legal_wall,
    legal_walls,
    pawn_targets,
)
from engine.quoridor.notation import (
    PAWN_MOVES,
    WALL_MOVES,
    Move,
    PawnMove,
    WallMove,
    read_move,
    square_name,
    wall_name,
)
from engine.quoridor.state import (
    DEFAULT_PLY_CAP,
    QuoridorState,
    parse_position_text,
    start_state,
    state_from_json,
    state_to_json,
)

# The wall moves of each byte value of each byte of a 128-bit place mask, so that a
# mask turns into a move list in 16 steps rather than one per wall.
_WALLS_BY_BYTE = tuple(
    tuple(tuple(WALL_MOVES[8 * i + b] for b in range(8) if value >> b & 1) for value in range(256))
    for i in range(16)
)


def _wall_moves(mask: int) -> list[Move]:
    moves: list[Move] = []
    for table in _WALLS_BY_BYTE:
        if mask & 255:
            moves.extend(table[mask & 255])
        mask >>= 8
    return moves


def _names(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class Quoridor(Game[QuoridorState, Move]):
    key = "quoridor"
    title = "Quoridor"
    seat_counts = (2, 4)
    option_specs = (
        OptionSpec(
            name="ply-cap",
            default=DEFAULT_PLY_CAP,
            choices=None,
            help="a game with more plies than this is a draw",
        ),
    )
    move_help = (
        "name the square your pawn goes to (e2), or place a wall by the square nearest "
        "a1 that it touches plus h or v (e3h, e3v)"
    )

    # ---- construction and serialisation -------------------------------------------

    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> QuoridorState:
        self.check_seats(seats)
        cap = int(self.check_options(options)["ply-cap"])
        if cap < 1:
            raise OptionError(f"option 'ply-cap' must be at least 1, not {cap}")
        return start_state(seats, cap)

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
        return None if self.outcome(state) is not None else state.turn

    def parse_move(self, state: QuoridorState, text: str) -> Move:
        over = self.outcome(state)
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
        self._check(state, move)
        return move

    def legal_moves(self, state: QuoridorState) -> list[Move]:
        if self.outcome(state) is not None:
            return []
        seat = state.turn
        geo = geometry(state.all_walls)
        targets = pawn_targets(state.pawns[seat], state.occupied(seat), geo)
        moves: list[Move] = [PAWN_MOVES[sq] for sq in bits(targets)]
        if state.walls_left[seat]:
            moves.extend(_wall_moves(legal_walls(geo, state.runners())))
        return moves

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
                moves = self.legal_moves(state)
                if not moves:
                    break
                pawns = [m for m in moves if isinstance(m, PawnMove)]
                walls = [m for m in moves if not isinstance(m, PawnMove)]
                pick = rng.choice(walls) if walls and rng.random() < 0.3 else rng.choice(
                    pawns or walls)
                after = self.apply(state, pick)
                if self.outcome(after) is not None:
                    break
                state = after
            if any(state.walls_left) and self.outcome(state) is None:
                positions.append(state)
        return positions

    def apply(self, state: QuoridorState, move: Move) -> QuoridorState:
        over = self.outcome(state)
        if over is not None:
            raise GameOverError(f"the game is over: {over.reason}", str(move))
        self._check(state, move)
        seat = state.turn
        if isinstance(move, PawnMove):
            pawns = list(state.pawns)
            pawns[seat] = move.square
            after = replace(
                state,
                pawns=tuple(pawns),
                ply=state.ply + 1,
                last=move,
                last_from=state.pawns[seat],
            )
        else:
            walls = list(state.walls)
            walls[seat] |= 1 << move.place
            left = list(state.walls_left)
            left[seat] -= 1
            after = replace(
                state,
                walls=tuple(walls),
                walls_left=tuple(left),
                ply=state.ply + 1,
                last=move,
                last_from=None,
            )
        turn, passed = self._next_turn(after, seat)
        return replace(after, turn=turn, passed=passed)

    def outcome(self, state: QuoridorState) -> Outcome | None:
        layout = state.layout
        active = state.active
        for seat in active:
            if layout.goals[seat] >> state.pawns[seat] & 1:
                reason = f"{layout.names[seat]} reached {layout.goal_names[seat]}"
                return Outcome(winner=seat, draw=False, scores=None, reason=reason)
        if len(active) == 1:
            return Outcome(winner=active[0], draw=False, scores=None,
                           reason="the others left the game")
        if state.ply >= state.ply_cap:
            return Outcome(winner=None, draw=True, scores=None,
                           reason=f"no one reached their goal in {state.ply_cap} plies")
        return None

    def notation(self, move: Move) -> str:
        return str(move)

    def last_move(self, state: QuoridorState) -> str | None:
        return str(state.last) if state.last is not None else None

    def status(self, state: QuoridorState) -> str:
        names = state.layout.names
        parts = [f"{names[s]} had no move and passed" for s in state.passed]
        over = self.outcome(state)
        if over is not None:
            parts.append(over.reason)
        left = ", ".join(f"{names[s]} {state.walls_left[s]}" for s in state.active)
        parts.append(f"walls left: {left}")
        parts.extend(f"{names[s]} left the game" for s in state.eliminated)
        return "; ".join(parts)

    # ---- seats leaving a 4-player game --------------------------------------------

    def eliminate(self, state: QuoridorState, seat: int) -> QuoridorState:
        if state.seats == 2:
            raise EngineError("a 2-player game of Quoridor ends when a player leaves it")
        over = self.outcome(state)
        if over is not None:
            raise GameOverError(f"the game is over: {over.reason}")
        if not 0 <= seat < state.seats:
            raise EngineError(f"there is no seat {seat} (seats 0 to {state.seats - 1})")
        if seat in state.eliminated:
            raise EngineError(f"{state.layout.names[seat]} has already left the game")
        after = replace(state, eliminated=tuple(sorted((*state.eliminated, seat))))
        if seat != state.turn:
            return after
        turn, passed = self._next_turn(after, seat)
        return replace(after, turn=turn, passed=passed)

    # ---- images and analysis ---------------------------------------------------------

    def render(
        self,
        state: QuoridorState,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
    ) -> bytes:
        from engine.quoridor.render import render

        return render(self, state, hints=hints, names=names)

    def analyze(self, state: QuoridorState) -> JSON:
        return {
            "to_move": self.to_move(state),
            "distances": self.distances(state),
            "walls_left": list(state.walls_left),
            "legal_moves": len(self.legal_moves(state)),
        }

    def distances(self, state: QuoridorState) -> list[int | None]:
        """Each pawn's fewest steps to its goal, walls considered and pawns not."""
        layout = state.layout
        geo = geometry(state.all_walls)
        return [
            None if s in state.eliminated else distance(state.pawns[s], layout.goals[s], geo)
            for s in range(state.seats)
        ]

    # ---- helpers ---------------------------------------------------------------------

    def _check(self, state: QuoridorState, move: Move) -> None:
        """Raise MoveError saying precisely why ``move`` is illegal for the seat to move."""
        seat = state.turn
        layout = state.layout
        name = layout.names[seat]
        geo = geometry(state.all_walls)
        if isinstance(move, PawnMove):
            start = state.pawns[seat]
            targets = pawn_targets(start, state.occupied(seat), geo)
            target = move.square
            if targets >> target & 1:
                return
            token = square_name(target)
            here = square_name(start)
            options = ", ".join(square_name(sq) for sq in bits(targets))
            where = f"it can go to {options}" if options else "it cannot move; place a wall"
            if target == start:
                raise MoveError(f"{name}'s pawn is already on {token}; {where}", token)
            reach = f"{name}'s pawn on {here} " + (
                f"can go to {options}" if options else "cannot move; place a wall"
            )
            for other, sq in enumerate(state.pawns):
                if sq == target and other not in state.eliminated:
                    raise MoveError(
                        f"{layout.names[other]}'s pawn stands on {token}; {reach}", token
                    )
            if blocked_step(start, target, geo):
                raise MoveError(f"a wall stands between {here} and {token}; {reach}", token)
            raise MoveError(f"{name}'s pawn on {here} cannot reach {token}; {where}", token)
        assert isinstance(move, WallMove)
        token = wall_name(move.place)
        if not state.walls_left[seat]:
            raise MoveError(f"{name} has no walls left and must move the pawn", token)
        bit = move.place
        if not geo.free >> bit & 1:
            for other in bits(FORBIDS[bit] & state.all_walls):
                if other == bit:
                    raise MoveError(f"there is already a wall at {token}", token)
                how = "crosses" if (other >= 64) != (bit >= 64) else "overlaps"
                raise MoveError(f"{token} {how} the wall {wall_name(other)}", token)
        active = state.active
        cut = cut_off(geo, bit, state.runners())
        if cut:
            whom = _names(
                [f"{layout.names[active[i]]} off from {layout.goal_names[active[i]]}"
                 for i in cut]
            )
            raise MoveError(f"{token} would cut {whom}", token)

    def _next_turn(self, state: QuoridorState, after: int) -> tuple[int, tuple[int, ...]]:
        """The next seat after ``after`` that can act, and the seats that had to pass."""
        n = state.seats
        active = state.active
        following = [s for s in ((after + k) % n for k in range(1, n + 1)) if s in active]
        if self.outcome(state) is not None:
            return following[0], ()
        geo = geometry(state.all_walls)
        passed: list[int] = []
        for seat in following:
            if pawn_targets(state.pawns[seat], state.occupied(seat), geo):
                return seat, tuple(passed)
            if state.walls_left[seat] and has_legal_wall(geo, state.runners()):
                return seat, tuple(passed)
            passed.append(seat)
        # Unreachable while every pawn has a path to its goal: the squares reachable
        # from a pawn hold its goal edge, so they cannot all be taken by pawns without
        # some pawn standing on its goal; then one of those pawns borders an empty one.
        raise AssertionError("no seat can move")
