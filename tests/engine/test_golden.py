"""Boards drawn in palette mode are the boards drawn before, pixel for pixel where the
palette stayed, and closer to the true colours where it changed.

The golden set (``golden_positions``) was drawn by the renderers before the palette-mode
rewrite: they composed the whole picture in true colour and mapped it to a palette. Cairo
Corridor and Sigma Escape kept their fixed palettes, so their boards must be identical.
Quoridor and Pathwayz fitted a new palette to every picture (octree); they now share one
fixed palette per game, fitted once per process by maximum coverage and k-means, so
their pixels differ by a level or so everywhere: the test bounds that difference and
checks that the new boards are closer to the true-colour drawing than the old ones.
"""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image, ImageChops, ImageStat

from .golden_positions import BEFORE_PALETTES, CASES, Golden, state_of

# The renderers whose internals the tiles test knows (a new game's boards are held to
# the golden set by ``test_boards_match_the_golden_set`` alone, exactly).
OWN = {"cairo", "sigma", *BEFORE_PALETTES}


def _rgb(data: bytes | Image.Image) -> Image.Image:
    image = Image.open(io.BytesIO(data)) if isinstance(data, bytes) else data
    return image.convert("RGB")


def _mean(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _render(case: Golden) -> tuple[Image.Image, object]:
    game, state = state_of(case)
    names = list(case.names) if case.names is not None else None
    return _rgb(game.render(state, hints=case.hints, names=names)), state


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.game}-{c.label}")
def test_boards_match_the_golden_set(case: Golden) -> None:
    new, _ = _render(case)
    old = _rgb(Image.open(case.path))
    assert new.size == old.size
    if case.game not in BEFORE_PALETTES:
        assert ImageChops.difference(new, old).getbbox() is None
        return
    assert _mean(new, old) < 1.5
    far = ImageChops.difference(new, old).convert("L").point(lambda v: 255 if v > 24 else 0)
    assert far.histogram()[255] < 50  # a few pixels of anti-aliased edges at most


@pytest.mark.parametrize("case", [c for c in CASES if c.game in BEFORE_PALETTES],
                         ids=lambda c: f"{c.game}-{c.label}")
def test_new_palettes_are_closer_to_the_true_colours(case: Golden) -> None:
    new, state = _render(case)
    render = importlib.import_module(f"engine.{case.game}.render")
    names = list(case.names) if case.names is not None else None
    truth = render._compose(state, case.hints, names, None)
    assert _mean(new, truth) < 0.8 * _mean(_rgb(Image.open(case.path)), truth)


@pytest.mark.parametrize("case", [c for c in CASES if c.game in OWN],
                         ids=lambda c: f"{c.game}-{c.label}")
def test_tiles_add_up_to_the_whole_drawing(case: Golden) -> None:
    """Drawing in palette mode gives exactly the true-colour drawing mapped to the
    palette (Sigma Escape: lines, fills and text drawn straight in palette entries)."""
    new, state = _render(case)
    render = importlib.import_module(f"engine.{case.game}.render")
    names = list(case.names) if case.names is not None else None
    if case.game == "sigma":
        truth = render.board_image(state, names)
        palette = render._fixed()
    elif case.game == "cairo":
        game, _ = state_of(case)
        truth = render._compose(state, game.outcome(state), case.hints, names, None)
        palette = render._art().palette
    else:
        truth = render._compose(state, case.hints, names, None)
        palette = render._palette()
    expected = _rgb(palette.quantize(truth))
    assert ImageChops.difference(new, expected).getbbox() is None


def _truth(game_key: str, state: object, hints: bool, names: list[str],
           verdict: str | None) -> Image.Image:
    """The whole picture drawn in true colour and mapped to the game's palette."""
    render = importlib.import_module(f"engine.{game_key}.render")
    if game_key == "sigma":
        return _rgb(render._fixed().quantize(render.board_image(state, names, verdict)))
    if game_key == "cairo":
        from engine.registry import get_game

        outcome = get_game("cairo").outcome(state)
        truth = render._compose(state, outcome, hints, names, verdict)
        return _rgb(render._art().palette.quantize(truth))
    return _rgb(render._palette().quantize(render._compose(state, hints, names, verdict)))


@pytest.mark.parametrize(("game_key", "seats"), [("cairo", 2), ("quoridor", 2), ("quoridor", 4),
                                                 ("pathwayz", 2), ("sigma", 2)])
def test_boards_of_a_whole_game_add_up_to_the_whole_drawing(game_key: str, seats: int) -> None:
    """Every tenth board of a random game, hints on and off, a verdict at the end, and
    each board twice (its legend rows, badges and hands then come from the caches):
    exactly the true-colour drawing mapped to the palette."""
    import random

    from engine.registry import get_game

    game = get_game(game_key)
    rng = random.Random(11)
    options = {"deck": "reconstructed-v1"} if game_key == "sigma" else None
    state = game.new_state(seats, options)
    names = ["Alice", "Bob", "Carol", "Dave"][:seats]
    boards = []
    while game.outcome(state) is None:
        if len(boards) % 10 == 0:
            boards.append((state, len(boards) % 20 == 0, None))
        else:
            boards.append(None)
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    boards = [b for b in boards if b is not None]
    boards += [(state, False, None), (boards[-1][0], False, "Alice resigned: Bob wins")]
    for state, hints, verdict in boards:
        truth = _truth(game_key, state, hints and verdict is None, names, verdict)
        for _ in range(2):
            drawn = game.render(state, hints=hints, names=names, verdict=verdict)
            assert ImageChops.difference(_rgb(drawn), truth).getbbox() is None
