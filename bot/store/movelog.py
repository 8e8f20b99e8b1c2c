"""Writing accepted moves: many matches' moves committed together.

Every move must be committed before it is announced, and with hundreds of matches
running, one transaction per move makes the writes queue behind each other on
SQLite's single writer. Moves that arrive while a commit is in flight are gathered
and written by the next commit as three statements (one executemany each), however
many there are; each caller still gets its answer only after its move is committed.

The other small writes every move brings ride along: its turn's start once its board
is out (``TurnStarted``) and a shard's heartbeat (``Beat``, before a reminder and with
a turn's start; one row per shard in a batch, its latest moment). Written one
transaction each, they were two more per move, each waiting behind all the others
for SQLite's one connection while its caller held its match's lock (the bench found
that wait the largest part of the bot's share of a move: docs/benchmarks.md).

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

from bot.core.enums import MatchStatus
from bot.store.db import FIRST
from bot.store.models import Heartbeat, Match, MatchPlayer, Move

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


@dataclass(frozen=True)
class TurnStarted:
    """A running match's waiting turn starts at ``at`` (its board is out)."""

    match_id: int
    at: float


@dataclass(frozen=True)
class Beat:
    """The owner of the lease ``instance`` (``shard:3/8``) was alive at ``at``."""

    instance: str
    at: float


Record = MoveRecord | TurnStarted | Beat

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

_START_TURN = (
    update(Match)
    .where(Match.id == bindparam("m_id"), Match.status == MatchStatus.RUNNING)
    .values(turn_resumed_at=bindparam("t_at"))
)
_BEAT = (
    update(Heartbeat)
    .where(Heartbeat.instance == bindparam("b_instance"))
    .values(at=bindparam("b_at"))
)


def _beats(records: list[Record]) -> list[dict[str, object]]:
    """One row per heartbeat in a batch: its latest moment."""
    latest: dict[str, float] = {}
    for r in records:
        if isinstance(r, Beat):
            latest[r.instance] = max(r.at, latest.get(r.instance, r.at))
    return [{"b_instance": key, "b_at": at} for key, at in latest.items()]


class MoveWriter:
    def __init__(self, engine: AsyncEngine, max_batch: int = 256,
                 guard: Callable[[AsyncConnection], Awaitable[None]] | None = None) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._waiting: list[tuple[tuple[Record, ...], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0  # for the benchmark
        # Checked in every batch's transaction before it writes moves (the lease's
        # fence, ``Leases.guard_all``): what it raises, every caller of the batch hears.
        self.guard = guard

    async def write(self, *records: Record) -> None:
        """Return once ``records`` are committed (together); raise IntegrityError if they
        cannot be, or what the guard raised for a batch with moves."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((records, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_all())
        await future

    async def _flush_all(self) -> None:
        # Its commits take the database's connection ahead of every other request
        # waiting for it (this task's context only).
        FIRST.set(True)
        while self._waiting:
            batch = self._waiting[: self.max_batch]
            del self._waiting[: self.max_batch]
            try:
                await self._commit([r for records, _ in batch for r in records])
            except IntegrityError as exc:
                if len(batch) == 1:
                    _settle(batch, exc)
                    continue
                for item in batch:  # find the bad one: each on its own
                    try:
                        await self._commit(list(item[0]))
                    except Exception as exc:
                        _settle([item], exc)
                    else:
                        _settle([item], None)
                continue
            except Exception as exc:  # the database is gone: every caller hears it
                _settle(batch, exc)
                continue
            _settle(batch, None)

    async def _commit(self, records: list[Record]) -> None:
        self.batches += 1
        moves = [r for r in records if isinstance(r, MoveRecord)]
        starts = [{"m_id": r.match_id, "t_at": r.at} for r in records
                  if isinstance(r, TurnStarted)]
        beats = _beats(records)
        async with self.engine.begin() as conn:
            if starts:
                await conn.execute(_START_TURN, starts)
            if beats:
                await conn.execute(_BEAT, beats)
            if moves:
                await self._moves(conn, moves)

    async def _moves(self, conn: AsyncConnection, records: list[MoveRecord]) -> None:
        """The moves of a batch, behind the lease's fence."""
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


def _settle(items: list[tuple[tuple[Record, ...], asyncio.Future[None]]],
            error: BaseException | None) -> None:
    for _, future in items:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
