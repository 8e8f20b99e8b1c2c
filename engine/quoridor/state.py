"""A Quoridor position as an immutable value, the seats' layouts, and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.game import JSON, MoveError, PositionError
from engine.quoridor.geometry import (
    COLUMNS,
    ROWS,
    distance,
    geometry,
    has_legal_wall,
    pawn_targets,
)
from engine.quoridor.notation import (
    Move,
    PawnMove,
    WallMove,
    parse_square,
    read_move,
    square_name,
    wall_name,
)


@dataclass(frozen=True)
class Layout:
    """Where the seats of a 2- or 4-player game start, what they aim for, what they hold."""

    names: tuple[str, ...]
    starts: tuple[int, ...]
    goals: tuple[int, ...]  # the goal edge of each seat, as a set of squares
    goal_names: tuple[str, ...]
    walls: int  # walls each seat starts with


LAYOUTS = {
    2: Layout(
        names=("White", "Black"),
        starts=(4, 76),  # e1, e9
        goals=(ROWS[8], ROWS[0]),
        goal_names=("row 9", "row 1"),
        walls=10,
    ),
    4: Layout(
        names=("White", "Red", "Black", "Blue"),
        starts=(4, 36, 76, 44),  # e1, a5, e9, i5
        goals=(ROWS[8], COLUMNS[8], ROWS[0], COLUMNS[0]),
        goal_names=("row 9", "column i", "row 1", "column a"),
        walls=5,
    ),
}

DEFAULT_PLY_CAP = 300
MAX_PLY_CAP = 10_000  # the most a host may set: a match's plies stay bounded


@dataclass(frozen=True)
class QuoridorState:
    """A position: everything the rules need, nothing derived.

    ``walls`` holds, per seat, the wall places that seat has filled (bitmask, see
    ``geometry``), so an image can tint walls by who placed them. ``turn`` is the seat to
    move while the game runs; seats that had to pass before it are in ``passed``.
    An eliminated seat's pawn is off the board (its square here means nothing) and
    its walls stay. ``ply`` counts moves made (passes are not moves).
    """

    pawns: tuple[int, ...]
    walls: tuple[int, ...]
    walls_left: tuple[int, ...]
    turn: int
    ply: int = 0
    last: Move | None = None
    last_from: int | None = None
    passed: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    ply_cap: int = DEFAULT_PLY_CAP

    @property
    def seats(self) -> int:
        return len(self.pawns)

    @property
    def layout(self) -> Layout:
        return LAYOUTS[len(self.pawns)]

    @property
    def all_walls(self) -> int:
        union = 0
        for mask in self.walls:
            union |= mask
        return union

    @property
    def active(self) -> list[int]:
        """Seats still in the game, in turn order."""
        return [s for s in range(len(self.pawns)) if s not in self.eliminated]

    def occupied(self, besides: int) -> int:
        """The squares of the active pawns other than seat ``besides``'s."""
        occ = 0
        for seat, sq in enumerate(self.pawns):
            if seat != besides and seat not in self.eliminated:
                occ |= 1 << sq
        return occ

    def runners(self) -> list[tuple[int, int]]:
        """(square, goal) of every active pawn: the paths the walls must leave open."""
        goals = self.layout.goals
        return [(sq, goals[s]) for s, sq in enumerate(self.pawns) if s not in self.eliminated]


def start_state(seats: int, ply_cap: int) -> QuoridorState:
    layout = LAYOUTS[seats]
    return QuoridorState(
        pawns=layout.starts,
        walls=(0,) * seats,
        walls_left=(layout.walls,) * seats,
        turn=0,
        ply_cap=ply_cap,
    )


# ---- JSON ----------------------------------------------------------------------------

def state_to_json(state: QuoridorState) -> JSON:
    return {
        "seats": state.seats,
        "pawns": [square_name(sq) for sq in state.pawns],
        "walls": [[wall_name(b) for b in _bits(mask)] for mask in state.walls],
        "walls_left": list(state.walls_left),
        "turn": state.turn,
        "ply": state.ply,
        "last": str(state.last) if state.last is not None else None,
        "last_from": square_name(state.last_from) if state.last_from is not None else None,
        "passed": list(state.passed),
        "eliminated": list(state.eliminated),
        "ply_cap": state.ply_cap,
    }


def _bits(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


def state_from_json(data: Mapping[str, Any]) -> QuoridorState:
    """Rebuild a state, checking it could arise in a game; PositionError says what is wrong."""
    try:
        return _from_json(data)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PositionError(f"malformed Quoridor state: {exc!r}") from None


def _seat_list(data: Mapping[str, Any], key: str, seats: int) -> list[Any]:
    value = data[key]
    if not isinstance(value, list) or len(value) != seats:
        raise PositionError(f"'{key}' must be a list of {seats} entries")
    return value


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _from_json(data: Mapping[str, Any]) -> QuoridorState:
    seats = data["seats"]
    if seats not in LAYOUTS:
        raise PositionError(f"Quoridor is played by 2 or 4 players, not {seats!r}")
    layout = LAYOUTS[seats]
    try:
        pawns = tuple(parse_square(str(n)) for n in _seat_list(data, "pawns", seats))
        walls = []
        union = 0
        for names in _seat_list(data, "walls", seats):
            mask = 0
            for name in names:
                move = read_move(str(name))
                if not isinstance(move, WallMove):
                    raise PositionError(f"'{name}' is not a wall")
                bit = move.place
                if not geometry(union).free >> bit & 1:
                    raise PositionError(f"wall {name} overlaps or crosses another wall")
                union |= 1 << bit
                mask |= 1 << bit
            walls.append(mask)
        last = data.get("last")
        last_move = read_move(str(last)) if last is not None else None
        last_from_name = data.get("last_from")
        last_from = parse_square(str(last_from_name)) if last_from_name is not None else None
    except MoveError as exc:
        raise PositionError(f"malformed Quoridor state: {exc}") from None
    walls_left = tuple(
        _int(n, "walls left", 0, layout.walls) for n in _seat_list(data, "walls_left", seats)
    )
    for seat in range(seats):
        if walls[seat].bit_count() + walls_left[seat] != layout.walls:
            raise PositionError(
                f"{layout.names[seat]}'s walls do not add up: {walls[seat].bit_count()} "
                f"placed and {walls_left[seat]} left, not {layout.walls} in all"
            )
    eliminated = tuple(
        sorted({_int(s, "an eliminated seat", 0, seats - 1) for s in data.get("eliminated", [])})
    )
    passed = tuple(_int(s, "a seat that passed", 0, seats - 1) for s in data.get("passed", []))
    state = QuoridorState(
        pawns=pawns,
        walls=tuple(walls),
        walls_left=walls_left,
        turn=_int(data["turn"], "turn", 0, seats - 1),
        ply=_int(data.get("ply", 0), "ply", 0, 1 << 30),
        last=last_move,
        last_from=last_from,
        passed=passed,
        eliminated=eliminated,
        ply_cap=_int(data.get("ply_cap", DEFAULT_PLY_CAP), "ply_cap", 1, 1 << 30),
    )
    if state.turn in eliminated:
        raise PositionError(f"{layout.names[state.turn]} is to move but has left the game")
    if last_from is not None and not isinstance(last_move, PawnMove):
        raise PositionError("'last_from' is given but the last move was not a pawn move")
    active = [pawns[s] for s in state.active]
    if len(set(active)) != len(active):
        raise PositionError("two pawns stand on the same square")
    geo = geometry(union)
    for seat in state.active:
        if distance(pawns[seat], layout.goals[seat], geo) is None:
            raise PositionError(f"the walls cut {layout.names[seat]} off from its goal")
    finished = len(state.active) == 1 or state.ply >= state.ply_cap or any(
        layout.goals[s] >> pawns[s] & 1 for s in state.active
    )
    turn = state.turn
    if not finished and not (
        pawn_targets(pawns[turn], state.occupied(turn), geo)
        or (state.walls_left[turn] and has_legal_wall(geo, state.runners()))
    ):
        raise PositionError(f"{layout.names[turn]} is to move but has no move (it would pass)")
    return state


# ---- a short text form, for analysts and tests ---------------------------------------

def parse_position_text(text: str, ply_cap: int) -> QuoridorState:
    """A position from segments separated by ``;``.

    ``White e5 e3h d4v`` puts White's pawn on e5 with the walls White placed;
    ``Red out c6h`` says Red left the game (its walls stay); ``turn Black``,
    ``ply 40`` and ``players 4`` set the rest. Naming Red or Blue implies 4 players.
    Seats not named stand on their start squares with no walls placed; each seat has
    the walls it did not place left.
    """
    rows = [segment.split() for segment in text.split(";") if segment.strip()]
    seats = 4 if any(words[0].lower() in ("red", "blue") for words in rows) else 2
    for words in rows:
        if words[0].lower() == "players":
            if len(words) != 2 or words[1] not in ("2", "4"):
                raise PositionError(f"'{' '.join(words)}': Quoridor is played by 2 or 4 players")
            if seats == 4 and words[1] == "2":
                raise PositionError("Red and Blue play only in 4-player games")
            seats = int(words[1])
    layout = LAYOUTS[seats]
    index = {name.lower(): seat for seat, name in enumerate(layout.names)}
    pawns = [square_name(sq) for sq in layout.starts]
    walls: list[list[str]] = [[] for _ in range(seats)]
    eliminated: list[int] = []
    turn = 0
    ply = 0
    for words in rows:
        head = words[0].lower()
        segment = " ".join(words)
        if head == "players":
            continue
        if head in ("turn", "ply") and len(words) != 2:
            raise PositionError(f"'{segment}' needs one value, as in 'turn Black' or 'ply 12'")
        if head == "turn":
            if words[1].lower() not in index:
                raise PositionError(f"'{segment}': no seat {words[1]} ({', '.join(layout.names)})")
            turn = index[words[1].lower()]
        elif head == "ply":
            if not words[1].isdigit():
                raise PositionError(f"'{segment}': ply is a whole number")
            ply = int(words[1])
        elif head in index and len(words) >= 2:
            seat = index[head]
            if words[1].lower() == "out":
                eliminated.append(seat)
            else:
                pawns[seat] = words[1]
            walls[seat] = words[2:]
            if len(walls[seat]) > layout.walls:
                raise PositionError(
                    f"{layout.names[seat]} placed {len(walls[seat])} walls; "
                    f"each player has {layout.walls}"
                )
        else:
            raise PositionError(
                f"'{segment}' is not understood: write '<colour> <square> [walls]', "
                "'<colour> out', 'turn <colour>' or 'ply <n>'"
            )
    return state_from_json(
        {
            "seats": seats,
            "pawns": pawns,
            "walls": walls,
            "walls_left": [layout.walls - len(placed) for placed in walls],
            "turn": turn,
            "ply": ply,
            "eliminated": eliminated,
            "ply_cap": ply_cap,
        }
    )
