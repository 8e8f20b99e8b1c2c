"""The console transcripts (``tests/bot/golden``): a console script run as
``python -m bot --script FILE --virtual-clock`` runs it, on the test database."""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.adapters.console import Console
from bot.app import build_services
from bot.core.clock import VirtualClock
from bot.services.matches import MatchConfig
from bot.store.db import open_database

GOLDEN = Path(__file__).parent / "bot" / "golden"
START = 1_700_000_000.0  # Tue 14 Nov 2023 22:13:20 UTC
SEED = 2024


async def transcript(script: Path, tmp_path: Path, url: str) -> str:
    """Run a console script as ``python -m bot --script FILE --virtual-clock`` does:
    each line that is not blank or a comment is echoed, then handled."""
    out = io.StringIO()
    db = await open_database(url)
    clock = VirtualClock(start=START)
    console = Console(None, tmp_path / "images", out=out, hosts=("host",))
    # The lease renewed every 20 minutes, not every 10 s: the scripts wait virtual days
    # (see SERVICES in tests/fixtures.py).
    services = build_services(db, clock, MatchConfig(instance="main", default_host_role="Host",
                                                     dm_reward=3, render_processes=0,
                                                     lease_seconds=3600.0),
                              deliver=console.show, rng=random.Random(SEED),
                              threads=console.thread_in)
    console.attach(services)
    host = services.matches
    await host.start()
    try:
        for line in script.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                out.write(line + "\n")
            await console.handle_line(line)
    finally:
        await host.stop()
        await db.close()
    return out.getvalue().replace(str(tmp_path), "<tmp>")
