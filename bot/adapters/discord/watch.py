"""What the Discord adapter tells the operators (``bot.core.metrics``): every request's
answer and Discord's 429s (an aiohttp trace on discord.py's session), the pacer's queue
and waits, and the gateway's state per shard (metrics, and ``/readyz``).

The pacer is observed from outside (its ``acquire`` wrapped), so that ``pacing.py``
keeps no trace of the metrics.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client.core import Metric

from bot.core.metrics import (
    GATEWAY_OUTAGE_SECONDS,
    GATEWAY_OUTAGES,
    PACED,
    PACING_WAITING,
    RATE_LIMITED,
    REQUESTS,
    SOURCES,
    gauge,
    paced,
    route_of,
)


def http_trace() -> aiohttp.TraceConfig:
    """Counts every answer of Discord's API by method, route template and status, and
    its 429s by route and scope (``X-RateLimit-Scope``: user, global, shared)."""
    trace = aiohttp.TraceConfig()

    async def ended(_session: aiohttp.ClientSession, _ctx: SimpleNamespace,
                    params: aiohttp.TraceRequestEndParams) -> None:
        route = route_of(params.url.path)
        status = params.response.status
        REQUESTS.labels(params.method, route, str(status)).inc()
        if status == 429:
            headers = params.response.headers
            scope = headers.get("X-RateLimit-Scope") or (
                "global" if headers.get("X-RateLimit-Global") else "user")
            RATE_LIMITED.labels(route, scope if scope in ("user", "global", "shared")
                                else "other").inc()

    trace.on_request_end.append(ended)
    return trace


def observe_pacer(pacer: Any) -> None:
    """Wrap ``pacer.acquire``: the requests waiting for their turn, each one's wait,
    and the moment a move's board is let through (``bot.core.metrics.paced``)."""
    acquire: Callable[..., Awaitable[None]] = pacer.acquire

    async def observed(*args: Any, **kwargs: Any) -> None:
        started = time.perf_counter()
        PACING_WAITING.inc()
        try:
            await acquire(*args, **kwargs)
        finally:
            PACING_WAITING.dec()
            PACED.observe(time.perf_counter() - started)
        paced()

    pacer.acquire = observed


class Gateway:
    """Whether the gateway is connected, per shard this process runs: down from a
    disconnect until its READY or RESUMED. Before the first READY it is not up."""

    def __init__(self, shard_ids: list[int]) -> None:
        # Without SHARD_COUNT Discord's count is learnt as the shards come up.
        self.shard_ids = sorted(set(shard_ids or [0]))
        self.up: set[int] = set()
        self.down_since: float | None = None  # the first shard's drop, while any is down

    def connected(self, shard: int | None = None) -> None:
        if shard is not None and shard not in self.shard_ids:
            self.shard_ids = sorted({*self.shard_ids, shard})
        self.up.update(self.shard_ids if shard is None else [shard])
        if self.down_since is not None and self.up >= set(self.shard_ids):
            GATEWAY_OUTAGE_SECONDS.observe(time.monotonic() - self.down_since)
            self.down_since = None

    def disconnected(self, shard: int | None = None) -> None:
        gone = set(self.shard_ids if shard is None else [shard]) & self.up
        if not gone:
            return
        self.up -= gone
        GATEWAY_OUTAGES.inc()
        if self.down_since is None:
            self.down_since = time.monotonic()

    async def check(self) -> str | None:
        """For ``/readyz``: None when every shard is connected."""
        down = [s for s in self.shard_ids if s not in self.up]
        if not down:
            return None
        return f"not connected on shard{'s' if len(down) > 1 else ''} " + ", ".join(
            map(str, down))

    def watch(self) -> None:
        def part() -> list[Metric]:
            g = gauge("garnet_gateway_connected", ["shard"])
            for shard in self.shard_ids:
                g.add_metric([str(shard)], 1.0 if shard in self.up else 0.0)
            return [g]

        SOURCES.add("gateway", part)
