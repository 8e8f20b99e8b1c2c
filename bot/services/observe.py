"""The operators' window into one process, on ``METRICS_ADDRESS`` (off by default):

- ``/metrics``: every metric of ``bot.core.metrics`` in Prometheus's text format;
- ``/healthz``: 200 while the process (its event loop) answers at all;
- ``/readyz``: 200 when it does its job: every check (the gateway connected on its
  shards, its leases held, the database reachable within ``READY_TIMEOUT``) passes;
  else 503 with one line per failing check.

One small aiohttp server on the bot's own event loop (aiohttp comes with discord.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import Metric
from sqlalchemy import text

from bot.core.metrics import REGISTRY, SOURCES, gauge
from bot.services.jobs import Lane
from bot.services.leases import Leases
from bot.services.matches.registry import LiveMatches
from bot.store.db import Database

log = logging.getLogger(__name__)

READY_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed

# A check: None when fine, else why not (one line, for the operator).
Check = Callable[[], Awaitable[str | None]]


def database_check(db: Database) -> Check:
    async def reachable() -> str | None:
        async with db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return None

    return reachable


def lease_check(leases: Leases) -> Check:
    async def held() -> str | None:
        if leases.lost:
            return "lease lost: another process has taken over this process's shards"
        missing = sorted(set(leases.keys) - leases.held)
        return f"leases not held: {', '.join(missing)}" if missing else None

    return held


def watch(live: LiveMatches, leases: Leases, lanes: Iterable[Lane]) -> None:
    """The gauges read when Prometheus scrapes: matches running (by game and kind),
    leases held, the jobs waiting in each worker pool."""
    pools = list(lanes)

    def running() -> list[Metric]:
        counts: Counter[tuple[str, str]] = Counter(
            (m.game.key, str(m.kind)) for m in live if not m.finished)
        g = gauge("garnet_matches_running", ["game", "kind"])
        for (game, kind), n in sorted(counts.items()):
            g.add_metric([game, kind], float(n))
        held = gauge("garnet_leases_held")
        held.add_metric([], float(len(leases.held)))
        depth = gauge("garnet_worker_queue_depth", ["pool"])
        for lane in pools:
            depth.add_metric([lane.slots.name], float(lane.queue.waiting()))
        return [g, held, depth]

    SOURCES.add("services", running)


@dataclass
class Observatory:
    """The server and its readiness checks (added by the composition root)."""

    host: str
    port: int
    checks: dict[str, Check] = field(default_factory=dict)
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a free port picked by the system (tests, the bench)
            server = site._server
            sockets = getattr(server, "sockets", None) or []
            if sockets:
                self.port = int(sockets[0].getsockname()[1])
        log.info("metrics on http://%s:%d/metrics (and /healthz, /readyz)", self.host,
                 self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def not_ready(self) -> list[str]:
        """Why this process is not ready (one line per failing check), or nothing."""
        async def run(name: str, check: Check) -> str | None:
            try:
                why = await asyncio.wait_for(check(), READY_TIMEOUT)
            except TimeoutError:
                return f"{name}: no answer within {READY_TIMEOUT:g} s"
            except Exception as exc:  # any failure is a reason
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                return f"{name}: {first[:200]}"
            return None if why is None else f"{name}: {why}"

        found = await asyncio.gather(*(run(n, c) for n, c in self.checks.items()))
        return [why for why in found if why is not None]

    async def _metrics(self, _request: web.Request) -> web.Response:
        # On the loop: the gauges read the live matches, which only the loop changes.
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, _request: web.Request) -> web.Response:
        reasons = await self.not_ready()
        if reasons:
            return web.Response(status=503, text="not ready\n" + "\n".join(reasons) + "\n")
        return web.Response(text="ready\n")
