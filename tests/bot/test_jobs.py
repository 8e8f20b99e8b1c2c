"""Worker jobs bounded and fair (``bot.services.jobs``): round robin between servers,
caps on what a server or a user may have waiting, and a time limit that kills."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from bot.services.jobs import FairQueue, JobTooLong, Lane, Slots, UserBusy
from bot.services.limits import ServerBusy as Busy


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


class Jobs:
    """Jobs that run until the test lets them finish; records when each started."""

    def __init__(self, queue: FairQueue) -> None:
        self.queue = queue
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def job(self, server: str, name: str, user: str | None = None) -> None:
        self.gates[name] = asyncio.Event()
        async with self.queue.turn(server, user):
            self.started.append(name)
            await self.gates[name].wait()

    def submit(self, server: str, name: str, user: str | None = None) -> asyncio.Task[None]:
        return asyncio.create_task(self.job(server, name, user))


async def test_another_server_does_not_wait_for_a_servers_backlog() -> None:
    jobs = Jobs(FairQueue(2))  # two workers: one server holds at most one
    tasks = [jobs.submit("A", f"a{i}", "alice") for i in range(4)]
    await _settle()
    tasks.append(jobs.submit("B", "b1", "bob"))
    await _settle()
    assert jobs.started == ["a0", "b1"]  # B's job starts at once, beside A's first
    for name in ("a0", "a1", "a2", "a3", "b1"):
        jobs.gates[name].set()
        await _settle()
    await asyncio.gather(*tasks)
    assert jobs.started == ["a0", "b1", "a1", "a2", "a3"]


async def test_one_worker_goes_round_robin_between_servers_and_users() -> None:
    jobs = Jobs(FairQueue(1))
    tasks = [jobs.submit("A", f"a{i}", "alice") for i in range(3)]
    tasks += [jobs.submit("A", "c0", "carol")]
    await _settle()
    tasks += [jobs.submit("B", "b0", "bob"), jobs.submit("B", "b1", "bob")]
    await _settle()
    for _ in range(6):
        jobs.gates[jobs.started[-1]].set()
        await _settle()
    await asyncio.gather(*tasks)
    # B's first waits for A's running job only; within A, carol is not behind alice's.
    assert jobs.started == ["a0", "b0", "c0", "b1", "a1", "a2"]


async def test_a_worker_holds_depth_jobs_and_a_server_stays_off_every_worker() -> None:
    """Two workers taking two jobs each: A's four jobs go two to one worker (the next in
    its pipe), never onto the other; B's first takes the other worker at once, and C's
    its second place, behind one job only."""
    jobs = Jobs(FairQueue(2, depth=2))
    workers: dict[str, int] = {}

    async def job(server: str, name: str) -> None:
        jobs.gates[name] = asyncio.Event()
        async with jobs.queue.turn(server) as worker:
            workers[name] = worker
            jobs.started.append(name)
            await jobs.gates[name].wait()

    tasks = [asyncio.create_task(job("A", f"a{i}")) for i in range(4)]
    await _settle()
    assert jobs.started == ["a0", "a1"] and workers["a0"] == workers["a1"]
    tasks += [asyncio.create_task(job("B", "b0")), asyncio.create_task(job("C", "c0"))]
    await _settle()
    assert jobs.started == ["a0", "a1", "b0", "c0"]
    assert workers["b0"] == workers["c0"] != workers["a0"]
    assert jobs.queue.waiting() == 2  # a2, a3: A's worker is full
    jobs.gates["a0"].set()
    await _settle()
    assert jobs.started[-1] == "a2" and workers["a2"] == workers["a0"]
    for name in ("a1", "a2", "b0", "c0", "a3"):
        jobs.gates[name].set()
        await _settle()
    await asyncio.gather(*tasks)
    assert sorted(jobs.queue._free) == [0, 1, 2, 3] and not jobs.queue._on


async def test_caps_refuse_before_anything_waits() -> None:
    queue = FairQueue(1)
    gate = asyncio.Event()

    async def hold(server: str, user: str) -> None:
        async with queue.turn(server, user, server_cap=3, user_cap=2):
            await gate.wait()

    tasks = [asyncio.create_task(hold("A", "alice")) for _ in range(2)]
    await _settle()
    with pytest.raises(UserBusy):
        async with queue.turn("A", "alice", server_cap=3, user_cap=2):
            pass
    tasks.append(asyncio.create_task(hold("A", "carol")))
    await _settle()
    with pytest.raises(Busy):
        async with queue.turn("A", "dave", server_cap=3, user_cap=2):
            pass
    gate.set()
    await asyncio.gather(*tasks)
    assert queue.load("A") == 0 and queue.user_load("alice") == 0 and not queue._served


async def test_a_job_cancelled_while_it_waits_gives_its_turn_back() -> None:
    jobs = Jobs(FairQueue(1))
    first = jobs.submit("A", "a0")
    await _settle()
    gone = jobs.submit("B", "b0")
    later = jobs.submit("C", "c0")
    await _settle()
    gone.cancel()
    await _settle()
    jobs.gates["a0"].set()
    await _settle()
    assert jobs.started == ["a0", "c0"]
    jobs.gates["c0"].set()
    await asyncio.gather(first, later)
    assert jobs.queue.waiting() == 0 and jobs.queue._free == [0]


def _wait_for(event: threading.Event) -> str:
    event.wait(10)
    return "done"


async def test_a_thread_job_past_its_limit_is_given_up_and_its_worker_replaced() -> None:
    lane = Lane(Slots(1, processes=False, name="test"))
    stuck = threading.Event()
    with pytest.raises(JobTooLong):
        await lane.run("A", 0.05, _wait_for, stuck)
    assert lane.slots.replaced == 1
    stuck.set()
    free = threading.Event()
    free.set()
    assert await lane.run("B", 5.0, _wait_for, free) == "done"  # a fresh worker
    lane.close()


def _pid_then_sleep(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def test_a_process_job_past_its_limit_is_killed() -> None:
    slots = Slots(1, processes=True, name="test")
    try:
        first = await slots.run(0, 60.0, _pid_then_sleep, 0.0)  # start the worker
        with pytest.raises(JobTooLong):
            await slots.run(0, 0.5, _pid_then_sleep, 600.0)
        for _ in range(100):  # the killed worker is gone
            try:
                os.kill(first, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the overrunning worker still runs")
        assert await slots.run(0, 60.0, _pid_then_sleep, 0.0) != first
    finally:
        slots.close()


async def test_a_job_behind_one_past_its_limit_runs_again_on_the_fresh_worker() -> None:
    """Two jobs in one worker process (the second in its pipe): the first overruns and
    its worker is killed; the second is not lost with it but runs on the fresh one."""
    lane = Lane(Slots(1, processes=True, name="test"), depth=2)
    try:
        first = await lane.run("A", 60.0, _pid_then_sleep, 0.0)  # start the worker
        stuck = asyncio.create_task(lane.run("A", 1.0, _pid_then_sleep, 600.0))
        await asyncio.sleep(0.1)
        behind = asyncio.create_task(lane.run("B", 60.0, _pid_then_sleep, 0.0))
        with pytest.raises(JobTooLong):
            await stuck
        assert await behind not in (first, 0)
        assert lane.slots.replaced == 1  # the second job's retry killed nothing
    finally:
        lane.close()


async def test_a_job_in_a_workers_pipe_when_the_workers_close_is_not_run_again() -> None:
    """Closing (the bot's shutdown) stops the job queued behind a running one; it is
    not taken for a neighbour's victim and run on a worker started after the close."""
    lane = Lane(Slots(1, processes=False, name="test"), depth=2)
    hold, free = threading.Event(), threading.Event()
    free.set()
    running = asyncio.create_task(lane.run("A", 5.0, _wait_for, hold))
    queued = asyncio.create_task(lane.run("B", 5.0, _wait_for, free))
    await _settle()
    assert lane.queue.waiting() == 0  # both handed to the one worker
    lane.close(wait=False)
    with pytest.raises(asyncio.CancelledError):
        await queued
    assert lane.slots._executors == [None]  # no worker started after the close
    hold.set()
    assert await running == "done"
