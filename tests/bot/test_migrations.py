"""The migrations on the test database (SQLite, or PostgreSQL in the second run of
``make test``): up to the newest schema, which is exactly the models' (``alembic
check``), down to nothing, and up again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from alembic import command
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store.db import alembic_config
from bot.store.models import Base


async def tables(url: str) -> set[str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


async def test_up_down_and_up_again_matching_the_models(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "head")
    await asyncio.to_thread(command.check, config)  # the models need no new migration
    assert await tables(url) == {*Base.metadata.tables, "alembic_version"}
    await asyncio.to_thread(command.downgrade, config, "base")
    assert await tables(url) <= {"alembic_version"}
    await asyncio.to_thread(command.upgrade, config, "head")
    await asyncio.to_thread(command.check, config)
