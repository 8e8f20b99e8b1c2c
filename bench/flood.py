"""A flood of the metrics and health server (``python -m bench.flood PORT``), run as
its own process beside a bot (``python -m bot bench --flood-compare``,
``tests/bot/test_observe_flood.py``): loopback only, a bounded count of connections
for a bounded time.

``python -m bot bench --flood N`` runs the load benchmark's DMs with such a flood (N clients a
path) on and off in alternate windows of 2.5 s (``Windows``) and compares the DMs'
move → board times (from the message reaching the bot to the board's upload reaching
Discord, the fake) of the moves sent in flooded windows with the quiet ones'.

For each path (``--paths``, default /metrics, /healthz and /readyz) ``--connections``
clients at once (default 1,000 each) connect, ask, read the answer to its end and
start again, until ``--seconds`` have passed; ``--slow`` more connections send half a
request and then one byte a second, as a slow client does. One JSON line on stdout at
the end: the answers by path and status (``closed``: the connection closed without
an answer; ``refused``: not accepted within 2 s), and the longest a slow connection was
held open. It runs at the lowest CPU priority (``--nice``, 19): a flood comes from
another machine, and on the bot's own its clients would otherwise take the bot's CPU,
not its event loop, which is what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

PATHS = ("/metrics", "/healthz", "/readyz")
WAIT = 2.0  # seconds a client waits to connect, then for its answer, before it gives up


async def ask(port: int, path: str) -> str:
    """One request on a new connection: the answer's status, ``closed`` or
    ``refused``."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), WAIT)
    except (OSError, TimeoutError):
        return "refused"
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: flood\r\nConnection: close\r\n\r\n"
                     .encode())
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), WAIT)  # to its end: it closes
    except (OSError, TimeoutError):
        return "closed"
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head = answer.split(b"\r\n", 1)[0].split()
    return head[1].decode() if len(head) >= 2 else "closed"


async def client(port: int, path: str, until: float, counts: Counter[str]) -> None:
    while time.monotonic() < until:
        status = await ask(port, path)
        counts[f"{path.lstrip('/')} {status}"] += 1
        if status == "refused":
            await asyncio.sleep(0.01)  # the backlog is full: not a tight loop


async def slow(port: int, until: float, held: list[float]) -> None:
    """Half a request, then a byte a second: how long the server keeps it open."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), until - time.monotonic())
    except (OSError, TimeoutError):
        return
    opened = time.monotonic()
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: flood\r\n")
    try:
        while time.monotonic() < until:
            writer.write(b"X")
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1024), 1.0) == b"":
                    break  # closed by the server
    except OSError:
        pass
    held.append(time.monotonic() - opened)
    writer.close()


async def flood(port: int, connections: int, seconds: float, paths: tuple[str, ...],
                slow_ones: int, cycle: float = 0.0) -> dict[str, object]:
    """The flood for ``seconds``; with ``cycle``, on for ``cycle`` seconds, off as long,
    and so on. ``on``: when it was on, (from, to) on ``time.monotonic()``."""
    end = time.monotonic() + seconds
    counts: Counter[str] = Counter()
    held: list[float] = []
    on: list[tuple[float, float]] = []
    while time.monotonic() < end:
        began = time.monotonic()
        until = min(end, began + cycle) if cycle > 0 else end
        tasks = [client(port, path, until, counts) for path in paths
                 for _ in range(connections)]
        tasks += [slow(port, until, held) for _ in range(slow_ones)]
        await asyncio.gather(*tasks)
        on.append((began, time.monotonic()))  # its last answers included
        if cycle > 0:
            await asyncio.sleep(max(0.0, min(cycle, end - time.monotonic())))
    return {"answers": dict(sorted(counts.items())),
            "slow_held_max_s": round(max(held), 2) if held else None, "on": on}


# ---- beside the load benchmark ----------------------------------------------------------


WINDOW = 2.5  # seconds of each flooded and each quiet window of a benchmark run


async def start(port: int, connections: int, seconds: float, cycle: float = 0.0
                ) -> asyncio.subprocess.Process:
    """A flood of the bot's metrics server on ``port`` for ``seconds`` (on and off by
    ``cycle``), its own process."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.flood", str(port), "--connections", str(connections),
        "--seconds", str(seconds), "--slow", str(connections // 5), "--cycle", str(cycle),
        cwd=Path(__file__).resolve().parents[1], stdout=asyncio.subprocess.PIPE)


async def finished(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    out, _ = await proc.communicate()
    result: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return result


class Windows:
    """A flood on and off in alternate windows of a run (``WINDOW`` seconds each, the
    flooded ones with their last answers), so that the moves of both kinds of window
    are measured side by side, the machine's other load weighing on both alike; each
    move is counted by the window it was sent in (a quiet window: the gap before a
    flooded one)."""

    def __init__(self, port: int, connections: int) -> None:
        self.port = port
        self.connections = connections
        self.flooded: list[tuple[float, float]] = []  # (from, to), time.perf_counter()
        self.quiet: list[tuple[float, float]] = []
        self.answers: Counter[str] = Counter()
        self.slow_held: float | None = None

    async def run(self, until: float) -> None:
        await asyncio.sleep(WINDOW)  # the first quiet window
        seconds = until - time.perf_counter() - WINDOW
        if seconds < 2 * WINDOW:
            return
        report = await finished(await start(self.port, self.connections, seconds, WINDOW))
        # Its times are the system's monotonic clock: as perf_counter's here.
        shift = time.perf_counter() - time.monotonic()
        previous = None
        for a, b in report["on"]:
            a, b = a + shift, b + shift
            self.quiet.append((a - WINDOW if previous is None else previous, a))
            self.flooded.append((a, b))
            previous = b
        self.answers.update(report["answers"])
        self.slow_held = report["slow_held_max_s"]

    def in_flood(self, sent: float) -> bool:
        return any(a <= sent < b for a, b in self.flooded)

    def figures(self, moves: list[tuple[float, float]]) -> dict[str, Any]:
        """``moves``: (sent, move -> board seconds) of the run's moves; the quiet ones
        only in the quiet windows (not after the last flood)."""
        flooded = times([d for sent, d in moves if self.in_flood(sent)])
        quiet = times([d for sent, d in moves
                       if any(a <= sent < b for a, b in self.quiet)])
        by_window = [(kind, times([d for sent, d in moves if a <= sent < b])["median"])
                     for pair in zip(self.quiet, self.flooded, strict=False)
                     for kind, (a, b) in zip(("quiet", "flooded"), pair, strict=True)]
        change = None
        if flooded["median"] is not None and quiet["median"]:
            change = round((flooded["median"] - quiet["median"]) / quiet["median"] * 100, 1)
        return {"connections": self.connections, "windows": len(self.flooded),
                "flooded": flooded, "quiet": quiet, "median_change_percent": change,
                "by_window": by_window, "answers": dict(sorted(self.answers.items())),
                "slow_held_max_s": self.slow_held}


def times(waits: list[float]) -> dict[str, float | int | None]:
    """Move → board times (seconds) as milliseconds: median, mean, p95 and n."""
    if not waits:
        return {"median": None, "mean": None, "p95": None, "n": 0}
    ordered = sorted(waits)
    return {"median": round(statistics.median(ordered) * 1000, 2),
            "mean": round(statistics.fmean(ordered) * 1000, 2),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
            "n": len(ordered)}


def describe(flood: dict[str, Any]) -> str:
    f, q = flood["flooded"], flood["quiet"]
    return (f"  flood of the metrics server ({flood['connections']} clients on each of "
            f"its 3 paths, {flood['windows']} windows of {WINDOW:g} s): "
            f"move -> board median {f['median']} ms flooded (n={f['n']}, p95 {f['p95']}), "
            f"{q['median']} ms quiet (n={q['n']}, p95 {q['p95']}): "
            f"{flood['median_change_percent']:+} %; medians by window (ms) "
            f"{flood['by_window']}; answers {flood['answers']}")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int, help="the metrics server's port on 127.0.0.1")
    p.add_argument("--connections", type=int, default=1000, help="clients per path")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--paths", default=",".join(PATHS))
    p.add_argument("--slow", type=int, default=0, help="slow connections besides")
    p.add_argument("--nice", type=int, default=19, help="added to this process's niceness")
    p.add_argument("--cycle", type=float, default=0.0,
                   help="on for CYCLE seconds, off as long, and so on (0: on throughout)")
    args = p.parse_args(argv)
    if not 0 < args.connections <= 2000 or not 0 < args.seconds <= 600 \
            or not 0 <= args.slow <= 2000:
        p.error("at most 2,000 connections a path, 2,000 slow ones, 600 s")
    paths = tuple(x for x in args.paths.split(",") if x)
    os.nice(args.nice)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.connections * len(paths) + args.slow + 64
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    result = asyncio.run(flood(args.port, args.connections, args.seconds, paths, args.slow,
                               args.cycle))
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
