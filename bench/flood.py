"""A flood of the metrics and health server (``python -m bench.flood PORT``), run as
its own process beside a bot (``garnet bench --flood-compare``,
``tests/bot/test_observe_flood.py``): loopback only, a bounded count of connections
for a bounded time.

``garnet bench --flood-compare`` runs the load benchmark's DMs with and without such a
flood (``--flood N`` clients a path), alternating (flooded, quiet, then quiet, flooded,
...), and compares each DM move's time to its board (``move_board_ms``: from the
message reaching the bot to the board's upload reaching Discord, the fake).

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
        counts[f"{path} {status}"] += 1
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
                slow_ones: int) -> dict[str, object]:
    until = time.monotonic() + seconds
    counts: Counter[str] = Counter()
    held: list[float] = []
    tasks = [client(port, path, until, counts) for path in paths for _ in range(connections)]
    tasks += [slow(port, until, held) for _ in range(slow_ones)]
    await asyncio.gather(*tasks)
    return {"answers": dict(sorted(counts.items())),
            "slow_held_max_s": round(max(held), 2) if held else None}


# ---- beside the load benchmark ----------------------------------------------------------


async def start(port: int, connections: int, seconds: float) -> asyncio.subprocess.Process:
    """A flood of the bot's metrics server on ``port`` for ``seconds``, its own process."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.flood", str(port), "--connections", str(connections),
        "--seconds", str(seconds), "--slow", str(connections // 5),
        cwd=Path(__file__).resolve().parents[1], stdout=asyncio.subprocess.PIPE)


async def finished(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    out, _ = await proc.communicate()
    result: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return result


def times(waits: list[float]) -> dict[str, float | int | None]:
    """Move → board times (seconds) as milliseconds: median, mean, p95 and n."""
    if not waits:
        return {"median": None, "mean": None, "p95": None, "n": 0}
    ordered = sorted(waits)
    return {"median": round(statistics.median(ordered) * 1000, 2),
            "mean": round(statistics.fmean(ordered) * 1000, 2),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
            "n": len(ordered)}


def states(compare: bool, rounds: int, connections: int) -> list[int]:
    """The flood of each run: alternating for ``--flood-compare``, flooded then quiet,
    then quiet then flooded, ... (a drift of the machine's load weighs on both)."""
    if not compare:
        return [connections]
    return [c for r in range(max(1, rounds))
            for c in ((connections, 0) if r % 2 == 0 else (0, connections))]


def compare(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per size: the move → board medians with the flood and without, and the change."""
    out = []
    for dms in dict.fromkeys(r["dms"] for r in results):
        runs = [r for r in results if r["dms"] == dms]
        flooded = [r["move_board_ms"]["median"] for r in runs if r["flood"]]
        quiet = [r["move_board_ms"]["median"] for r in runs if not r["flood"]]
        if not flooded or not quiet or None in flooded + quiet:
            continue
        f, q = statistics.fmean(flooded), statistics.fmean(quiet)
        out.append({"dms": dms, "flooded": flooded, "quiet": quiet,
                    "mean_flooded": round(f, 2), "mean_quiet": round(q, 2),
                    "change_percent": round((f - q) / q * 100, 1),
                    "answers": [r["flood"]["answers"] for r in runs if r["flood"]]})
    return out


def describe(c: dict[str, Any]) -> str:
    return (f"flood at {c['dms']} DMs: move -> board median (ms) flooded {c['flooded']} "
            f"(mean {c['mean_flooded']}), quiet {c['quiet']} (mean {c['mean_quiet']}): "
            f"{c['change_percent']:+} % with the flood")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int, help="the metrics server's port on 127.0.0.1")
    p.add_argument("--connections", type=int, default=1000, help="clients per path")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--paths", default=",".join(PATHS))
    p.add_argument("--slow", type=int, default=0, help="slow connections besides")
    p.add_argument("--nice", type=int, default=19, help="added to this process's niceness")
    args = p.parse_args(argv)
    if not 0 < args.connections <= 2000 or not 0 < args.seconds <= 120 \
            or not 0 <= args.slow <= 2000:
        p.error("at most 2,000 connections a path, 2,000 slow ones, 120 s")
    paths = tuple(x for x in args.paths.split(",") if x)
    os.nice(args.nice)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.connections * len(paths) + args.slow + 64
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    result = asyncio.run(flood(args.port, args.connections, args.seconds, paths, args.slow))
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
