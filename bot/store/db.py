"""Opening the database and bringing its schema up to date with Alembic."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import fcntl
import os
import time
import traceback
import weakref
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import AsyncAdaptedQueuePool, ConnectionPoolEntry
from sqlalchemy.util import await_only, memoized_property
from sqlalchemy.util.queue import AsyncAdaptedQueue

from bot.core import metrics
from bot.core.metrics import DB_ERRORS, DB_WAIT, TRANSACTIONS

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["url"] = url
    return config


def upgrade(url: str) -> None:
    """Apply every migration not yet applied (blocking: run it in a thread).

    Processes started together migrate one at a time: PostgreSQL through an advisory
    lock (``migrations/env.py``); an SQLite file through a lock on ``FILE.migrating``
    beside it (the second process then finds the schema up to date)."""
    parsed = make_url(url)
    path = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if not path or path == ":memory:" or path.startswith("file:"):
        command.upgrade(alembic_config(url), "head")
        return
    with _migration_lock(Path(f"{path}.migrating")):
        command.upgrade(alembic_config(url), "head")


@contextlib.contextmanager
def _migration_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``, removed when released so that nothing is left
    beside the database. A process that waited on a file the holder has since removed
    holds a lock nobody else can see: it opens the file anew and waits again."""
    while True:
        with open(path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if _same_file(lock.fileno(), path):
                    try:
                        yield
                    finally:
                        path.unlink(missing_ok=True)  # while held: no one can take it
                    return
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


STATEMENT_SECONDS = 15.0  # an SQLite statement running longer is interrupted
POOL_WAIT = 30.0  # the longest a request waits for SQLite's one connection
PROGRESS_EVERY = 50_000  # SQLite instructions between checks of a statement's deadline


class Deadline:
    """When the statement running on a connection must be done by (0: none running).
    SQLite calls it every ``PROGRESS_EVERY`` instructions, in the driver's thread; a
    true answer interrupts the statement (``OperationalError: interrupted``)."""

    def __init__(self) -> None:
        self.at = 0.0

    def __call__(self) -> int:
        return 1 if self.at and time.monotonic() > self.at else 0


def _statement_starts(conn: Any, *_args: Any) -> None:
    deadline = conn.info.get("deadline")
    if deadline is not None:
        deadline.at = time.monotonic() + STATEMENT_SECONDS


def _statement_ends(conn: Any, *_args: Any) -> None:
    deadline = conn.info.get("deadline")
    if deadline is not None:
        deadline.at = 0.0


def _statement_failed(context: Any) -> None:
    if context.connection is not None:
        _statement_ends(context.connection)


def _sqlite_deadline(dbapi_connection: Any, record: Any) -> None:
    # SQLite has one connection here: a statement that runs away (a huge scan) would
    # hold every other request; past STATEMENT_SECONDS it is interrupted instead.
    deadline = Deadline()
    record.info["deadline"] = deadline
    await_only(dbapi_connection.driver_connection.set_progress_handler(deadline,
                                                                       PROGRESS_EVERY))


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


def _begun(conn: Any) -> None:
    conn.info["began"] = time.perf_counter()


def _ended(outcome: str) -> Any:
    observe = TRANSACTIONS.labels(outcome).observe

    def ended(conn: Any) -> None:
        if conn.invalidated:
            # A statement cancelled halfway (a page's reader whose visitor left): the
            # connection is thrown away, and reading its info would raise in the middle
            # of SQLAlchemy's own clean-up.
            return
        began = conn.info.pop("began", None)
        if began is not None:
            observe(time.perf_counter() - began)

    return ended


def _failed(_context: Any) -> None:
    DB_ERRORS.inc()


def _measured(engine: AsyncEngine) -> None:
    """Every transaction's length and every failed statement, for the operators."""
    sync = engine.sync_engine
    event.listen(sync, "begin", _begun)
    event.listen(sync, "commit", _ended("commit"))
    event.listen(sync, "rollback", _ended("rollback"))
    event.listen(sync, "handle_error", _failed)


# Set in a task whose requests for a connection go ahead of every other waiting (the
# move writer's: a running match's move, committed before it is announced, never waits
# behind a new match's set-up, a result's booking or a history page queued before it).
FIRST: contextvars.ContextVar[bool] = contextvars.ContextVar("first_for_a_connection",
                                                            default=False)


@contextlib.contextmanager
def first_in_line() -> Iterator[None]:
    """Within it, this task's requests for a connection go first (``FIRST``)."""
    token = FIRST.set(True)
    try:
        yield
    finally:
        FIRST.reset(token)


class _Line(collections.deque[Any]):
    """The requests waiting for a connection: those of a ``FIRST`` task at the front."""

    def append(self, waiter: Any) -> None:
        if FIRST.get():
            self.appendleft(waiter)
        else:
            super().append(waiter)


class _FirstQueue(asyncio.Queue[Any]):
    def __init__(self, maxsize: int = 0) -> None:
        super().__init__(maxsize)
        # asyncio.Queue.get adds its waiter here and put wakes them from the left.
        self._getters: collections.deque[Any] = _Line()


class _FirstLine(AsyncAdaptedQueue[Any]):
    """SQLAlchemy's queue of an async pool's connections, its waiters in ``_Line``."""

    @memoized_property
    def _queue(self) -> asyncio.Queue[Any]:
        return _FirstQueue(maxsize=self.maxsize)


class MeasuredPool(AsyncAdaptedQueuePool):
    """The async engines' own pool, with each request's wait for a connection observed
    (``DB_WAIT``): on SQLite's one connection, the transactions queued ahead of it,
    which no transaction's own length shows. The move writer's requests are served
    first (``FIRST``)."""

    _queue_class = _FirstLine

    def _do_get(self) -> ConnectionPoolEntry:
        began = time.perf_counter()
        try:
            return super()._do_get()
        finally:
            DB_WAIT.observe(time.perf_counter() - began)


class Nesting:
    """Sessions a task holds open at once. A task that opens a session while it holds
    another asks the pool for a second connection: on SQLite (one connection) it waits
    for its own first one (``POOL_WAIT``, 30 s) and every other request with it; on
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
            # A statement runs at most STATEMENT_SECONDS (then it is interrupted) and
            # a request waits at most POOL_WAIT for the connection (then it fails
            # rather than piling up behind a stuck one).
            self.engine: AsyncEngine = create_async_engine(
                url, pool_size=1, max_overflow=0, pool_timeout=POOL_WAIT,
                poolclass=MeasuredPool)
            sync = self.engine.sync_engine
            event.listen(sync, "connect", _sqlite_pragmas)
            event.listen(sync, "connect", _sqlite_deadline)
            event.listen(sync, "before_cursor_execute", _statement_starts)
            event.listen(sync, "after_cursor_execute", _statement_ends)
            event.listen(sync, "handle_error", _statement_failed)
        else:
            self.engine = create_async_engine(url, pool_size=10, max_overflow=10,
                                              poolclass=MeasuredPool)
        if metrics.on():
            _measured(self.engine)
        self.session = async_sessionmaker(self.engine, class_=Session, expire_on_commit=False)

    async def migrate(self) -> None:
        """Bring the schema to the newest revision; nothing to do (no Alembic, which
        loads every migration script and opens an engine of its own: ~15 ms of CPU a
        database opened) when it is there already."""
        if await revision(self) == head():
            return
        # Migrated by Alembic's own engine alone, as before this engine had connected.
        await self.engine.dispose()
        await asyncio.to_thread(upgrade, self.url)

    async def close(self) -> None:
        await self.engine.dispose()


async def open_database(url: str) -> Database:
    """Open ``url`` and migrate it to the newest schema."""
    db = Database(url)
    await db.migrate()
    return db


@cache
def head() -> str | None:
    """The newest revision of the migrations garnet ships (read once a process)."""
    return ScriptDirectory.from_config(alembic_config("")).get_current_head()


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
