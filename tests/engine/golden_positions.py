"""The positions of the golden image set, and how to write it again.

``tests/engine/golden/*.png`` are boards as the renderers drew them before boards were
drawn in palette mode (true-colour composition, then the palette): the pixel tests
compare every renderer's output with them. Run ``python -m tests.engine.golden_positions
--game KEY`` to write one game's boards again after an intended change of its pictures
(only that game's files are written; without ``--game``, every game's), and look at
them. A new game's boards are drawn by its ``render`` (the public interface) and held
to it pixel for pixel: add its positions to ``CASES``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from engine.game import Game
from engine.registry import get_game

GOLDEN = Path(__file__).with_name("golden")


class Golden(NamedTuple):
    game: str
    label: str
    seats: int
    plies: int  # random moves from the start (seeded); -1: to the end of the game
    seed: int
    hints: bool
    names: tuple[str, ...] | None

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.game}-{self.label}.png"


CASES = (
    Golden("cairo", "start", 2, 0, 1, False, ("Alice", "Bob")),
    Golden("cairo", "mid-hints", 2, 23, 3, True, ("Alice", "Bob")),
    Golden("cairo", "late", 2, 41, 4, False, None),
    Golden("cairo", "end", 2, -1, 5, False, ("Alice", "Bob")),
    Golden("quoridor", "mid", 2, 30, 1, True, ("Alice", "Bob")),
    Golden("quoridor", "4p", 4, 40, 2, False, ("Ann", "Bob", "Cy", "Di")),
    Golden("quoridor", "end", 2, -1, 3, False, ("Alice", "Bob")),
    Golden("pathwayz", "mid", 2, 30, 1, True, ("Alice", "Bob")),
    Golden("pathwayz", "end", 2, -1, 2, False, ("Alice", "Bob")),
    Golden("sigma", "mid", 2, 8, 1, False, ("Alice", "Bob")),
    Golden("sigma", "end", 2, -1, 2, False, ("Alice", "Bob")),
)


def state_of(case: Golden) -> tuple[Game[Any, Any], Any]:
    game = get_game(case.game)
    rng = random.Random(case.seed)
    # Sigma Escape's boards are those of the first reconstruction, a deck that never
    # changes.
    options = {"deck": "reconstructed-v1"} if case.game == "sigma" else None
    state = game.new_state(case.seats, options)
    count = 0
    while game.outcome(state) is None and (case.plies < 0 or count < case.plies):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        count += 1
    return game, state


# The boards of these games are as they were drawn before the palette-mode rewrite (true
# colour, then a palette fitted to the picture), which ``test_golden`` holds the
# palette-mode boards close to; every other game's as its ``render`` draws them today,
# held to them exactly.
BEFORE_PALETTES = {"quoridor", "pathwayz"}


def renders(games: set[str] | None = None) -> Iterator[tuple[Golden, bytes]]:
    """The golden boards of ``games`` (None: every game's)."""
    import importlib

    from engine.imaging import to_png

    for case in CASES:
        if games is not None and case.game not in games:
            continue
        game, state = state_of(case)
        names = list(case.names) if case.names is not None else None
        if case.game in BEFORE_PALETTES:
            render = importlib.import_module(f"engine.{case.game}.render")
            yield case, to_png(render._compose(state, case.hints, names, None))
        else:
            yield case, game.render(state, hints=case.hints, names=names)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.golden_positions")
    parser.add_argument("--game", action="append", help="write only this game's boards "
                        "(repeatable; default: every game's)")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(exist_ok=True)
    for case, png in renders(set(args.game) if args.game else None):
        case.path.write_bytes(png)
        print(case.path, len(png))


if __name__ == "__main__":
    main()
