"""The garnet ledger: every change of a balance is an entry; a balance is their sum.

Balances are kept per (server, event); entries outside any event have no event.
Entries are never changed or deleted. An entry with a ``key`` is booked at most once
(a match's reward, a confiscation): the key is unique in the database.

Spending (a transfer, a confiscation) must see a balance that no one else is
spending at the same moment. Its transaction first writes the spender's row of the
event (``lock_player``): on PostgreSQL that is a row lock that the next spender waits
for; on SQLite it takes the database's write lock before the balance is read (the
SQLite driver opens a transaction at the first write, not at a read, so reading
first would not protect anything). Then the balance is read, checked and spent in
the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.requests import request_key
from bot.services.events import EventError, Scope
from bot.store.idempotent import insert_once
from bot.store.models import EventPlayer, LedgerEntry
from bot.texts import economy as say

MAX_AMOUNT = 1_000_000

def check_amount(amount: int | None) -> int:
    if amount is None:
        raise EventError(say.amount_missing())
    if not 1 <= amount <= MAX_AMOUNT:
        raise EventError(say.bad_amount(most=MAX_AMOUNT))
    return amount


def in_scope(guild_id: str, scope: Scope) -> list[ColumnElement[bool]]:
    """The entries of a scope: one event's, those outside events, or all of the server's."""
    where = [LedgerEntry.guild_id == guild_id]
    if not scope.overall:
        where.append(LedgerEntry.event_id == scope.event_id if scope.event is not None
                     else LedgerEntry.event_id.is_(None))
    return where


async def balance(s: AsyncSession, guild_id: str, scope: Scope, user_id: str) -> int:
    total = await s.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
        *in_scope(guild_id, scope), LedgerEntry.user_id == user_id))
    return int(total or 0)


async def balances(s: AsyncSession, guild_id: str, scope: Scope) -> dict[str, int]:
    rows = await s.execute(select(LedgerEntry.user_id, func.sum(LedgerEntry.amount))
                           .where(*in_scope(guild_id, scope)).group_by(LedgerEntry.user_id))
    return {user: int(total) for user, total in rows.all()}


async def lock_player(s: AsyncSession, event_id: int, user_id: str) -> bool:
    """Write the player's event row (see the module's docstring); False if not a player."""
    result = await s.execute(update(EventPlayer).where(
        EventPlayer.event_id == event_id, EventPlayer.user_id == user_id,
    ).values(priority=EventPlayer.priority))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def book(s: AsyncSession, *, guild_id: str, event_id: int | None, user_id: str,
               amount: int, kind: str, note: str, author_id: str | None, at: float,
               match_id: int | None = None, key: str | None = None) -> bool:
    """Add one entry; with a ``key``, only if no entry has that key yet. True if added.

    Without a key, an entry booked for a user's request is keyed by the request (a
    retried /transfer or /grant books nothing twice, see ``bot.core.requests``)."""
    if key is None:
        key = request_key(f"{user_id}:{kind}:{amount}")
    values: dict[str, Any] = dict(
        guild_id=guild_id, event_id=event_id, user_id=user_id, amount=amount, kind=kind,
        note=note[:1000], author_id=author_id, match_id=match_id, key=key, at=at)
    if key is None:
        await s.execute(insert(LedgerEntry).values(**values))
        return True
    return await insert_once(s, LedgerEntry, values, ["key"])


@dataclass(frozen=True)
class Transfer:
    sender_left: int
    recipient_now: int


async def transfer(s: AsyncSession, guild_id: str, event_id: int, sender: str,
                   recipient: str, amount: int, note_out: str, note_in: str,
                   at: float) -> Transfer:
    """Move garnets between two players of an event, never below zero (in ``s``)."""
    if not await lock_player(s, event_id, sender):
        raise EventError(say.sender_not_playing())
    where = [LedgerEntry.guild_id == guild_id, LedgerEntry.event_id == event_id]
    have = int(await s.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
        *where, LedgerEntry.user_id == sender)) or 0)
    if have < amount:
        raise EventError(say.too_few_to_give(have=have, amount=amount))
    await book(s, guild_id=guild_id, event_id=event_id, user_id=sender, amount=-amount,
               kind="transfer", note=note_out, author_id=sender, at=at)
    await book(s, guild_id=guild_id, event_id=event_id, user_id=recipient, amount=amount,
               kind="transfer", note=note_in, author_id=sender, at=at)
    received = int(await s.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0))
                                  .where(*where, LedgerEntry.user_id == recipient)) or 0)
    return Transfer(have - amount, received)


async def entries(s: AsyncSession, guild_id: str, scope: Scope, user_id: str,
                  offset: int, limit: int) -> tuple[int, Sequence[LedgerEntry]]:
    """A player's entries in a scope, newest first: (how many in all, this page)."""
    where = [*in_scope(guild_id, scope), LedgerEntry.user_id == user_id]
    total = int(await s.scalar(select(func.count()).select_from(LedgerEntry)
                               .where(*where)) or 0)
    rows = (await s.scalars(select(LedgerEntry).where(*where)
                            .order_by(LedgerEntry.id.desc()).offset(offset).limit(limit))).all()
    return total, rows


async def balance_through(s: AsyncSession, guild_id: str, scope: Scope, user_id: str,
                          entry_id: int) -> int:
    """The balance a player had right after the entry ``entry_id`` (entries in the
    order they were booked)."""
    total = await s.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
        *in_scope(guild_id, scope), LedgerEntry.user_id == user_id,
        LedgerEntry.id <= entry_id))
    return int(total or 0)
