"""Writes that happen once: an insert that does nothing when its unique key exists.

A result can be booked twice (a retry, a second process finishing the same match);
the unique constraint says "once" and ``ON CONFLICT DO NOTHING`` makes the second
booking a no-op instead of an error that would roll back the whole result.
SQLite and PostgreSQL both speak it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase


def dialect(s: AsyncSession) -> str:
    return s.get_bind().dialect.name


def conflict_insert(s: AsyncSession) -> Any:
    """The database's own ``insert``, which speaks ``ON CONFLICT`` (PostgreSQL's, else
    SQLite's: the two garnet runs on)."""
    return postgresql.insert if dialect(s) == "postgresql" else sqlite.insert


async def insert_once(s: AsyncSession, model: type[DeclarativeBase], values: dict[str, Any],
                      unique: Sequence[str]) -> bool:
    """Insert a row unless one with the same ``unique`` columns exists; True if inserted."""
    if dialect(s) in ("sqlite", "postgresql"):
        stmt = conflict_insert(s)(model).values(**values).on_conflict_do_nothing(
            index_elements=list(unique))
        result = await s.execute(stmt)
        return bool(result.rowcount)  # type: ignore[attr-defined]
    # Other databases: look first; the unique constraint still refuses a racing twin.
    columns = [getattr(model, c) == values[c] for c in unique]
    if await s.scalar(select(getattr(model, unique[0])).where(*columns).limit(1)) is not None:
        return False
    await s.execute(insert(model).values(**values))
    return True


async def insert_all_once(s: AsyncSession, model: type[DeclarativeBase],
                          rows: Sequence[dict[str, Any]], unique: Sequence[str]) -> int:
    """``insert_once`` for several rows in one statement (one trip to the database: a
    result's rows are booked while a running match's move may wait for the
    connection); how many were inserted."""
    if not rows:
        return 0
    if dialect(s) in ("sqlite", "postgresql"):
        stmt = conflict_insert(s)(model).values(list(rows)).on_conflict_do_nothing(
            index_elements=list(unique))
        result = await s.execute(stmt)
        return int(result.rowcount)  # type: ignore[attr-defined]
    return sum([await insert_once(s, model, row, unique) for row in rows])
