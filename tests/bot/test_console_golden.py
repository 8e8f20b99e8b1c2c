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

from pathlib import Path

import pytest

from tests import snapshots
from tests.transcripts import GOLDEN, transcript


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


@pytest.mark.sqlite_only("6 s of the computer's searches, held once a run; practice "
                         "games on PostgreSQL are tests/bot/test_practice.py's")
async def test_practice_transcript(tmp_path: Path, database_url: str) -> None:
    """A practice match against the computer (it answers each move, nothing is booked),
    refusals, and the computer's review of a finished match. The computer searches to
    its node budgets, as on the console's virtual clock (``Workers.fixed``): the same
    moves and review however loaded the machine, so the test runs beside the others."""
    actual = await transcript(GOLDEN / "practice.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "practice.out", actual)


async def test_tools_transcript(tmp_path: Path, database_url: str) -> None:
    """A host's tools (bulk event administration, the First Player's deadline, the
    overview, take-backs and a corrected result, logged) and casual courtesies."""
    actual = await transcript(GOLDEN / "tools.txt", tmp_path, database_url)
    assert "something went wrong" not in actual
    compare(GOLDEN / "tools.out", actual)
