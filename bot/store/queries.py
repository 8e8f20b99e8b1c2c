"""Small queries many parts of the bot need."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import User


async def user_names(s: AsyncSession, ids: Iterable[str] | None = None) -> dict[str, str]:
    """Display names by user id: of ``ids``, or of everybody when None."""
    query = select(User.id, User.name)
    if ids is not None:
        query = query.where(User.id.in_(set(ids)))
    return {uid: name for uid, name in (await s.execute(query)).all()}
