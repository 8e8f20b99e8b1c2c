"""The host's sense of time: real for the bot, virtual for tests and scripts.

Both clocks speak in seconds since the epoch and run callbacks (coroutines) at an
instant. The virtual clock only moves when told to (``advance``), running every
callback that falls due on the way, in order, at its due instant: a whole timed-out
Death Match takes milliseconds.

A timer cannot die of a failure. A callback that raises (the database locked,
disconnected or full) runs again after a capped exponential backoff (``RETRY_FIRST``,
doubling, at most ``RETRY_MOST``), on the same handle, until it returns or the handle
is cancelled: a timer's owner cancels it once its match (challenge, deadline, round)
is settled. Every timer callback must therefore be safe to run again after a failure:
it rereads what it acts on and does nothing if that is settled already. This is what
an actor system's supervisor does for a crashed actor (lichess restarts a round's actor
and it reloads the game from the database), and what a worker's job queue does for a
failed job (retry with backoff, never drop). ``failures`` counts them for operators.
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


# A failed callback runs again after RETRY_FIRST s, then twice as long each time, at
# most RETRY_MOST s apart: a flag that falls during a database outage is applied at
# most RETRY_MOST s after the outage ends.
RETRY_FIRST = 1.0
RETRY_MOST = 5.0


def backoff(attempt: int) -> float:
    """The wait before retry number ``attempt`` (1, 2, ...) of a failed callback."""
    return min(RETRY_MOST, RETRY_FIRST * float(2 ** max(0, attempt - 1)))


class Handle(Protocol):
    def cancel(self) -> None: ...

    @property
    def armed(self) -> bool:
        """Will the callback still run (pending, running, or waiting for a retry)?"""
        ...


class Failures:
    """Timer failures of one clock, for the operators (exported by the metrics later)."""

    def __init__(self) -> None:
        self.failed = 0  # callbacks that raised (each attempt)
        self.recovered = 0  # callbacks that succeeded after failing


FAILURES = Failures()


class Clock(Protocol):
    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callback) -> Handle: ...


async def _attempt(callback: Callback, attempt: int) -> bool:
    """Run a timer's callback once: True if it returned, False if it raised (logged:
    the first failure with its traceback, the retries in a line)."""
    try:
        await callback()
    except Exception as error:  # a failing timer must not take the bot down
        FAILURES.failed += 1
        wait = backoff(attempt + 1)
        if attempt == 0:
            log.exception("timer callback failed; retrying in %.0f s", wait)
        else:
            log.warning("timer callback failed again (attempt %d: %s); retrying in "
                        "%.0f s", attempt + 1, error, wait)
        return False
    if attempt:
        FAILURES.recovered += 1
        log.warning("timer callback succeeded after %d failed attempts", attempt)
    return True


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
        handle = _RealHandle()

        async def run() -> None:
            handle.timer = None
            if await _attempt(callback, handle.attempts):
                handle.done = True
                return
            handle.attempts += 1
            if not handle.cancelled:
                handle.timer = loop.call_later(backoff(handle.attempts), fire)

        def fire() -> None:
            if handle.cancelled:
                return
            task = loop.create_task(run())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        handle.timer = loop.call_later(max(0.0, when - self.now()), fire)
        return handle


class _RealHandle:
    __slots__ = ("attempts", "cancelled", "done", "timer")

    def __init__(self) -> None:
        self.timer: asyncio.TimerHandle | None = None
        self.cancelled = False
        self.done = False
        self.attempts = 0

    def cancel(self) -> None:
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    @property
    def armed(self) -> bool:
        return not (self.cancelled or self.done)


class _VirtualHandle:
    __slots__ = ("attempts", "cancelled", "done")

    def __init__(self) -> None:
        self.cancelled = False
        self.done = False
        self.attempts = 0

    def cancel(self) -> None:
        self.cancelled = True

    @property
    def armed(self) -> bool:
        return not (self.cancelled or self.done)


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
            if await _attempt(callback, handle.attempts):
                handle.done = True
                continue
            handle.attempts += 1
            if not handle.cancelled:  # the same handle, a little later
                heapq.heappush(self._queue, (self._now + backoff(handle.attempts),
                                             next(self._counter), handle, callback))
        self._now = max(self._now, instant)
