"""Writing accepted moves: many matches' moves committed together.

Every move must be committed before it is announced, and with hundreds of matches
running, one transaction per move makes the writes queue behind each other on
SQLite's single writer. Moves that arrive while a commit is in flight are gathered
and written by the next commit as three statements (one executemany each), however
many there are; each caller still gets its answer only after its move is committed.

A batch that fails (a move whose ply already exists) is retried move by move, so
one bad move never takes others down with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import bindparam, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store.models import Match, MatchPlayer, Move

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveRecord:
    match_id: int
    ply: int
    seat: int
    notation: str
    elapsed: float
    banks_spent: int
    at: float
    message_id: str | None
    banks_left: int  # the mover's banks after this move
    time_used: float  # the mover's total after this move
    turn_starts_at: float  # the next player's clock starts here
    turn_extra: float = 0.0  # the next turn's extra seconds (what is left of a no-show window)


_INSERT_MOVE = insert(Move).values(
    match_id=bindparam("match_id"), ply=bindparam("ply"), seat=bindparam("seat"),
    kind="move", notation=bindparam("notation"), elapsed=bindparam("elapsed"),
    banks_spent=bindparam("banks_spent"), at=bindparam("at"),
    message_id=bindparam("message_id"))
_UPDATE_PLAYER = (
    update(MatchPlayer)
    .where(MatchPlayer.match_id == bindparam("m_id"), MatchPlayer.seat == bindparam("m_seat"))
    .values(banks_left=bindparam("banks_left"), time_used=bindparam("time_used"))
)
_UPDATE_MATCH = (
    update(Match)
    .where(Match.id == bindparam("m_id"))
    .values(turn_elapsed=0.0, turn_resumed_at=bindparam("turn_starts_at"),
            turn_extra=bindparam("turn_extra"))
)


class MoveWriter:
    def __init__(self, engine: AsyncEngine, max_batch: int = 256,
                 guard: Callable[[AsyncConnection], Awaitable[None]] | None = None) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._waiting: list[tuple[MoveRecord, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0  # for the benchmark
        # Checked in every batch's transaction before it writes (the lease's fence,
        # ``Leases.guard_all``): what it raises, every caller of the batch hears.
        self.guard = guard

    async def write(self, record: MoveRecord) -> None:
        """Return once ``record`` is committed; raise IntegrityError if it cannot be."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((record, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_all())
        await future

    async def _flush_all(self) -> None:
        while self._waiting:
            batch = self._waiting[: self.max_batch]
            del self._waiting[: self.max_batch]
            try:
                await self._commit([r for r, _ in batch])
            except IntegrityError as exc:
                if len(batch) == 1:
                    _settle(batch, exc)
                    continue
                for item in batch:  # find the bad one: each on its own
                    try:
                        await self._commit([item[0]])
                    except Exception as exc:
                        _settle([item], exc)
                    else:
                        _settle([item], None)
                continue
            except Exception as exc:  # the database is gone: every caller hears it
                _settle(batch, exc)
                continue
            _settle(batch, None)

    async def _commit(self, records: list[MoveRecord]) -> None:
        self.batches += 1
        async with self.engine.begin() as conn:
            if self.guard is not None:
                await self.guard(conn)
            await conn.execute(_INSERT_MOVE, [
                {"match_id": r.match_id, "ply": r.ply, "seat": r.seat, "notation": r.notation,
                 "elapsed": r.elapsed, "banks_spent": r.banks_spent, "at": r.at,
                 "message_id": r.message_id} for r in records])
            await conn.execute(_UPDATE_PLAYER, [
                {"m_id": r.match_id, "m_seat": r.seat, "banks_left": r.banks_left,
                 "time_used": r.time_used} for r in records])
            await conn.execute(_UPDATE_MATCH, [
                {"m_id": r.match_id, "turn_starts_at": r.turn_starts_at,
                 "turn_extra": r.turn_extra} for r in records])


def _settle(items: list[tuple[MoveRecord, asyncio.Future[None]]],
            error: BaseException | None) -> None:
    for _, future in items:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
