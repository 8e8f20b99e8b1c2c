"""A render worker's warm-up draws every game in every variant (seat count), with hints
and without, so that no first board of a kind builds the artwork it needs."""

from __future__ import annotations

from typing import Any

import pytest

from engine import imaging
from engine.registry import game_keys, get_game


def test_every_game_and_variant_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: set[tuple[str, int, bool]] = set()
    playing: dict[str, int] = {}  # by game, the seat count of the game last started
    for key in game_keys():
        game = get_game(key)

        def new_state(seats: int | None = None, options: Any = None, *, key: str = key,
                      start: Any = game.new_state) -> Any:
            playing[key] = seats or 0
            return start(seats, options)

        def render(state: Any, *, hints: bool = False, key: str = key, **_: Any) -> bytes:
            drawn.add((key, playing[key], hints))  # the drawing itself is not tested here
            return b""

        monkeypatch.setattr(game, "new_state", new_state)
        monkeypatch.setattr(game, "render", render)
    imaging.warm_up()
    expected = {(key, seats, hints) for key in game_keys()
                for seats in get_game(key).seat_counts for hints in (False, True)}
    assert expected <= drawn


@pytest.mark.parametrize(("key", "caches"), [("cairo", ["_placed"]),
                                              ("quoridor", ["_pawn_tile", "_mark_tile"])])
def test_after_the_games_own_warm_up_no_board_builds_a_tile(key: str,
                                                             caches: list[str]) -> None:
    # Random games at the warm-up leave most cells, squares and walls unseen, so a
    # fresh worker's first boards built their tiles (Cairo Corridor's first board:
    # 3.3 ms of CPU, 1.1 ms after this); the game's own warm-up builds them all.
    import importlib
    import random

    game = get_game(key)
    render = importlib.import_module(f"engine.{key}.render")
    game.warm_up()
    built = [getattr(render, name).cache_info().misses for name in caches]
    rng = random.Random(5)
    for seats in game.seat_counts:
        state = game.new_state(seats)
        while game.outcome(state) is None:
            if rng.random() < 0.2:
                game.render(state, hints=rng.random() < 0.5)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert [getattr(render, name).cache_info().misses for name in caches] == built
