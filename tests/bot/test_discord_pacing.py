"""Discord's global limit kept by the bot itself (``bot.adapters.discord.pacing``), and
posts that outlast discord.py's retries sent again, through the transport-level fake on
the virtual clock."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import discord.http
import pytest

from bot.adapters.discord.pacing import SLACK, WINDOW, GlobalPacer, install
from bot.core.clock import VirtualClock
from bot.core.messages import Image, Pace, Post
from bot.services.pressure import HOLD
from bot.texts import refused
from tests.bot.discord_fake import (
    ALICE,
    CAROL,
    CHANNEL2_ID,
    CHANNEL_ID,
    GUILD2_ID,
    HANA,
    MESSAGES,
    OSCAR,
    Call,
    settle,
)
from tests.discord_bot import World, challenge_accepted
from tests.fake.fake_transport import VirtualAsyncio
from tests.pacing import arrivals, queue_posts

BOARD = ("POST", MESSAGES)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)
CHANNELS = [910_000_000_000_000_000 + n for n in range(100)]


async def burst(world: World) -> list[tuple[float, Call]]:
    """200 boards at once, two in each of 100 channels; the posts as they arrived."""
    world.fake.add_server(920_000_000_000_000_000, "Busy", CHANNELS, 1, {})
    seen = arrivals(world)
    await asyncio.gather(*(
        world.bot.deliver(Post(f"board {n} of {channel}", channel_id=str(channel),
                               image=Image(PNG, "board.png")))
        for n in range(2) for channel in CHANNELS))
    return [(at, call) for at, call in seen if (call.method, call.path) == BOARD]


def most_in_a_second(times: list[float]) -> int:
    times = sorted(times)
    return max(sum(1 for t in times[i:] if t < start + 1.0)
               for i, start in enumerate(times))


async def test_a_burst_of_200_boards_never_meets_the_global_limit(world: World) -> None:
    await world.advance(2)  # past the login's own requests
    start = world.clock.now()
    posts = await burst(world)
    assert [call.status for _, call in posts] == [200] * 200  # not one 429
    assert sorted(call.content for _, call in posts) == sorted(
        f"board {n} of {channel}" for n in range(2) for channel in CHANNELS)
    assert all(call.files for _, call in posts)
    times = [at for at, _ in posts]
    assert most_in_a_second(times) == 50
    # 50 at once, then, from the moment the window frees (1.05 s: the slack for the way
    # to Discord), one every 1.05 s / 50 = 21 ms: the last of 200 leaves 4.18 s later.
    spacing = (WINDOW + SLACK) / 50
    assert max(times) - start == pytest.approx(WINDOW + SLACK + 149 * spacing, abs=1e-3)
    after = sorted(times)[50:]
    assert min(b - a for a, b in itertools.pairwise(after)) == pytest.approx(spacing, abs=1e-3)
    assert world.bot.pacer.paced == 150
    assert 429 not in {call.status for call in world.fake.calls}


async def test_without_pacing_the_same_burst_meets_the_global_limit(world: World) -> None:
    """The control: what discord.py alone does with that burst (every board arrives in
    the end, after Discord refused some for the global limit)."""
    install(world.bot.http, GlobalPacer(10_000))
    posts = await burst(world)
    refused = [call for _, call in posts if call.status == 429]
    assert refused and all(call.response["global"] for call in refused)
    assert sum(1 for _, call in posts if call.ok) == 200


async def test_the_pacer_is_fifo_spreads_its_line_and_keeps_any_second_to_its_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # On discord.py's clock, here a virtual one (as the Discord fake installs it).
    clock = VirtualClock()
    monkeypatch.setattr(discord.http, "asyncio", VirtualAsyncio(clock))
    pacer = GlobalPacer(3)
    loop = discord.http.asyncio.get_running_loop()
    order: list[tuple[int, float]] = []

    async def one(n: int) -> None:
        await pacer.acquire()
        order.append((n, loop.time()))

    start = loop.time()
    await asyncio.gather(*(one(n) for n in range(7)))
    assert [n for n, _ in order] == list(range(7))
    offsets = [round(at - start, 2) for _, at in order]
    # Three at once; then, while the line lasts, spread over the window (one every
    # 1.05 s / 3), never more than three in any second.
    assert offsets == [0.0, 0.0, 0.0, 1.05, 1.4, 1.75, 2.1]
    assert pacer.paced == 4 and pacer.waited == pytest.approx(1.05 + 1.4 + 1.75 + 2.1)


def test_a_pacer_needs_a_positive_rate() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        GlobalPacer(0)


# ---- posts that outlast discord.py's retries ----------------------------------------------


async def first_move_meeting(world: World, caplog: pytest.LogCaptureFixture, status: int,
                             times: int = 1, retry_after: float | None = None
                             ) -> tuple[list[Call], list[Call]]:
    """Alice's first move, its board post answered ``times`` times with ``status``:
    every request the move caused, and the board posts among them."""
    await challenge_accepted(world)
    world.fake.fail(*BOARD, status, times=times, retry_after=retry_after)
    caplog.set_level(logging.WARNING)
    calls, _ = await world.say(ALICE, "A down")
    return calls, [c for c in calls if (c.method, c.path) == BOARD]


async def test_a_board_refused_past_discord_py_retries_is_sent_again_and_arrives_once(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    # discord.py tries a request five times; every one of them meets a 429.
    calls, boards = await first_move_meeting(world, caplog, 429, times=5, retry_after=2.0)
    assert [c.status for c in boards] == [429] * 5 + [200]
    assert "played **AD**" in boards[-1].content and boards[-1].files
    assert len([c for c in calls if c.ok and c.files]) == 1  # the board, once
    assert "sending it again in 2.0 s (1 of 3)" in caplog.text
    assert "could not post" not in caplog.text
    live = world.live()
    assert live.ply == 1 and not live.paused


async def test_a_server_error_on_a_board_is_sent_again(world: World,
                                                        caplog: pytest.LogCaptureFixture
                                                        ) -> None:
    # A 503 is not among the statuses discord.py retries: it raises at once.
    _, boards = await first_move_meeting(world, caplog, 503)
    assert [c.status for c in boards] == [503, 200]
    assert "sending it again in 1.0 s" in caplog.text
    assert not world.live().paused


async def test_re_sending_is_bounded_and_a_rate_limit_never_pauses_the_match(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    _, boards = await first_move_meeting(world, caplog, 429, times=1_000, retry_after=0.5)
    assert [c.status for c in boards] == [429] * 20  # 4 sends of discord.py's 5 tries
    assert "(3 of 3)" in caplog.text and "could not post to channel" in caplog.text
    # Not a refusal for good: the match goes on (the permanent ones pause it).
    assert not world.live().paused
    world.fake.injected.clear()
    start = len(world.fake.calls)
    await world.bot.deliver(Post("next", channel_id=str(CHANNEL_ID)))  # and posts again
    (after,) = world.fake.calls[start:]
    assert after.ok and after.url.endswith(f"/channels/{CHANNEL_ID}/messages")


# ---- running matches first -------------------------------------------------------------


async def test_a_board_goes_before_the_reminders_queued_ahead_of_it(world: World) -> None:
    """The pacer saturated by 500 reminders (50 out, 450 waiting 9 s): a board typed
    now leaves at the first turn free, ahead of those still waiting, and every reminder
    still arrives, none refused by Discord. (The move's database work is real I/O, and
    the virtual clock runs on meanwhile: on a loaded machine a window or two of
    reminders may leave before the board is asked; the queue is long enough for that.)"""
    await challenge_accepted(world)
    await world.advance(10)  # the channel's bucket and the global window empty again
    seen = arrivals(world)
    start = world.clock.now()
    reminders = await queue_posts(world, 500, Pace.LOW)
    assert world.bot.pacer.queued() == 450
    await world.say(ALICE, "D left")
    await reminders
    board = next(at for at, call in seen if call.files and call.path == MESSAGES)
    lows = sorted(at for at, call in seen if "LOW" in (call.content or ""))
    assert len(lows) == 500 and 429 not in {call.status for _, call in seen}
    # The board left at the first turn free after it was asked (the move's own work
    # may take that long on the virtual clock), however many reminders waited before.
    assert world.bot.pacer.figures[Pace.BOARD].longest <= WINDOW + SLACK
    assert sum(1 for at in lows if at > board) >= 300
    assert world.bot.pacer.figures[Pace.LOW].longest == pytest.approx(10 * (WINDOW + SLACK))
    assert max(lows) - start == pytest.approx(10 * (WINDOW + SLACK))


async def test_a_board_passes_the_reminders_of_its_own_channel(world: World) -> None:
    """Five reminders of the match channel wait behind 400 others (8 s of the limit):
    a request waits for its turn before discord.py's bucket for its channel lets it
    through, so the reminders hold none of the channel's room (5 posts per 5 s) while
    they wait, and the board typed then passes them without meeting a 429."""
    await challenge_accepted(world)
    await world.advance(10)
    seen = arrivals(world)
    others = await queue_posts(world, 450, Pace.LOW)
    mine = asyncio.gather(*(world.bot.deliver(Post(f"LOW mine {n}", channel_id=str(CHANNEL_ID),
                                                   pace=Pace.LOW)) for n in range(5)))
    for _ in range(20):
        await asyncio.sleep(0)
    await world.say(ALICE, "D left")
    await others
    await mine
    board = next(at for at, call in seen if call.files and call.path == MESSAGES)
    reminders = [at for at, call in seen if "LOW mine" in (call.content or "")]
    lows = [at for at, call in seen if "LOW" in (call.content or "")]
    assert len(reminders) == 5 and len(lows) == 455
    assert board < min(reminders) and board < max(lows) - 2 * (WINDOW + SLACK)
    assert 429 not in {call.status for _, call in seen}


async def test_first_come_first_served_when_priorities_are_off(world: World) -> None:
    """The control (the benchmark's ``--fifo``): the same board waits behind all 150."""
    install(world.bot.http, GlobalPacer(50, fifo=True))
    await challenge_accepted(world)
    await world.advance(10)
    seen = arrivals(world)
    start = world.clock.now()
    reminders = await queue_posts(world, 200, Pace.LOW)
    await world.say(ALICE, "D left")
    await reminders
    lows = sorted(at for at, call in seen if "LOW" in (call.content or ""))
    board = max(at for at, call in seen if call.files and call.path == MESSAGES
                and "LOW" not in (call.content or ""))
    assert board - start == pytest.approx(4 * (WINDOW + SLACK))
    assert board >= max(lows)


async def test_a_deferral_and_its_board_never_wait_behind_queued_posts(world: World) -> None:
    """Interaction answers go with the interaction's token, unpaced: with 250 posts
    waiting (5 s of the global limit, 6.3 s spread), ``/move`` is acknowledged at once and its board
    (the edit of the deferred answer) is out before the queue has drained."""
    await challenge_accepted(world)
    await world.advance(10)
    seen = arrivals(world)
    start = world.clock.now()
    queued = await queue_posts(world, 300, Pace.BOARD)
    assert world.bot.pacer.queued() == 250
    await world.slash(ALICE, "move", move="D left")
    await queued
    deferral = next(at for at, call in seen if call.callback_type == 5)
    edit = next(at for at, call in seen
                if call.method == "PATCH" and call.path.endswith("@original"))
    posts = sorted(at for at, call in seen if "BOARD" in (call.content or ""))
    assert deferral == start
    # 50 at once, then the 250 waiting one every 21 ms from 1.05 s on.
    last = WINDOW + SLACK + 249 * (WINDOW + SLACK) / 50
    assert edit < max(posts) and max(posts) - start == pytest.approx(last, abs=1e-3)
    assert 429 not in {call.status for _, call in seen}


def on_virtual_time(monkeypatch: pytest.MonkeyPatch) -> tuple[VirtualClock, Any]:
    clock = VirtualClock()
    fake_asyncio = VirtualAsyncio(clock)
    monkeypatch.setattr(discord.http, "asyncio", fake_asyncio)
    return clock, fake_asyncio


async def test_priorities_keep_order_and_a_low_request_is_never_starved(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards asked for faster than the limit (10 a second against 5) for 30 s, and
    reminders from 5 s on, when boards already queue: the boards go first, but the
    reminders get their share of the turns (1 in 9 against boards alone) and so leave
    within about two seconds each, while the boards' line grows on."""
    clock, fake_asyncio = on_virtual_time(monkeypatch)
    pacer = GlobalPacer(5)
    went: list[tuple[str, float, float]] = []  # what, asked, left

    async def one(what: str, pace: Pace) -> None:
        asked = clock.now()
        await pacer.acquire(pace)
        went.append((what, asked, clock.now()))

    async def asking(what: str, pace: Pace, count: int, every: float, start: float) -> None:
        await fake_asyncio.sleep(start)
        tasks = []
        for n in range(count):
            tasks.append(asyncio.ensure_future(one(f"{what} {n}", pace)))
            await fake_asyncio.sleep(every)
        await asyncio.gather(*tasks)

    await asyncio.gather(asking("board", Pace.BOARD, 300, 0.1, 0.0),
                         asking("reminder", Pace.LOW, 5, 3.0, 5.05))
    reminders = [left - asked for what, asked, left in went if what.startswith("reminder")]
    boards = [(asked, left) for what, asked, left in went if what.startswith("board")]
    assert len(reminders) == 5 and max(reminders) <= 2 * (WINDOW + SLACK)
    assert max(left - asked for asked, left in boards) > 20  # the boards still queue
    assert [asked for asked, _ in boards] == sorted(asked for asked, _ in boards)  # FIFO
    assert pacer.figures[Pace.LOW].sent == 5 and pacer.figures[Pace.BOARD].sent == 300


async def test_boards_past_the_limit_refuse_new_matches_until_they_fall(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """400 boards at once (8 s of the global limit): the last ones wait past
    BOARD_WAIT_LIMIT (5 s), which the services hear from the pacer; a challenge on the
    server that runs the matches is then refused with the sentence, one on a server
    that runs none is let in (its share), and the first is accepted again once boards
    have not waited for HOLD."""
    assert world.settings.board_wait_limit == 5
    await challenge_accepted(world)  # the first server runs garnet's one match
    before = set(asyncio.all_tasks())
    world.state.parse_guild_create(world.fake.guild_payload(GUILD2_ID))
    await settle(before)
    world.baseline = set(asyncio.all_tasks())
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        await (await queue_posts(world, 400, Pace.BOARD))
    assert world.bot.pacer.figures[Pace.BOARD].longest > 5
    assert "at Discord's limit" in caplog.text
    health = world.bot.services.matches.kit.health
    assert health.counters()["discord_at_limit"] == 1
    (call,) = await world.slash(CAROL, "challenge", opponent=HANA, game="cairo")
    assert call.message["content"] == refused.at_discord_limit()
    assert call.message["flags"] & 64  # for the asker only
    assert health.counters()["discord_limit_refusals"] == 1
    (call,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, OSCAR, "challenge", channel_id=CHANNEL2_ID,
                         opponent=CAROL, game="cairo")))
    assert "challenge" in call.message["content"] and not call.message.get("flags", 0) & 64
    await world.advance(HOLD)
    (call,) = await world.slash(CAROL, "challenge", opponent=HANA, game="cairo")
    assert "challenge" in call.message["content"] and health.counters()["discord_at_limit"] == 0


async def test_posts_still_waiting_when_garnet_closes_are_dropped_in_one_line_each(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """A shutdown at the limit: the posts still in line meet a closed session. Each
    is logged in one line, not a traceback, and nothing raises."""
    await world.advance(2)  # past the login's own requests
    seen = arrivals(world)
    queued = await queue_posts(world, 120, Pace.LOW)
    assert world.bot.pacer.queued() == 70
    with caplog.at_level(logging.WARNING):
        await world.bot.close()
        await world.advance(5)
        await queued
    dropped = [r for r in caplog.records if "when garnet closed was not sent" in r.message]
    # The first 50 and those whose turn came while garnet was closing went; every
    # other one is logged.
    went = [call for _, call in seen if "LOW" in (call.content or "")]
    # (It failed once in a full PostgreSQL pass with nothing logged; what it saw then
    # says which side of the close the posts went.)
    assert dropped and len(dropped) + len(went) == 120, (
        f"{len(went)} went, {len(dropped)} dropped, "
        f"{[r.getMessage()[:80] for r in caplog.records][:5]}")
    assert not [r for r in caplog.records if r.exc_info]
