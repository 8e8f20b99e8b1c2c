"""Sigma Escape's exact endgame: a position solved to the end of the game.

Levels 4 and 5 search a few plies within a small node budget, and in the last third of
a game that budget can miss a win an exact solve proves (docs/sigma-deck.md §9: level
5's Black threw away 2 of 24 games so). So, once few enough cards are left in the two
hands, the top levels first solve the position to the end within a node budget of its
own (``ENDGAME``) and play the first placement proved won; where the solve proves
nothing within it, or proves every placement lost, they search as before.

The solve is the player's own search (``values`` with a window of ±1: only won or lost
is asked) to a depth past every end, in C where it is built and in Python where not,
node for node the same (tests/engine/test_sigma_native.py). The balance meter's solve
of its openings (``engine.balance.solve``) is the same proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple, Protocol

Move = tuple[int, int, int]

#: Per level: (the most cards left in the two hands at which the level solves, the
#: solve's node budget). In games of level 5 against itself on the default deck a
#: solve with 10 or 11 cards left took 0.06 to 0.8 million nodes where it finished
#: within 1.5 million (some did not), with 9 at most 0.12 million (docs/sigma-deck.md
#: §9). A solve to the end runs at about 230,000 nodes a second in C (every node
#: orders its placements), so level 5 may spend up to 2.6 s a move on its last few
#: placements; in play the solve has at most half the move time (``SigmaPlayer``).
ENDGAME: dict[int, tuple[int, int]] = {4: (9, 200_000), 5: (11, 600_000)}


class Solver(Protocol):
    def values(self, moves: list[Move], depth: int, margin: float,
               window: float = 0.0) -> list[float] | None: ...


class Proof(NamedTuple):
    """``won``: the first placement proved won for the mover; ``lost``: every placement
    proved lost; neither: the budget ran out first."""

    won: Move | None
    lost: bool

    @property
    def known(self) -> bool:
        return self.won is not None or self.lost


def proofs(search: Solver, moves: list[Move], cards: int) -> Iterator[bool]:
    """Solve the root's ``moves`` (the search started at it), in their order, to past
    the end of a game with ``cards`` cards left in the two hands (every placement uses
    one, and passes use no depth): won (True) or lost for the mover, each, until the
    budget runs out (then no more)."""
    depth = cards + 2
    for move in moves:
        found = search.values([move], depth, 0.0, window=1.0)
        if found is None:
            return
        yield found[0] > 0


def prove(search: Solver, moves: list[Move], cards: int) -> Proof:
    """The first of ``moves`` proved won (``proofs``), or whether all are lost."""
    solved = 0
    for move, won in zip(moves, proofs(search, moves, cards), strict=False):  # may stop early
        if won:
            return Proof(move, False)
        solved += 1
    return Proof(None, solved == len(moves))
