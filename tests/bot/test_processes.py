"""Real bot processes on one database (``tests/bot/process_harness.py``): one owner per
match, a takeover after ``kill -9``, no move the bot acknowledged lost to kills, shards
that split the servers, and SQLite's refusal of a second process. Real processes run
on real time: the lease is short (LEASE_SECONDS=3) and every wait polls for a condition
with a deadline."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.core.enums import EndReason, MatchStatus
from bot.store.db import Database, open_database
from bot.store.models import LedgerEntry, Match, MatchResult, Move

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3.0
# Real processes on real time: `make test` runs them alone, after the parallel run.
pytestmark = pytest.mark.realtime
GUILD = "1000000000000000001"


class Proc:
    """One harness process: its stdout events and its log, read as they come."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc = proc
        self.name = name
        self.events: list[dict[str, Any]] = []
        self.log = ""
        self.sent = 0
        self._readers = [asyncio.create_task(self._read_out()),
                         asyncio.create_task(self._read_err())]

    @classmethod
    async def start(cls, url: str, name: str, **env: str) -> Proc:
        environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        environ.update(DATABASE_URL=url, INSTANCE_NAME=name, LEASE_SECONDS=str(int(LEASE)),
                       RENDER_PROCESSES="0", PYTHONUNBUFFERED="1", **env)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bot.process_harness", cwd=ROOT, env=environ,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        return cls(proc, name)

    async def _read_out(self) -> None:
        assert self.proc.stdout is not None
        async for line in self.proc.stdout:
            self.events.append(json.loads(line))

    async def _read_err(self) -> None:
        assert self.proc.stderr is not None
        async for line in self.proc.stderr:
            self.log += line.decode()

    @property
    def ready(self) -> bool:
        return any("ready" in e for e in self.events)

    def posts(self, channel: str) -> list[str]:
        return [e["post"] for e in self.events if "post" in e and e["channel"] == channel]

    async def send(self, **cmd: Any) -> int:
        """Send one command; its number."""
        assert self.proc.stdin is not None
        self.sent += 1
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        await self.proc.stdin.drain()
        return self.sent

    async def answer(self, **cmd: Any) -> dict[str, Any]:
        """Send one command and wait until it is carried out; its whole answer (the
        reply, the posts, whether it carries a board)."""
        n = await self.send(**cmd)
        await until(lambda: any(e.get("done") == n for e in self.events),
                    f"{self.name} to carry out {cmd}", self)
        return next(e for e in self.events if e.get("done") == n)

    async def do(self, **cmd: Any) -> str | None:
        """Send one command and wait until it is carried out; its private reply."""
        reply: str | None = (await self.answer(**cmd))["reply"]
        return reply

    async def moved(self, channel: str, who: str, text: str) -> bool:
        """A move typed in ``channel``: whether the bot accepted it (its answer carries
        the move's board; an empty answer is what a message that is no move gets)."""
        answer = await self.answer(op="typed", guild=GUILD, channel=channel, who=who,
                                   text=text)
        return bool(answer["board"])

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await asyncio.gather(*self._readers)

    async def stop(self) -> int:
        if self.proc.returncode is None and self.proc.stdin is not None:
            self.proc.stdin.close()
        code = await asyncio.wait_for(self.proc.wait(), 15)
        await asyncio.gather(*self._readers)
        return code


async def until(cond: Callable[[], bool], what: str, *procs: Proc,
                timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            logs = "\n".join(f"--- {p.name}: {p.events}\n{p.log}" for p in procs)
            raise AssertionError(f"timed out waiting for {what}\n{logs}")
        await asyncio.sleep(0.05)


async def match_in(db: Database, channel: str) -> Match:
    async with db.session() as s:
        match = await s.scalar(select(Match).where(Match.channel_id == channel))
        assert match is not None
        return match


async def booked(db: Database, match_id: int) -> tuple[list[int], list[str], list[str]]:
    """The moves' plies, the ledger's keys and the results' players of a match."""
    async with db.session() as s:
        plies = list((await s.scalars(
            select(Move.ply).where(Move.match_id == match_id).order_by(Move.ply))).all())
        keys = [k or "" for k in (await s.scalars(
            select(LedgerEntry.key).where(LedgerEntry.match_id == match_id))).all()]
        results = sorted((await s.scalars(
            select(MatchResult.user_id).where(MatchResult.match_id == match_id))).all())
    return plies, keys, results


@pytest.mark.realtime(seconds=13)
async def test_one_owner_per_match_and_a_takeover_after_kill(database_url: str) -> None:
    """Same shards: the second process waits (PostgreSQL) while the first runs every
    match; killed, the first hands them over within the lease time, with no move lost,
    no reminder posted twice and the time-out and its reward booked once. On SQLite
    the second process can only start after the first has died."""
    postgres = not database_url.startswith("sqlite")
    a = await Proc.start(database_url, "a")
    b: Proc | None = None
    try:
        await until(lambda: a.ready, "a to start", a)
        if postgres:
            b = await Proc.start(database_url, "b")
            await until(lambda: "waiting for shard:0/1, held by instance 'a'" in b.log,
                        "b to wait for a's lease", a, b)
        # A casual game whose first move is acknowledged, and a DM whose clock runs.
        await a.do(op="challenge", guild=GUILD, channel="c1", a="alice", b="bob")
        assert await a.moved("c1", "alice", "D left")
        assert any("move 1" in p for p in a.posts("c1"))
        await a.do(op="dm", guild=GUILD, channel="c2", a="carol", b="dave", turn=6,
                   remind=3)
        await until(lambda: any(p.startswith("⏰") for p in a.posts("c2")),
                    "a's reminder", a)
        if b is not None:
            assert not b.ready and b.events == []  # the waiting process ran nothing
        await a.kill()
        killed = time.monotonic()
        if b is None:
            b = await Proc.start(database_url, "b")
        await until(lambda: b is not None and b.ready, "b to take over", a, b)
        assert time.monotonic() - killed < LEASE + 2.0
        assert "TAKING OVER shard:0/1 from instance 'a'" in b.log
        # The acknowledged move survived: Bob answers it as the second move.
        assert await b.moved("c1", "bob", "JU")
        assert any("move 2" in p for p in b.posts("c1"))
        # The DM runs out of time on b, once; its reminder was not posted again.
        await until(lambda: any("ran out of time" in p for p in b.posts("c2")),  # type: ignore[union-attr]
                    "the DM's time-out on b", a, b)
        reminders = [p for p in a.posts("c2") + b.posts("c2") if p.startswith("⏰")]
        assert len(reminders) == 1, reminders
        assert not any("ran out of time" in p for p in a.posts("c2"))
        assert await b.stop() == 0
    finally:
        for p in (a, b):
            if p is not None and p.proc.returncode is None:
                await p.kill()
    db = await open_database(database_url)
    try:
        casual, dm = await match_in(db, "c1"), await match_in(db, "c2")
        assert (await booked(db, casual.id))[0] == [1, 2]
        assert dm.status == MatchStatus.FINISHED and dm.end_reason == EndReason.TIMEOUT
        _, keys, results = await booked(db, dm.id)
        assert keys == [f"match:{dm.id}:reward"]
        assert results == ["carol", "dave"]
    finally:
        await db.close()


@pytest.mark.realtime(seconds=19)
async def test_the_clock_after_a_takeover_and_a_kill_in_the_middle_of_a_reward(
        database_url: str) -> None:
    """Boards that take a second to go out; a kill in the middle of a turn: the next
    process restores its clock within the heartbeat's bound (never charged, at most one
    step back); a kill in the middle of the result's write (its reward): the next one
    books it once."""
    a = await Proc.start(database_url, "a", BOARD_DELAY="1.0")
    b: Proc | None = None
    c: Proc | None = None
    try:
        await until(lambda: a.ready, "a to start", a)
        await a.do(op="dm", guild=GUILD, channel="c3", a="carol", b="dave", turn=8, remind=2)
        await asyncio.sleep(1.0 + 3.0)  # the board out after 1 s, then 3 s of the turn
        used = float(await a.do(op="clock", guild=GUILD, channel="c3") or "nan")
        await a.kill()
        assert 2.0 <= used <= 4.0, used
        b = await Proc.start(database_url, "b", SLOW_REWARD="30")
        await until(lambda: b is not None and b.ready, "b to take over", a, b)
        restored = next(e["clocks"] for e in b.events if "ready" in e)["c3"]
        given_back = used - restored
        print(f"clock after the takeover: {given_back:.2f} s given back "
              f"({used:.2f} s used, {restored:.2f} s restored)")
        assert -0.3 <= given_back <= 2.0 + 0.3  # never charged; at most one heartbeat
        # The flag falls on b, which is killed in the middle of writing its result.
        await until(lambda: b is not None and any("writing" in e for e in b.events),
                    "b to write the result's reward", a, b, timeout=20)
        await b.kill()
        c = await Proc.start(database_url, "c")
        await until(lambda: c is not None and c.ready, "c to take over", b, c)
        await until(lambda: c is not None and any("ran out of time" in p
                                                  for p in c.posts("c3")),
                    "the DM's time-out on c", b, c)
        assert not any("ran out of time" in p for p in a.posts("c3") + b.posts("c3"))
        assert await c.stop() == 0
    finally:
        for p in (a, b, c):
            if p is not None and p.proc.returncode is None:
                await p.kill()
    db = await open_database(database_url)
    try:
        dm = await match_in(db, "c3")
        assert dm.status == MatchStatus.FINISHED and dm.end_reason == EndReason.TIMEOUT
        _, keys, results = await booked(db, dm.id)
        assert keys == [f"match:{dm.id}:reward"]
        assert results == ["carol", "dave"]
    finally:
        await db.close()


async def legal(proc: Proc, channel: str) -> dict[str, Any] | None:
    """Who is to move in ``channel``, a legal move and its number (None: no match runs)."""
    reply = await proc.do(op="legal", guild=GUILD, channel=channel)
    return None if reply is None else dict(json.loads(reply))


@pytest.mark.realtime(seconds=8)
async def test_no_move_the_bot_acknowledged_is_lost_to_kill_9(database_url: str) -> None:
    """Moves in a casual game and a DM, each counted only when the bot answered it with
    its board; ``kill -9`` with a move on its way (unanswered: counted for nothing), the
    next process taking over; and a move typed in a DM whose turn had run out, answered
    with nothing. Every acknowledged move is in the database, none other was counted.

    The audit's harness counted 5 "acknowledged moves lost", all in DMs that had ended
    on time (28-31 s after starting, 30-s turns) while its players, slowed by the load,
    typed on: garnet answers such a message with nothing, as any message that is no
    move, and the harness took that empty answer for an acknowledgement."""
    acknowledged: list[tuple[str, int, str]] = []  # channel, move number, notation
    procs = [await Proc.start(database_url, "k0")]
    try:
        proc = procs[0]
        await until(lambda: proc.ready, "k0 to start", proc)
        await proc.do(op="challenge", guild=GUILD, channel="m1", a="alice", b="bob")
        await proc.do(op="dm", guild=GUILD, channel="m2", a="carol", b="dave", turn=60,
                      remind=30)
        await proc.do(op="dm", guild=GUILD, channel="m3", a="erin", b="fay", turn=1,
                      remind=0.5)
        late = await legal(proc, "m3")  # typed once its turn has run out
        assert late is not None
        for round_ in range(2):
            for _ in range(3):
                for channel in ("m1", "m2"):
                    move = await legal(proc, channel)
                    assert move is not None
                    if await proc.moved(channel, move["who"], move["move"]):
                        acknowledged.append((channel, move["ply"], move["move"]))
            if round_ == 1:
                break
            move = await legal(proc, "m1")
            assert move is not None
            await proc.send(op="typed", guild=GUILD, channel="m1", who=move["who"],
                            text=move["move"])  # on its way when the process dies
            await proc.kill()
            proc = await Proc.start(database_url, f"k{round_ + 1}")
            procs.append(proc)
            await until(lambda: proc.ready, "the next process to take over", *procs)  # noqa: B023
        await until(lambda: any("ran out of time" in p for q in procs for p in q.posts("m3")),
                    "the short DM's time-out", *procs)
        assert not await proc.moved("m3", late["who"], late["move"])  # answered with nothing
        assert await proc.stop() == 0
    finally:
        for p in procs:
            if p.proc.returncode is None:
                await p.kill()
    assert len(acknowledged) == 12
    db = await open_database(database_url)
    try:
        for channel in ("m1", "m2", "m3"):
            match = await match_in(db, channel)
            async with db.session() as s:
                played = {(m.ply, m.notation) for m in (await s.scalars(
                    select(Move).where(Move.match_id == match.id))).all()}
            lost = [(p, n) for c, p, n in acknowledged if c == channel
                    and (p, n) not in played]
            assert lost == [], f"{channel}: acknowledged moves lost: {lost}"
            if channel == "m3":
                assert played == set()  # the late move was not counted, nor written
    finally:
        await db.close()


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
                    reason="several processes on one database need PostgreSQL")
@pytest.mark.realtime(seconds=12)
async def test_processes_on_different_shards_split_the_servers(database_url: str) -> None:
    even, odd = str(10 << 22), str(11 << 22)  # on shards 0 and 1 of 2
    a = await Proc.start(database_url, "a", SHARD_COUNT="2", SHARD_IDS="0")
    b = await Proc.start(database_url, "b", SHARD_COUNT="2", SHARD_IDS="1")
    try:
        await until(lambda: a.ready and b.ready, "both to start", a, b)
        refused = await b.do(op="dm", guild=even, channel="e1", a="carol", b="dave",
                             turn=5, remind=2)
        assert refused is not None and "not running this server's matches here" in refused
        await a.do(op="dm", guild=even, channel="e1", a="carol", b="dave", turn=5, remind=2)
        await b.do(op="dm", guild=odd, channel="o1", a="erin", b="fay", turn=5, remind=2)
        for p, channel in ((a, "e1"), (b, "o1")):
            await until(lambda: any("ran out of time" in t for t in p.posts(channel)),  # noqa: B023
                        f"{p.name}'s time-out", a, b)
        assert a.posts("o1") == [] and b.posts("e1") == []
        assert "TAKING OVER" not in a.log + b.log
        assert await a.stop() == 0 and await b.stop() == 0
    finally:
        for p in (a, b):
            if p.proc.returncode is None:
                await p.kill()
    db = await open_database(database_url)
    try:
        for channel in ("e1", "o1"):
            match = await match_in(db, channel)
            assert (await booked(db, match.id))[1] == [f"match:{match.id}:reward"]
    finally:
        await db.close()


async def test_sqlite_refuses_a_second_process(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'one.db'}"
    a = await Proc.start(url, "first")
    try:
        await until(lambda: a.ready, "the first to start", a)
        b = await Proc.start(url, "second", SHARD_COUNT="2", SHARD_IDS="1")
        assert await b.stop() == 2
        assert "another garnet process already runs on this database: instance 'first' " \
               f"(pid {a.proc.pid} on host " in b.log
        assert not b.ready
        assert await a.stop() == 0
    finally:
        if a.proc.returncode is None:
            await a.kill()
