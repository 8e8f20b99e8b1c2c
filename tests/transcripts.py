"""The console transcripts (``tests/bot/golden``): a console script run as
``python -m bot --script FILE --virtual-clock`` runs it, on the test database."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.adapters.console import Console
from bot.app import build_services
from bot.commands.spec import Services
from bot.core.clock import VirtualClock
from bot.services.matches import MatchConfig
from bot.store.db import Database, open_database

GOLDEN = Path(__file__).parent / "bot" / "golden"
START = 1_700_000_000.0  # Tue 14 Nov 2023 22:13:20 UTC
SEED = 2024


@dataclass(frozen=True)
class Session:
    """A console with every service on the test database, as the script runner has."""

    console: Console
    out: io.StringIO
    services: Services
    db: Database

    async def play(self, line: str) -> str:
        """One line of a script: echoed unless blank or a comment, then handled; what
        the console printed for it (the echo included)."""
        before = len(self.out.getvalue())
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            self.out.write(line + "\n")
        await self.console.handle_line(line)
        return self.out.getvalue()[before:]

    def printed(self, tmp_path: Path) -> str:
        """Everything printed, temporary paths shown as ``<tmp>``."""
        return self.out.getvalue().replace(str(tmp_path), "<tmp>")


@asynccontextmanager
async def console_session(tmp_path: Path, url: str) -> AsyncIterator[Session]:
    """A console as ``python -m bot --script FILE --virtual-clock`` runs one: virtual time
    from START, a seeded host, a fresh database; stopped and closed on the way out."""
    out = io.StringIO()
    db = await open_database(url)
    clock = VirtualClock(start=START)
    console = Console(None, tmp_path / "images", out=out, hosts=("host",))
    # The lease renewed every 20 minutes, not every 10 s: the scripts wait virtual days
    # (see SERVICES in tests/fixtures.py). The computer searches to its node budgets, as
    # on the virtual clock (``Workers.fixed``): its moves the same under any load.
    services = build_services(db, clock, MatchConfig(instance="main", default_host_role="Host",
                                                     dm_reward=3, render_processes=0,
                                                     lease_seconds=3600.0, ai_fixed=True),
                              deliver=console.show, rng=random.Random(SEED),
                              threads=console.thread_in)
    console.attach(services)
    await services.matches.start()
    try:
        yield Session(console, out, services, db)
    finally:
        await services.matches.stop()
        await db.close()


async def transcript(script: Path, tmp_path: Path, url: str) -> str:
    """Run a console script as ``python -m bot --script FILE --virtual-clock`` does:
    each line that is not blank or a comment is echoed, then handled."""
    async with console_session(tmp_path, url) as session:
        for line in script.read_text(encoding="utf-8").splitlines():
            await session.play(line)
    return session.printed(tmp_path)
