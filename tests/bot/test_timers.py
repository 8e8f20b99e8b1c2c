"""Timers that cannot die: a timer whose write fails runs again until it succeeds, the
match's clock stands still meanwhile (nobody is charged), and the heartbeat keeps its
schedule through a database outage (``tests/bot/faults.py`` makes it fail)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from bot.core.clock import RETRY_MOST, VirtualClock, backoff
from bot.core.enums import MatchStatus
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup, Matches
from bot.services.matches.kit import CHALLENGE_TTL
from bot.services.matches.lifecycle import SWEEP_EVERY, WATCHDOG_EVERY
from bot.services.matches.timing import MAX_LAG
from bot.services.tournaments import Reported
from bot.services.tournaments.host import Setup
from bot.store.db import open_database
from bot.store.models import Heartbeat, Lease, Match, MatchPlayer, MatchResult, Move
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness, asking
from tests.bot.faults import FULL, GONE, LOCKED, Faults
from tests.tournament_world import log_of, swiss_of_four
from tests.tournament_world import tournament_world_on as world_on


@pytest.fixture
async def faults(h: Harness) -> AsyncIterator[Faults]:
    """The fault injector; after the test, no timer may be lost: the watchdog (with its
    database sweep) finds nothing to re-arm, and found nothing during the test."""
    f = Faults(h.db, h.clock)
    yield f
    f.close()
    matches = h.host.matches
    assert await matches.lifecycle.watch(sweep=True) == 0
    assert matches.kit.health.rearmed == 0


async def dm(h: Harness, turn: float = 60, banks: int = 0) -> int:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY), DMSetup(
        "cairo", [ALICE, BOB], chooser="host", tc=TimeControl.build(turn=turn, banks=banks)))
    assert r.posts, r.reply
    first = await h.host.choosing.choose_first(Asker(GUILD, CHAN, HOSTY), None, "alice")
    assert first.posts and first.posts[0].image is not None
    return next(iter(h.host.live))


async def status(h: Harness, match_id: int) -> tuple[str, float, float | None]:
    async with h.db.session() as s:
        m = await s.get(Match, match_id)
        assert m is not None
        return m.status, m.turn_elapsed, m.turn_resumed_at


async def heartbeat(h: Harness) -> float:
    async with h.db.session() as s:
        return max(b.at for b in (await s.scalars(select(Heartbeat))).all())


# ---- the clock ------------------------------------------------------------------------

async def test_a_failing_callback_runs_again_with_capped_backoff_until_it_succeeds() -> None:
    clock = VirtualClock(start=0.0)
    runs: list[float] = []

    async def flaky() -> None:
        runs.append(clock.now())
        if len(runs) < 7:
            raise OSError("database is locked")

    handle = clock.call_at(10.0, flaky)
    await clock.advance(100)
    assert runs == [10, 11, 13, 17, 22, 27, 32]
    assert [backoff(n) for n in (1, 2, 3, 4, 5)] == [1, 2, 4, RETRY_MOST, RETRY_MOST]
    assert not handle.armed and clock.pending() == 0


async def test_a_cancelled_handle_stops_its_retries() -> None:
    clock = VirtualClock(start=0.0)
    runs: list[float] = []

    async def failing() -> None:
        runs.append(clock.now())
        raise OSError("disk I/O error")

    handle = clock.call_at(1.0, failing)
    await clock.advance(4)
    assert handle.armed and runs == [1, 2, 4]
    handle.cancel()
    await clock.advance(100)
    assert runs == [1, 2, 4] and not handle.armed


# ---- the bars ---------------------------------------------------------------------------

async def test_a_flag_that_falls_while_the_database_is_locked_25_s_is_applied_after_it(
        h: Harness, faults: Faults) -> None:
    match_id = await dm(h)
    live = h.host.live[match_id]
    flag = live.resumed_at + 60 + MAX_LAG  # the flag's tick
    await h.clock.set(flag - 0.5)
    lock = faults.now(LOCKED, 25.0)
    await h.clock.set(lock.end - 0.01)
    assert (await status(h, match_id))[0] == MatchStatus.RUNNING  # nothing written
    down = [t for t in h.texts() if "cannot save right now" in t]
    assert len(down) == 1, h.texts()
    ended_at = None
    while ended_at is None and h.clock.now() < lock.end + 30:
        await h.clock.advance(0.1)
        if (await status(h, match_id))[0] == MatchStatus.FINISHED:
            ended_at = h.clock.now()
    assert ended_at is not None
    late = ended_at - lock.end
    print(f"flag applied {late:.1f} s after a 25 s lock ended")
    assert late <= 2.0 + 1e-6  # the next heartbeat wakes it (the retry at most 5 s)
    assert sum("ran out" in t for t in h.texts()) == 1, h.texts()
    # Nobody was charged for the lock: Alice used her 60 s and no more.
    async with h.db.session() as s:
        used = {p.user_id: p.time_used for p in (await s.scalars(
            select(MatchPlayer).where(MatchPlayer.match_id == match_id))).all()}
    assert used["alice"] == pytest.approx(60.0)
    await h.clock.advance(60)
    assert sum("ran out" in t for t in h.texts()) == 1


@pytest.mark.parametrize("kind", [GONE, LOCKED, FULL])
async def test_the_heartbeat_resumes_after_a_6_s_outage(h: Harness, faults: Faults,
                                                       kind: str) -> None:
    match_id = await dm(h, turn=600)
    await h.clock.advance(5)
    outage = faults.now(kind, 6.0)
    await h.clock.advance(6.0)
    assert await heartbeat(h) <= outage.start
    live = h.host.live[match_id]
    assert live.stalled_at is not None and live.paused  # the clock stands still
    await h.clock.set(outage.end + 2.0)
    beat = await heartbeat(h)
    print(f"heartbeat {beat - outage.end:.1f} s after a 6 s outage ({kind})")
    assert outage.end <= beat <= outage.end + 2.0
    assert live.stalled_at is None and not live.paused
    # Nobody was charged the outage: 5 s used (and up to the stall's tick, at most 2 s).
    assert 5.0 <= live.elapsed(h.clock.now()) - (h.clock.now() - live.resumed_at) <= 7.0
    texts = h.texts()
    assert sum("cannot save right now" in t for t in texts) == 1
    assert sum("can save again after" in t for t in texts) == 1
    # ... and the lease was renewed on schedule all along after it.
    await h.clock.advance(12)
    async with h.db.session() as s:
        leases = (await s.scalars(select(Lease))).all()
    assert all(row.expires_at >= h.clock.now() + 30 - 10 - 1e-6 for row in leases)
    assert h.host.matches.kit.health.heartbeat_failures >= 1


# ---- faults at chosen points ------------------------------------------------------------

async def test_a_challenge_lapses_once_after_a_lock_over_its_expiry(h: Harness,
                                                                     faults: Faults) -> None:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    assert r.reply is not None and not r.reply.ephemeral
    await h.clock.advance(CHALLENGE_TTL - 3)
    lock = faults.now(LOCKED, 20.0, "UPDATE matches")
    await h.clock.set(lock.end - 0.01)
    assert (await status(h, 1))[0] == MatchStatus.PENDING
    await h.clock.set(lock.end + RETRY_MOST)
    assert (await status(h, 1))[0] == MatchStatus.EXPIRED
    await h.clock.advance(120)  # the watchdog finds nothing to re-arm
    assert sum("lapsed" in t for t in h.texts()) == 1
    assert h.host.matches.kit.health.rearmed == 0


async def test_a_first_player_deadline_draws_lots_once_after_a_disk_full(
        h: Harness, faults: Faults) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY), DMSetup(
        "cairo", [ALICE, BOB], chooser="alice", within=600.0))
    assert r.posts
    await h.clock.advance(599)
    full = faults.now(FULL, 30.0, "UPDATE matches")
    await h.clock.set(full.end - 0.01)
    assert (await status(h, 1))[0] == MatchStatus.CHOOSING
    await h.clock.set(full.end + RETRY_MOST)
    assert (await status(h, 1))[0] == MatchStatus.RUNNING
    await h.clock.advance(120)
    assert sum("lots were drawn" in t for t in h.texts()) == 1, h.texts()
    assert len(h.host.live) == 1


async def test_a_reminder_whose_heartbeat_fails_is_posted_once_and_charges_nothing(
        h: Harness, faults: Faults) -> None:
    match_id = await dm(h, turn=60)
    live = h.host.live[match_id]
    await h.clock.set(live.resumed_at + 29.9)
    fault = faults.now(GONE, 8.0, "UPDATE heartbeats")  # the reminder's own write
    await h.clock.set(fault.end + 2.0)
    reminders = [t for t in h.texts() if "30 s left" in t]
    assert len(reminders) == 1, h.texts()
    # The clock stood still from the failed heartbeat (at most 2 s after 29.9 s).
    assert 29.9 <= live.elapsed(h.clock.now()) - (h.clock.now() - live.resumed_at) <= 32
    assert sum("cannot save right now" in t for t in h.texts()) == 1


async def test_a_result_that_cannot_be_written_is_written_once_later(
        h: Harness, faults: Faults) -> None:
    match_id = await dm(h, turn=60)
    live = h.host.live[match_id]
    flag = live.resumed_at + 60 + MAX_LAG
    fault = faults.fail(LOCKED, flag - 0.1, 12.0, "match_results")
    await h.clock.set(fault.end - 0.01)
    assert (await status(h, match_id))[0] == MatchStatus.RUNNING
    await h.clock.set(fault.end + RETRY_MOST)
    assert (await status(h, match_id))[0] == MatchStatus.FINISHED
    async with h.db.session() as s:
        results = (await s.scalars(select(MatchResult))).all()
        used = (await s.scalars(select(MatchPlayer.time_used).where(
            MatchPlayer.user_id == "alice"))).one()
    assert len(results) == 2 and used == pytest.approx(60.0)  # one result: a row a player
    assert sum("ran out" in t for t in h.texts()) == 1


async def test_a_move_refused_by_a_locked_database_is_taken_after_it(
        h: Harness, faults: Faults) -> None:
    match_id = await dm(h, turn=60)
    live = h.host.live[match_id]
    await h.clock.advance(10)
    lock = faults.now(LOCKED, 10.0)
    with pytest.raises(OperationalError):
        await h.play(ALICE, "D left")
    await h.clock.advance(5)
    assert live.stalled_at is not None  # the heartbeat stalled the clock at 10-12 s
    await h.clock.set(lock.end + 3)
    assert live.stalled_at is None  # the heartbeat wrote again: it goes on
    r = await h.play(ALICE, "D left")
    assert r.posts and r.posts[0].image is not None, r
    async with h.db.session() as s:
        move = (await s.scalars(select(Move).where(Move.match_id == match_id))).one()
    # 10 s before the lock, up to one heartbeat (2 s) into it, and the 3 s after it
    # until the move (the heartbeat woke the clock at the lock's end, at most 2 s on).
    assert 10.0 + 1.0 <= move.elapsed <= 10.0 + 2.0 + 3.0 + 1e-6


async def test_a_lease_renewal_that_fails_past_the_lease_keeps_the_shards(
        h: Harness, faults: Faults) -> None:
    match_id = await dm(h, turn=600)
    fault = faults.now(LOCKED, 45.0, "UPDATE leases")  # past the 30-s lease
    await h.clock.set(fault.end + 10.0)
    kit = h.host.matches.kit
    assert not kit.leases.lost and match_id in h.host.live
    async with h.db.session() as s:
        leases = (await s.scalars(select(Lease))).all()
    assert all(row.expires_at > h.clock.now() + 15 for row in leases)
    assert await heartbeat(h) >= fault.end


async def test_the_watchdog_rearms_a_match_without_a_timer(h: Harness) -> None:
    match_id = await dm(h, turn=600)
    live = h.host.live[match_id]
    assert live.timer is not None
    live.timer.cancel()  # a bug, say
    await h.clock.advance(WATCHDOG_EVERY + 0.1)
    assert live.timer is not None and live.timer.armed
    assert h.host.matches.kit.health.rearmed == 1
    await h.clock.advance(700)
    assert (await status(h, match_id))[0] == MatchStatus.FINISHED


async def test_the_watchdog_rearms_a_challenge_and_a_first_player_deadline(
        h: Harness) -> None:
    await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    r = await h.host.choosing.start_dm(Asker(GUILD, "c2", HOSTY), DMSetup(
        "cairo", [CAROL, DAVE], chooser="carol", within=1200.0))
    assert r.posts
    matches = h.host.matches
    lost = list(matches.lobby._expiries.values()) + list(matches.choosing._timers.values())
    assert len(lost) == 2
    for handle in lost:  # a bug, say
        handle.cancel()
    await h.clock.advance(SWEEP_EVERY + WATCHDOG_EVERY)
    assert matches.kit.health.rearmed == 2
    await h.clock.advance(1200)
    texts = h.texts()
    assert sum("lapsed" in t for t in texts) == 1, texts
    assert sum("lots were drawn" in t for t in texts) == 1, texts
    assert matches.kit.health.rearmed == 2


# ---- the restore's bound ------------------------------------------------------------------

async def test_a_restore_never_trusts_a_heartbeat_older_than_its_bound(
        database_url: str) -> None:
    db1 = await open_database(database_url)
    clock1 = VirtualClock()
    host1 = asking(Matches(db1, clock1))
    await host1.start()
    await host1.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    await host1.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    live = host1.live[1]
    start = live.resumed_at
    await clock1.set(start + 14.1)
    renewed = max(t for t in range(0, 200, 10) if clock1.now() - 1700000000.0 >= t)
    # The heartbeat stopped at the turn's start (the bug of issue 27), while the leases
    # were still renewed: then the process is killed (no stop).
    async with db1.session() as s, s.begin():
        for beat in (await s.scalars(select(Heartbeat))).all():
            beat.at = start - 5.0
    db2 = await open_database(database_url)
    clock2 = VirtualClock(start=clock1.now() + 600)
    matches2 = Matches(db2, clock2)
    host2 = asking(matches2)
    await host2.start()
    after = host2.live[1]
    used = after.elapsed(clock2.now())
    # Counted up to the lease's last renewal (a tick of the 10-s renewal), not 0.0:
    # the player gets back at most the time since that renewal.
    assert used == pytest.approx(1700000000.0 + renewed - start)
    assert 14.1 - 10.0 <= used <= 14.1
    assert matches2.kit.health.stale_heartbeats == 1
    await host2.stop()
    await db2.close()
    await db1.close()


# ---- a tournament's round deadline ----------------------------------------------------------

async def test_a_round_deadline_refused_by_a_locked_database_is_settled_once_after(
        tmp_path: Path) -> None:
    w = await world_on(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", VirtualClock())
    faults = Faults(w.db, w.clock)
    try:
        await swiss_of_four(w, Setup(time_control=TimeControl.off(), deadline=1800.0,
                             no_show="double"))
        await w.clock.advance(1800 - 1)
        lock = faults.now(LOCKED, 20.0, "UPDATE tournaments")
        await w.clock.set(lock.end - 0.01)
        assert "neither played" not in w.said() and faults.hits > 1
        await w.clock.set(lock.end + RETRY_MOST)
        assert w.said().count("neither played, both lose by forfeit") == 2, w.said()
        events = [e for e in await log_of(w) if isinstance(e, Reported)]
        assert sorted(e.board for e in events) == [1, 2]
        await w.clock.advance(120)
        assert w.said().count("neither played, both lose by forfeit") == 2
    finally:
        faults.close()
        await w.services.matches.stop()
        await w.db.close()


async def test_a_reminders_lateness_runs_until_it_is_out(h: Harness) -> None:
    """``garnet_reminder_lateness_seconds``: from the reminder's moment to its post out
    (behind the pacer and Discord's limits), not to the timer that made it."""
    from bot.core.metrics import REMINDER_LATE

    def observed() -> tuple[float, float]:
        samples = {s.name: s.value for m in REMINDER_LATE.collect() for s in m.samples}
        return samples["garnet_reminder_lateness_seconds_count"], samples[
            "garnet_reminder_lateness_seconds_sum"]

    match_id = await dm(h, turn=60)
    live = h.host.live[match_id]
    kit, deliver = h.host.kit, h.host.kit.deliver

    async def slow(post: object) -> None:
        if "30 s left" in getattr(post, "text", ""):
            h.clock._now += 2.5  # its post 2.5 s on its way
        await deliver(post)  # type: ignore[arg-type]

    kit.deliver = slow  # type: ignore[assignment]
    count, total = observed()
    await h.clock.set(live.resumed_at + 31.0)
    assert sum("30 s left" in t for t in h.texts()) == 1, h.texts()
    now_count, now_total = observed()
    assert now_count == count + 1
    assert 2.5 <= now_total - total <= 2.6
