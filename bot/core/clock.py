"""The host's sense of time: real for the bot, virtual for tests and scripts.

Both clocks speak in seconds since the epoch and run callbacks (coroutines) at an
instant. The virtual clock only moves when told to (``advance``), running every
callback that falls due on the way, in order, at its due instant: a whole timed-out
Death Match takes milliseconds.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callback) -> Handle: ...


async def _run(callback: Callback) -> None:
    try:
        await callback()
    except Exception:  # a failing timer must not take the bot down; it is logged
        log.exception("timer callback failed")


class RealClock:
    """Real time on the running event loop, in seconds since the epoch, that never
    jumps: the wall clock read once at start, plus the monotonic time since. A wall
    clock set back or forward (NTP, a daylight-saving mistake, a VM resumed) changes
    no one's elapsed time; stored instants stay epoch seconds, off the wall clock by
    at most its drift since start."""

    def __init__(self, wall: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._monotonic = monotonic
        self._epoch = wall() - monotonic()

    def now(self) -> float:
        return self._epoch + self._monotonic()

    def call_at(self, when: float, callback: Callback) -> Handle:
        loop = asyncio.get_running_loop()

        def fire() -> None:
            task = loop.create_task(_run(callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return loop.call_later(max(0.0, when - self.now()), fire)


class _VirtualHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """A clock that stands still until ``advance`` (or ``set``) moves it."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _VirtualHandle, Callback]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> Handle:
        handle = _VirtualHandle()
        heapq.heappush(self._queue, (when, next(self._counter), handle, callback))
        return handle

    def pending(self) -> int:
        return sum(1 for item in self._queue if not item[2].cancelled)

    async def advance(self, seconds: float) -> None:
        """Move time forward, running each due callback at its own instant."""
        await self.set(self._now + seconds)

    async def set(self, instant: float) -> None:
        while self._queue and self._queue[0][0] <= instant:
            when, _, handle, callback = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            self._now = max(self._now, when)
            await _run(callback)
        self._now = max(self._now, instant)
