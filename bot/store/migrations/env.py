"""Alembic environment: async engine, batch mode for SQLite's ALTER TABLE limits.

On PostgreSQL the upgrade holds an advisory lock (``MIGRATION_LOCK``) from before it
reads the schema's revision until it is done: processes started together on a new
database (several shards' processes, a standby) migrate one after the other, and the
later ones find the schema up to date, instead of colliding on ``CREATE TABLE
alembic_version`` (duplicate key). On SQLite ``bot.store.db.upgrade`` takes a file
lock beside the database instead (SQLite has no advisory locks).
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store.models import Base

config = context.config
target_metadata = Base.metadata
# pg_advisory_lock's key for migrations: any constant no other lock of garnet's uses
# (the bytes of "garnetmg").
MIGRATION_LOCK = 0x6761726E65746D67


def _url() -> str:
    return (
        config.attributes.get("url")
        or os.environ.get("DATABASE_URL")
        or "sqlite+aiosqlite:///garnet.db"
    )


def _configure(connection: Connection) -> None:
    if connection.dialect.name != "postgresql":
        _migrate(connection)
        return
    # A session lock, taken and committed before the migration's own transaction: it
    # lasts until it is given back (or the connection closes, if the process dies).
    connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
    connection.commit()
    try:
        _migrate(connection)
    finally:
        connection.rollback()  # whatever a failed migration left open
        connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_configure)
    await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, render_as_batch=True,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
    else:
        asyncio.run(_run_async())
