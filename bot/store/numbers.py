"""Per-server numbers: match #1, #2, ..., event #1, #2, ... and tournament #1, #2, ...
in every server.

The number is taken inside the transaction that creates the row, by one atomic
upsert on the server's counter: on PostgreSQL the counter's row stays locked until
that transaction ends, on SQLite the whole write is serialised, so two creations
never share a number (the unique constraint on (guild_id, number) is the backstop).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.idempotent import conflict_insert
from bot.store.models import Counter, Event, Match, Tournament

Numbered = Literal["match", "event", "tournament"]
_TABLES: dict[str, type[Match] | type[Event] | type[Tournament]] = {
    "match": Match, "event": Event, "tournament": Tournament}


async def next_number(s: AsyncSession, guild_id: str, kind: Numbered) -> int:
    """The next number of a ``kind`` on a server (1 for its first)."""
    table = _TABLES[kind]
    # A server's first counter starts after what it already has (rows made before
    # counters existed, or copied in by a migration).
    start = (select(func.coalesce(func.max(table.number), 0) + 1)
             .where(table.guild_id == guild_id).scalar_subquery())
    make = conflict_insert(s)
    stmt = make(Counter).values(guild_id=guild_id, kind=kind, last=start)
    stmt = stmt.on_conflict_do_update(index_elements=["guild_id", "kind"],
                                      set_={"last": Counter.last + 1})
    return int((await s.execute(stmt.returning(Counter.last))).scalar_one())
