"""``python -m bot bench --web``: the public pages' time with many viewers, on loopback.

A server with its pages on, ``--dms`` Death Matches being played (a move every
``MOVE_EVERY`` seconds somewhere), a Swiss of 16 and a leaderboard; then ``--viewers``
viewers for ``--seconds``, each from an address of its own (as behind a reverse proxy),
each coming within the first 5 seconds to one match's page and following its live
stream (which carries the live part with each move, as the script takes it), and
opening another page every 5 to 15 seconds (the server's, a match, the tournament, a
player), as a person reading them does. The viewers run in a process of their own.
Page time is from the request to the last byte, p50, p99 and the most; the bar is p99
at most 50 ms with 200 viewers. Bounded: every viewer's requests stay within the
server's per-address bounds.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from bot.app import build_services, served_web, tune_interpreter
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


LIVE_PLY = re.compile(rb'data-ply="(\d+)"')
PER_PROCESS = 250  # the load bench's viewers per client process (--viewers)
CLIENT_NICE = 10  # and how much lower those processes run than the bot's


@dataclasses.dataclass
class Seen:
    """What the viewers of one client process saw: every page's time (NaN: failed) and
    when it was read, and when each viewer got each position of its match live (its
    page's address, the position's ply, the wall clock)."""

    times: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    arrived: list[tuple[str, int, float]] = dataclasses.field(default_factory=list)


async def _viewer(http: aiohttp.ClientSession, me: int, pages: list[str], match: str,
                  stop: float, seen: Seen) -> None:
    """One viewer. A page that fails (refused, or its connection dropped) is counted
    as a failure (its time NaN) and the viewer reads on, as a person would; the event
    stream is opened again a second after it drops, as a browser's EventSource does.
    A match's live part comes in its stream (``event: live``); a bare notice
    (``event: change``) makes the viewer fetch it, as the script does. Each comes at
    some instant of the first ``READ_SECONDS[0]`` seconds, as people do."""
    headers = {"X-Forwarded-For": f"198.18.{me // 250}.{me % 250 + 1}"}
    rng = random.Random(me)
    times = seen.times

    async def timed(url: str) -> bytes:
        start = time.perf_counter()
        body = b""
        try:
            async with http.get(url, headers=headers) as r:
                body = await r.read()
                ok = r.status == 200
        except aiohttp.ClientError:
            ok = False
        times.append((time.monotonic(), time.perf_counter() - start if ok else math.nan))
        return body

    def got(part: bytes) -> None:
        ply = LIVE_PLY.search(part)
        if ply is not None:
            seen.arrived.append((match, int(ply.group(1)), time.time()))

    async def follow() -> None:
        while time.monotonic() < stop:
            try:
                async with http.get(match + "/events", headers=headers) as stream:
                    event = b""
                    async for line in stream.content:
                        event += line
                        if line != b"\n":
                            continue
                        if event.startswith(b"event: live\n"):
                            got(event)
                        elif event.startswith(b"event: change\n"):
                            got(await timed(match + "?part=live"))
                        event = b""
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(1.0)

    async def read(seconds: float) -> None:
        """Reading a page: ``seconds``, but not past the end (nothing is read after it,
        and the viewers' process ends with the run, not a reading time later)."""
        await asyncio.sleep(max(0.0, min(seconds, stop - time.monotonic())))

    # As a browser comes: at some instant of the first seconds (of the first half of a
    # shorter run), the match's page, then (its script) its stream; no thousand streams
    # opened in the same millisecond.
    await read(rng.uniform(0, max(0.0, min(READ_SECONDS[0],
                                           (stop - time.monotonic()) / 2))))
    await timed(match)
    following = asyncio.create_task(follow())
    try:
        while time.monotonic() < stop:
            await read(rng.uniform(*READ_SECONDS))
            if time.monotonic() < stop:
                await timed(rng.choice(pages))
    finally:
        following.cancel()


def _view(first: int, viewers: int, pages: list[str], matches: list[str],
          seconds: float, nice: int = 0) -> Seen:
    """Viewers ``first`` to ``first + viewers - 1`` for ``seconds`` (in a client
    process, ``nice`` lower than the bot's), each following one of ``matches`` (its
    page's address): what they saw."""
    if nice:
        os.nice(nice)
        # And only on a core the bot's processes leave idle: the viewers stand for
        # browsers on other machines, whose work must not delay the bot's wake-ups.
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    async def view() -> Seen:
        seen = Seen()
        stop = time.monotonic() + seconds
        connector = aiohttp.TCPConnector(limit=viewers * 2)
        async with aiohttp.ClientSession(connector=connector) as http:
            await asyncio.gather(*(
                _viewer(http, i, pages, matches[i % len(matches)], stop, seen)
                for i in range(first, first + viewers)))
        return seen

    return asyncio.run(view())


async def viewing(viewers: int, pages: list[str], matches: list[str], seconds: float,
                  processes: int = 1, nice: int = 0) -> Seen:
    """``viewers`` viewers spread over ``processes`` client processes of their own (their
    side of the connections must not take the server's event loop), for ``seconds``."""
    share = -(-viewers // processes)
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = [pool.apply_async(_view, (first, min(share, viewers - first), pages,
                                          matches, seconds, nice))
                 for first in range(0, viewers, share)]
        loop = asyncio.get_running_loop()
        seen = Seen()
        for part in parts:
            got = await loop.run_in_executor(None, part.get, seconds + 120)
            seen.times += got.times
            seen.arrived += got.arrived
    return seen


async def view(viewers: int, matches: list[str], seconds: float,
               typed: dict[tuple[str, int], float] | None = None) -> dict[str, Any]:
    """``viewers`` live viewers of the running matches' pages (``matches``), in client
    processes of their own (``PER_PROCESS`` viewers each, ``CLIENT_NICE`` lower than
    the bot's, so that the bot's share measured is the bot's and not the clients' on
    the same cores) for ``seconds``: each follows one match's event stream, takes its
    live part as it comes, and opens another of the matches every 5 to 15 s (the load
    bench's ``--viewers``). Their page times, p50 and p99, and, with ``typed`` (when
    each move was typed, by the match's page and the ply it made), how long each
    move took to reach each of its viewers."""
    seen = await viewing(viewers, matches, matches, seconds,
                         max(1, -(-viewers // PER_PROCESS)), CLIENT_NICE)
    times = [t for _, t in seen.times]
    failed = sum(1 for t in times if math.isnan(t))
    ordered = sorted(t for t in times if not math.isnan(t)) or [0.0]
    out: dict[str, Any] = {"viewers": viewers, "matches": len(matches), "pages": len(ordered),
           "failed": failed,
           "p50_ms": round(statistics.median(ordered) * 1000, 1),
           "p99_ms": round(_p99(ordered), 1)}
    if typed is not None:
        out["updates"] = reached(seen.arrived, typed)
    return out


def reached(arrived: list[tuple[str, int, float]],
            typed: dict[tuple[str, int], float]) -> dict[str, Any]:
    """From each move typed to its position reaching each viewer of the match live:
    p50, p99, the most, and the share within a second (the issue's bar)."""
    took = sorted(at - typed[(page, ply)] for page, ply, at in arrived
                  if (page, ply) in typed)
    if not took:
        return {"n": 0}
    return {"n": len(took), "p50_ms": round(statistics.median(took) * 1000, 1),
            "p99_ms": round(_p99(took), 1), "max_ms": round(took[-1] * 1000, 1),
            "within_1s": round(sum(1 for t in took if t <= 1.0) / len(took), 4)}


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
            began = time.monotonic()
            looking = asyncio.ensure_future(viewing(
                viewers, pages, [f"{home}/m/{n}" for n in numbers], seconds))
            moves = await _mover(console, services, numbers, time.monotonic() + seconds)
            seen = await looking
            times = [t for _, t in seen.times]
            # (The monotonic clock is the system's: the same in the viewers' processes.)
            warm = [t for at, t in seen.times if at >= began + WARM_SECONDS]
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
    tune_interpreter()  # as the bot runs
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
