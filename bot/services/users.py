"""People as the platform names them: one row each, its name refreshed when they act."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.messages import Actor
from bot.store.models import User

MAX_NAME = 100


async def remember(s: AsyncSession, people: Sequence[Actor]) -> None:
    """Keep a row for everyone named (matches, ledger entries and players refer to it).

    The name is the one the platform gives now (a nickname may change).
    """
    for actor in people:
        name = actor.name[:MAX_NAME]
        user = await s.get(User, actor.id)
        if user is None:
            s.add(User(id=actor.id, name=name or actor.id))
        elif name and user.name != name:
            user.name = name
    await s.flush()
