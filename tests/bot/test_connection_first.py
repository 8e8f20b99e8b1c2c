"""A running match's move is committed before it is announced, and on SQLite every
request shares one connection: the move writer's commits take it ahead of every
other request waiting (a new match's set-up, a result's booking, a history page), so
that a move never waits behind a queue it did not make (``bot.store.db.FIRST``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

from bot.store.db import open_database
from bot.store.movelog import Beat, MoveWriter


async def _until(condition: Any) -> None:
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the requests did not queue")


@pytest.mark.sqlite_only("the pool of PostgreSQL holds twenty connections: none is waited for here")
async def test_a_move_s_commit_takes_the_connection_before_requests_queued_ahead(
        database_url: str) -> None:
    db = await open_database(database_url)
    order: list[str] = []
    free = asyncio.Event()
    held = asyncio.Event()

    async def holding() -> None:
        async with db.session() as s, s.begin():
            await s.execute(text("SELECT 1"))
            held.set()
            await free.wait()

    async def asking(n: int) -> None:
        async with db.session() as s, s.begin():
            await s.execute(text("SELECT 1"))
            order.append(f"request {n}")

    async def moving() -> None:
        await MoveWriter(db.engine).write(Beat("shard:0/1", 1.0))
        order.append("move")

    line = db.engine.sync_engine.pool._pool._queue._getters  # type: ignore[attr-defined]
    try:
        tasks = [asyncio.create_task(holding())]
        await held.wait()
        tasks += [asyncio.create_task(asking(n)) for n in range(3)]
        await _until(lambda: len(line) == 3)
        tasks.append(asyncio.create_task(moving()))
        await _until(lambda: len(line) == 4)
        free.set()
        await asyncio.gather(*tasks)
    finally:
        await db.close()
    assert order == ["move", "request 0", "request 1", "request 2"]
