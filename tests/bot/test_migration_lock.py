"""Processes started together on a new database migrate one after the other: on
PostgreSQL an advisory lock around the upgrade (``bot/store/migrations/env.py``), on
SQLite a file lock beside the database (``bot.store.db.upgrade``). Without it both read
an empty schema and both ``CREATE TABLE alembic_version`` (duplicate key)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store.db import Database, revision
from tests.database import run_apart

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3

pytestmark = [pytest.mark.realtime, pytest.mark.database]


def _migrate_at_once(url: str) -> list[subprocess.CompletedProcess[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN",
                                                            "DATABASE_URL")}
    procs = [subprocess.Popen([sys.executable, "-m", "bot", "migrate", "--database", url],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for _ in range(PROCESSES)]
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def test_processes_started_together_on_an_empty_database_all_migrate(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    done = _migrate_at_once(url)
    for result in done:
        assert result.returncode == 0, result.stderr[-2000:]

    async def head() -> str | None:
        db = Database(url)
        try:
            return await revision(db)
        finally:
            await db.close()

    found = run_apart(head)
    assert found is not None
    assert all(found in r.stdout for r in done)
