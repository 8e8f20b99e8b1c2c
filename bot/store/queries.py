"""Small queries many parts of the bot need."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from bot.store.models import MemberName


async def user_names(s: AsyncSession, guild_id: str,
                     ids: Iterable[str] | None = None) -> dict[str, str]:
    """What people are called on one server, by user id: of ``ids``, or everybody.

    Only this server's names: a nickname given on another server never shows here.
    """
    query = select(MemberName.user_id, MemberName.name).where(MemberName.guild_id == guild_id)
    if ids is not None:
        query = query.where(MemberName.user_id.in_(set(ids)))
    return {uid: name for uid, name in (await s.execute(query)).all()}


def named_on(guild_id: str, user_id: InstrumentedAttribute[str] | ColumnElement[str]
             ) -> tuple[ColumnElement[str], ColumnElement[bool]]:
    """For a query that shows names: the name column (the id when none is known) and
    the condition to outer-join ``MemberName`` on, for this server only."""
    return (func.coalesce(MemberName.name, user_id),
            and_(MemberName.guild_id == guild_id, MemberName.user_id == user_id))
