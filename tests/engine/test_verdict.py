"""A game ended by time, a resignation or a host: its final image says so where it said
whose turn it was, and shows no one to move."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.services.render import _render_job
from engine.registry import get_game

VERDICT = "Bob wins: Alice ran out of time"
# Where each game marks the player to move, and in which colour: Cairo Corridor's and
# Sigma Escape's "to play" pill, Quoridor's highlighted row, Pathwayz's outlined name.
TURN_MARK = {
    "cairo": ((560, 850, 760, 940), (255, 193, 7)),
    "quoridor": ((14, 950, 886, 1060), (236, 226, 208)),
    "pathwayz": ((30, 5, 920, 65), (52, 88, 150)),
    "sigma": ((840, 686, 940, 922), (255, 193, 7)),
}
# Within a box, what is no mark: Sigma Escape's hands between its two pills (the gold
# badges of White's last cards).
NOT_MARK = {"sigma": (840, 724, 940, 884)}


def _position(key: str) -> tuple[Any, Any]:
    game = get_game(key)
    rng = random.Random(8)
    state = game.new_state(game.seat_counts[0])
    for _ in range(7):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert game.outcome(state) is None
    return game, state


def _count(image: Image.Image, box: tuple[int, int, int, int],
           colour: tuple[int, int, int], hide: tuple[int, int, int, int] | None = None) -> int:
    image = image.copy()
    if hide is not None:
        image.paste((0, 0, 0), hide)
    data = image.crop(box).tobytes()
    return sum(1 for i in range(0, len(data), 3)
               if all(abs(data[i + k] - colour[k]) <= 6 for k in range(3)))


@pytest.mark.parametrize("key", sorted(TURN_MARK))
def test_the_verdict_replaces_whose_turn_it_is(key: str) -> None:
    game, state = _position(key)
    names = ["Alice", "Bob"]
    playing = Image.open(io.BytesIO(game.render(state, names=names))).convert("RGB")
    ended = Image.open(io.BytesIO(game.render(state, names=names, verdict=VERDICT)))
    ended = ended.convert("RGB")
    assert ended.size == playing.size
    box, colour = TURN_MARK[key]
    hide = NOT_MARK.get(key)
    assert _count(playing, box, colour, hide) > 1000
    assert _count(ended, box, colour, hide) < 100  # anti-aliased edges of other things


def test_the_bot_draws_the_verdict_on_the_board() -> None:
    game, state = _position("cairo")
    plain = Image.open(io.BytesIO(_render_job("cairo", state, False, ["Alice", "Bob"])))
    ended = Image.open(io.BytesIO(_render_job("cairo", state, False, ["Alice", "Bob"],
                                              VERDICT)))
    assert ended.size == plain.size  # no band below: the board itself says it
    assert game.render(state, names=["Alice", "Bob"], verdict=VERDICT) == _render_job(
        "cairo", state, False, ["Alice", "Bob"], VERDICT)
