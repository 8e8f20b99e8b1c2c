"""People as the platform names them: one row each, and what each server calls them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.messages import Actor
from bot.store.idempotent import conflict_insert
from bot.store.models import MemberName, User

MAX_NAME = 100


async def remember(s: AsyncSession, guild_id: str, people: Sequence[Actor]) -> None:
    """Keep a row for everyone named (matches, ledger entries and players refer to it),
    and the name this server gives them now (a nickname may change; it is kept for
    this server only). Two statements however many are named: each of the four a
    person took (look, insert, look, insert) was a round trip on the database's one
    connection (SQLite), with the transaction open, and every new match names three
    people. In the order of their ids, so that two transactions never wait for each
    other's rows the other way round (PostgreSQL)."""
    named = {actor.id: actor.name[:MAX_NAME] or actor.id for actor in people}
    if not named:
        return
    ids = sorted(named)
    make = conflict_insert(s)
    # Not a display name: names live per server (MemberName).
    await s.execute(make(User).values([{"id": i, "name": i} for i in ids])
                    .on_conflict_do_nothing(index_elements=["id"]))
    upsert = make(MemberName).values(
        [{"guild_id": guild_id, "user_id": i, "name": named[i]} for i in ids])
    await s.execute(upsert.on_conflict_do_update(
        index_elements=["guild_id", "user_id"], set_={"name": upsert.excluded.name},
        where=MemberName.name != upsert.excluded.name))
