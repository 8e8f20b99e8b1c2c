"""The operators' window into one process, on ``METRICS_ADDRESS`` (off by default):

- ``/metrics``: every metric of ``bot.core.metrics`` in Prometheus's text format;
- ``/healthz``: 200 while the process (its event loop) answers at all;
- ``/readyz``: 200 when it does its job: every check (the gateway connected on its
  shards, its leases held, the database reachable within ``READY_TIMEOUT``) passes;
  else 503 with one line per failing check.

One small aiohttp server on the bot's own event loop (aiohttp comes with discord.py),
bounded so that no client, nor a flood of them, gets in the bot's way (docs/operating.md,
"What the metrics server holds to"):

- at most ``MAX_CONNECTIONS`` connections open at once and ``RATE`` let in a second;
  meanwhile the listening socket is not read at all, so what comes waits in the
  kernel's backlog or is not let in, costing the loop nothing (``bot.services.doorman``);
- one request a connection; its line, header fields and their count held to
  ``MAX_LINE``, ``MAX_FIELD`` and ``MAX_HEADERS``; anything but a GET or HEAD without
  a body refused (405), its body never read;
- a connection is closed when it has sent no whole request within ``IDLE`` seconds (a
  slow client), and after ``LIFETIME`` seconds whatever it does (one that never reads
  its answer);
- the database's readiness check (it takes one of the database's connections, and
  SQLite has one) runs at most once at a time, its answer reused for ``REUSE`` s;
- /metrics is rendered at most once at a time, a render reused for ``fresh`` seconds,
  so a flood of scrapes costs the loop one render a second at most.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import Metric
from sqlalchemy import text

from bot.core.metrics import OBSERVE_REFUSED, REGISTRY, SOURCES, gauge
from bot.services.budget import Budget
from bot.services.doorman import Door
from bot.services.jobs import Lane
from bot.services.leases import Leases
from bot.services.matches.registry import LiveMatches
from bot.store.db import Database

log = logging.getLogger(__name__)
# aiohttp's log of bad requests (a traceback each): a flood of them must not flood the
# log nor the loop; they are answered 400 and forgotten.
_requests_log = logging.getLogger(f"{__name__}.requests")
_requests_log.setLevel(logging.CRITICAL)

READY_TIMEOUT = 2.0  # seconds a readiness check may take before it counts as failed
REUSE = 3.0  # seconds the database check's answer is reused
FRESH = 1.0  # seconds a render of /metrics is reused (Prometheus scrapes every 15 s)
MAX_CONNECTIONS = 16  # open at once: Prometheus (two, for a pair), a health check, a curl
RATE = 20.0  # connections let in a second (Prometheus scrapes one every 15 s)
IDLE = 3.0  # seconds a connection may hold without a whole request
LIFETIME = 10.0  # seconds a connection may stay open at all
MAX_LINE = 2048  # bytes of the request line (and of each header line)
MAX_FIELD = 4096  # bytes of one header field
MAX_HEADERS = 32  # header fields of a request

# A check: None when fine, else why not (one line, for the operator).
Check = Callable[[], Awaitable[str | None]]
T = TypeVar("T")


class Shared(Generic[T]):
    """One computation shared by whoever asks: at most one run in flight (every
    caller meanwhile awaits the same one), its answer or its failure reused for
    ``reuse`` seconds after it ends."""

    def __init__(self, run: Callable[[], Awaitable[T]], reuse: float) -> None:
        self._run = run
        self.reuse = reuse
        self.runs = 0
        self._task: asyncio.Task[T] | None = None
        self._ended = float("-inf")

    async def __call__(self) -> T:
        task = self._task
        if task is None or (task.done() and time.monotonic() - self._ended >= self.reuse):
            task = self._task = asyncio.ensure_future(self._once())
            task.add_done_callback(_retrieved)
        # A caller that gives up (a timeout) leaves the run to the others.
        return await asyncio.shield(task)

    async def _once(self) -> T:
        self.runs += 1
        try:
            return await self._run()
        finally:
            self._ended = time.monotonic()


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # every caller may have given up: not "never retrieved"


def database_check(db: Database, reuse: float = REUSE) -> Check:
    async def reachable() -> str | None:
        async with db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return None

    async def bounded() -> str | None:
        # The timeout inside the shared run: one that hangs ends for every caller.
        return await asyncio.wait_for(reachable(), READY_TIMEOUT)

    return Shared(bounded, reuse)


def lease_check(leases: Leases) -> Check:
    async def held() -> str | None:
        if leases.lost:
            return "lease lost: another process has taken over this process's shards"
        missing = sorted(set(leases.keys) - leases.held)
        return f"leases not held: {', '.join(missing)}" if missing else None

    return held


def watch(live: LiveMatches, leases: Leases, lanes: Iterable[Lane],
          budget: Budget | None = None) -> None:
    """The gauges read when Prometheus scrapes: matches running (by game and kind),
    leases held, the jobs waiting in each worker pool, the budget of requests and its
    use (with a limit)."""
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
        if budget is None or budget.limit is None:
            return [g, held, depth]
        allowed, used = gauge("garnet_request_budget"), gauge("garnet_request_budget_used")
        allowed.add_metric([], budget.per_second)
        used.add_metric([], budget.used())
        if budget.cores is None:
            return [g, held, depth, allowed, used]
        cores, busy = gauge("garnet_cpu_budget"), gauge("garnet_cpu_used")
        cores.add_metric([], budget.cores)
        busy.add_metric([], budget.busy.read())
        return [g, held, depth, allowed, used, cores, busy]

    SOURCES.add("services", running)


def _limits() -> dict[str, Any]:
    """The request handler's bounds (``max_headers`` where this aiohttp has it)."""
    limits: dict[str, Any] = {"keepalive_timeout": IDLE, "max_line_size": MAX_LINE,
                              "max_field_size": MAX_FIELD, "lingering_time": 0.0,
                              "access_log": None, "logger": _requests_log}
    if "max_headers" in inspect.signature(web.RequestHandler.__init__).parameters:
        limits["max_headers"] = MAX_HEADERS
    return limits


@dataclass
class Observatory:
    """The server and its readiness checks (added by the composition root). ``fresh``:
    the seconds a render of /metrics is reused (0 in tests that watch a metric move)."""

    host: str
    port: int
    checks: dict[str, Check] = field(default_factory=dict)
    fresh: float = FRESH
    max_connections: int = MAX_CONNECTIONS
    rate: float = RATE
    _runner: web.ServerRunner | None = None
    _door: Door | None = None

    def __post_init__(self) -> None:
        self._page = Shared(self._render, self.fresh)
        self._routes: dict[str, Callable[[], Awaitable[web.Response]]] = {
            "/metrics": self._metrics, "/healthz": self._healthz, "/readyz": self._readyz}

    @property
    def door(self) -> Door:
        """The door of the server started."""
        assert self._door is not None
        return self._door

    async def start(self) -> None:
        door = Door(self._handle, _limits(), self.max_connections, self.rate, LIFETIME)
        self._runner = web.ServerRunner(door.server)
        await self._runner.setup()
        self.port = door.listen(self.host, self.port)  # a free one for 0 (tests, bench)
        self._door = door
        log.info("metrics on http://%s:%d/metrics (and /healthz, /readyz)", self.host,
                 self.port)

    async def stop(self) -> None:
        if self._door is not None:
            self._door.close()  # kept, for what it counted
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

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD") or request.body_exists:
            OBSERVE_REFUSED.labels("request").inc()
            answer = web.Response(status=405, text="GET only\n",
                                  headers={"Allow": "GET, HEAD"})
        else:
            route = self._routes.get(request.path)
            answer = (await route() if route is not None
                      else web.Response(status=404, text="not found\n"))
        answer.force_close()  # one request a connection: the door counts connections
        return answer

    async def _render(self) -> bytes:
        # On the loop: the gauges read the live matches, which only the loop changes.
        return generate_latest(REGISTRY)

    async def _metrics(self) -> web.Response:
        body = await self._page()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self) -> web.Response:
        reasons = await self.not_ready()
        if reasons:
            return web.Response(status=503, text="not ready\n" + "\n".join(reasons) + "\n")
        return web.Response(text="ready\n")
