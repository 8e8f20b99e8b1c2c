"""``python -m bot bench``: many Death Matches at once in one process, on SQLite.

For each size (default 200 and 1,000 concurrent DMs) it starts that many Cairo
Corridor DMs on a fresh database file, each in its own channel, and lets simulated
players answer every 2 s (with a little jitter) with a random legal move, for a
fixed time on the real clock. It reports:

- latency from a message received to the board image ready to send (p50/p99/max),
  i.e. parse, apply, render in a worker process and commit, after the first round of
  moves (warm-up);
- event-loop lag: how late a 50 ms sleep wakes up;
- reminder lateness: how long after its due instant each reminder was posted (the
  DMs use a 3 s turn with reminders at 2 s and 1 s left so that reminders fall due
  all the time);
- memory: the process's resident set size at the end, and its peak.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import build_services
from bot.core.clock import RealClock
from bot.core.messages import Actor, Post
from bot.core.timecontrol import TimeControl
from bot.services.matches import MatchConfig
from bot.store.db import open_database
from engine.registry import get_game

MOVE_EVERY = 2.0
HOST = Actor("bench-host", "Bench Host", roles=frozenset({"Host"}))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _rss_mb() -> float:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return float("nan")


async def run_one(n: int, seconds: float, seed: int = 1,
                  processes: int = 2) -> dict[str, Any]:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="garnet-bench-"))
    db = await open_database(f"sqlite+aiosqlite:///{workdir / 'bench.db'}")
    clock = RealClock()
    delivered: list[Post] = []

    async def deliver(post: Post) -> None:
        delivered.append(post)

    host = build_services(db, clock, MatchConfig(render_processes=processes),
                          deliver=deliver, rng=rng).matches
    lateness: list[float] = []
    host.kit.on_reminder = lateness.append
    await host.start()
    # Shorter than any host would set (build() refuses it), so reminders fall due.
    tc = TimeControl(turn=3.0, banks=36, bank=5.0, turn_reminders=(2.0, 1.0))
    game = get_game("cairo")

    async def new_dm(i: int) -> int:
        players = [Actor(f"p{i}a", f"A{i}"), Actor(f"p{i}b", f"B{i}")]
        response = await host.start_dm("bench", f"chan{i}", HOST, "cairo", players,
                                       chooser="lots", tc=tc)
        assert response.posts, response.reply
        return max(host.live)

    setup_started = time.perf_counter()
    matches = [await new_dm(i) for i in range(n)]
    setup_seconds = time.perf_counter() - setup_started

    latencies: list[float] = []
    lags: list[float] = []
    finished = 0
    stop_at = time.perf_counter() + seconds
    # The first round of moves is not counted: every DM's clock has been running
    # since set-up, and the process pool and caches are still settling.
    warm = stop_at - seconds + MOVE_EVERY

    async def lag_monitor() -> None:
        while time.perf_counter() < stop_at:
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            lags.append(time.perf_counter() - before - 0.05)

    async def player(i: int) -> None:
        nonlocal finished
        match_id = matches[i]
        await asyncio.sleep(rng.uniform(0, MOVE_EVERY))
        while time.perf_counter() < stop_at:
            live = host.live.get(match_id)
            if live is None:
                finished += 1
                match_id = matches[i] = await new_dm(i)
                continue
            seat = live.to_move
            if seat is None:
                await asyncio.sleep(0.1)
                continue
            move = game.notation(rng.choice(game.legal_moves(live.state)))
            actor = Actor(live.users[seat], live.names[seat])
            started = time.perf_counter()
            response = await host.typed(live.guild_id, f"chan{i}", actor, move)
            if response.posts and response.posts[0].image is not None and started >= warm:
                latencies.append(time.perf_counter() - started)
            await asyncio.sleep(MOVE_EVERY * rng.uniform(0.9, 1.1))

    await asyncio.gather(lag_monitor(), *(player(i) for i in range(n)))
    await host.stop()
    await db.close()
    return {
        "dms": n,
        "seconds": seconds,
        "setup_seconds": round(setup_seconds, 1),
        "moves": len(latencies),
        "moves_per_second": round(len(latencies) / (seconds - MOVE_EVERY), 1),
        "games_finished": finished,
        "latency_ms": {k: round(v * 1000, 1) for k, v in (
            ("p50", _pct(latencies, 0.5)), ("p99", _pct(latencies, 0.99)),
            ("max", max(latencies, default=float("nan"))))},
        "loop_lag_ms": {k: round(v * 1000, 1) for k, v in (
            ("p50", _pct(lags, 0.5)), ("p99", _pct(lags, 0.99)),
            ("max", max(lags, default=float("nan"))))},
        "reminders": len(lateness),
        "reminder_late_ms": {k: round(v * 1000, 1) for k, v in (
            ("p50", _pct(lateness, 0.5)), ("p99", _pct(lateness, 0.99)),
            ("max", max(lateness, default=float("nan"))),
            ("mean", statistics.fmean(lateness) if lateness else float("nan")))},
        "rss_mb": round(_rss_mb(), 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(sizes: list[int], seconds: float, as_json: bool = False) -> int:
    results = []
    for n in sizes:
        result = asyncio.run(run_one(n, seconds))
        results.append(result)
        if not as_json:
            lat, lag, rem = result["latency_ms"], result["loop_lag_ms"], result["reminder_late_ms"]
            print(f"{n} DMs, {seconds:g} s: {result['moves']} moves "
                  f"({result['moves_per_second']}/s), {result['games_finished']} games finished\n"
                  f"  message -> board ready: p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
                  f"max {lat['max']} ms\n"
                  f"  event-loop lag: p50 {lag['p50']} ms, p99 {lag['p99']} ms, "
                  f"max {lag['max']} ms\n"
                  f"  reminders: {result['reminders']}, late by p50 {rem['p50']} ms, "
                  f"p99 {rem['p99']} ms, max {rem['max']} ms\n"
                  f"  memory: {result['rss_mb']} MB resident, peak {result['peak_rss_mb']} MB\n"
                  f"  (setup of {n} DMs took {result['setup_seconds']} s)")
            sys.stdout.flush()
    if as_json:
        print(json.dumps(results, indent=2))
    return 0
