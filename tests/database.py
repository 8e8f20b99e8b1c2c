"""The database every test that needs one runs on: one switch, ``TEST_DATABASE_URL``.

- Empty (the default): SQLite, a file in the test's own temporary directory.
- A PostgreSQL URL (``postgresql+asyncpg://user@host:port/db``): a server on which that
  user may create databases. Each test gets a database of its own, created from a
  template that the real Alembic migrations brought to the newest schema once per run
  (``CREATE DATABASE ... TEMPLATE``; one per pytest-xdist worker). After the test, in
  the background, its sessions are ended and, if its schema is still the template's,
  its rows deleted and its sequences restarted: it then serves a later test as new
  (creating a database costs ~150 ms, emptying one ~50 ms). A database whose schema
  changed is dropped.

``python -m tests.database postgres-url`` prints the PostgreSQL server ``make test``
runs the suite on a second time: ``TEST_POSTGRES_URL`` (or ``PG_TEST_URL``) when set,
else the private server of ``.ci/postgres`` when it answers, else nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import sys
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.services.leases import pid_alive
from bot.store.db import upgrade
from bot.store.models import Base

ENV = "TEST_DATABASE_URL"
LOCAL_POSTGRES = "postgresql+asyncpg://garnet@127.0.0.1:5433/postgres"  # .ci/postgres
PREFIX = "garnet_test"

T = TypeVar("T")


def configured() -> str | None:
    """The URL of TEST_DATABASE_URL; None for the default, SQLite."""
    return os.environ.get(ENV, "").strip() or None


def backend() -> str:
    url = configured()
    return "sqlite" if url is None else make_url(url).get_backend_name()


def _in_thread(work: Callable[[], T]) -> T:
    """Run ``work`` in a thread of its own: the fixtures are plain functions, and a
    test's loop may be running or not (Alembic and ``run_apart`` start loops of their own)."""
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def run_apart(work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to its end on a loop of its own (from a plain fixture)."""
    return _in_thread(lambda: asyncio.run(work()))


async def _admin(url: URL, *statements: str) -> list[str]:
    """Run statements outside a transaction (CREATE DATABASE cannot run inside one) on
    the server's database named in ``url``; the first column of the last result."""
    engine = create_async_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            rows: list[str] = []
            for statement in statements:
                result = await conn.execute(text(statement))
                rows = [str(r[0]) for r in result] if result.returns_rows else []
            return rows
    finally:
        await engine.dispose()


def _run() -> str:
    """The prefix of this process's databases: its pid (a later run drops those of a
    process that is gone) and its pytest-xdist worker, so that the workers of one run
    (``pytest -n 2``), each with a template of its own, never meet."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"{PREFIX}_{os.getpid()}_{worker}"


class Databases:
    """Fresh databases for one test run, on SQLite or on the server of ``url``."""

    def __init__(self, url: str | None, workdir: Path) -> None:
        self.url = None if url is None else make_url(url)
        self.workdir = workdir
        self._names = itertools.count(1)
        self._template: str | Path | None = None
        self._tables: set[str] = set()  # the template's tables, Alembic's included
        self._revision: str | None = None
        self._clean: list[str] = []  # emptied databases at the template's schema
        self._copies: set[str] = set()  # databases made from the template
        self._recycler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recycle")
        self._recycling: list[Future[tuple[str, bool]]] = []
        self.lock = threading.Lock()

    # -- naming ------------------------------------------------------------------------

    def _name(self) -> str:
        return f"{_run()}_{next(self._names)}"

    def _server_url(self, database: str) -> str:
        assert self.url is not None
        return self.url.set(database=database).render_as_string(hide_password=False)

    # -- the template, migrated once ---------------------------------------------------

    def template(self) -> str | Path:
        with self.lock:
            if self._template is None:
                self._template = self._make_template()
            return self._template

    def _make_template(self) -> str | Path:
        if self.url is None:
            path = self.workdir / "template.db"
            _in_thread(lambda: upgrade(f"sqlite+aiosqlite:///{path}"))
            return path
        self._drop_leftovers()
        name = f"{_run()}_template"
        run_apart(lambda: _admin(self.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                            f'CREATE DATABASE "{name}"'))
        # The real migrations; their engine is disposed, so the template has no sessions.
        _in_thread(lambda: upgrade(self._server_url(name)))
        self._tables = set(run_apart(lambda: _admin(
            make_url(self._server_url(name)),
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")))
        (self._revision,) = run_apart(lambda: _admin(
            make_url(self._server_url(name)), "SELECT version_num FROM alembic_version"))
        return name

    def _drop_leftovers(self) -> None:
        """Databases of earlier runs on this machine that ended without cleaning up."""
        assert self.url is not None
        names = run_apart(lambda: _admin(self.url,
                                    "SELECT datname FROM pg_database WHERE datname LIKE "
                                    f"'{PREFIX}\\_%'"))
        stale = []
        for name in names:
            parts = name.split("_")
            if len(parts) > 3 and parts[2].isdigit() and not pid_alive(int(parts[2])):
                stale.append(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if stale:
            run_apart(lambda: _admin(self.url, *stale))

    # -- one database per test ---------------------------------------------------------

    def create(self, directory: Path, migrated: bool = True) -> str:
        """A new database: migrated to the newest schema (a copy of the template), or
        empty (nothing in it, not even Alembic's version table)."""
        if self.url is None:
            path = directory / f"garnet-{next(self._names)}.db"
            if migrated:
                shutil.copy(self.template(), path)
            return f"sqlite+aiosqlite:///{path}"
        template = self.template()
        if migrated:
            self._collect(wait=False)
            if self._clean:
                return self._server_url(self._clean.pop())
        name = self._name()
        source = f' TEMPLATE "{template}"' if migrated else ""
        run_apart(lambda: _admin(self.url, f'CREATE DATABASE "{name}"{source}'))
        if migrated:
            self._copies.add(name)
        return self._server_url(name)

    def drop(self, url: str) -> None:
        """Done with a database: emptied for a later test, or dropped."""
        if self.url is None:
            return  # the file goes with the test's temporary directory
        name = make_url(url).database
        assert name is not None
        if name in self._copies:
            self._recycling.append(self._recycler.submit(self._recycle, name))
            return
        run_apart(lambda: _admin(self.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def _recycle(self, name: str) -> tuple[str, bool]:
        """(In the recycler's thread.) ``name``, and whether it was emptied (else it was
        dropped)."""
        if asyncio.run(self._emptied(name)):
            return name, True
        asyncio.run(_admin(self.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        return name, False

    def _collect(self, wait: bool) -> None:
        for future in list(self._recycling):
            if wait or future.done():
                self._recycling.remove(future)
                name, emptied = future.result()
                if emptied:
                    self._clean.append(name)
                else:
                    self._copies.discard(name)

    async def _emptied(self, name: str) -> bool:
        """End the sessions a test left on ``name``; if its schema is the template's,
        delete every row and restart every sequence. Whether it is as new."""
        engine = create_async_engine(self._server_url(name), poolclass=NullPool)
        try:
            async with engine.begin() as conn:
                await conn.execute(text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
                tables = set((await conn.scalars(text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))).all())
                revision = await conn.scalar(text("SELECT version_num FROM alembic_version"))
                if tables != self._tables or revision != self._revision:
                    return False
                for table in reversed(Base.metadata.sorted_tables):
                    await conn.execute(table.delete())
                await conn.execute(text(
                    "SELECT setval(format('%I.%I', schemaname, sequencename), 1, false) "
                    "FROM pg_sequences WHERE schemaname = 'public'"))
            return True
        except Exception:
            return False
        finally:
            await engine.dispose()

    def close(self) -> None:
        self._collect(wait=True)
        self._recycler.shutdown()
        if self.url is None:
            return
        for name in [*self._clean, *([self._template] if isinstance(self._template, str)
                                     else [])]:
            self._copies.discard(name)
            self.drop(self._server_url(name))


async def reachable(url: str) -> bool:
    engine = create_async_engine(url, poolclass=NullPool, connect_args={"timeout": 3})
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False
    finally:
        await engine.dispose()


def postgres_url() -> str | None:
    for name in ("TEST_POSTGRES_URL", "PG_TEST_URL"):
        if os.environ.get(name, "").strip():
            return os.environ[name].strip()
    if run_apart(lambda: reachable(LOCAL_POSTGRES)):
        return LOCAL_POSTGRES
    return None


if __name__ == "__main__":
    if sys.argv[1:] == ["postgres-url"]:
        print(postgres_url() or "")
        sys.exit(0)
    print("usage: python -m tests.database postgres-url", file=sys.stderr)
    sys.exit(2)
