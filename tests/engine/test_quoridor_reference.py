"""Move generation against a slow, obvious reference implementation of the rules."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from engine.quoridor import PawnMove, Quoridor, QuoridorState

game = Quoridor()

# ---- the reference: squares as (column, row), walls as (column, row, "h" | "v") -------

Square = tuple[int, int]
Wall = tuple[int, int, str]
LETTERS = "abcdefghi"
GOALS: dict[int, list[Callable[[Square], bool]]] = {
    2: [lambda s: s[1] == 8, lambda s: s[1] == 0],
    4: [lambda s: s[1] == 8, lambda s: s[0] == 8, lambda s: s[1] == 0, lambda s: s[0] == 0],
}
STEPS = [(0, 1), (0, -1), (1, 0), (-1, 0)]


def on_board(s: Square) -> bool:
    return 0 <= s[0] < 9 and 0 <= s[1] < 9


def blocked(walls: set[Wall], a: Square, b: Square) -> bool:
    if a[1] == b[1]:  # a step between two columns of one row
        c, r = min(a[0], b[0]), a[1]
        return (c, r, "v") in walls or (c, r - 1, "v") in walls
    c, r = a[0], min(a[1], b[1])
    return (c, r, "h") in walls or (c - 1, r, "h") in walls


def reaches(walls: set[Wall], start: Square, goal: Callable[[Square], bool]) -> bool:
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if goal(here):
            return True
        for dc, dr in STEPS:
            there = (here[0] + dc, here[1] + dr)
            if on_board(there) and there not in seen and not blocked(walls, here, there):
                seen.add(there)
                queue.append(there)
    return False


def ref_pawn_moves(walls: set[Wall], me: Square, others: set[Square]) -> set[Square]:
    out = set()
    for dc, dr in STEPS:
        nxt = (me[0] + dc, me[1] + dr)
        if not on_board(nxt) or blocked(walls, me, nxt):
            continue
        if nxt not in others:
            out.add(nxt)
            continue
        behind = (nxt[0] + dc, nxt[1] + dr)
        if on_board(behind) and not blocked(walls, nxt, behind) and behind not in others:
            out.add(behind)
            continue
        for sc, sr in ((dr, dc), (-dr, -dc)):
            side = (nxt[0] + sc, nxt[1] + sr)
            if on_board(side) and not blocked(walls, nxt, side) and side not in others:
                out.add(side)
    return out


def ref_wall_ok(
    walls: set[Wall], wall: Wall, runners: list[tuple[Square, int]], seats: int
) -> bool:
    c, r, o = wall
    if o == "h":
        conflicts = [(c, r, "h"), (c - 1, r, "h"), (c + 1, r, "h"), (c, r, "v")]
    else:
        conflicts = [(c, r, "v"), (c, r - 1, "v"), (c, r + 1, "v"), (c, r, "h")]
    if any(w in walls for w in conflicts):
        return False
    after = walls | {wall}
    return all(reaches(after, sq, GOALS[seats][seat]) for sq, seat in runners)


def name_of(s: Square) -> str:
    return f"{LETTERS[s[0]]}{s[1] + 1}"


def reference_moves(state: QuoridorState) -> set[str]:
    data = game.to_json(state)
    seats = data["seats"]
    squares = [(LETTERS.index(n[0]), int(n[1]) - 1) for n in data["pawns"]]
    walls = {
        (LETTERS.index(w[0]), int(w[1]) - 1, w[2]) for placed in data["walls"] for w in placed
    }
    active = [s for s in range(seats) if s not in data["eliminated"]]
    turn = data["turn"]
    others = {squares[s] for s in active if s != turn}
    moves = {name_of(t) for t in ref_pawn_moves(walls, squares[turn], others)}
    if data["walls_left"][turn]:
        runners = [(squares[s], s) for s in active]
        for c in range(8):
            for r in range(8):
                for o in "hv":
                    if ref_wall_ok(walls, (c, r, o), runners, seats):
                        moves.add(f"{LETTERS[c]}{r + 1}{o}")
    return moves


def engine_moves(state: QuoridorState) -> set[str]:
    moves = [game.notation(m) for m in game.legal_moves(state)]
    assert len(moves) == len(set(moves)), "legal_moves lists a move twice"
    return set(moves)


# ---- random positions, crowded, with walls ---------------------------------------------------

def crowded_position(rng: random.Random, seats: int) -> QuoridorState | None:
    """Pawns close together and random walls: jumps, side steps and cut-offs galore."""
    layout = ["White", "Black"] if seats == 2 else ["White", "Red", "Black", "Blue"]
    centre = (rng.randrange(9), rng.randrange(9))
    cells = [
        (c, r)
        for c in range(max(0, centre[0] - 1), min(9, centre[0] + 2))
        for r in range(max(0, centre[1] - 1), min(9, centre[1] + 2))
    ]
    if len(cells) < seats:
        return None
    squares = rng.sample(cells, seats)
    goals = GOALS[seats]
    if any(goals[s](squares[s]) for s in range(seats)):
        return None
    runners = [(squares[s], s) for s in range(seats)]
    per_seat: list[list[str]] = [[] for _ in range(seats)]
    walls: set[Wall] = set()
    budget = 10 if seats == 2 else 5
    for _ in range(rng.randrange(0, 4 * budget)):
        wall = (rng.randrange(8), rng.randrange(8), rng.choice("hv"))
        seat = rng.randrange(seats)
        if len(per_seat[seat]) < budget and ref_wall_ok(walls, wall, runners, seats):
            walls.add(wall)
            per_seat[seat].append(f"{LETTERS[wall[0]]}{wall[1] + 1}{wall[2]}")
    text = "; ".join(
        f"{layout[s]} {name_of(squares[s])} {' '.join(per_seat[s])}" for s in range(seats)
    )
    turn = rng.randrange(seats)
    if not reference_moves(game.parse_position(f"{text}; players {seats}")):
        return None
    return game.parse_position(f"{text}; players {seats}; turn {layout[turn]}")


def test_legal_moves_match_the_reference_on_crowded_positions() -> None:
    rng = random.Random(7)
    checked = 0
    jumps = 0
    while checked < 60:
        seats = 2 if checked % 2 else 4
        state = crowded_position(rng, seats)
        if state is None:
            continue
        expected = reference_moves(state)
        assert engine_moves(state) == expected, game.to_json(state)
        start = state.pawns[state.turn]
        jumps += any(
            isinstance(m, PawnMove) and abs(m.square - start) not in (1, 9)
            for m in game.legal_moves(state)
        )
        checked += 1
    assert jumps >= 15  # the sample really exercises jumps


def test_legal_moves_match_the_reference_in_random_games() -> None:
    rng = random.Random(3)
    for seats in (2, 4):
        state = game.new_state(seats)
        while game.outcome(state) is None and state.ply < 80:
            moves = game.legal_moves(state)
            if state.ply % 7 == 0:
                assert engine_moves(state) == reference_moves(state)
            pawn = [m for m in moves if isinstance(m, PawnMove)]
            state = game.apply(state, rng.choice(pawn if pawn and rng.random() < 0.6 else moves))
