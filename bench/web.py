"""``python -m bot bench --web``: the public pages' time with many viewers, on loopback.

A server with its pages on, ``--dms`` Death Matches being played (a move every
``MOVE_EVERY`` seconds somewhere), a Swiss of 16 and a leaderboard; then ``--viewers``
viewers for ``--seconds``, each from an address of its own (as behind a reverse proxy),
each following one match's live stream and, on each notice, fetching its live part as
the script does, and opening another page every 5 to 15 seconds (the server's, a match,
the tournament, a player), as a person reading them does. The viewers run in a process
of their own. Page time is from the request to the last byte, p50, p99 and the most;
the bar is p99 at most 50 ms with 200 viewers. Bounded: every viewer's requests stay
within the server's per-address bounds.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import math
import multiprocessing
import os
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.adapters.console import Console
from bot.app import build_services, served_web
from bot.config import Settings
from bot.core.clock import RealClock
from bot.services.matches import MatchConfig
from bot.store.db import open_database

MOVE_EVERY = 0.5  # seconds between moves (in turn, over the matches)
BAR_MS = 50.0
READ_SECONDS = (5.0, 15.0)  # a viewer opens another page after this long
WARM_SECONDS = 5.0  # every viewer comes in the first seconds


async def _set_up(console: Console, out: io.StringIO, dms: int) -> tuple[str, list[int]]:
    async def say(line: str) -> None:
        await console.handle_line(line)

    await say("host: /host web on")
    home = re.search(r"<(http://[^>\s]+)>", out.getvalue())
    assert home, out.getvalue()
    for i in range(dms):
        await say(f"host: /dm game:cairo player1:@p{i}a player2:@p{i}b chooser:player1")
        await say(f"p{i}a: /first player:@p{i}a")
    await say("host: /host tournament create name:Bench Swiss game:cairo format:swiss rounds:4")
    for i in range(16):
        await say(f"s{i}: /tournament join")
    await say("host: /host tournament start")
    numbers = [int(n) for n in re.findall(r"DM #(\d+) begins", out.getvalue())]
    return home.group(1), numbers


async def _mover(console: Console, services: Any, numbers: list[int], stop: float) -> int:
    """A move every ``MOVE_EVERY`` seconds, round the matches: the viewers' notices."""
    moves = 0
    while time.monotonic() < stop:
        for number in numbers:
            if time.monotonic() >= stop:
                break
            live = services.matches.kit.live.get(console.guild, number)
            if live is None or live.to_move is None:
                continue
            legal = live.game.legal_moves(live.state)
            if legal:
                move = live.game.notation(random.Random(moves).choice(legal))
                await console.handle_line(f"{live.users[live.to_move]}: {move}")
                moves += 1
            await asyncio.sleep(MOVE_EVERY)
    return moves


async def _viewer(http: aiohttp.ClientSession, me: int, pages: list[str], match: str,
                  stop: float, times: list[tuple[float, float]]) -> None:
    """One viewer. A page that fails (refused, or its connection dropped) is counted
    as a failure (its time NaN) and the viewer reads on, as a person would; the event
    stream is opened again a second after it drops, as a browser's EventSource does."""
    headers = {"X-Forwarded-For": f"198.18.{me // 250}.{me % 250 + 1}"}
    rng = random.Random(me)

    async def timed(url: str) -> None:
        start = time.perf_counter()
        try:
            async with http.get(url, headers=headers) as r:
                await r.read()
                ok = r.status == 200
        except aiohttp.ClientError:
            ok = False
        times.append((time.monotonic(), time.perf_counter() - start if ok else math.nan))

    async def follow() -> None:
        while time.monotonic() < stop:
            try:
                async with http.get(match + "/events", headers=headers) as stream:
                    async for line in stream.content:
                        if line == b"event: change\n":
                            await timed(match + "?part=live")
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(1.0)

    async def read(seconds: float) -> None:
        """Reading a page: ``seconds``, but not past the end (nothing is read after it,
        and the viewers' process ends with the run, not a reading time later)."""
        await asyncio.sleep(max(0.0, min(seconds, stop - time.monotonic())))

    following = asyncio.create_task(follow())
    try:
        await read(rng.uniform(0, READ_SECONDS[0]))
        while time.monotonic() < stop:
            await timed(rng.choice(pages))
            await read(rng.uniform(*READ_SECONDS))
    finally:
        following.cancel()


def _view(viewers: int, pages: list[str], matches: list[str],
          seconds: float) -> tuple[list[float], list[float]]:
    """The viewers for ``seconds`` (in the viewers' process), each following one of
    ``matches`` (its page's address): every page's time, and those after the first
    ``WARM_SECONDS`` (when every viewer has come at once)."""
    async def view() -> tuple[list[float], list[float]]:
        times: list[tuple[float, float]] = []
        stop = time.monotonic() + seconds
        warm = time.monotonic() + WARM_SECONDS
        connector = aiohttp.TCPConnector(limit=viewers * 2)
        async with aiohttp.ClientSession(connector=connector) as http:
            await asyncio.gather(*(
                _viewer(http, i, pages, matches[i % len(matches)], stop, times)
                for i in range(viewers)))
        return [t for _, t in times], [t for at, t in times if at >= warm]

    return asyncio.run(view())


async def view(viewers: int, matches: list[str], seconds: float) -> dict[str, Any]:
    """``viewers`` live viewers of the running matches' pages (``matches``), in a
    process of their own for ``seconds``: each follows one match's event stream, reads
    its live part on each notice, and opens another of the matches every 5 to 15 s
    (the load bench's ``--viewers``). Their page times, p50 and p99."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        viewing = pool.apply_async(_view, (viewers, matches, matches, seconds))
        times, _ = await asyncio.get_running_loop().run_in_executor(
            None, viewing.get, seconds + 120)
    failed = sum(1 for t in times if math.isnan(t))
    ordered = sorted(t for t in times if not math.isnan(t)) or [0.0]
    return {"viewers": viewers, "matches": len(matches), "pages": len(ordered),
            "failed": failed,
            "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(_p99(ordered), 1)}


async def run(viewers: int, dms: int, seconds: float,
              url: str | None = None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="garnet-web-bench-"))
    db = await open_database(url or f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    services = build_services(db, RealClock(), MatchConfig(render_processes=1))
    out = io.StringIO()
    console = Console(services, folder / "images", out=out, hosts=("host",))
    services.matches.deliver = console.show
    settings = dataclasses.replace(Settings.from_env(env_file=None),
                                   web_address=("127.0.0.1", 0), public_url=None)
    await services.matches.start()
    try:
        async with served_web(settings, services, db, local_links=True) as server:
            assert server is not None
            home, numbers = await _set_up(console, out, dms)
            async with aiohttp.ClientSession() as http, http.get(f"{home}/m/1") as r:
                player = re.search(r'href="(/s/[^"]+/p/\w+)"', await r.text())
            assert player
            pages = [home, f"{home}/t/1", server.address + player.group(1),
                     *(f"{home}/m/{n}" for n in numbers)]
            # The viewers in a process of their own: their side of the connections
            # must not take the server's event loop.
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                viewing = pool.apply_async(_view, (viewers, pages, [
                    f"{home}/m/{n}" for n in numbers], seconds))
                moves = await _mover(console, services, numbers, time.monotonic() + seconds)
                times, warm = await asyncio.get_running_loop().run_in_executor(
                    None, viewing.get, seconds + 120)
    finally:
        await services.matches.stop()
        await db.close()
    failed = sum(1 for t in times if math.isnan(t))  # refused or dropped: not timed
    ordered = sorted(t for t in times if not math.isnan(t)) or [0.0]
    steady = sorted(t for t in warm if not math.isnan(t)) or [0.0]
    p99 = _p99(ordered)
    return {"viewers": viewers, "dms": dms, "seconds": seconds, "moves": moves,
            "pages": len(ordered), "failed": failed,
            "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(p99, 1), "max_ms": round(ordered[-1] * 1000, 1),
            "steady_p99_ms": round(_p99(steady), 1), "bar_ms": BAR_MS, "met": p99 <= BAR_MS,
            "load": round(os.getloadavg()[0], 1), "database": db.engine.dialect.name}


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def main(viewers: int, dms: int, seconds: float, as_json: bool,
         url: str | None = None) -> int:
    """``url``: an empty database (default: a new SQLite file)."""
    result = asyncio.run(run(viewers, dms, seconds, url))
    if as_json:
        print(json.dumps(result))
    else:
        print(f"{result['viewers']} viewers, {result['dms']} DMs, {result['seconds']:g} s: "
              f"{result['pages']} pages ({result['failed']} failed), {result['moves']} moves; "
              f"page time p50 "
              f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
              f"after the first {WARM_SECONDS:g} s p99 {result['steady_p99_ms']} ms "
              f"(bar: p99 <= {BAR_MS:g} ms: {'met' if result['met'] else 'NOT met'}; "
              f"{result['database']}, load average {result['load']})")
    return 0 if result["met"] and not result["failed"] else 1
