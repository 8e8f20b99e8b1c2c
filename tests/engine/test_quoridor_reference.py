"""Move generation against a slow, obvious reference implementation of the rules."""

from __future__ import annotations

import random

from engine.quoridor import PawnMove, Quoridor, QuoridorState
from tests.engine.quoridor_reference import (
    GOALS,
    LETTERS,
    Wall,
    name_of,
    ref_wall_ok,
    reference_moves,
)

game = Quoridor()

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
