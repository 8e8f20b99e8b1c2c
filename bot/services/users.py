"""People as the platform names them: one row each, and what each server calls them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.messages import Actor
from bot.store.models import MemberName, User

MAX_NAME = 100


async def remember(s: AsyncSession, guild_id: str, people: Sequence[Actor]) -> None:
    """Keep a row for everyone named (matches, ledger entries and players refer to it),
    and the name this server gives them now (a nickname may change; it is kept for
    this server only)."""
    for actor in dict.fromkeys(people):
        name = actor.name[:MAX_NAME] or actor.id
        if await s.get(User, actor.id) is None:
            # Not a display name: names live per server (MemberName).
            s.add(User(id=actor.id, name=actor.id))
            await s.flush()
        known = await s.get(MemberName, (guild_id, actor.id))
        if known is None:
            s.add(MemberName(guild_id=guild_id, user_id=actor.id, name=name))
        elif known.name != name:
            known.name = name
    await s.flush()
