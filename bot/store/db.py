"""Opening the database and bringing its schema up to date with Alembic."""

from __future__ import annotations

import asyncio
import traceback
import weakref
from pathlib import Path
from typing import Any, ClassVar

from alembic import command
from alembic.config import Config
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["url"] = url
    return config


def upgrade(url: str) -> None:
    """Apply every migration not yet applied (blocking: run it in a thread)."""
    command.upgrade(alembic_config(url), "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (history, leaderboards) run beside the writer; NORMAL sync is
    # still durable across a killed process (only an OS crash can lose the last
    # commit); foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Nesting:
    """Sessions a task holds open at once. A task that opens a session while it holds
    another asks the pool for a second connection: on SQLite (one connection) it waits
    for its own first one (``pool_timeout``, 60 s) and every other request with it; on
    PostgreSQL it takes two of the pool's connections for one request. The tests turn
    ``check`` on and fail any test during which it happened (``found``)."""

    check: ClassVar[bool] = False
    found: ClassVar[list[str]] = []
    _held: ClassVar[weakref.WeakKeyDictionary[asyncio.Task[Any], int]] = (
        weakref.WeakKeyDictionary())

    @classmethod
    def enter(cls) -> None:
        task = asyncio.current_task()
        if task is None:
            return
        held = cls._held.get(task, 0)
        if held and cls.check:
            cls.found.append("".join(traceback.format_stack(limit=12)[:-2]))
        cls._held[task] = held + 1

    @classmethod
    def leave(cls) -> None:
        task = asyncio.current_task()
        if task is not None and cls._held.get(task, 0) > 0:
            cls._held[task] -= 1


class Session(AsyncSession):
    """An AsyncSession that counts itself among the sessions its task holds."""

    async def __aenter__(self) -> Session:
        Nesting.enter()
        try:
            return await super().__aenter__()
        except BaseException:
            Nesting.leave()
            raise

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await super().__aexit__(*exc)
        finally:
            Nesting.leave()


class Database:
    """The async engine and session factory of one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        if make_url(url).get_backend_name() == "sqlite":
            # SQLite has one writer at a time. Several pooled connections would make
            # concurrent transactions wait in SQLite's busy handler (sleeping up to
            # busy_timeout); one connection queues them fairly on the event loop.
            self.engine: AsyncEngine = create_async_engine(
                url, pool_size=1, max_overflow=0, pool_timeout=60)
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_async_engine(url, pool_size=10, max_overflow=10)
        self.session = async_sessionmaker(self.engine, class_=Session, expire_on_commit=False)

    async def migrate(self) -> None:
        await asyncio.to_thread(upgrade, self.url)

    async def close(self) -> None:
        await self.engine.dispose()


async def open_database(url: str) -> Database:
    """Open ``url`` and migrate it to the newest schema."""
    db = Database(url)
    await db.migrate()
    return db


async def revision(db: Database) -> str | None:
    """The schema's Alembic revision, None for a database garnet never migrated."""
    async with db.engine.connect() as conn:
        if not await conn.run_sync(lambda sync: inspect(sync).has_table("alembic_version")):
            return None
        found = await conn.scalar(text("SELECT version_num FROM alembic_version"))
    return None if found is None else str(found)


async def migrate_and_report(url: str) -> tuple[str | None, str | None]:
    """Migrate ``url`` to the newest schema: its revision before and after."""
    db = Database(url)
    try:
        before = await revision(db)
        await db.migrate()
        return before, await revision(db)
    finally:
        await db.close()
