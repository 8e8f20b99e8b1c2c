"""A restart, clean or a killed process, keeps the board, the moves and both clocks."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.core.clock import VirtualClock
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.store.db import open_database
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, asking
from tests.fixtures import bot_process

ROOT = Path(__file__).resolve().parents[2]


async def test_restart_after_a_crash_resumes_where_the_clock_stood(database_url: str) -> None:
    url = database_url
    db1 = await open_database(url)
    clock1 = VirtualClock()
    host1 = asking(bot_process(db1, clock1))  # its boards are out at once
    await host1.start()
    r = await host1.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    await host1.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    await clock1.advance(10)
    await host1.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    await clock1.advance(70)  # Bob spends 2 banks
    await host1.play.typed(Asker(GUILD, CHAN, BOB), "JU")
    await clock1.advance(20)  # Alice has used 20 s of her turn ... and the bot dies.
    before = host1.live[1]
    # No stop(): the process is gone. Its engine is dropped unclosed, like a kill.

    down_for = 600.0
    db2 = await open_database(url)
    clock2 = VirtualClock(start=clock1.now() + down_for)
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    host2 = asking(bot_process(db2, clock2, deliver=deliver))
    await host2.start()
    after = host2.live[1]
    game = after.game
    assert game.to_json(after.state) == game.to_json(before.state)
    assert after.ply == 2 and after.users == ["alice", "bob"]
    assert after.banks_left == [36, 34]
    assert after.time_used == [10.0, 70.0]
    # The outage is not charged: Alice's turn stands at 20 s used.
    assert abs(after.elapsed(clock2.now()) - 20.0) < 1e-6
    await clock2.advance(9.9)
    assert posts == []
    await clock2.advance(0.2)
    assert [p.text for p in posts] == ["⏰ <@alice>: 30 s left of your turn time."]
    r = await host2.play.typed(Asker(GUILD, CHAN, ALICE), "w up")
    assert "move 3" in r.posts[0].text
    await host2.stop()
    await db2.close()
    await db1.close()


async def _read_until(stream: asyncio.StreamReader, needle: str) -> str:
    seen = []
    while True:
        line = await asyncio.wait_for(stream.readline(), timeout=60)
        if not line:
            raise AssertionError(f"process ended before {needle!r}; got:\n{''.join(seen)}")
        seen.append(line.decode())
        if needle in seen[-1]:
            return "".join(seen)


async def _console(tmp_path: Path, url: str) -> asyncio.subprocess.Process:
    # Boards drawn in the console's own process: what a kill leaves intact is the
    # database's (render workers in processes: tests/bot/test_render_workers.py and the
    # package check's scripted DM); each start would spawn and warm two, 5 s of CPU.
    env = dict(os.environ, DATABASE_URL=url, RENDER_PROCESSES="0",
               IMAGE_DIR=str(tmp_path / "images"), DISCORD_TOKEN="")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--console", "--virtual-clock", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _say(proc: asyncio.subprocess.Process, line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write((line + "\n").encode())
    await proc.stdin.drain()


async def test_killed_process_restarts_with_everything_intact(tmp_path: Path,
                                                             database_url: str) -> None:
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    proc = await _console(tmp_path, database_url)
    assert proc.stdout is not None
    await _read_until(proc.stdout, "garnet console")
    await _say(proc, "alice: /challenge @bob game:cairo first:me")
    await _read_until(proc.stdout, "[Accept")
    await _say(proc, "bob: /accept")
    await _read_until(proc.stdout, "[image:")
    await _say(proc, "~ wait 12s")
    await _say(proc, "alice: D left")
    await _read_until(proc.stdout, "[image:")
    await _say(proc, "~ wait 75s")
    await _say(proc, "bob: J up")
    await _read_until(proc.stdout, "[image:")
    await _say(proc, "~ wait 14s")
    await _say(proc, "alice: /time")  # its answer proves the wait was processed
    await _read_until(proc.stdout, "of reserve")
    proc.send_signal(signal.SIGKILL)
    await proc.wait()

    proc = await _console(tmp_path, database_url)
    assert proc.stdout is not None
    await _read_until(proc.stdout, "garnet console")
    await _say(proc, "alice: /time")
    shown = await _read_until(proc.stdout, "of reserve")
    # Alice had used 14 s of her turn. A kill leaves no record of its instant: the
    # turn resumes from the last heartbeat (every 2 s), so she may get up to 2 s back
    # but never loses any. Bob spent 3 banks (75 s).
    assert any(f"▶ alice: 0:{left} + 36 banks" in shown for left in (46, 47, 48)), shown
    assert "bob: 33 banks (2:45) of reserve" in shown
    await _say(proc, "alice: /board")
    shown = await _read_until(proc.stdout, "[image:")
    assert "After move 2." in shown
    proc.stdin.close()  # type: ignore[union-attr]
    await proc.wait()
    export = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "export", "--json", cwd=tmp_path,
        env=dict(os.environ, DATABASE_URL=database_url),
        stdout=asyncio.subprocess.PIPE)
    out, _ = await export.communicate()
    import json

    records = json.loads(out)
    assert [m["move"] for m in records[0]["moves"]] == ["DL", "JU"]
    assert [m["seconds"] for m in records[0]["moves"]] == [12.0, 75.0]
    assert records[0]["status"] == "running" and records[0]["event"] is None
