"""A real PostgreSQL restart under a running match (issue 27's bar): a private cluster
of ``.ci/postgres`` on a port of its own (never the shared test server) is stopped for
6 s under a bot on real time; the heartbeat is written again within a step (2 s) of the
server's return, the match's clock stood still meanwhile (nobody charged), and its
channel was told both ways. Skipped without PostgreSQL's server binaries."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.core.clock import RealClock
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.services.matches import MatchConfig, Matches
from bot.store.db import open_database
from bot.store.models import Heartbeat
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, asking

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "postgres"
DOWN = 6.0
pytestmark = pytest.mark.realtime(seconds=20)  # with the cluster's start


def _free_port() -> str:
    """A port nothing listens on. Not one derived from the pid: ``.ci/postgres start``
    reuses a server already answering on its port, so a port that happened to be the
    shared test server's (5433) made this test restart nothing (and pass its outage on a
    live server, or fail)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


def _pg(action: str, env: dict[str, str]) -> str:
    done = subprocess.run([str(SCRIPT), action], env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout.strip()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    if not any(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")) and not shutil.which("pg_ctl"):
        pytest.skip("no PostgreSQL server binaries")
    port = _free_port()
    data = Path(f"/tmp/garnet-pg-restart-{port}")
    env = dict(os.environ, GARNET_PG_PORT=port, GARNET_PG_DIR=str(data))
    url = _pg("start", env)
    try:
        yield url, env
    finally:
        _pg("stop", env)
        shutil.rmtree(data, ignore_errors=True)


async def _heartbeat(url: str) -> float | None:
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            return max((await conn.scalars(select(Heartbeat.at))).all(), default=None)
    except Exception:
        return None
    finally:
        await engine.dispose()


@pytest.mark.sqlite_only("it runs its own PostgreSQL cluster: once a run, in the SQLite pass")
async def test_the_heartbeat_resumes_after_a_6_s_postgresql_restart(
        cluster: tuple[str, dict[str, str]]) -> None:
    url, env = cluster
    db = await open_database(url)
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    clock = RealClock()
    matches = Matches(db, clock, MatchConfig(), deliver=deliver)
    host = asking(matches)
    await host.start()
    try:
        await host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
        await host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
        live = host.live[1]
        await asyncio.sleep(2.5)
        before = live.elapsed(clock.now())
        await asyncio.to_thread(_pg, "stop", env)
        stopped = clock.now()
        assert await _heartbeat(url) is None, "the server still answers after its stop"
        await asyncio.sleep(DOWN)
        await asyncio.to_thread(_pg, "start", env)
        back = clock.now()
        beat = None
        while clock.now() < back + 10:
            beat = await _heartbeat(url)
            if beat is not None and beat >= back:
                break
            await asyncio.sleep(0.1)
        assert beat is not None and beat >= back, "the heartbeat never resumed"
        print(f"heartbeat written {beat - back:.2f} s after the server was back "
              f"(down {back - stopped:.1f} s)")
        assert beat - back <= 2.0 + 0.5
        await asyncio.sleep(0.5)
        assert live.stalled_at is None and not live.paused
        # The outage was not charged: the turn stood still from the first failed write.
        used = live.elapsed(clock.now()) - (clock.now() - live.resumed_at)
        assert before <= used <= before + 2.0 + 0.5, (before, used)
        said = [p.text for p in posts]
        assert sum("cannot save right now" in t for t in said) == 1, said
        assert sum("can save again after" in t for t in said) == 1, said
        assert matches.kit.health.heartbeat_failures >= 1
    finally:
        await host.stop()
        await db.close()

