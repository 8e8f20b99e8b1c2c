"""A slow, obvious reference implementation of Quoridor's move generation, which the
engine's is held to (test_quoridor_reference, test_quoridor_perft)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.quoridor import Quoridor, QuoridorState

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
