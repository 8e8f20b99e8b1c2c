"""Every fixture the tests share, in one pytest plugin (registered by
``tests/conftest.py``): no test module imports fixtures from another.

- ``make_database`` / ``database_url``: a database of the test's own, migrated, on the
  one switch ``TEST_DATABASE_URL`` (``tests/database.py``): SQLite by default, else
  PostgreSQL. A test that uses either is marked ``database`` (``tests/conftest.py``), so
  ``make test`` runs it on PostgreSQL too; every fixture below stands on them.
  ``no_nested_sessions`` (every test): no task opens a session while it holds another.
- ``services``: every service, built by the composition root (``bot.app``), started,
  on virtual time; ``bot_process``: the match service of one more bot process (a
  restart, a takeover), built the same way.
- ``world``: the Discord bot on the Discord fake (``tests.discord_bot``).
- ``tournament_world``: the services as the tournament tests drive them
  (``tests.tournament_world``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.app import build_services
from bot.commands.spec import Services
from bot.config import Settings
from bot.core.clock import Clock, VirtualClock
from bot.services.matches import Deliver, MatchConfig, Matches
from bot.store.db import Database, Nesting, open_database
from tests import database
from tests.discord_bot import World, start_bot
from tests.fake.discord_fake import FakeDiscord
from tests.fake.discord_world import GUILD_ID
from tests.tournament_world import TournamentWorld, tournament_world_on

# ---- the test database -----------------------------------------------------------------


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[database.Databases]:
    made = database.Databases(database.configured(), tmp_path_factory.mktemp("databases"))
    yield made
    made.close()


@pytest.fixture
def make_database(databases: database.Databases,
                  tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``make_database()``: the URL of a new database migrated to the newest schema;
    ``make_database(migrated=False)``: of an empty one. Each is dropped after the test."""
    made: list[str] = []

    def make(migrated: bool = True) -> str:
        made.append(databases.create(tmp_path, migrated))
        return made[-1]

    yield make
    for url in made:
        databases.drop(url)


@pytest.fixture
def database_url(make_database: Callable[..., str]) -> str:
    """The URL of this test's own database, migrated to the newest schema."""
    return make_database()


@pytest.fixture(autouse=True)
def no_nested_sessions() -> Iterator[None]:
    """Every test fails that made a task open a database session while it held another
    (see ``bot.store.db.Nesting``: on SQLite that waits 60 s and stalls every server)."""
    Nesting.check = True
    Nesting.found.clear()
    yield
    found = list(Nesting.found)
    Nesting.found.clear()
    assert not found, (f"{len(found)} database session(s) opened while the same task held "
                       f"another; the first:\n{found[0]}")


# ---- the services ------------------------------------------------------------------------

# The bot's defaults, but for the lease: renewed every 20 minutes rather than every 10 s,
# so that a test that waits a virtual day (a casual game's idle lapse) renews it 72
# times, not 8,640 (a database write each). Leases and their renewal are tested with
# their real period in test_leases.py and test_processes.py.
SERVICES = MatchConfig(lease_seconds=3600.0)


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    """Every service as the bot builds them (``bot.app.build_services``), started on the
    test's database with virtual time (``services.matches.clock``) and a fixed seed.
    Their posts go nowhere until a test hands ``services.matches.deliver`` a receiver."""
    db = await open_database(database_url)
    built = build_services(db, VirtualClock(), SERVICES, rng=random.Random(7))
    await built.matches.start()
    yield built
    await built.matches.stop()
    await db.close()


def bot_process(db: Database, clock: Clock, config: MatchConfig | None = None,
                deliver: Deliver | None = None, rng: random.Random | None = None) -> Matches:
    """The match service of one bot process on ``db``, with every other service around it
    as the bot builds them (``bot.app.build_services``); not started. The tests of
    restarts, takeovers and shards run several on one database."""
    return build_services(db, clock, config, deliver=deliver, rng=rng).matches


# ---- the Discord bot on the fake -----------------------------------------------------------


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                database_url: str) -> AsyncIterator[World]:
    clock = VirtualClock()
    fake = FakeDiscord(clock)
    fake.install(monkeypatch)
    db = await open_database(database_url)  # finds the schema current: nothing to apply
    settings = dataclasses.replace(
        Settings.from_env(env_file=None), discord_token="token", database_url=database_url,
        host_role="Host", image_dir=tmp_path, dm_reward=3, command_guild=GUILD_ID,
        instance="test", render_processes=0)
    bot = await start_bot(fake, settings, db, clock)
    made = World(fake, bot, clock, set(asyncio.all_tasks()), settings, db)
    try:
        yield made
    finally:
        await made.bot.close()
        await db.close()
    assert fake.unexpected == []


# ---- the tournament services ----------------------------------------------------------------


@pytest.fixture
async def tournament_world(database_url: str) -> AsyncIterator[TournamentWorld]:
    made = await tournament_world_on(database_url, VirtualClock())
    yield made
    await made.close()
