"""Timers that cannot die: a timer whose write fails runs again until it succeeds, the
match's clock stands still meanwhile (nobody is charged), and the heartbeat keeps its
schedule through a database outage (``tests/bot/faults.py`` makes it fail)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from bot.core.clock import RETRY_MOST, VirtualClock, backoff
from bot.core.enums import MatchStatus
from bot.core.timecontrol import TimeControl
from bot.services.matches.timing import MAX_LAG
from bot.store.models import Heartbeat, Lease, Match, MatchPlayer
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness
from tests.bot.faults import FULL, GONE, LOCKED, Faults


@pytest.fixture
async def faults(h: Harness) -> AsyncIterator[Faults]:
    f = Faults(h.db, h.clock)
    yield f
    f.close()


async def dm(h: Harness, turn: float = 60, banks: int = 0) -> int:
    r = await h.host.start_dm(GUILD, CHAN, HOSTY, "cairo", [ALICE, BOB], chooser="host",
                              tc=TimeControl.build(turn=turn, banks=banks))
    assert r.posts, r.reply
    first = await h.host.choose_first(None, GUILD, CHAN, HOSTY, "alice")
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
