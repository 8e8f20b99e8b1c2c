"""Copying a whole database into another (``python -m bot migrate-db``).

Every table of the schema is copied in dependency order (a row's references exist
before it), in batches read by primary key, inside one transaction of the target: a
copy that fails leaves the target as it was. The target must be empty (it is then
migrated to the newest schema with Alembic) or already at the newest schema and
without rows (``force`` empties it first). Afterwards the id sequences are moved past
the copied ids, and ``verify`` compares the row count of every table and every
balance (the ledger's sum per server, event and player) between the two databases.

JSON columns are read as their text: a SQL NULL stays NULL and a JSON ``null`` stays
``null``, whichever the source holds.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Column,
    MetaData,
    Table,
    Text,
    cast,
    delete,
    func,
    inspect,
    select,
)
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.store.db import alembic_config, upgrade
from bot.store.models import Base, LedgerEntry
from bot.store.sequences import reset_sequences

DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
EXAMPLES = "sqlite+aiosqlite:///garnet.db or postgresql+asyncpg://user:password@host/dbname"


class CopyError(Exception):
    """Bad input or a state the copy refuses; the message says what to do."""


def shown(url: str | URL) -> str:
    """A URL as it may be printed: without its password."""
    return make_url(url).render_as_string(hide_password=True)


def parse_url(url: str, role: str) -> URL:
    """``url`` as a URL garnet can open, or a CopyError naming ``role`` ("source" or
    "target") and saying what is wrong."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise CopyError(f"the {role} '{url}' is not a database URL (like {EXAMPLES})"
                        ) from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend not in DRIVERS:
        raise CopyError(f"the {role} URL's scheme '{parsed.drivername}' is not one garnet "
                        f"speaks: use {EXAMPLES}")
    if driver != DRIVERS[backend]:
        raise CopyError(f"the {role} URL must name the async driver: "
                        f"{backend}+{DRIVERS[backend]}://… (not {parsed.drivername}://…)")
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise CopyError(f"the {role} is an in-memory SQLite database: name a file "
                            "(sqlite+aiosqlite:///path/to/garnet.db)")
        folder = os.path.dirname(os.path.abspath(parsed.database))
        if not os.path.isdir(folder):
            raise CopyError(f"the {role}'s folder {folder} does not exist")
    elif importlib.util.find_spec("asyncpg") is None:
        raise CopyError("PostgreSQL needs the asyncpg driver: pip install 'garnet[postgres]'")
    return parsed


def engine_for(url: URL) -> AsyncEngine:
    connect: dict[str, Any] = {"timeout": 10} if url.get_backend_name() == "postgresql" else {}
    return create_async_engine(url, poolclass=NullPool, connect_args=connect)


def _reason(exc: BaseException) -> str:
    inner = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    return " ".join(str(inner).split()) or type(inner).__name__


async def reach(engine: AsyncEngine, role: str) -> None:
    try:
        async with engine.connect():
            pass
    except Exception as exc:
        reason = _reason(exc)
        if engine.url.get_backend_name() == "postgresql" and "does not exist" in reason:
            reason += f" (create it first: CREATE DATABASE {engine.url.database})"
        raise CopyError(f"cannot connect to the {role} {shown(engine.url)}: {reason}"
                        ) from None


@dataclass(frozen=True)
class Schema:
    """What a database holds: its Alembic revision (None: none recorded) and tables."""

    revision: str | None
    tables: frozenset[str]


def _schema(conn: Connection) -> Schema:
    revision = MigrationContext.configure(conn).get_current_revision()
    names = frozenset(inspect(conn).get_table_names()) - {"alembic_version"}
    return Schema(revision, names)


async def schema_of(engine: AsyncEngine) -> Schema:
    async with engine.connect() as conn:
        return await conn.run_sync(_schema)


def revisions(url: URL) -> tuple[str, set[str]]:
    """This garnet's newest revision, and every revision it knows."""
    script = ScriptDirectory.from_config(alembic_config(url.render_as_string(False)))
    head = script.get_current_head()
    assert head is not None
    return head, {r.revision for r in script.walk_revisions()}


def check_source(schema: Schema, head: str, known: set[str], url: URL) -> None:
    where = shown(url)
    if schema.revision is None:
        raise CopyError(f"the source {where} holds no garnet database (no migration "
                        "recorded): is DATABASE_URL (or --database) right?")
    if schema.revision not in known:
        raise CopyError(f"the source {where} was migrated by a newer garnet (revision "
                        f"{schema.revision}, unknown here; the newest known is {head}): "
                        "run migrate-db from that version")
    if schema.revision != head:
        raise CopyError(f"the source {where} is at revision {schema.revision}, behind this "
                        f"garnet's {head}: start the bot on it once (it migrates at start), "
                        "then copy")


def check_target(schema: Schema, head: str, known: set[str], url: URL) -> bool:
    """Whether the target must be migrated first (it is empty); a CopyError if it is
    neither empty nor at the newest schema."""
    where = shown(url)
    if schema.revision is None:
        if schema.tables:
            raise CopyError(f"the target {where} has tables ({', '.join(sorted(schema.tables))})"
                            " but no garnet migration: give an empty database")
        return True
    if schema.revision not in known:
        raise CopyError(f"the target {where} is ahead: migrated by a newer garnet (revision "
                        f"{schema.revision}, unknown here; the newest known is {head}). Give "
                        "an empty database, or copy with that newer garnet")
    if schema.revision != head:
        raise CopyError(f"the target {where} is behind: at revision {schema.revision}, not "
                        f"this garnet's {head}. Give an empty database (migrate-db migrates "
                        "it), or bring it up to date first: DATABASE_URL=… alembic -c "
                        "bot/store/migrations/alembic.ini upgrade head")
    return False


async def counts(conn: AsyncConnection) -> dict[str, int]:
    """The rows of each table of the schema."""
    found = {}
    for table in Base.metadata.sorted_tables:
        found[table.name] = int(await conn.scalar(select(func.count()).select_from(table))
                                or 0)
    return found


def _columns(table: Table) -> list[Any]:
    """The columns to read: JSON ones as their text (see the module's docstring)."""
    return [cast(c, Text).label(c.name) if isinstance(c.type, JSON) else c
            for c in table.columns]


def _writable(table: Table) -> Table:
    """The table as the copy writes it: JSON columns take None as SQL NULL."""
    columns = [Column(c.name, JSON(none_as_null=True) if isinstance(c.type, JSON) else c.type)
               for c in table.columns]
    return Table(table.name, MetaData(), *columns)


def _decoded(row: dict[str, Any], json_columns: list[str]) -> dict[str, Any]:
    for name in json_columns:
        raw = row[name]
        if raw is not None:
            value = json.loads(raw)
            row[name] = JSON.NULL if value is None else value
    return row


async def read_rows(conn: AsyncConnection, table: Table) -> list[dict[str, Any]]:
    """Every row of ``table`` by primary key, JSON columns as their text (for checks)."""
    result = await conn.execute(select(*_columns(table)).order_by(*table.primary_key))
    return [dict(r._mapping) for r in result]


@dataclass
class Copied:
    """What a copy did: the rows per table and the next ids (PostgreSQL)."""

    rows: dict[str, int] = field(default_factory=dict)
    next_ids: dict[str, int] = field(default_factory=dict)


async def copy_tables(source: AsyncConnection, target: AsyncConnection, batch: int,
                      emptied: bool, progress: Callable[[str, int], None]) -> Copied:
    """Copy every table from ``source`` into ``target`` (in a transaction the caller
    opened), calling ``progress(table, rows)`` after each table; ``emptied``: delete the
    target's rows first."""
    tables = Base.metadata.sorted_tables
    if emptied:
        for table in reversed(tables):
            await target.execute(delete(table))
    copied = Copied()
    for table in tables:
        writable = _writable(table)
        json_columns = [c.name for c in table.columns if isinstance(c.type, JSON)]
        done = 0
        stream = await source.stream(select(*_columns(table)).order_by(*table.primary_key))
        async for part in stream.partitions(batch):
            rows = [_decoded(dict(r._mapping), json_columns) for r in part]
            try:
                await target.execute(writable.insert(), rows)
            except DBAPIError as exc:
                first = rows[0].get("id", "")
                raise CopyError(f"{table.name}: the target refused the rows from id {first} "
                                f"on: {_reason(exc)}") from None
            done += len(rows)
        copied.rows[table.name] = done
        progress(table.name, done)
    copied.next_ids = await reset_sequences(target)
    return copied


Balance = tuple[str, int | None, str]


async def balances(conn: AsyncConnection) -> dict[Balance, int]:
    """Every balance: the ledger's sum per server, event (None: outside events), player."""
    result = await conn.execute(
        select(LedgerEntry.guild_id, LedgerEntry.event_id, LedgerEntry.user_id,
               func.sum(LedgerEntry.amount))
        .group_by(LedgerEntry.guild_id, LedgerEntry.event_id, LedgerEntry.user_id))
    return {(g, e, u): int(total) for g, e, u, total in result}


@dataclass
class Check:
    """The two databases compared: rows per table (source, target) and balances."""

    tables: dict[str, tuple[int, int]]
    balances: int
    differing_balances: list[tuple[Balance, int | None, int | None]]

    @property
    def ok(self) -> bool:
        return not self.differing_balances and all(a == b for a, b in self.tables.values())


async def verify(source: AsyncEngine, target: AsyncEngine) -> Check:
    async with source.connect() as s, target.connect() as t:
        before, after = await counts(s), await counts(t)
        owed, held = await balances(s), await balances(t)
    differing = [(key, owed.get(key), held.get(key)) for key in sorted(
        owed.keys() | held.keys(), key=lambda k: (k[0], k[1] or 0, k[2]))
        if owed.get(key) != held.get(key)]
    return Check({name: (before[name], after[name]) for name in before}, len(owed), differing)


async def migrate_target(url: URL) -> None:
    await asyncio.to_thread(upgrade, url.render_as_string(hide_password=False))
