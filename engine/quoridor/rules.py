"""The rules of Quoridor for 2 or 4 players, as docs/rules/quoridor.md pins them
down: pure functions from states (and moves) to states, moves and results."""

from __future__ import annotations

from dataclasses import replace

from engine.game import EngineError, GameOverError, MoveError, Outcome
from engine.labels import label
from engine.quoridor.geometry import (
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
    square_name,
    wall_name,
)
from engine.quoridor.state import QuoridorState

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


def outcome(state: QuoridorState) -> Outcome | None:
    """The result: a pawn on its goal, the last seat left, or a draw at the ply cap."""
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


def legal_moves(state: QuoridorState) -> list[Move]:
    """Every legal move of the seat to move; none once the game is over."""
    if outcome(state) is not None:
        return []
    seat = state.turn
    geo = geometry(state.all_walls)
    targets = pawn_targets(state.pawns[seat], state.occupied(seat), geo)
    moves: list[Move] = [PAWN_MOVES[sq] for sq in bits(targets)]
    if state.walls_left[seat]:
        moves.extend(_wall_moves(legal_walls(geo, state.runners())))
    return moves


def apply(state: QuoridorState, move: Move) -> QuoridorState:
    """The state after ``move``; GameOverError or MoveError when it may not be played."""
    over = outcome(state)
    if over is not None:
        raise GameOverError(f"the game is over: {over.reason}", str(move))
    check(state, move)
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
    turn, passed = next_turn(after, seat)
    return replace(after, turn=turn, passed=passed)


def eliminate(state: QuoridorState, seat: int) -> QuoridorState:
    """Take a seat out of a 4-player game; its walls stay, its pawn leaves the board."""
    if state.seats == 2:
        raise EngineError("a 2-player game of Quoridor ends when a player leaves it")
    over = outcome(state)
    if over is not None:
        raise GameOverError(f"the game is over: {over.reason}")
    if not 0 <= seat < state.seats:
        raise EngineError(f"there is no seat {seat} (seats 0 to {state.seats - 1})")
    if seat in state.eliminated:
        raise EngineError(f"{state.layout.names[seat]} has already left the game")
    after = replace(state, eliminated=tuple(sorted((*state.eliminated, seat))))
    if seat != state.turn:
        return after
    turn, passed = next_turn(after, seat)
    return replace(after, turn=turn, passed=passed)


def distances(state: QuoridorState) -> list[int | None]:
    """Each pawn's fewest steps to its goal, walls considered and pawns not."""
    layout = state.layout
    geo = geometry(state.all_walls)
    return [
        None if s in state.eliminated else distance(state.pawns[s], layout.goals[s], geo)
        for s in range(state.seats)
    ]


def status(state: QuoridorState) -> str:
    """Passes, the result, walls left and seats that left, for the line under a board
    (in the language of ``engine.labels``)."""
    parts = [label("{colour} had no move and passed", colour=colour_label(state, s))
             for s in state.passed]
    over = outcome(state)
    if over is not None:
        parts.append(reason_said(state, over))
    left = label(", ").join(
        label("{colour} {n}", colour=colour_label(state, s), n=state.walls_left[s])
        for s in state.active)
    parts.append(label("walls left: {left}", left=left))
    parts.extend(label("{colour} left the game", colour=colour_label(state, s))
                 for s in state.eliminated)
    return "; ".join(parts)


def reason_said(state: QuoridorState, over: Outcome) -> str:
    """``over.reason`` in the language of the labels."""
    if over.winner is None:
        return label("no one reached their goal in {n} plies", n=state.ply_cap)
    return reason_label(state, over.winner)


def colour_label(state: QuoridorState, seat: int) -> str:
    return label(state.layout.names[seat])  # "White", "Red", "Black", "Blue"


def goal_label(state: QuoridorState, seat: int) -> str:
    kind, _, which = state.layout.goal_names[seat].partition(" ")
    return label("row {row}", row=which) if kind == "row" else label("column {column}",
                                                                      column=which)


def reason_label(state: QuoridorState, winner: int) -> str:
    """What the rules say of a win (``outcome``), in the language of the labels."""
    if state.layout.goals[winner] >> state.pawns[winner] & 1:
        return label("{colour} reached {goal}", colour=colour_label(state, winner),
                     goal=goal_label(state, winner))
    return label("the others left the game")


def check(state: QuoridorState, move: Move) -> None:
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
        moves = tuple(square_name(sq) for sq in bits(targets))
        if target == start:
            raise MoveError(f"{name}'s pawn is already on {token}; {where}", token).because(
                "quoridor.already_there", seat=name, square=token, moves=moves)
        reach = f"{name}'s pawn on {here} " + (
            f"can go to {options}" if options else "cannot move; place a wall"
        )
        for other, sq in enumerate(state.pawns):
            if sq == target and other not in state.eliminated:
                raise MoveError(
                    f"{layout.names[other]}'s pawn stands on {token}; {reach}", token
                ).because("quoridor.pawn_there", other=layout.names[other], square=token,
                          seat=name, here=here, moves=moves)
        if blocked_step(start, target, geo):
            raise MoveError(f"a wall stands between {here} and {token}; {reach}",
                            token).because("quoridor.wall_between", square=token, seat=name,
                                           here=here, moves=moves)
        raise MoveError(f"{name}'s pawn on {here} cannot reach {token}; {where}",
                        token).because("quoridor.out_of_reach", square=token, seat=name,
                                       here=here, moves=moves)
    assert isinstance(move, WallMove)
    token = wall_name(move.place)
    if not state.walls_left[seat]:
        raise MoveError(f"{name} has no walls left and must move the pawn", token).because(
            "quoridor.no_walls", seat=name)
    bit = move.place
    if not geo.free >> bit & 1:
        for other in bits(FORBIDS[bit] & state.all_walls):
            if other == bit:
                raise MoveError(f"there is already a wall at {token}", token).because(
                    "quoridor.wall_there", wall=token)
            how = "crosses" if (other >= 64) != (bit >= 64) else "overlaps"
            raise MoveError(f"{token} {how} the wall {wall_name(other)}", token).because(
                f"quoridor.{how}", wall=token, other=wall_name(other))
    active = state.active
    cut = cut_off(geo, bit, state.runners())
    if cut:
        whom = _names(
            [f"{layout.names[active[i]]} off from {layout.goal_names[active[i]]}"
             for i in cut]
        )
        raise MoveError(f"{token} would cut {whom}", token).because(
            "quoridor.cuts", wall=token,
            cut=tuple((layout.names[active[i]], layout.goal_names[active[i]]) for i in cut))


def next_turn(state: QuoridorState, after: int) -> tuple[int, tuple[int, ...]]:
    """The next seat after ``after`` that can act, and the seats that had to pass."""
    n = state.seats
    active = state.active
    following = [s for s in ((after + k) % n for k in range(1, n + 1)) if s in active]
    if outcome(state) is not None:
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
