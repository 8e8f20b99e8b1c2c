"""A real SQLite lock under a falling flag (issue 27's bar), on real time: another
connection holds the database's write lock for 25 s from just before the flag; garnet's
writes wait out ``busy_timeout`` and fail with "database is locked", the timer is tried
again, and the flag is applied within a few seconds of the lock's end, once, with the
lock not charged. Runs on its own SQLite file (skipped when the suite runs on
PostgreSQL: the fault injector covers that)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.core.clock import RealClock
from bot.core.enums import MatchStatus
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import MatchConfig, Matches
from bot.services.matches.timing import MAX_LAG
from bot.store.db import open_database
from bot.store.models import Match, MatchPlayer
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, asking

LOCK = 25.0
pytestmark = [pytest.mark.realtime(seconds=32),
              pytest.mark.waits("25 s of a lock held by a thread: nearly no CPU, and its "
                                "bound (6 s after the lock) holds beside a busy core")]


@pytest.mark.sqlite_only("a SQLite file's lock (the fault injector covers PostgreSQL)")
async def test_a_flag_that_falls_during_a_real_25_s_lock_is_applied_after_it(
        tmp_path: Path) -> None:
    path = tmp_path / "garnet.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    clock = RealClock()
    host = asking(Matches(db, clock, MatchConfig(), deliver=deliver))
    await host.start()
    try:
        await host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me",
                             tc=TimeControl.build(turn=5, banks=0, reminders="off"))
        await host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
        live = host.live[1]
        assert live.resumed_at is not None
        flag = live.resumed_at + 5 + MAX_LAG
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            other = sqlite3.connect(path, timeout=30)
            other.execute("BEGIN IMMEDIATE")  # the write lock, as another writer holds it
            locked.set()
            release.wait(60)
            other.rollback()
            other.close()

        await asyncio.sleep(max(0.0, flag - 0.5 - clock.now()))
        holder = threading.Thread(target=hold)
        holder.start()
        await asyncio.to_thread(locked.wait, 10)
        start = clock.now()
        await asyncio.sleep(LOCK)
        release.set()
        await asyncio.to_thread(holder.join, 10)
        ended = clock.now()
        applied = None
        while clock.now() < ended + 20:
            async with db.session() as s:
                status = await s.scalar(select(Match.status).where(Match.id == 1))
            if status == MatchStatus.FINISHED:
                applied = clock.now()
                break
            await asyncio.sleep(0.1)
        assert applied is not None, [p.text for p in posts]
        print(f"flag applied {applied - ended:.1f} s after a {ended - start:.1f} s lock")
        assert applied - ended <= 5.0 + 1.0
        async with db.session() as s:
            used = (await s.scalars(select(MatchPlayer.time_used).where(
                MatchPlayer.user_id == "alice"))).one()
        assert used == pytest.approx(5.0)  # the lock was not charged
        said = [p.text for p in posts]
        assert sum("ran out" in t for t in said) == 1, said
    finally:
        await host.stop()
        await db.close()
