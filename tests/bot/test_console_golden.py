"""A whole season in the local console, pinned as a golden transcript.

``golden/season.txt`` is a console script (the lines ``python -m bot --script FILE
--virtual-clock`` reads) that uses every command of the bot, the buttons' commands,
refusals and the clock. ``golden/season.out`` is what the console printed for it,
word for word: the texts players read. It runs deterministically: virtual time from
a fixed instant, a seeded random generator for the host (first players, lots), a
fresh database and image folder; temporary paths are shown as ``<tmp>``.

After an intended change of a text, rewrite the transcript with ``UPDATE_SNAPSHOTS=1``
and read its diff.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.adapters.console import Console
from bot.app import build_services
from bot.core.clock import VirtualClock
from bot.services.matches import MatchConfig
from bot.store.db import open_database
from tests import snapshots

GOLDEN = Path(__file__).parent / "golden"
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


def compare(expected: Path, actual: str) -> None:
    snapshots.compare(expected, actual, "the console transcript", "console now")


async def test_season_transcript(tmp_path: Path, database_url: str) -> None:
    actual = await transcript(GOLDEN / "season.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "season.out", actual)
    # Every image and file the transcript names was written.
    for line in actual.splitlines():
        for tag in ("[image: <tmp>", "[file: <tmp>"):
            if line.strip().startswith(tag):
                name = line.strip()[len(tag):-1]
                assert (tmp_path / name.lstrip("/")).stat().st_size > 0, name


async def test_two_servers_transcript(tmp_path: Path, database_url: str) -> None:
    """Server B's host tries every command on server A's match and event: each is
    "not on this server", and A's DM goes on; both servers count from #1."""
    actual = await transcript(GOLDEN / "servers.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "servers.out", actual)


async def test_practice_transcript(tmp_path: Path, database_url: str) -> None:
    """A practice match against the computer (it answers each move, nothing is booked),
    refusals, and the computer's review of a finished match."""
    actual = await transcript(GOLDEN / "practice.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "practice.out", actual)


async def test_tools_transcript(tmp_path: Path, database_url: str) -> None:
    """A host's tools (bulk event administration, the First Player's deadline, the
    overview, take-backs and a corrected result, logged) and casual courtesies."""
    actual = await transcript(GOLDEN / "tools.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "tools.out", actual)
