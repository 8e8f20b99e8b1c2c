"""Worker jobs, bounded and fair: a fair queue in front of workers that can be stopped.

Board images, deck sheets, replays, the computer player's moves and reviews are
seconds of CPU at worst; they run in worker processes (``render``, ``workers``). Two
things keep one server, or one user, from taking them from everybody else:

* ``FairQueue``: the jobs wait per server (and per user within a server) and a free
  worker goes to the server served longest ago (round robin), never to more than
  ``per_server`` jobs of one server at once; so another server's job waits for at most
  the jobs already running, never for a server's backlog. Caps on what a server or a
  user may have waiting are checked before a job joins (``ServerBusy``, ``UserBusy``); the
  board renders of running matches are never refused, only ordered.
* ``Slots``: each worker is one process of its own (a thread in tests). A job past its
  time limit cannot be cancelled in a process pool: its process is killed and the
  worker replaced by a fresh one (``JobTooLong``), so a wedged job frees its worker.
* ``depth``: how many jobs a worker holds at once, the one it runs and those queued in
  its pipe. With one, a worker that finishes waits for the event loop to hear of it and
  hand it the next job, two hops through the GIL of a process that may be busy: at 1,000
  DMs, boards of 2 ms each came 3 ms apart in a burst, the workers idle more than half
  the time with hundreds waiting. Boards use two: the next is already in the pipe. A
  server still never has jobs on every worker (``per_server`` counts workers), so a job
  of another server waits behind at most ``depth - 1`` jobs in its worker.

The job's arguments and result are pickled once, as with a plain process pool: a
job goes to the process of the slot it was given, with no hop in between.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.core.metrics import JOB_SECONDS, JOB_WAIT
from bot.core.refusal import Refusal
from bot.services.limits import ServerBusy
from bot.texts import match as texts

log = logging.getLogger(__name__)
T = TypeVar("T")


class UserBusy(Refusal):
    def __init__(self, most: int) -> None:
        super().__init__(texts.user_busy(most))
        self.most = most


class JobTooLong(Exception):
    """A job ran past its time limit; its worker was killed and replaced."""


@dataclass
class _Waiter:
    server: str
    user: str | None
    future: asyncio.Future[int] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class FairQueue:
    """``slots`` workers, each taking ``depth`` jobs at once, handed out round robin
    between the servers with work waiting (and between a server's users); one server's
    jobs are on at most ``per_server`` workers at once (default: all but one, so one
    server never holds every worker)."""

    def __init__(self, slots: int, per_server: int | None = None, depth: int = 1) -> None:
        self.slots = max(1, slots)
        self.depth = max(1, depth)
        self.per_server = per_server if per_server is not None else max(1, self.slots - 1)
        # Places: worker ``place % slots``; the lower places first, so that an idle
        # worker is given a job before a busy one is given a second.
        self._free = list(range(self.slots * self.depth))
        self._waiting: dict[str, dict[str | None, deque[_Waiter]]] = {}
        self._on: dict[str, Counter[int]] = {}  # per server: its jobs on each worker
        self._load: Counter[str] = Counter()  # waiting or running, per server
        self._users: Counter[str] = Counter()  # waiting or running, per user
        self._served: dict[str, int] = {}  # when each server with load was last served
        self._user_served: dict[tuple[str, str | None], int] = {}
        self._tick = itertools.count(1)

    def load(self, server: str) -> int:
        return self._load[server]

    def user_load(self, user: str) -> int:
        return self._users[user]

    def waiting(self) -> int:
        return sum(len(q) for users in self._waiting.values() for q in users.values())

    @asynccontextmanager
    async def turn(self, server: str, user: str | None = None, *,
                   server_cap: int | None = None, user_cap: int | None = None
                   ) -> AsyncIterator[int]:
        """Wait for a worker (its number) for one job of ``server`` (and ``user``).
        With a cap, a server or user that already has that many jobs waiting or running
        is refused at once."""
        if server_cap is not None and self._load[server] >= server_cap:
            raise ServerBusy()
        if user is not None and user_cap is not None and self._users[user] >= user_cap:
            raise UserBusy(user_cap)
        self._load[server] += 1
        if user is not None:
            self._users[user] += 1
        try:
            place = await self._wait(server, user)
            try:
                yield place % self.slots
            finally:
                self._release(server, place)
        finally:
            self._load[server] -= 1
            if self._load[server] <= 0:
                del self._load[server]
                self._served.pop(server, None)
            if user is not None:
                self._users[user] -= 1
                if self._users[user] <= 0:
                    del self._users[user]
                    self._user_served.pop((server, user), None)

    async def _wait(self, server: str, user: str | None) -> int:
        waiter = _Waiter(server, user)
        self._waiting.setdefault(server, {}).setdefault(user, deque()).append(waiter)
        self._dispatch()
        try:
            return await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self._release(server, waiter.future.result())  # given a slot, then gone
            else:
                self._forget(waiter)
            raise

    def _forget(self, waiter: _Waiter) -> None:
        users = self._waiting.get(waiter.server)
        queue = users.get(waiter.user) if users is not None else None
        if users is None or queue is None or waiter not in queue:
            return
        queue.remove(waiter)
        if not queue:
            del users[waiter.user]
        if not users:
            del self._waiting[waiter.server]

    def _release(self, server: str, place: int) -> None:
        self._free.append(place)
        on = self._on[server]
        on[place % self.slots] -= 1
        if on[place % self.slots] <= 0:
            del on[place % self.slots]
        if not on:
            del self._on[server]
        self._dispatch()

    def _place(self, server: str) -> int | None:
        """The free place a job of ``server`` may take: on a worker it is already on,
        or on another while it is on fewer than ``per_server``."""
        on = self._on.get(server)
        for place in sorted(self._free):
            if on is None or place % self.slots in on or len(on) < self.per_server:
                return place
        return None

    def _dispatch(self) -> None:
        while self._free:
            ready = sorted(self._waiting, key=lambda s: self._served.get(s, 0))
            chosen = next(((s, p) for s in ready if (p := self._place(s)) is not None), None)
            if chosen is None:
                return
            server, place = chosen
            users = self._waiting[server]
            user = min(users, key=lambda u: self._user_served.get((server, u), 0))
            queue = users[user]
            waiter = queue.popleft()
            if not queue:
                del users[user]
            if not users:
                del self._waiting[server]
            if waiter.future.done():  # cancelled while it waited
                continue
            tick = next(self._tick)
            self._served[server] = tick
            self._user_served[(server, user)] = tick
            self._on.setdefault(server, Counter())[place % self.slots] += 1
            self._free.remove(place)
            waiter.future.set_result(place)


def _spawn(initializer: Callable[[], None] | None) -> ProcessPoolExecutor:
    # "spawn": a fork of a process running an event loop and driver threads could
    # inherit held locks.
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=initializer)


class Slots:
    """``size`` workers, each a process of its own (``processes``) or a thread (tests),
    created on first use; a job past its limit has its worker killed and replaced."""

    def __init__(self, size: int, processes: bool, name: str,
                 initializer: Callable[[], None] | None = None) -> None:
        self.size = max(1, size)
        self.processes = processes
        self.name = name
        self.initializer = initializer
        self._executors: list[Executor | None] = [None] * self.size
        self.replaced = 0  # workers killed and replaced (a job overran, or crashed)
        self.closed = False  # closed: a job whose worker was stopped is not run again

    def executor(self, slot: int) -> Executor:
        found = self._executors[slot]
        if found is None:
            found = (_spawn(self.initializer) if self.processes
                     else ThreadPoolExecutor(max_workers=1,
                                             thread_name_prefix=f"{self.name}-{slot}"))
            self._executors[slot] = found
        return found

    async def run(self, slot: int, limit: float | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in worker ``slot``, stopped after ``limit`` seconds. A job whose
        worker was replaced for another job's sake (one ahead of it in the worker's pipe
        overran, or was given up) runs again once, on the fresh worker, unless the
        workers were closed meanwhile."""
        loop = asyncio.get_running_loop()
        for again in (False, True):
            executor = self.executor(slot)
            future = loop.run_in_executor(executor, fn, *args)
            try:
                return await asyncio.wait_for(future, limit)
            except TimeoutError:
                log.warning("a %s job (%s) ran past %.0f s: its worker is replaced",
                            self.name, getattr(fn, "__name__", fn), limit or 0)
                self.replace(slot, executor)
                raise JobTooLong() from None
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if again or self.closed or self._executors[slot] is executor or (
                        task is not None and task.cancelling()):
                    # Nobody waits for the result any more: the worker is not left busy
                    # with it.
                    self.replace(slot, executor)
                    raise
            except BrokenProcessPool:
                if again or self.closed or self._executors[slot] is executor:
                    # The worker died (out of memory, killed): a fresh one.
                    self.replace(slot, executor)
                    raise
        raise AssertionError("unreachable: the second try returns or raises")

    async def warm(self) -> None:
        """Start every worker (its initializer runs first) and wait until each is up."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.executor(slot), time.sleep, 0)
                               for slot in range(self.size)))

    def replace(self, slot: int, executor: Executor | None = None) -> None:
        """Kill worker ``slot`` (if it is still ``executor``: not one started since);
        the next job there starts a fresh one."""
        if executor is not None and self._executors[slot] is not executor:
            return
        executor, self._executors[slot] = self._executors[slot], None
        if executor is None:
            return
        self.replaced += 1
        if isinstance(executor, ProcessPoolExecutor):
            for process in list(executor._processes.values()):
                process.kill()
        # A thread cannot be stopped: it is left to finish on its own (tests only).
        executor.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes now running (for tests and the benchmark)."""
        return [p.pid for e in self._executors if isinstance(e, ProcessPoolExecutor)
                for p in e._processes.values() if p.pid is not None]

    def close(self, wait: bool = True) -> None:
        """Stop every worker: a process is killed first (a wedged job must not hold
        the bot's shutdown), then waited for (``wait``)."""
        self.closed = True
        for slot, executor in enumerate(self._executors):
            self._executors[slot] = None
            if isinstance(executor, ProcessPoolExecutor):
                for process in list(executor._processes.values()):
                    process.kill()
            if executor is not None:
                executor.shutdown(wait=wait, cancel_futures=True)


class Lane:
    """A fair queue in front of its workers: ``run`` waits its server's turn, then
    runs the job in the slot it was given, within ``limit`` seconds (counted from when
    it was handed to the worker: with ``depth`` above one, a job ahead of it in the
    worker's pipe counts too)."""

    def __init__(self, slots: Slots, per_server: int | None = None, depth: int = 1) -> None:
        self.slots = slots
        self.queue = FairQueue(slots.size, per_server, depth)

    async def run(self, server: str, limit: float | None, fn: Callable[..., T], *args: Any,
                  user: str | None = None, server_cap: int | None = None,
                  user_cap: int | None = None) -> T:
        asked = time.perf_counter()
        async with self.queue.turn(server, user, server_cap=server_cap,
                                   user_cap=user_cap) as slot:
            started = time.perf_counter()
            JOB_WAIT.labels(self.slots.name).observe(started - asked)
            try:
                return await self.slots.run(slot, limit, fn, *args)
            finally:
                JOB_SECONDS.labels(self.slots.name).observe(time.perf_counter() - started)

    def close(self, wait: bool = True) -> None:
        self.slots.close(wait)


__all__ = ["FairQueue", "JobTooLong", "Lane", "Slots", "UserBusy"]
