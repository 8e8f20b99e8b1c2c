"""A turn starts when its board is out (the adapter's report of the post's own
timestamp), not when the move was processed: a slow upload or a rate-limit wait is
charged to no one, and without a report the turn starts after ``BOARD_WAIT``."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.clock import VirtualClock
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.services.matches.timing import BOARD_WAIT
from bot.store.db import open_database
from bot.store.models import Heartbeat, Match
from bot.store.movelog import Beat
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness, asking
from tests.fixtures import bot_process


async def _resumed_at(h: Harness, match_id: int) -> float | None:
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        assert match is not None
        return match.turn_resumed_at


async def test_the_next_turn_starts_when_its_board_is_posted(h: Harness) -> None:
    match_id = await h.casual()
    h.host.hold_boards = True
    await h.clock.advance(10)
    moved_at = h.clock.now()
    r = await h.play(ALICE, "D left")
    assert r.posts[0].turn is not None and r.posts[0].turn.ply == 1
    assert h.host.held == [r.posts[0].turn]
    live = h.host.live[match_id]
    await h.clock.advance(3)  # the upload takes 3 s: not Bob's time
    assert live.elapsed(h.clock.now()) == 0.0 and not live.paused
    await h.host.timing.board_posted(h.host.held.pop(), h.clock.now())
    assert await _resumed_at(h, match_id) == moved_at + 3
    await h.clock.advance(59)
    assert live.elapsed(h.clock.now()) == pytest.approx(59.0)
    r = await h.play(BOB, "J up")
    assert "move 2" in r.posts[0].text
    assert live.banks_left == [36, 36] and live.time_used[1] == pytest.approx(59.0)


async def test_a_report_cannot_start_a_turn_before_its_move_or_twice(h: Harness) -> None:
    match_id = await h.casual()
    h.host.hold_boards = True
    await h.clock.advance(10)
    r = await h.play(ALICE, "D left")
    token = r.posts[0].turn
    assert token is not None
    await h.clock.advance(5)
    # A timestamp from before the move (clock skew) counts from the move itself.
    await h.host.timing.board_posted(token, h.clock.now() - 60)
    live = h.host.live[match_id]
    assert live.elapsed(h.clock.now()) == pytest.approx(5.0)
    await h.host.timing.board_posted(token, h.clock.now())  # a second report changes nothing
    assert live.elapsed(h.clock.now()) == pytest.approx(5.0)


async def test_without_a_report_the_turn_starts_after_the_bound(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id = await h.casual()
    h.host.hold_boards = True
    r = await h.play(ALICE, "D left")
    assert r.posts[0].turn is not None
    live = h.host.live[match_id]
    with caplog.at_level(logging.WARNING):
        await h.clock.advance(BOARD_WAIT - 0.5)
        assert live.elapsed(h.clock.now()) == 0.0 and live.waiting is not None
        await h.clock.advance(0.5)
        assert live.waiting is None
    assert "no report of the board of ply 1" in caplog.text
    await h.clock.advance(29.9)  # Bob's clock runs from the bound: 30 s left at 30 s
    assert h.texts() == []
    await h.clock.advance(0.2)
    assert h.texts() == ["⏰ <@bob>: 30 s left of your turn time."]
    assert live.elapsed(h.clock.now()) == pytest.approx(30.1)
    # A late report of the board changes nothing now.
    await h.host.timing.board_posted(r.posts[0].turn, h.clock.now())
    assert live.elapsed(h.clock.now()) == pytest.approx(30.1)


async def test_the_first_turn_waits_for_the_first_board(h: Harness) -> None:
    h.host.hold_boards = True
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    started = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    token = started.posts[0].turn
    assert token is not None and token.ply == 0 and r.reply is not None
    live = h.host.live[token.match_id]
    await h.clock.advance(4)
    await h.host.timing.board_posted(token, h.clock.now())
    await h.clock.advance(6)
    assert live.elapsed(h.clock.now()) == pytest.approx(6.0)


async def test_a_host_pause_while_waiting_starts_the_turn_at_the_resume(h: Harness) -> None:
    match_id = await h.casual()
    h.host.hold_boards = True
    r = await h.play(ALICE, "D left")
    token = r.posts[0].turn
    assert token is not None
    await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), None)
    live = h.host.live[match_id]
    assert live.paused and live.waiting is None
    await h.clock.advance(100)
    await h.host.timing.board_posted(token, h.clock.now())  # too late: the pause decided
    assert live.paused
    h.host.hold_boards = False  # the resume's post is out at once
    await h.host.controls.resume(Asker(GUILD, CHAN, HOSTY), None)
    await h.clock.advance(7)
    assert live.elapsed(h.clock.now()) == pytest.approx(7.0)


async def test_a_move_while_the_board_is_on_its_way_costs_nothing(h: Harness) -> None:
    match_id = await h.casual()
    h.host.hold_boards = True
    await h.play(ALICE, "D left")
    await h.clock.advance(2)
    r = await h.play(BOB, "J up")  # Bob knew his move before his board was out
    assert "move 2" in r.posts[0].text
    assert h.host.live[match_id].time_used == [0.0, 0.0]


async def test_a_restart_while_waiting_posts_the_board_again_and_charges_no_one(
        database_url: str) -> None:
    db1 = await open_database(database_url)
    clock1 = VirtualClock()
    host1 = asking(bot_process(db1, clock1))
    await host1.start()
    await host1.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    await host1.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    await clock1.advance(10)
    host1.hold_boards = True
    await host1.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    await clock1.advance(1)  # the upload is under way ... and the bot dies.

    db2 = await open_database(database_url)
    clock2 = VirtualClock(start=clock1.now() + 600)
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    host2 = asking(bot_process(db2, clock2, deliver=deliver))
    host2.hold_boards = True
    await host2.start()
    after = host2.live[1]
    assert len(posts) == 1 and posts[0].image is not None
    assert "the board again" in posts[0].text and "<@bob>" in posts[0].text
    assert posts[0].turn == after.waiting
    await clock2.advance(5)  # the board takes 5 s again
    assert after.elapsed(clock2.now()) == 0.0
    await host2.timing.board_posted(posts[0].turn, clock2.now())
    await clock2.advance(20)
    assert after.elapsed(clock2.now()) == pytest.approx(20.0)
    assert after.time_used == [10.0, 0.0] and after.banks_left == [36, 36]
    await host2.stop()
    await db2.close()
    await db1.close()


async def test_a_turns_start_and_a_heartbeat_ride_in_one_transaction_with_a_move(
        h: Harness) -> None:
    """The writes a move brings besides itself (its turn's start once the board is out,
    the shard's heartbeat) wait for no connection of their own: whatever arrives at the
    same moment, moves of other matches included, is committed in one transaction, each
    caller answered only once it is committed."""
    match_id = await h.casual()
    h.host.hold_boards = True
    await h.clock.advance(10)
    r = await h.play(ALICE, "D left")
    token = r.posts[0].turn
    assert token is not None
    kit = h.host.kit
    key = kit.leases.shards.key_of(GUILD)
    live = h.host.live[match_id]
    await h.clock.advance(2)
    before = kit.moves.batches
    await asyncio.gather(h.host.timing.board_posted(token, h.clock.now()),
                         h.host.lifecycle.alive(live),
                         kit.moves.write(Beat(key, h.clock.now() - 1)))
    assert kit.moves.batches == before + 1  # one transaction for all three
    assert live.waiting is None and live.resumed_at == h.clock.now()
    assert await _resumed_at(h, match_id) == h.clock.now()
    async with h.db.session() as s:
        beat = await s.get(Heartbeat, key)
    assert beat is not None and beat.at == h.clock.now()  # the latest of the batch
