"""Putting the bot together: settings, database, clock and host, then an adapter."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TextIO

from sqlalchemy import func, select

from bot.config import Settings
from bot.console import Console
from bot.core.clock import Clock, RealClock, VirtualClock
from bot.services.matches import MatchConfig, Matches
from bot.store.db import Database, open_database
from bot.store.models import Heartbeat


async def last_heartbeat(db: Database) -> float:
    async with db.session() as s:
        latest = await s.scalar(select(func.max(Heartbeat.at)))
    return float(latest or 0.0)


def host_config(settings: Settings) -> MatchConfig:
    return MatchConfig(instance=settings.instance, default_host_role=settings.host_role,
                      dm_reward=settings.dm_reward,
                      render_processes=settings.render_processes)


async def _stdin_lines() -> AsyncIterator[str]:
    while True:
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            return
        yield line


async def _file_lines(path: Path, echo: TextIO) -> AsyncIterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            echo.write(line + "\n")
        yield line


async def run_console(settings: Settings, script: Path | None, virtual: bool,
                      hosts: tuple[str, ...], out: TextIO = sys.stdout) -> int:
    db = await open_database(settings.database_url)
    clock: Clock = RealClock()
    if virtual:
        # Virtual time must not run backwards past what an earlier run recorded.
        clock = VirtualClock(start=max(RealClock().now(), await last_heartbeat(db)))
    host = Matches(db, clock, host_config(settings))
    console = Console(host, settings.image_dir, out=out, hosts=hosts)
    await host.start()
    try:
        if script is not None:
            await console.run(_file_lines(script, out))
        else:
            out.write("garnet console: type `name: message` (e.g. `alice: /help`), "
                      "Ctrl-D to quit.\n")
            out.flush()
            await console.run(_stdin_lines())
    finally:
        await host.stop()
        await db.close()
    return 0


async def run_discord(settings: Settings) -> int:
    from bot.discord_adapter import run_bot

    db: Database = await open_database(settings.database_url)
    try:
        await run_bot(settings, db)
    finally:
        await db.close()
    return 0


def setup_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
