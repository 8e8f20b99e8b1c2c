"""Whose turn it is to IDENTIFY with Discord's gateway, across every process of the bot.

Discord lets a bot start at most ``max_concurrency`` sessions every 5 seconds: each
shard belongs to the identify bucket ``shard_id % max_concurrency``, and each bucket may
IDENTIFY once per 5 s (Discord's "Sharding" page; a session started out of turn is
refused and must start again). discord.py keeps that order among the shards of one
process only (it waits 5 s before each IDENTIFY but the first); processes that start
together would all IDENTIFY at once.

``IdentifyTurns`` takes the bucket's turn before each IDENTIFY and gives it back 5 s
after: on PostgreSQL through an advisory lock per bucket (the lock is only an order
of turns, nothing is fenced by it, so a lock that vanishes with a dropped connection
costs at most one early IDENTIFY, which Discord refuses and discord.py repeats); on
SQLite, where one process holds the database, through a lock in the process.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.db import Database

log = logging.getLogger(__name__)

#: each identify bucket may IDENTIFY once per this many seconds (Discord's rule)
IDENTIFY_WINDOW = 5.0
#: the high half of the advisory lock keys: "garn"
_KEY_SPACE = 0x6761726E


def bucket_of(shard_id: int, max_concurrency: int) -> int:
    """The identify bucket of a shard (Discord: ``shard_id % max_concurrency``)."""
    return shard_id % max(1, max_concurrency)


def lock_key(application_id: str, bucket: int) -> int:
    """The advisory lock of one bucket of one application (a signed 64-bit key)."""
    low = zlib.crc32(f"identify:{application_id}:{bucket}".encode())
    key = (_KEY_SPACE << 32) | low
    return key - (1 << 64) if key >= 1 << 63 else key


@dataclass
class IdentifyTurns:
    """One IDENTIFY per bucket per ``window`` seconds, whatever process asks."""

    db: Database
    window: float = IDENTIFY_WINDOW
    # the process's own order, on SQLite (and before the database is asked)
    _local: dict[int, asyncio.Lock] = field(default_factory=dict)
    _holding: set[asyncio.Task[None]] = field(default_factory=set)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # the tests' clock

    async def take(self, shard_id: int, max_concurrency: int, application_id: str) -> None:
        """Wait for the bucket's turn; it is given back ``window`` seconds from now, so
        the IDENTIFY the caller sends next is the bucket's only one in that time."""
        bucket = bucket_of(shard_id, max_concurrency)
        key = lock_key(application_id, bucket)
        lock = self._local.setdefault(bucket, asyncio.Lock())
        await lock.acquire()
        conn: AsyncConnection | None = None
        try:
            if self.db.engine.dialect.name == "postgresql":
                conn = await self.db.engine.connect()
                await conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
                await conn.commit()  # the lock is the session's, not the transaction's
        except BaseException:
            if conn is not None:
                await conn.close()
            lock.release()
            raise
        log.info("Shard %s identifies (bucket %s of %s)", shard_id, bucket, max_concurrency)
        task = asyncio.create_task(self._give_back(lock, conn, key))
        self._holding.add(task)
        task.add_done_callback(self._holding.discard)

    async def _give_back(self, lock: asyncio.Lock, conn: AsyncConnection | None,
                         key: int) -> None:
        try:
            await self.sleep(self.window)
        finally:
            try:
                if conn is not None:
                    await conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
                    await conn.commit()
            finally:
                if conn is not None:
                    await conn.close()  # closing alone would give the lock back too
                lock.release()

    async def close(self) -> None:
        """Give back every turn still held (at shutdown)."""
        for task in list(self._holding):
            task.cancel()
        await asyncio.gather(*self._holding, return_exceptions=True)
