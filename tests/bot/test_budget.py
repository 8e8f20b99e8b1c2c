"""Admission by budget (``bot.services.budget``): each running match's need of requests
is measured from what it sent (a moving average over ``TAU``); a new match or practice
game is admitted only while the running matches' need and a new match's stay within
the process's share of the limit × ``REQUEST_BUDGET``; past it the servers that run
their share are refused first, past the whole share every server, with the sentence
players already get. On virtual time, in the services, the console and Discord (whose
requests are counted by the real pacer on the transport-level fake)."""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from prometheus_client import generate_latest

from bot.core.messages import Actor, Pace, Post
from bot.core.metrics import LIMIT_REFUSALS, REGISTRY
from bot.core.requests import Asker
from bot.services import budget as budget_module
from bot.services.budget import (
    BURST,
    CPU_MATCHES,
    CPU_TAU,
    HELD,
    MEASURED,
    NEW_MATCH_RATE,
    START_REQUESTS,
    TAU,
    Budget,
    Busy,
    Rate,
)
from bot.services.observe import watch
from bot.services.pressure import AtDiscordLimit
from bot.texts import refused
from tests.bot.admission import challenged, first_move, started
from tests.bot.conftest import Harness
from tests.discord_bot import World, challenge_accepted
from tests.fake.discord_world import ALICE, BOB, CAROL, CHANNEL_ID, HANA
from tests.transcripts import console_session

LIMIT = refused.at_discord_limit()
STARTING = refused.starting_many()


def refusals() -> float:
    return float(LIMIT_REFUSALS.labels("budget")._value.get())


def test_a_rate_is_a_moving_average_of_what_was_sent() -> None:
    rate = Rate(at=0.0)
    for second in range(600):  # 2 a second for 10 minutes: settled at 2
        rate.add(float(second), 2.0)
    assert rate.read(600.0) == pytest.approx(2.0, rel=0.02)
    assert rate.read(600.0 + TAU) == pytest.approx(2.0 / math.e, rel=0.02)  # fading


@dataclass
class Taken:
    """A match this process took over (after a restart), as the budget counts it."""

    id: int
    channel_id: str
    finished: bool = False
    ply: int = 7


async def test_matches_taken_over_give_a_new_match_s_need_within_seconds(h: Harness
                                                                          ) -> None:
    """After a restart the process knows nothing of its matches' needs: measured over
    the weight their measures hold, two hundred matches seen for ten seconds sending
    half a request a second each say what a new match needs, long before any of them
    is a minute old; one waiting for its first move counts at it, and at what it sends
    meanwhile."""
    clock = h.clock
    taken = [Taken(n, f"c{n}") for n in range(200)] + [Taken(999, "c999", ply=0)]
    budget = Budget(clock, 200.0, running=lambda: taken)
    assert budget.expected() == NEW_MATCH_RATE  # nothing measured yet
    for second in range(10):
        for n in range(0, 200, 2):  # every other channel each second: 0.5 a second
            budget.spent(f"c{n + second % 2}")
        await clock.advance(1.0)
    assert budget.expected() == pytest.approx(0.5, rel=0.1)
    assert budget.needs()[0] == pytest.approx(0.5, rel=0.15)
    assert budget.needs()[999] == budget.expected()
    for _ in range(30):  # its first turn's reminders, say: sent while it waits, counted
        budget.spent("c999")
    assert budget.needs()[999] == pytest.approx(budget.expected() + 0.5)


async def apart(h: Harness, guild: str, n: int) -> str | None:
    """``started``, a second after the last start (the starts' bucket refilled)."""
    await h.clock.advance(1.0)
    return await started(h, guild, n)


async def test_past_the_budget_the_busiest_server_is_refused_first_then_every_one(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    budget = h.services.matches.kit.budget
    budget.limit = 10.0  # this process's share: 10 requests a second; budget 8.5
    assert budget.per_second == pytest.approx(8.5)
    for n in range(4):
        assert await apart(h, "big", n) is None
    # Waiting for their first moves: each counts at what a new match needs.
    assert budget.used() == pytest.approx(4 * NEW_MATCH_RATE)
    for n in range(4):
        await first_move(h, "big", n)  # measured from now on
    assert budget.used() == pytest.approx(4 * NEW_MATCH_RATE)  # (nothing measured yet)
    for _ in range(int(TAU)):  # 2 requests a second each, for a minute
        for n in range(4):
            budget.spent(f"bigc{n}")
            budget.spent(f"bigc{n}")
        await h.clock.advance(1.0)
    # A minute's moving average holds 63 % of the rate (each weighs 0.63); the rest is
    # counted at what a match needs here: what the four measured over their weight,
    # with two matches' weight at NEW_MATCH_RATE beside it.
    held = 1 - math.exp(-1)
    expected = (4 * 2.0 * held + MEASURED * NEW_MATCH_RATE) / (4 * held + MEASURED)
    assert expected == pytest.approx(1.34, abs=0.01)
    assert budget.expected() == pytest.approx(expected, rel=0.02)
    need = 2.0 * held + expected * (1 - held)
    assert list(budget.needs().values()) == pytest.approx([need] * 4, rel=0.03)
    before = refusals()
    # 4 × 1.76 + 1.34 = 8.4: past 90 % of the budget (7.65), not past it: "big" runs
    # every match, refused; a server that runs none is let in.
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        assert await started(h, "big", 4) == LIMIT
    assert re.search(r"the running matches need 7\.0 requests a second of a budget "
                     r"of 8\.5: new matches are refused", caplog.text)
    assert await started(h, "quiet", 0) is None  # it runs none: below its share
    # 7.0 + the young one's 1.34 + 1.34 = 9.7 > 8.5, the budget: every server.
    assert await started(h, "other", 0) == LIMIT
    assert refusals() == before + 2
    # The operators see the budget and its use.
    watch(h.services.matches.kit.live, h.services.matches.kit.leases, [], budget)
    page = generate_latest(REGISTRY).decode()
    assert "garnet_request_budget 8.5" in page
    used = next(line for line in page.splitlines()
                if line.startswith("garnet_request_budget_used "))
    assert float(used.split()[1]) == pytest.approx(4 * need + expected, rel=0.02)
    # Running matches are never refused: the busiest server's match plays on.
    live = h.services.matches.kit.live.for_seat("big", "bigc0", "biga0") or \
        h.services.matches.kit.live.for_seat("big", "bigc0", "bigb0")
    assert live is not None and live.to_move is not None
    mover = Actor(live.users[live.to_move], "X")
    move = live.game.notation(live.game.legal_moves(live.state)[0])
    moved = await h.host.play.typed(Asker("big", "bigc0", mover), move)
    assert moved.posts and moved.posts[0].image is not None
    # Their need falls as they send less: admitted again.
    caplog.clear()
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        await h.clock.advance(2 * TAU)
        assert await started(h, "big", 4) is None
    assert "new matches are admitted again" in caplog.text


async def test_a_burst_of_new_matches_is_held_to_the_budget_before_any_is_measured(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches that sent nothing yet count at a new match's expected need, so a burst
    cannot slip in before their first boards are counted: 3 requests a second, a budget
    of 2.55, 0.5 each: four on a server that runs them all (the budget's last tenth
    is kept for servers below their share). (The starts' bucket aside: at three
    requests a second it would spread the starts over seconds.)"""
    monkeypatch.setattr(budget_module, "START_REQUESTS", 0.0)
    h.services.matches.kit.budget.limit = 3.0
    assert NEW_MATCH_RATE == 0.5
    assert [await started(h, "burst", n) for n in range(5)] == [None] * 4 + [LIMIT]
    await h.clock.advance(3 * TAU)  # waiting for their first moves: as new ones
    assert await started(h, "burst", 5) == LIMIT
    for n in range(4):
        await first_move(h, "burst", n)
    await h.clock.advance(3 * TAU)  # measured, and silent: nothing needed
    assert await started(h, "burst", 5) is None


async def test_starts_asked_for_together_are_spread_over_what_the_budget_leaves(
        h: Harness) -> None:
    """A match's start is a burst of posts (``START_REQUESTS``): the starts take them
    from a bucket that holds a second of the budget and fills at what it leaves spare,
    so that many starts in one instant do not line up in front of the running boards.
    A share of 10 a second (a budget of 8.5): two starts at once, the third refused
    with a sentence that says to try again in a few seconds, and let in a moment
    later; a challenge, which starts nothing yet, takes nothing from the bucket."""
    h.services.matches.kit.budget.limit = 10.0
    assert START_REQUESTS == 3.0 and BURST == 1.0
    assert [await started(h, f"s{n}", 0) for n in range(3)] == [None, None, STARTING]
    assert STARTING != LIMIT and "few seconds" in STARTING
    assert await challenged(h, "s9") is None
    # 8.5 - 2 × 3 = 2.5 left; + 0.25 s × (8.5 - about 1 used) = 4.4: one more start.
    await h.clock.advance(0.25)
    assert await started(h, "s2", 1) is None
    assert await started(h, "s3", 0) == STARTING


async def test_the_console_admits_by_the_same_budget(tmp_path: Path, database_url: str
                                                     ) -> None:
    """Each post in a channel counts as a request, as on Discord: with a share of 1.8
    requests a second (a budget of 1.53; one server, which runs them all, is refused
    past nine tenths of it), a fourth match is refused with the sentence (three young
    ones and a new one at about 0.4 each), and admitted once the three have sent
    nothing for a while."""
    async with console_session(tmp_path, database_url) as session:
        session.services.matches.kit.budget.limit = 1.8
        for n, (a, b) in enumerate((("alice", "bob"), ("carol", "dave"), ("erin", "fay"))):
            await session.play("~wait 10s")  # (the starts' bucket: 3 requests a start)
            await session.play(f"~channel table{n}")
            await session.play(f"{a}: /challenge @{b} game:cairo first:me")
            assert "Cairo Corridor" in await session.play(f"{b}: /accept")
            await session.play(f"{a}: D left")  # measured from its first move on
        await session.play("~channel table3")
        said = await session.play("gus: /challenge @hal game:cairo")
        assert f"bot (to gus only): {LIMIT}" in said
        await session.play("~wait 3m")
        said = await session.play("gus: /challenge @hal game:cairo")
        assert LIMIT not in said and "challenges" in said


async def test_on_discord_the_pacer_counts_what_each_match_sends(world: World) -> None:
    """The real pacer tells the budget each request's channel: a running match whose
    channel sends about a request every two seconds fills a budget of 0.85 a second (a
    share of one request a second) with a new match's need, and a
    challenge on its server is refused privately with the sentence; once the match is
    quieter (a move, then two minutes of its turn), the challenge is made."""
    budget = world.bot.services.matches.kit.budget
    budget.limit = 1.0  # a budget of 0.85; a new match counts at 0.5 before any moves
    match_id = await challenge_accepted(world)
    await world.say(ALICE, "D left")  # its first move: measured from now on
    await world.advance(TAU)  # grown: its need is what it sent
    # Its board and its turn's reminders, fading, and the rest of its measure's
    # weight at a new match's need (what it measured, with the prior beside it).
    quiet = budget.needs()[match_id]
    assert 0 < quiet < 0.4
    for second in range(0, 60, 5):  # 5 posts every 5 s: the channel's own limit
        for n in range(5):
            await world.bot.deliver(Post(f"notice {second} {n}", channel_id=str(CHANNEL_ID),
                                         pace=Pace.LOW))
        await world.advance(5)
    # Its channel's own limit (5 posts per 5 s, as discord.py learns it) spreads them
    # over two minutes: about half a request a second (its measure, a minute's average,
    # holds 0.32 of it after a minute; the quiet part of its need has faded meanwhile).
    assert budget.needs()[match_id] > max(quiet, 0.3) + 0.15
    (call,) = await world.slash(CAROL, "challenge", opponent=HANA, game="cairo")
    assert call.message["content"] == LIMIT and call.message["flags"] & 64
    live = world.live()
    await world.say(BOB, live.game.notation(live.game.legal_moves(live.state)[0]))
    assert live.ply == 2  # the match plays on
    await world.advance(2 * TAU)
    assert budget.needs()[match_id] < 0.2
    (call,) = await world.slash(CAROL, "challenge", opponent=HANA, game="cairo")
    assert "challenge" in call.message["content"] and call.message["content"] != LIMIT


async def test_matches_asked_for_at_once_are_counted_before_they_run(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Admissions that have not started running yet count as new matches (for
    ``HELD`` seconds at most): six asked for in one instant on a server that runs
    none are not all let in: the budget (0.85 of 2.5 a second) lets four of 0.5 in,
    then it is refused; a challenge, which starts nothing until it is
    accepted, holds no room. (The starts' bucket aside, as above.)"""
    monkeypatch.setattr(budget_module, "START_REQUESTS", 0.0)
    pressure = h.services.matches.pressure
    pressure.budget.limit = 2.5
    pressure.check("new", starts=False)
    pressure.check("new", starts=False)
    admitted = []
    for _ in range(6):
        try:
            pressure.check("new")
            admitted.append(True)
        except AtDiscordLimit:
            admitted.append(False)
    assert admitted == [True] * 4 + [False] * 2
    assert pressure.budget.used() == pytest.approx(2.0)
    await h.clock.advance(HELD)  # none of them started: the room is free again
    assert pressure.budget.used() == 0.0
    pressure.check("new")


async def test_past_the_cpu_budget_every_new_match_is_refused(h: Harness,
                                                             caplog: pytest.LogCaptureFixture
                                                             ) -> None:
    """Python runs one thread at a time: past most of a core every move waits for the
    event loop, however few requests the matches need. ``CPU_BUDGET`` (70 % of a core
    by default) admits new matches while this process's CPU use, a moving average
    over ``CPU_TAU`` real seconds, and a new match's part of it stay within it."""
    wall, cpu = [0.0], [0.0]
    budget = h.services.matches.kit.budget
    budget.limit = 1000.0  # requests are no limit here
    budget.cores = 0.8
    budget.busy = Busy(cpu=lambda: cpu[0], wall=lambda: wall[0])

    def busy_for(seconds: float, cores: float) -> None:
        for _ in range(int(seconds * 2)):
            wall[0] += 0.5
            cpu[0] += 0.5 * cores
            budget.busy.read()

    for n in range(3):
        assert await apart(h, "load", n) is None
    busy_for(10 * CPU_TAU, 0.6)  # three matches' moves take 0.6 of a core
    assert budget.busy.read() == pytest.approx(0.6, rel=0.01)
    # A new match's part: 1/20 of it at most (with few running, what the process does
    # anyway is most of it): 0.6 × 21/20 = 0.63, a fourth fits.
    assert CPU_MATCHES == 20
    assert await apart(h, "load", 3) is None
    busy_for(10 * CPU_TAU, 0.77)  # 0.77 × 21/20 = 0.81 > 0.8: every server refused
    before = float(LIMIT_REFUSALS.labels("cpu")._value.get())
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        assert await apart(h, "other", 0) == LIMIT
    assert "this process uses 0.77 of a core of a CPU budget of 0.80" in caplog.text
    assert float(LIMIT_REFUSALS.labels("cpu")._value.get()) == before + 1
    busy_for(2 * CPU_TAU, 0.2)  # quieter: let in again
    assert await apart(h, "other", 0) is None


async def test_matches_of_the_fastest_play_are_let_in_only_as_many_as_will_fit(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches asked for at once before any has moved (a bench's set-up, a restart's
    hour) are let in at a new match's need; at the stress pace each then sends a board
    every two seconds. Counted at less than that, the first seconds let in more than
    the limit carries, and their boards wait from then on while each one's measure
    (what the limit let through) keeps the budget from seeing it. A share of 10
    requests a second (a budget of 8.5, one server, refused past nine tenths of it):
    15 let in; moving, they need 7.5, within it."""
    monkeypatch.setattr(budget_module, "START_REQUESTS", 0.0)
    running: list[Taken] = []
    budget = Budget(h.clock, 10.0, running=lambda: running)
    while budget.over() is None:
        budget.admitted()
        running.append(Taken(len(running), f"c{len(running)}", ply=0))
    assert len(running) == 15
    for m in running:
        m.ply = 1  # each moves, every two seconds from now on
    budget.used()
    for second in range(int(3 * TAU)):
        for m in running[second % 2::2]:
            budget.spent(m.channel_id)
        await h.clock.advance(1.0)
    assert budget.expected() == pytest.approx(0.5, rel=0.05)
    assert budget.used() == pytest.approx(7.5, rel=0.05)
    assert budget.used() <= budget.per_second


async def test_a_look_is_kept_while_no_match_starts_ends_or_first_moves(h: Harness) -> None:
    """At the limit dozens of new matches a second are asked for, and a look walks
    every running match: within ``FRESH`` seconds, while none starts, ends or makes its
    first move, the last look serves, and a request since adds what a new look would
    count (the same figures as a budget that looks every time)."""
    walked = 0
    running = [Taken(n, f"c{n}", ply=0 if n == 9 else 3) for n in range(10)]
    version = [0]

    def matches() -> list[Taken]:
        nonlocal walked
        walked += 1
        return running

    kept = Budget(h.clock, 50.0, running=matches, changes=lambda: version[0])
    every = Budget(h.clock, 50.0, running=lambda: running)
    for second in range(30):
        for m in running[second % 3::3]:
            kept.spent(m.channel_id)
            every.spent(m.channel_id)
        await h.clock.advance(1.0)
    kept.over()
    walked = 0
    for n in range(50):  # a request now and then between the looks
        if n % 10 == 0:
            kept.spent(f"c{n // 10}")
            every.spent(f"c{n // 10}")
        assert kept.over() == every.over()
        assert kept.used() == pytest.approx(every.used(), rel=1e-9)
        assert kept.expected() == pytest.approx(every.expected(), rel=1e-9)
    assert walked == 0
    kept.over()
    walked = 0
    for _ in range(5):
        kept.over()
    assert walked == 0
    running[9].ply = 1  # its first move: looked at again
    kept.over()
    every.over()
    assert walked == 1
    running.append(Taken(10, "c10"))  # a new match: the registry's version moves
    version[0] += 1
    kept.over()
    every.over()
    assert walked == 2
    await h.clock.advance(budget_module.FRESH)  # and every FRESH seconds
    kept.over()
    assert walked == 3
    assert kept.used() == pytest.approx(every.used(), rel=1e-9)


async def test_a_budget_flipping_at_every_look_is_logged_once_a_minute(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    """At its CPU budget a process refuses, then admits, with nearly every look: the
    log says the first change at once, then at most a line a minute, with the state
    then and how many changes it stands for."""
    pressure = h.services.matches.kit.pressure
    pressure.budget.cores = 0.7
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        for n in range(40):  # every other look refuses
            pressure._log_budget("cpu" if n % 2 == 0 else None)
            await h.clock.advance(1.0)
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and "new matches are refused" in lines[0]
        for n in range(40, 62):
            pressure._log_budget("cpu" if n % 2 == 0 else None)
            await h.clock.advance(1.0)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert lines[1].endswith("new matches are refused (60 changes since the last line)")
