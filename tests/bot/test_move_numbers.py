"""Numbers said one way (issue 28): the move number on a board image, in the text
beside it (``/board``, the post of a move) and in ``/match`` agree, for every game of
the registry, passes counted (``Game.moves_played``, ``engine.game.after_move``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import engine.sigma.pen
import engine.sigma.render
import engine.text
from bot.core.requests import Asker
from bot.services.history_queries import match_record
from bot.services.history_view import match_texts
from engine.animation import Ply, numbered
from engine.game import after_move
from engine.registry import game_keys, get_game
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, Harness


@contextmanager
def drawn_texts() -> Iterator[list[str]]:
    """Every text the boards draw while inside (the image's captions, as drawn)."""
    seen: list[str] = []
    engine.sigma.render.forget()  # nothing kept from boards drawn before
    art, tile = engine.text.text_art, engine.sigma.pen.text_tile

    def text_art(text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(text)
        return art(text, *args, **kwargs)

    def text_tile(text: str, *args: Any) -> Any:
        seen.append(text)
        return tile(text, *args)

    engine.text.text_art = text_art  # type: ignore[assignment]
    engine.sigma.pen.text_tile = text_tile  # type: ignore[assignment]
    try:
        yield seen
    finally:
        engine.text.text_art = art  # type: ignore[assignment]
        engine.sigma.pen.text_tile = tile  # type: ignore[assignment]


def said(texts: list[str], played: int) -> bool:
    words = after_move(played).lower()
    return any(words in t.lower() for t in texts)


@pytest.mark.parametrize("key", game_keys())
def test_each_board_image_says_the_moves_played_passes_counted(key: str) -> None:
    game = get_game(key)
    for seed in (1, 255):
        rng = random.Random(seed)
        state = game.new_state(game.seat_counts[0])
        count = 0
        while game.outcome(state) is None and count < 60:
            with drawn_texts() as seen:
                game.render(state, names=["Alice", "Bob", "Carol", "Dan"])
            assert game.moves_played(state) == count
            assert said(seen, count), (key, count, seen[-6:])
            assert not said(seen, count + 1)
            before = state
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            count += 1 + game.passes_after(before, state)


#: The deck the seeded games with a pass below were found on.
V1 = {"deck": "reconstructed-v1"}


def test_a_sigma_pass_is_a_move_of_its_own_on_the_board_and_in_the_list() -> None:
    game = get_game("sigma")
    rng = random.Random(255)  # White cannot place after Black's 16th move: a pass
    state, plies = game.new_state(2, V1), []
    for _ in range(16):
        move = rng.choice(game.legal_moves(state))
        plies.append(Ply("move", game.to_move(state) or 0, game.notation(move)))
        state = game.apply(state, move)
    assert state.passes == 1 and game.moves_played(state) == 17
    assert "White passed (move 17" in game.status(state)
    with drawn_texts() as seen:
        game.render(state)
    assert said(seen, 17)
    steps = numbered(game, plies, 2, V1)
    assert [(s.number, s.ply is None, s.seat) for s in steps[-2:]] == [
        (16, False, 1), (17, True, 0)]


@pytest.mark.parametrize("key", game_keys())
async def test_board_text_post_image_and_match_agree(h: Harness, key: str) -> None:
    match_id = await h.casual(key, first="me")
    live = h.host.live[match_id]
    users = {0: ALICE, 1: BOB}
    rng = random.Random(3)
    for _ in range(7):
        state = live.state
        seat = live.game.to_move(state)
        assert seat is not None
        move = live.game.notation(rng.choice(live.game.legal_moves(state)))
        before = live.game.moves_played(state)
        with drawn_texts() as image:
            played = await h.play(users[seat], move)
        (post,) = played.posts
        assert f"move {before + 1}: " in post.text  # the move's own number
        played_now = live.game.moves_played(live.state)
        assert said(image, played_now)
        with drawn_texts() as image:
            board = await h.host.viewing.board(Asker(GUILD, CHAN, ALICE), match_id)
        assert board.reply is not None
        where = after_move(played_now)
        assert f"{where[:1].upper()}{where[1:]}." in board.reply.text
        assert said(image, played_now)
    record = await match_record(h.db, GUILD, match_id)
    assert record is not None
    (text,) = match_texts(record)
    assert f"{played_now} moves so far" in text
    assert f"\n{played_now}. " in text or f"   {played_now}. " in text


async def test_match_and_export_show_a_sigma_pass_as_a_move(h: Harness) -> None:
    from bot.services.exports import export_matches

    match_id = await h.casual("sigma", first="me", options=V1)
    live = h.host.live[match_id]
    rng = random.Random(255)  # as above: White cannot place after Black's 16th move
    for _ in range(16):
        seat = live.game.to_move(live.state)
        move = rng.choice(live.game.legal_moves(live.state))
        await h.play({0: ALICE, 1: BOB}[seat], live.game.notation(move))
    assert live.game.moves_played(live.state) == 17
    record = await match_record(h.db, GUILD, match_id)
    assert record is not None
    (text,) = match_texts(record)
    assert "17 moves so far" in text
    assert "16. U5 5.2  0:00\n17. pass" in text  # White's pass, in White's column
    (exported,) = await export_matches(h.db)
    assert [(m["number"], m["event"], m["seat"]) for m in exported["moves"][-2:]] == [
        (16, "move", 1), (17, "pass", 0)]


def test_a_replay_numbers_its_frames_as_the_boards_do() -> None:
    from engine.animation import animate

    game = get_game("sigma")
    rng = random.Random(255)
    state, plies = game.new_state(2, V1), []
    for _ in range(16):
        move = rng.choice(game.legal_moves(state))
        plies.append(Ply("move", game.to_move(state) or 0, game.notation(move)))
        state = game.apply(state, move)
    with drawn_texts() as seen:
        animate(game, plies, 2, V1, ["Alice", "Bob"], "Unfinished", width=300)
    assert "16/17 · Bob (Black): U5 5.2, then a pass" in seen
    assert "15/17 · Alice (White): " in " ".join(seen)
