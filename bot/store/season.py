"""A season's own items, read: Tokens of Life (sums of entries, like the ledger) and
eliminations (the ones not undone). Writes happen in ``bot.services.season`` and, for
eliminations, with a Death Match's result (``bot.services.results``)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Elimination, LifeToken, Match


async def tokens(s: AsyncSession, event_id: int,
                 user_ids: Sequence[str] | None = None) -> dict[str, int]:
    """Tokens of Life held in an event, by player (only those holding any)."""
    query = (select(LifeToken.user_id, func.sum(LifeToken.amount))
             .where(LifeToken.event_id == event_id).group_by(LifeToken.user_id))
    if user_ids is not None:
        query = query.where(LifeToken.user_id.in_(list(user_ids)))
    rows = await s.execute(query)
    return {user: int(total) for user, total in rows.all() if int(total) > 0}


async def eliminations(s: AsyncSession, event_id: int,
                       user_ids: Sequence[str] | None = None) -> dict[str, int | None]:
    """Players out of an event (not reinstated), with the number of the match that put
    them out (None: unknown)."""
    query = (select(Elimination.user_id, Match.number)
             .outerjoin(Match, Match.id == Elimination.match_id)
             .where(Elimination.event_id == event_id, Elimination.undone_at.is_(None))
             .order_by(Elimination.id))
    if user_ids is not None:
        query = query.where(Elimination.user_id.in_(list(user_ids)))
    rows = await s.execute(query)
    return {user: number for user, number in rows.all()}


async def active_elimination(s: AsyncSession, event_id: int,
                             user_id: str) -> Elimination | None:
    return await s.scalar(select(Elimination).where(
        Elimination.event_id == event_id, Elimination.user_id == user_id,
        Elimination.undone_at.is_(None)).order_by(Elimination.id.desc()).limit(1))
