"""``python -m bot migrate-db --to URL``: a deployment's SQLite database moved into the
test database (PostgreSQL when TEST_DATABASE_URL names one, else another SQLite file),
every row and balance the same, and the bot going on there; every bad input refused
with a sentence that says what to do.

The source is SQLite on purpose: that is the move this command exists for."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.__main__ import main as bot_main
from bot.core.clock import VirtualClock
from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.migrate_db import run
from bot.store.copydb import CopyError, read_rows
from bot.store.db import alembic_config, open_database
from bot.store.models import Base, Match
from tests.bot.conftest import ALICE, BOB, CHAN
from tests.bot.economy_helpers import economy_of
from tests.database import run_apart
from tests.fixtures import bot_process
from tests.transcripts import transcript

SEASON = Path(__file__).parent / "golden" / "season.txt"
GUILD = "console"  # the console's server, where the season was played
LATER = 1_900_000_000.0
ERIN = Actor("erin", "Erin")
HEAD = ScriptDirectory.from_config(alembic_config("sqlite+aiosqlite://")).get_current_head()


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database after the golden season played through the console: rows in
    every table (events, DMs, rewards, transfers, ratings, host actions, ...)."""
    folder = tmp_path_factory.mktemp("season")
    url = f"sqlite+aiosqlite:///{folder / 'season.db'}"
    shown = run_apart(lambda: transcript(SEASON, folder, url))
    assert "something went wrong" not in shown
    return folder / "season.db"


@pytest.fixture
def source(season: Path, tmp_path: Path) -> str:
    shutil.copy(season, tmp_path / "source.db")
    return f"sqlite+aiosqlite:///{tmp_path / 'source.db'}"


async def everything(url: str) -> dict[str, list[dict[str, object]]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return {t.name: await read_rows(conn, t) for t in Base.metadata.sorted_tables}
    finally:
        await engine.dispose()


async def migrate(source: str, target: str, force: bool = False, batch: int = 1000
                  ) -> tuple[int, str]:
    out = io.StringIO()
    code = await run(source, target, force, batch, out)
    return code, out.getvalue()


async def test_everything_is_copied_and_the_bot_goes_on_there(
        source: str, make_database: Callable[..., str]) -> None:
    # A match in progress at the move: it must go on on the target.
    db = await open_database(source)
    host = bot_process(db, VirtualClock(start=LATER))
    await host.start()
    r = await host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    assert r.reply is not None
    await host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    running = max(host.live)
    await host.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    await host.stop()
    await db.close()

    target = make_database(migrated=False)
    code, out = await migrate(source, target, batch=7)  # small batches: many of them
    assert code == 0, out
    assert "target: empty, migrated to revision" in out
    assert f"check: the same rows in all {len(Base.metadata.tables)} tables" in out
    assert "check: all 4 balances (per server, event and player) equal" in out
    before, after = await everything(source), await everything(target)
    # The season fills every table of matches, events and the ledger (tournaments and
    # the season's tokens have their own transcript; a server's decks, tests/bot/test_decks.py;
    # stored reviews, tests/bot/test_web_review.py; a clean stop gives the leases back).
    empty = {name for name, rows in before.items() if not rows}
    assert empty <= {"leases", "tournaments", "tournament_players", "tournament_log",
                     "tournament_games", "life_tokens", "eliminations", "nominations",
                     "server_decks", "match_reviews"}, empty
    for table in before:
        assert after[table] == before[table], table

    db = await open_database(target)
    clock = VirtualClock(start=LATER + 60)
    host = bot_process(db, clock)
    await host.start()
    try:
        assert list(host.live) == [running] and host.live[running].ply == 1
        r = await host.lobby.challenge(Asker(GUILD, "c2", ERIN), "cairo", [ALICE])
        assert r.reply is not None and "challenges" in r.reply.text, r.reply
        async with db.session() as s:  # its row follows the copied ones
            assert await s.scalar(select(func.max(Match.id))) == running + 1
        shown = await economy_of(host).garnets(GUILD, ERIN)
        assert shown.reply is not None and "**15 garnets**" in shown.reply.text
    finally:
        await host.stop()
        await db.close()


async def test_a_target_with_rows_is_refused_unless_forced(
        source: str, make_database: Callable[..., str]) -> None:
    target = make_database(migrated=False)
    assert (await migrate(source, target))[0] == 0
    with pytest.raises(CopyError, match=r"already holds rows \(.*matches: 22, .*--force"):
        await migrate(source, target)
    code, out = await migrate(source, target, force=True)
    assert code == 0 and "its rows replaced (--force)" in out, out
    assert await everything(target) == await everything(source)


async def test_a_migrated_empty_target_is_used_as_it_is(
        source: str, make_database: Callable[..., str]) -> None:
    code, out = await migrate(source, make_database())
    assert code == 0 and f"target: at revision {HEAD}, no rows" in out, out


async def test_a_target_behind_or_ahead_of_the_migrations_is_refused(
        source: str, make_database: Callable[..., str]) -> None:
    behind = make_database(migrated=False)
    await asyncio.to_thread(command.upgrade, alembic_config(behind), "0001")
    with pytest.raises(CopyError, match=f"is behind: at revision 0001, not this garnet's {HEAD}"):
        await migrate(source, behind)
    ahead = make_database()
    engine = create_async_engine(ahead)
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
    await engine.dispose()
    with pytest.raises(CopyError, match=r"is ahead: migrated by a newer garnet .*0099_future"):
        await migrate(source, ahead)


async def test_a_source_behind_is_refused(tmp_path: Path,
                                          make_database: Callable[..., str]) -> None:
    old = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await asyncio.to_thread(command.upgrade, alembic_config(old), "0001")
    with pytest.raises(CopyError, match=r"source .* is at revision 0001, behind .* start the"):
        await migrate(old, make_database(migrated=False))


@pytest.mark.parametrize(("target", "says"), [
    ("postgres://u@db/garnet", "scheme 'postgres' is not one garnet speaks"),
    ("postgresql://u@db/garnet", "must name the async driver: postgresql+asyncpg://"),
    ("mysql+aiomysql://u@db/garnet", "scheme 'mysql+aiomysql' is not one garnet speaks"),
    ("garnet.db", "'garnet.db' is not a database URL"),
    ("sqlite+aiosqlite://", "in-memory SQLite database"),
    ("sqlite+aiosqlite:////no/such/folder/g.db", "folder /no/such/folder does not exist"),
    ("postgresql+asyncpg://garnet:secret@127.0.0.1:1/garnet",
     "cannot connect to the target postgresql+asyncpg://garnet:***@127.0.0.1:1/garnet"),
])
async def test_bad_targets_are_named(source: str, target: str, says: str) -> None:
    with pytest.raises(CopyError, match=re.escape(says)):
        await migrate(source, target)


async def test_bad_sources_are_named(tmp_path: Path, source: str) -> None:
    with pytest.raises(CopyError, match="the target is the source itself"):
        await migrate(source, source)
    with pytest.raises(CopyError, match=r"there is no database at .*missing\.db"):
        await migrate(f"sqlite+aiosqlite:///{tmp_path / 'missing.db'}",
                      f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")
    empty = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    (tmp_path / "empty.db").touch()
    with pytest.raises(CopyError, match="holds no garnet database"):
        await migrate(empty, f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")


def test_the_command_line(source: str, make_database: Callable[..., str],
                          tmp_path: Path) -> None:
    target = make_database(migrated=False)
    env = dict(os.environ, DATABASE_URL=source)
    done = subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--to", target],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "done: point DATABASE_URL at the target" in done.stdout
    again = subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--to", target],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and again.stderr.startswith("error: the target "), again
    with pytest.raises(SystemExit) as exit_:
        bot_main(["migrate-db"])
    assert exit_.value.code == 2
