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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from bot.core.metrics import REGISTRY, SOURCES, gauge
from bot.services.leases import Leases
from bot.store.db import Database

log = logging.getLogger(__name__)

READY_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
DEFAULT_HOST = "127.0.0.1"

# A check: None when fine, else why not (one line, for the operator).
Check = Callable[[], Awaitable[str | None]]


def parse_address(raw: str) -> tuple[str, int]:
    """``METRICS_ADDRESS``: ``PORT`` (on loopback), ``HOST:PORT`` or ``[V6]:PORT``."""
    raw = raw.strip()
    host, _, port = raw.rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"'{raw}' is not PORT or HOST:PORT")
    return host, int(port)


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


def lease_gauge(leases: Leases) -> None:
    def part() -> list[object]:
        g = gauge("garnet_leases_held")
        g.add_metric([], float(len(leases.held)))
        return [g]

    SOURCES.add("leases", part)  # type: ignore[arg-type]


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
