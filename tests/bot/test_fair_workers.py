"""The bar of issue 27: one user's level-5 practice games and reviews do not slow
another server's practice move. The computer player's jobs wait per server and user
in a fair queue (``bot.services.jobs``); a user and a server may have only so many
practice games going, and reviews waiting."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import pytest

from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.services import workers as workers_module
from bot.services.history import History
from bot.services.matches import practice
from bot.services.workers import Workers
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, Harness

OTHER = "g2"


class Stalls:
    """Level-5 searches and reviews that run until the test lets them go; every other
    job is the real one. Records the order the jobs started in."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started: list[str] = []
        self.think = workers_module.think_job

    def think_job(self, game_key: str, state: Any, level: int, seed: int,
                  seconds: float) -> Any:
        self.started.append(f"think{level}")
        if level == 5:
            self.go.wait(30)
        return self.think(game_key, state, 1, seed, seconds)

    def review_job(self, *args: Any) -> Any:
        self.started.append("review")
        self.go.wait(30)
        raise RuntimeError("not needed")


async def _until(test: Any, seconds: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not test():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_one_users_jobs_do_not_slow_another_servers_practice_move(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    stalls = Stalls()
    monkeypatch.setattr(workers_module, "think_job", stalls.think_job)
    monkeypatch.setattr(workers_module, "review_job", stalls.review_job)
    host = h.host.matches
    workers = host.practice.workers
    try:
        # Alice: a finished match to review, and three level-5 games, the bot to move.
        await h.casual()
        await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None)
        history = History(h.db, host.renderer, workers=workers)
        review = asyncio.create_task(history.review(GUILD, 1, ALICE.id))
        for channel in ("c2", "c3", "c4"):
            await h.host.practice.start(Asker(GUILD, channel, ALICE), "cairo", 5, first="bot")
        await _until(lambda: stalls.started.count("think5") == 1
                     and "review" in stalls.started)
        assert workers.moves.queue.load(GUILD) == 3  # one thinking, two waiting
        # Another server's practice move is played at once, beside Alice's first search.
        await host.practice.start(Asker(OTHER, "o1", BOB), "cairo", 1, first="bot")
        theirs = next(live for live in host.live.values() if live.guild_id == OTHER)
        await _until(lambda: theirs.ply == 1)
        assert stalls.started.count("think5") == 1 and not stalls.go.is_set()
        # A fourth game of Alice's is refused (another user's is not).
        r = await h.host.practice.start(Asker(GUILD, "c5", ALICE), "cairo", 5)
        assert r.reply is not None and "3 practice games going" in r.reply.text
        r = await h.host.practice.start(Asker(GUILD, "c5", CAROL), "cairo", 1)
        assert "Practice #" in r.posts[0].text
    finally:
        stalls.go.set()
    await host.practice.idle()
    with pytest.raises(RuntimeError):
        await review


async def test_reviews_past_a_users_share_are_refused(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    stalls = Stalls()
    monkeypatch.setattr(workers_module, "review_job", stalls.review_job)
    await h.casual()
    await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None)
    workers = Workers(0)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    try:
        asked = [asyncio.create_task(history.review(GUILD, 1, ALICE.id)) for _ in range(2)]
        await _until(lambda: "review" in stalls.started)
        # Both of Alice's are on their way (the second reads its match first: on
        # PostgreSQL that can take longer than the first's start).
        await _until(lambda: workers.reviews.queue.user_load(ALICE.id) == 2)
        with pytest.raises(Exception, match="You already have 2 requests"):
            await history.review(GUILD, 1, ALICE.id)
        dave = Actor("dave", "Dave")
        also = asyncio.create_task(history.review(GUILD, 1, dave.id))  # waits its turn
        await asyncio.sleep(0.05)
        with pytest.raises(Exception, match="several replays, reviews"):
            await history.review(GUILD, 1, "erin")  # the server has three on the way
    finally:
        stalls.go.set()
    for task in [*asked, also]:
        with pytest.raises(RuntimeError):
            await task
    workers.close()


def test_the_server_and_user_caps_are_stated() -> None:
    assert practice.PER_USER == 3 and practice.PER_SERVER == 25


async def test_a_review_past_its_limit_is_stopped_and_its_worker_replaced(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    stalls = Stalls()
    monkeypatch.setattr(workers_module, "review_job", stalls.review_job)
    monkeypatch.setattr(workers_module, "REVIEW_SECONDS", 0.1)
    await h.casual()
    await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None)
    workers = Workers(0)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    try:
        with pytest.raises(Exception, match="took too long, so it was stopped"):
            await history.review(GUILD, 1, ALICE.id)
        assert workers.reviews.slots.replaced == 1
        assert workers.reviews.queue.load(GUILD) == 0  # its turn is given back
    finally:
        stalls.go.set()
        workers.close()


async def test_a_search_past_its_limit_is_stopped_and_a_legal_move_played(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    stalls = Stalls()
    monkeypatch.setattr(workers_module, "think_job", stalls.think_job)
    monkeypatch.setattr(workers_module, "GRACE", 0.1)
    fast = dataclasses.replace(practice.LEVELS[5], seconds=0.1)
    monkeypatch.setattr(practice, "LEVELS", {**practice.LEVELS, 5: fast})
    host = h.host.matches
    try:
        await h.host.practice.start(Asker(GUILD, CHAN, ALICE), "cairo", 5, first="bot")
        await host.practice.idle()
        live = next(iter(host.live.values()))
        assert live.ply == 1  # the first legal move, played in time
        assert host.practice.workers.moves.slots.replaced == 1
    finally:
        stalls.go.set()
