"""Random Sigma Escape games against a slow, direct reading of docs/rules/sigma-escape.md:
on the default deck, played under the variant open-sides (§2), and on the third
reconstruction, played under the page's own settlements."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sigma import SigmaEscape, SigmaState

GAME = SigmaEscape()
DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
ORDER = "NESW"
Cell = tuple[int, int]


def table(state: SigmaState) -> tuple[dict[Cell, tuple[int, int]], list[tuple[int, Cell, str]]]:
    """From the JSON only: each cell's (colour, card number) and every arrow
    (card number, cell, direction) of every card, presets first."""
    data = GAME.to_json(state)
    deck = data["deck"]
    cards: list[tuple[int, list[Cell], list[tuple[Cell, str]]]] = []

    def lay(card: dict[str, object], turns: int, at: list[int], colour: int) -> None:
        rows = card["cells"]
        assert isinstance(rows, list)
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
        arrows = []
        for text in card["arrows"]:  # type: ignore[attr-defined]
            r, c, d = text.split(",")
            arrows.append(((int(r), int(c)), d))
        for _ in range(turns):  # a quarter turn clockwise: (r, c) -> (c, -r), N -> E ...
            cells = [(c, -r) for r, c in cells]
            arrows = [((c, -r), ORDER[(ORDER.index(d) + 1) % 4]) for (r, c), d in arrows]
        cards.append((colour, [(at[0] + r, at[1] + c) for r, c in cells],
                      [((at[0] + r, at[1] + c), d) for (r, c), d in arrows]))

    for preset in deck["presets"]:
        lay(preset, 0, preset["at"], 0 if preset["colour"] == "white" else 1)
    for placed in data["placed"]:
        hand = deck["white" if placed["seat"] == 0 else "black"]
        card = next(c for c in hand if c["name"] == placed["card"])
        lay(card, placed["turns"], placed["at"], placed["seat"])
    shown: dict[Cell, tuple[int, int]] = {}
    arrows = []
    for number, (colour, cells, card_arrows) in enumerate(cards):
        for cell in cells:
            shown[cell] = (colour, number)
        arrows += [(number, cell, d) for cell, d in card_arrows]
    return shown, arrows


def next_to(cell: Cell, d: str) -> Cell:
    return cell[0] + DIRS[d][0], cell[1] + DIRS[d][1]


def main_group(shown: dict[Cell, tuple[int, int]]) -> set[Cell]:
    group = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        cell = todo.pop()
        for d in ORDER:
            nb = next_to(cell, d)
            if nb not in group and shown.get(nb, (1, 0))[0] == 0:
                group.add(nb)
                todo.append(nb)
    return group


def blanks(shown: dict[Cell, tuple[int, int]]) -> set[Cell]:
    return {next_to(c, d) for c in main_group(shown) for d in ORDER} - set(shown)


def reference_legal(state: SigmaState, seat: int) -> set[str]:
    shown, arrows = table(state)
    group = main_group(shown)
    data = GAME.to_json(state)
    # open-sides: a side is usable only while the cell it points at is empty.
    open_only = "open-sides" in data["deck"].get("rules", [])
    sides = sorted(
        (cell, ORDER.index(d)) for number, cell, d in arrows
        if shown[cell] == (seat, number) and (seat == 1 or cell in group)
        and not (open_only and next_to(cell, d) in shown)
    )
    hand = data["deck"]["white" if seat == 0 else "black"]
    left = {c["name"]: c["count"] for c in hand}
    for placed in data["placed"]:
        if placed["seat"] == seat:
            left[placed["card"]] -= 1
    out = set()
    for number, (cell, d_index) in enumerate(sides, start=1):
        d = ORDER[d_index]
        target = next_to(cell, d)
        for card in hand:
            if not left[card["name"]]:
                continue
            rows = card["cells"]
            cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
            for a, text in enumerate(card["arrows"], start=1):
                r, c, e = text.split(",")
                ac = (int(r), int(c))
                laid_cells = [(x - ac[0], y - ac[1]) for x, y in cells]
                while e != ORDER[(d_index + 2) % 4]:  # turn until it points back
                    laid_cells = [(y, -x) for x, y in laid_cells]
                    e = ORDER[(ORDER.index(e) + 1) % 4]
                final = [(target[0] + x, target[1] + y) for x, y in laid_cells]
                if (0, 0) in final:
                    continue
                if seat == 0 and any(shown.get(f, (0, 0))[0] == 1 for f in final):
                    continue
                out.add(f"{card['name']} {number}.{a}")
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(("reconstructed", "reconstructed-v3")))
def test_random_games_agree_with_the_reference_and_end_in_time(seed: int, deck: str) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(options={"deck": deck})
    placements = 0
    while GAME.outcome(state) is None:
        seat = GAME.to_move(state)
        assert seat is not None
        moves = GAME.legal_moves(state)
        names = [GAME.notation(m) for m in moves]
        assert set(names) == reference_legal(state, seat) and len(names) == len(set(names))
        assert moves, "the seat to move can always place"
        move = rng.choice(moves)
        assert GAME.parse_move(state, GAME.notation(move)) == move
        state = GAME.apply(state, move)
        placements += 1
        assert GAME.from_json(GAME.to_json(state)) == state
        shown, _ = table(state)
        assert blanks(shown) == set(state.board.blanks)
    outcome = GAME.outcome(state)
    assert outcome is not None and not outcome.draw
    assert placements <= 19 and state.passes <= 2
    assert GAME.to_move(state) is None and GAME.legal_moves(state) == []
    shown, _ = table(state)
    assert outcome.winner == (1 if not blanks(shown) else 0)


def greedy_black(state: SigmaState, rng: random.Random) -> object:
    """Black picks the placement leaving fewest blank spaces; White plays at random."""
    moves = GAME.legal_moves(state)
    if GAME.to_move(state) == 0:
        return rng.choice(moves)
    return min(moves, key=lambda m: (len(GAME.apply(state, m).board.blanks), rng.random()))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_games_with_a_purposeful_black_end_and_the_winner_matches_the_blanks(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state()
    placements = 0
    while GAME.outcome(state) is None:
        state = GAME.apply(state, greedy_black(state, rng))  # type: ignore[arg-type]
        placements += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert placements <= 19
    assert outcome.winner == (1 if not state.board.blanks else 0)
    if outcome.winner == 0:
        assert state.passes == 2 or not any(state.board.hands[0] + state.board.hands[1])


def test_black_sometimes_wins_and_passes_occur() -> None:
    rng = random.Random(7)
    winners = set()
    passes = 0
    for _ in range(60):
        state = GAME.new_state()
        while GAME.outcome(state) is None:
            state = GAME.apply(state, greedy_black(state, rng))  # type: ignore[arg-type]
            passes += state.passes
        outcome = GAME.outcome(state)
        assert outcome is not None
        winners.add(outcome.winner)
    assert winners == {0, 1}
    assert passes > 0
