"""``python -m bot bench --practice``: event-loop lag while the computer thinks.

For each game it runs practice matches against the computer player at a level (5 by
default: the longest searches) for a fixed time on the real clock, exactly as the
bot runs them: the computer thinks in its worker process (``bot.services.workers``),
boards are drawn in the render process, and a simulated person answers each
computer move with a random legal move at once. Meanwhile a sampler sleeps 10 ms
at a time and records how late it wakes: the event loop's lag. It reports the lag's
p50, p99 and max over the samples taken while the computer was thinking (and over
all samples), the loop thread's own CPU time within those samples (a lag with little
of it is the operating system running other processes, not work on the loop), and
the computer's move times. The bar is a lag under 50 ms.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import build_services
from bot.core.clock import RealClock
from bot.core.messages import Actor, Post, ai_level
from bot.core.requests import Asker
from bot.services.matches import MatchConfig
from bot.store.db import open_database
from engine.registry import get_game

SAMPLE = 0.01


def _person(number: int) -> Actor:
    # One simulated person per match: a fast game ends in seconds, and one person
    # starting matches that often would meet the lobby's rate limit, as it should.
    return Actor(f"bench-person-{number}", "Person")
GUILD = "bench"


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(values: list[float]) -> dict[str, float]:
    return {k: round(v * 1000, 1) for k, v in (
        ("p50", _pct(values, 0.5)), ("p99", _pct(values, 0.99)),
        ("max", max(values, default=float("nan"))))}


async def run_game(game_key: str, level: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="garnet-bench-practice-"))
    db = await open_database(f"sqlite+aiosqlite:///{workdir / 'bench.db'}")

    async def deliver(post: Post) -> None:
        return None

    host = build_services(db, RealClock(), MatchConfig(render_processes=1, ai_processes=1),
                          deliver=deliver, rng=rng).matches
    await host.start()
    game = get_game(game_key)
    thinking_lags: list[float] = []
    thinking_busy: list[float] = []  # the loop thread's own CPU time in each sample
    all_lags: list[float] = []
    move_times: list[float] = []
    games = 0
    stop_at = time.perf_counter() + seconds

    async def new_match() -> int:
        games_before = set(host.live)
        response = await host.practice.start(Asker(GUILD, f"chan{games}", _person(games)), game_key,
                                             level,
                                             first="bot")
        assert response.posts, response.reply
        return max(set(host.live) - games_before)

    def bot_to_move(match_id: int) -> bool:
        live = host.live.get(match_id)
        return (live is not None and live.to_move is not None
                and ai_level(live.users[live.to_move]) is not None)

    match_id = await new_match()
    thinking_since = time.perf_counter()

    async def sampler() -> None:
        while time.perf_counter() < stop_at:
            thinking = bot_to_move(match_id)
            before, cpu_before = time.perf_counter(), time.thread_time()
            await asyncio.sleep(SAMPLE)
            lag = time.perf_counter() - before - SAMPLE
            all_lags.append(lag)
            busy = time.thread_time() - cpu_before
            if thinking and bot_to_move(match_id):
                thinking_lags.append(lag)
                thinking_busy.append(busy)

    async def person() -> None:
        nonlocal match_id, games, thinking_since
        while time.perf_counter() < stop_at:
            live = host.live.get(match_id)
            if live is None or live.finished:
                games += 1
                match_id = await new_match()
                thinking_since = time.perf_counter()
                continue
            if bot_to_move(match_id) or live.to_move is None:
                await asyncio.sleep(0.02)
                continue
            move_times.append(time.perf_counter() - thinking_since)
            move = game.notation(rng.choice(game.legal_moves(live.state)))
            await host.play.typed(Asker(GUILD, live.channel_id, _person(games)), move)
            thinking_since = time.perf_counter()

    await asyncio.gather(sampler(), person())
    await host.stop()
    await db.close()
    return {
        "game": game_key,
        "level": level,
        "seconds": seconds,
        "computer_moves": len(move_times),
        "games_finished": games,
        "samples_while_thinking": len(thinking_lags),
        "lag_while_thinking_ms": _ms(thinking_lags),
        "loop_cpu_while_thinking_ms": _ms(thinking_busy),
        "lag_all_ms": _ms(all_lags),
        "computer_move_seconds": {k: round(v / 1000, 2) for k, v in _ms(move_times).items()},
    }


def main(games: list[str], level: int, seconds: float, as_json: bool = False) -> int:
    results = []
    for key in games:
        result = asyncio.run(run_game(get_game(key).key, level, seconds))
        results.append(result)
        if not as_json:
            lag, every = result["lag_while_thinking_ms"], result["lag_all_ms"]
            busy = result["loop_cpu_while_thinking_ms"]
            moves = result["computer_move_seconds"]
            print(f"{key}, level {level}, {seconds:g} s: {result['computer_moves']} computer "
                  f"moves (p50 {moves['p50']} s, max {moves['max']} s)\n"
                  f"  event-loop lag while it thinks ({result['samples_while_thinking']} "
                  f"samples every 10 ms): p50 {lag['p50']} ms, p99 {lag['p99']} ms, "
                  f"max {lag['max']} ms\n"
                  f"  the loop's own CPU time in those samples: p99 {busy['p99']} ms, "
                  f"max {busy['max']} ms (the rest of a lag is the machine's other work)\n"
                  f"  all samples: p99 {every['p99']} ms, max {every['max']} ms")
            sys.stdout.flush()
    if as_json:
        print(json.dumps(results, indent=2))
    return 0
