"""``/practice``: a match against the computer player, which thinks in a worker."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select

from bot.core.clock import VirtualClock
from bot.core.enums import MatchStatus
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.services.matches import MatchConfig
from bot.services.workers import Workers, think_job
from bot.store.db import open_database
from bot.store.models import LedgerEntry, Match, MatchResult, Rating, RatingChange
from tests.bot.conftest import ALICE, CHAN, GUILD, Harness
from tests.fixtures import bot_process
from tests.recording import Recording

BOT1 = "garnet-ai:1"


async def test_practice_starts_says_unrated_and_the_bot_answers(h: Harness) -> None:
    host = h.host.matches
    r = await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 1)
    text = r.posts[0].text
    assert "not rated" in text and "Practice #1" in text
    assert "garnet AI, level 1" in text
    live = host.live[1]
    assert live.users == ["alice", BOT1]
    await h.play(ALICE, "D left")
    await host.practice.idle()
    assert live.ply == 2 and live.to_move == 0
    assert "garnet AI, level 1 (Red) played" in h.delivered[-1].text
    assert h.delivered[-1].image is not None


@pytest.mark.parametrize(("game", "move"), [("quoridor", "e2"), ("pathwayz", "f4"),
                                           ("sigma", "T4 3.3")])
async def test_every_game_has_a_practice_opponent(h: Harness, game: str, move: str) -> None:
    host = h.host.matches
    r = await h.host.practice.start(Asker(GUILD, CHAN, ALICE), game, 1)
    assert "not rated" in r.posts[0].text and "Practice #1" in r.posts[0].text
    live = host.live[1]
    assert live.users == ["alice", BOT1]
    await h.play(ALICE, move)
    await host.practice.idle()
    assert live.ply >= 2 and live.to_move == 0
    assert "garnet AI, level 1" in h.delivered[-1].text and "played" in h.delivered[-1].text


async def test_the_bot_moves_first_and_thinks_in_the_executor(h: Harness) -> None:
    host = h.host.matches
    recording = Recording()
    host.practice.workers.use(recording)
    await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 2, first="bot")
    live = next(iter(host.live.values()))
    assert live.users[0] == "garnet-ai:2"
    # The event loop is free while the computer thinks: it answers other work at once.
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while not live.ply:
            ticks += 1
            await asyncio.sleep(0)

    await asyncio.gather(ticker(), host.practice.idle())
    assert live.ply == 1 and recording.jobs == ["think_job"]
    assert ticks > 1


async def test_the_bot_moves_within_its_budget_deterministically() -> None:
    from engine.registry import get_game

    game = get_game("cairo")
    state = game.new_state(2)
    one = think_job("cairo", state, 1, seed=5, seconds=1.0)
    two = think_job("cairo", state, 1, seed=5, seconds=1.0)
    assert one == two
    game.parse_move(state, one.move)


async def test_on_the_virtual_clock_the_computer_searches_its_node_budget_under_any_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Workers.fixed`` (the console on its virtual clock, the golden transcripts): a
    machine so slow that every look at the clock finds the move time gone stops the
    capped search early, and leaves the fixed one's move and judgement as they were."""
    from types import SimpleNamespace

    import engine.cairo.ai as cairo_ai
    from engine.registry import get_game

    state = get_game("cairo").new_state(2)
    idle = think_job("cairo", state, 1, seed=5, seconds=1.0)
    assert idle == think_job("cairo", state, 1, seed=5, seconds=0.0)
    ticks = iter(range(0, 10**9, 100))  # 100 s between two looks at the clock
    monkeypatch.setattr(cairo_ai, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    capped, fixed = Workers(0), Workers(0, fixed=True)
    try:
        slow = await capped.think("cairo", state, 1, seed=5, seconds=1.0)
        assert slow.nodes < idle.nodes  # stopped by its move time
        assert await fixed.think("cairo", state, 1, seed=5, seconds=1.0) == idle
    finally:
        capped.close()
        fixed.close()


async def test_a_practice_match_books_nothing(h: Harness) -> None:
    host = h.host.matches
    await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 1)
    await h.play(ALICE, "D left")
    await host.practice.idle()
    r = await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None)
    assert "wins Practice #1" in r.posts[0].text
    async with h.db.session() as s:
        match = await s.get(Match, 1)
        assert match is not None and match.status == MatchStatus.FINISHED
        assert not match.rated
        for model in (MatchResult, Rating, RatingChange, LedgerEntry):
            assert await s.scalar(select(func.count()).select_from(model)) == 0, model


async def test_a_game_to_the_end_against_the_bot(h: Harness) -> None:
    host = h.host.matches
    await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 1)
    live = host.live[1]
    rng = random.Random(3)
    while not live.finished:
        move = rng.choice(live.game.legal_moves(live.state))
        await h.play(ALICE, live.game.notation(move))
        await host.practice.idle()
    async with h.db.session() as s:
        assert await s.scalar(select(func.count()).select_from(MatchResult)) == 0
        match = await s.get(Match, 1)
        assert match is not None and match.status == MatchStatus.FINISHED


async def test_after_a_restart_the_bot_thinks_again(database_url: str) -> None:
    db1 = await open_database(database_url)
    clock1 = VirtualClock()
    host1 = bot_process(db1, clock1, MatchConfig())
    await host1.start()
    await host1.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 1)
    # The bot dies while its computer player thinks: its move is never applied.
    host1.practice.wake = lambda live: None  # type: ignore[method-assign]
    host1.kit.on_turn = host1.practice.wake
    await host1.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    assert host1.live[1].ply == 1

    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    db2 = await open_database(database_url)
    host2 = bot_process(db2, VirtualClock(start=clock1.now() + 60), MatchConfig(),
                        deliver=deliver)  # its computer player thinks in a thread
    await host2.start()
    await host2.practice.idle()
    live = host2.live[1]
    assert live.ply == 2 and live.to_move == 0
    assert "garnet AI, level 1 (Red) played" in posts[-1].text
    await host2.stop()
    await host1.stop()
    await db1.close()
    await db2.close()


async def test_a_computer_move_the_database_refused_is_saved_when_it_can(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    host = h.host.matches
    await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 1)
    live = host.live[1]
    real = host.practice.play.machine_move
    refusals = []

    async def locked_once(*args: object) -> object:
        if not refusals:
            refusals.append(1)
            raise OperationalError("INSERT INTO moves", {}, Exception("database is locked"))
        return await real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(host.practice.play, "machine_move", locked_once)
    await h.play(ALICE, "D left")
    await host.practice.idle()
    assert refusals and live.ply == 1 and live.to_move == 1  # not given up: waiting
    await h.clock.advance(5)
    await host.practice.idle()
    assert live.ply == 2 and live.to_move == 0
    assert "could not find a move" not in " ".join(p.text for p in h.delivered)
