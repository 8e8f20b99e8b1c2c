"""Fewer requests a move at Discord's limit: a turn reminder still waiting for its turn
at the global pacer when the move lands is dropped, and one that a later reminder of
the same turn overtook is replaced by it; a reminder's lateness is measured when it is
out. Through discord.py's real rate limiter on the transport-level fake, on virtual
time. The reminders are the match timer's own (``Timing.reminder``, delivered by
``Timing.deliver`` as a tick does), asked for while the pacer's line is long."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.messages import Pace, Post
from bot.core.metrics import REMINDER_LATE, REMINDERS_DROPPED
from tests.discord_bot import World, challenge_accepted
from tests.fake.discord_world import ALICE, MESSAGES
from tests.pacing import arrivals, queue_posts


def dropped(reason: str) -> float:
    return float(REMINDERS_DROPPED.labels(reason)._value.get())


def lateness() -> tuple[float, float]:
    """The reminder lateness histogram's sum and count so far."""
    samples = {s.name: s.value for s in next(iter(REMINDER_LATE.collect())).samples}
    return (samples["garnet_reminder_lateness_seconds_sum"],
            samples["garnet_reminder_lateness_seconds_count"])


async def remind(world: World, text: str) -> tuple[asyncio.Future[None], Post]:
    """A reminder of the turn under way, due now, on its way in a task of its own
    (as the match's timer sends it); returns once it waits at the pacer."""
    live = world.live()
    timing = world.bot.services.matches.timing
    post = timing.reminder(live, Post(f"⏰ {text}", live.channel_id, pace=Pace.LOW),
                           world.clock.now())
    waiting = world.bot.pacer.queued()
    sending = asyncio.ensure_future(timing.deliver(live, [post]))
    for _ in range(1000):
        await asyncio.sleep(0)
        if world.bot.pacer.queued() > waiting:
            break
    return sending, post


async def test_a_reminder_still_waiting_when_the_move_lands_is_not_sent(world: World) -> None:
    """600 posts ahead (12 s of the limit): Alice's reminder waits behind them; her move
    then goes at once (a board), and the reminder, still waiting, is dropped when its
    turn comes, without taking it."""
    await challenge_accepted(world)  # Alice to move
    await world.advance(10)  # the channel's bucket and the global window empty again
    seen = arrivals(world)
    before = dropped("moved")
    others = await queue_posts(world, 600, Pace.LOW)
    sending, _ = await remind(world, "Alice, 30 s left")
    await world.say(ALICE, "D left")
    await others
    await sending
    contents = [call.content or "" for _, call in seen]
    assert not [c for c in contents if "30 s left" in c]  # never sent
    assert [call for _, call in seen if call.files and call.path == MESSAGES]  # the board
    assert dropped("moved") == before + 1 and world.bot.pacer.dropped == 1
    assert len([c for c in contents if c.startswith("LOW")]) == 600  # the rest all went
    assert world.bot.pacer.figures[Pace.LOW].sent == 600


async def test_a_later_reminder_of_the_turn_replaces_one_still_waiting(world: World) -> None:
    """Two reminders of one turn behind 600 posts: only the later is sent, and its
    lateness is counted from its moment to when it was out, not to when it fell due."""
    await challenge_accepted(world)
    await world.advance(10)
    seen = arrivals(world)
    before, (late_sum, late_count) = dropped("replaced"), lateness()
    others = await queue_posts(world, 600, Pace.LOW)
    first, _ = await remind(world, "Alice, 30 s left")
    due = world.clock.now()
    second, _ = await remind(world, "Alice, 15 s left")
    await others
    await first
    await second
    reminders = [(at, call.content) for at, call in seen if "⏰" in (call.content or "")]
    assert [text for _, text in reminders] == ["⏰ Alice, 15 s left"]
    assert dropped("replaced") == before + 1 and world.bot.pacer.dropped == 1
    total, count = lateness()
    assert count == late_count + 1
    assert total - late_sum == pytest.approx(reminders[0][0] - due, abs=0.1)
    assert total - late_sum > 10  # behind 550 posts at 50 a second
