"""One owner per match: a lease per shard, held by one bot process at a time.

Why a row per shard rather than PostgreSQL's advisory locks: a row works the same on
SQLite and PostgreSQL; it shows who holds what and since when (the refusal and the log
name the holder); and its ``owner`` column is a fencing token that a write can check
*inside its own transaction* (``guard``): a takeover swaps the owner with one
compare-and-set UPDATE, so a result is either written before the takeover (and the new
owner sees it when it restores) or not at all. An advisory lock lives on one pooled
connection: it vanishes silently when that connection drops, and a transaction on any
other connection of the pool cannot tell whether the lock is still held.

The lease runs on the match clock: renewed with the heartbeat (every
``renew_every``), it lapses ``seconds`` after the last renewal. Another process takes a
shard over once its lease has lapsed, or at once when the holder is known dead (same
host, its pid gone; or an earlier incarnation in this very process). On SQLite a
second process is refused at start; on PostgreSQL it waits, retrying, and takes over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Select, delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from bot.core.clock import Clock
from bot.core.metrics import LEASES_LOST, LEASES_TAKEN
from bot.core.refusal import Refusal
from bot.core.shards import Shards
from bot.store.db import Database
from bot.store.models import Lease
from bot.texts import match as texts

log = logging.getLogger(__name__)
SQLITE_KEY = "sqlite:one-process"


class LeaseLost(Refusal):
    """This process no longer holds the lease of a server's shard: it writes nothing."""

    def __init__(self) -> None:
        super().__init__(texts.lease_lost())


class LeaseHeld(RuntimeError):
    """Another process holds the shards (SQLite: only one process per database file)."""


@dataclass(frozen=True)
class Owner:
    instance: str
    pid: int
    host: str
    token: str

    @classmethod
    def here(cls, instance: str) -> Owner:
        return cls(instance, os.getpid(), socket.gethostname()[:100], secrets.token_hex(6))

    @property
    def id(self) -> str:
        return f"{self.instance}/{self.pid}@{self.host}#{self.token}"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def holder_of(row: Lease) -> str:
    """Who holds a lease, for people: instance, pid, host, since when."""
    return (f"instance '{row.instance}' (pid {row.pid} on host {row.host}, since "
            f"{_when(row.since)})")


def pid_alive(pid: int) -> bool:
    """Whether a process of this host has the id ``pid`` (one of another user too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _rows(result: object) -> int:
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


def lease_keys(shards: Shards, url: str) -> list[str]:
    """The leases a process on ``shards`` holds on the database at ``url``."""
    keys = shards.keys()
    if url.startswith("sqlite"):
        # SQLite serves one bot process per file, whatever its shards: a lease on the
        # file itself refuses a second one.
        keys.append(SQLITE_KEY)
    return keys


class Leases:
    def __init__(self, db: Database, clock: Clock, shards: Shards, instance: str,
                 seconds: float = 30.0, wait: bool | None = None) -> None:
        self.db = db
        self.clock = clock
        self.shards = shards
        self.keys = lease_keys(shards, db.url)
        self.me = Owner.here(instance)
        self.seconds = seconds
        # SQLite: one process per file, so a second one is refused; PostgreSQL: wait.
        self.wait = wait if wait is not None else not db.url.startswith("sqlite")
        self.held: set[str] = set()
        # When each lease was last renewed before we took it (its row's expiry less the
        # lease): a committed sign that its holder was alive then (the restore's bound
        # on a heartbeat, see ``lifecycle``).
        self.renewed_before: dict[str, float] = {}
        self.lost = False
        self.on_lost: list[Callable[[], None]] = []

    @property
    def renew_every(self) -> float:
        return self.seconds / 3

    def mine(self) -> Select[str]:
        """The keys of the leases this process still holds, as a subquery (a write
        limited to them is fenced without a round trip)."""
        return select(Lease.key).where(Lease.key.in_(self.keys), Lease.owner == self.me.id)

    def runs(self, guild_id: str) -> bool:
        """Does this process run ``guild_id``'s matches now (its shard, lease held)?"""
        return self.shards.owns(guild_id) and not self.lost

    # ---- taking and giving back ---------------------------------------------------

    async def acquire(self, retry_every: float | None = None) -> None:
        """Hold every lease of our shards: take the free and lapsed ones; wait for the
        others (PostgreSQL) or refuse to start (SQLite, or ``wait`` False)."""
        told: set[str] = set()
        while True:
            blocked: list[Lease] = []
            for key in self.keys:
                row = await self._take(key)
                if row is not None:
                    blocked.append(row)
            if not blocked:
                self.lost = False
                return
            if not self.wait:
                await self.release()
                row = blocked[0]
                raise LeaseHeld(
                    f"another garnet process already runs on this database: "
                    f"{holder_of(row)}, holding {row.key} until {_when(row.expires_at)}. "
                    f"Stop it first (SQLite allows one bot process per database file; "
                    f"several processes need PostgreSQL).")
            for row in blocked:
                if row.owner not in told:
                    told.add(row.owner)
                    log.warning("waiting for %s, held by %s until %s; taking over once "
                                "it lapses", row.key, holder_of(row), _when(row.expires_at))
            await asyncio.sleep(retry_every if retry_every is not None
                                else min(1.0, self.renew_every))

    async def _take(self, key: str) -> Lease | None:
        """Take or renew one lease; the row of its live holder if someone else has it."""
        now = self.clock.now()
        async with self.db.session() as s:
            row = await s.get(Lease, key)
        values = {"owner": self.me.id, "instance": self.me.instance, "pid": self.me.pid,
                  "host": self.me.host, "expires_at": now + self.seconds}
        if row is None:
            try:
                async with self.db.session() as s, s.begin():
                    s.add(Lease(key=key, since=now, **values))
            except IntegrityError:
                return await self._take(key)  # another process inserted it first
            self.held.add(key)
            LEASES_TAKEN.labels("free").inc()
            log.info("lease %s taken by %s", key, self.me.id)
            return None
        self.renewed_before[key] = row.expires_at - self.seconds
        if row.owner == self.me.id:
            await self.renew()
            return None
        lapsed = row.expires_at <= now
        dead = row.host == self.me.host and (row.pid == self.me.pid or not pid_alive(row.pid))
        if not (lapsed or dead):
            return row
        async with self.db.engine.begin() as conn:  # compare and set: one taker wins
            taken = _rows(await conn.execute(
                update(Lease).where(Lease.key == key, Lease.owner == row.owner,
                                    Lease.expires_at == row.expires_at)
                .values(since=now, **values)))
        if not taken:
            return await self._take(key)
        self.held.add(key)
        LEASES_TAKEN.labels("takeover").inc()
        log.warning("TAKING OVER %s from %s: its lease %s; restoring its matches", key,
                    holder_of(row), f"lapsed at {_when(row.expires_at)}" if lapsed
                    else "holder is gone (its process no longer runs)")
        return None

    async def renew(self) -> bool:
        """Push our leases' expiry on; False (and the lost handlers run) if one is gone."""
        if self.lost:
            return False
        async with self.db.engine.begin() as conn:
            return await self.renew_in(conn)

    async def renew_in(self, conn: AsyncConnection) -> bool:
        """``renew`` in the caller's transaction (the heartbeat's)."""
        kept = _rows(await conn.execute(
            update(Lease).where(Lease.key.in_(self.keys), Lease.owner == self.me.id)
            .values(expires_at=self.clock.now() + self.seconds)))
        if kept < len(self.keys):
            self.lose()
            return False
        return True

    async def release(self) -> None:
        """Give our leases back (a clean stop): the next process takes them at once."""
        async with self.db.engine.begin() as conn:
            await conn.execute(delete(Lease).where(Lease.owner == self.me.id))
        self.held.clear()

    def lose(self) -> None:
        if self.lost:
            return
        self.lost = True
        self.held.clear()
        LEASES_LOST.inc()
        log.error("LEASE LOST: another process has taken over shards %s from %s; this "
                  "process stops running their matches and writes nothing more for them. "
                  "Restart it to wait for the shards again.", self.shards, self.me.id)
        for handler in self.on_lost:
            handler()

    # ---- the fence ------------------------------------------------------------------

    async def guard(self, s: AsyncSession, guild_id: str) -> None:
        """In the caller's transaction: this process still holds the lease of
        ``guild_id``'s shard (renewed as it is checked), or raise ``LeaseLost`` so that
        the transaction writes nothing. On PostgreSQL the UPDATE locks the lease row
        until the commit, so a takeover waits for it and then finds the row changed."""
        key = self.shards.key_of(guild_id)
        if self.lost or key not in self.keys:
            raise LeaseLost()
        kept = _rows(await s.execute(
            update(Lease).where(Lease.key == key, Lease.owner == self.me.id)
            .values(expires_at=self.clock.now() + self.seconds)))
        if not kept:
            self.lose()
            raise LeaseLost()

    async def guard_all(self, conn: AsyncConnection) -> None:
        """The same fence for a batch of moves (the move writer's transaction)."""
        if self.lost or not await self.renew_in(conn):
            raise LeaseLost()
