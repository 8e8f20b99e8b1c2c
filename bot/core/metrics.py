"""What garnet tells Prometheus: every metric it exports, on one registry per process.

The metrics live on ``REGISTRY``, garnet's own (not ``prometheus_client``'s default
one, so that nothing a library registers leaks into it); ``bot.services.observe``
serves it on ``METRICS_ADDRESS``. Counters and histograms are moved where the thing
happens (a move accepted, a reminder out, a request answered); what is a state rather
than an event (matches running, leases held, queues) is read when Prometheus scrapes,
from ``SOURCES``: the composition root registers a function per part, which costs the
hot path nothing.

Names follow Prometheus's conventions (``garnet_`` prefix, base units, ``_total`` for
counters, ``_seconds``/``_bytes``); no label takes a value a user chose: games and kinds
are the registry's and the enums', routes are Discord's templates with every id
replaced, shards are numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry(auto_describe=True)
# Resident and virtual memory, CPU seconds, open files: garnet_process_*.
ProcessCollector(namespace="garnet", registry=REGISTRY)

# Latencies from milliseconds to two minutes (a board behind Discord's global limit).
LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2,
           0.3, 0.4, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0,
           45.0, 60.0, 90.0, 120.0)
SHORT = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25,
         0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("garnet_moves", "Moves accepted (people's and the computer's).",
                ["game"], registry=REGISTRY)
BOARD_LATENCY = Histogram(
    "garnet_board_latency_seconds",
    "A typed move to its board: part=bot from the message reaching garnet to the "
    "board's request entering discord.py; part=rate_limit the wait in discord.py's "
    "route buckets and garnet's global pacer after that.",
    ["part"], buckets=LATENCY, registry=REGISTRY)
REQUESTS = Counter("garnet_discord_requests",
                   "Requests sent to Discord's HTTP API with the bot token, by answer.",
                   ["method", "route", "status"], registry=REGISTRY)
RATE_LIMITED = Counter("garnet_discord_rate_limited",
                       "429 answers from Discord, by route and scope (global, user, "
                       "shared).", ["route", "scope"], registry=REGISTRY)
PACED = Histogram("garnet_pacing_wait_seconds",
                  "The wait of a request for its turn at the global pacer.",
                  buckets=LATENCY, registry=REGISTRY)
BOARD_WAIT = Histogram("garnet_board_pacing_wait_seconds",
                       "The wait at the global pacer of each board of a running match "
                       "(the figure BOARD_WAIT_LIMIT is held to).",
                       buckets=LATENCY, registry=REGISTRY)
AT_LIMIT = Gauge("garnet_discord_at_limit",
                 "1 while boards wait longer than BOARD_WAIT_LIMIT and new matches and "
                 "practice games are refused.", registry=REGISTRY)
LIMIT_REFUSALS = Counter("garnet_limit_refusals",
                         "New matches and practice games refused at Discord's limit, by "
                         "reason: budget (the running matches' measured need of requests "
                         "is at REQUEST_BUDGET of the limit, or past nine tenths of it on "
                         "a server that runs its share), starts (the starts let in a moment "
                         "ago use what the budget leaves spare), waiting (boards wait past "
                         "a fifth of BOARD_WAIT_LIMIT and the asking server runs its "
                         "share), cpu (this process's CPU "
                         "use is at CPU_BUDGET of a core), share (boards wait past "
                         "BOARD_WAIT_LIMIT and the asking server runs its share of the "
                         "matches) or all (boards wait past twice it: every server).",
                         ["reason"], registry=REGISTRY)
OBSERVE_REFUSED = Counter("garnet_metrics_server_refused",
                          "Requests the metrics and health server refused, by reason: "
                          "request (not a GET or HEAD without a body).",
                          ["reason"], registry=REGISTRY)
OBSERVE_SHUT = Counter("garnet_metrics_server_shut_seconds",
                       "Seconds the metrics and health server let no connection in (as "
                       "many open as it allows, or as many let in this second): a flood.",
                       registry=REGISTRY)
PACING_WAITING = Gauge("garnet_pacing_waiting",
                       "Requests waiting for their turn at the global pacer now.",
                       registry=REGISTRY)
# A reminder behind the pacer at Discord's limit can be minutes late: past 120 s too.
REMINDER_LATENESS = (*LATENCY, 180.0, 240.0, 300.0, 600.0)
REMINDER_LATE = Histogram("garnet_reminder_lateness_seconds",
                          "How late a turn reminder was out (posted) after its moment.",
                          buckets=REMINDER_LATENESS, registry=REGISTRY)
REMINDERS_DROPPED = Counter("garnet_reminders_dropped",
                            "Turn reminders not sent because they were still waiting "
                            "for Discord's limit when the turn's move landed "
                            "(reason=moved) or a later reminder of the turn came "
                            "(reason=replaced).", ["reason"], registry=REGISTRY)
LOOP_LAG = Histogram("garnet_event_loop_lag_seconds",
                     "How late the event loop woke a 0.1 s sleep (its lag).",
                     buckets=SHORT, registry=REGISTRY)
JOB_SECONDS = Histogram("garnet_worker_job_seconds",
                        "A job in a worker pool (render, replays, ai-moves, ai-reviews), "
                        "from its hand-over to a worker to its result (for render, a "
                        "board ahead of it in the worker's pipe included).", ["pool"],
                        buckets=LATENCY,
                        registry=REGISTRY)
JOB_WAIT = Histogram("garnet_worker_queue_wait_seconds",
                     "A job's wait in its pool's fair queue before a worker took it.",
                     ["pool"], buckets=LATENCY, registry=REGISTRY)
TRANSACTIONS = Histogram("garnet_db_transaction_seconds",
                         "A database transaction from its begin to its commit or "
                         "rollback.", ["outcome"], buckets=SHORT, registry=REGISTRY)
DB_WAIT = Histogram("garnet_db_connection_wait_seconds",
                    "A request's wait for a connection from the database's pool (on "
                    "SQLite its one connection: the transactions queued ahead of it).",
                    buckets=LATENCY, registry=REGISTRY)
MOVE_STAGE = Histogram(
    "garnet_move_stage_seconds",
    "Where the bot's share of a typed move goes, by stage: dispatch (the message's "
    "wait for the event loop), lock (for its match's lock), render (its board, a "
    "render worker's queue included), write (its commit, the wait for a database "
    "connection included; book in its place for a match's last move: its commit with "
    "the result, rewards and ratings), announce (from the move's answer to its board's "
    "request entering discord.py).", ["stage"], buckets=LATENCY, registry=REGISTRY)
DB_ERRORS = Counter("garnet_db_errors", "Database statements that failed.",
                    registry=REGISTRY)
LEASES_TAKEN = Counter("garnet_leases_taken", "Shard leases taken: how=free (a free or "
                       "own lease) or takeover (from a lapsed or dead holder).", ["how"],
                       registry=REGISTRY)
LEASES_LOST = Counter("garnet_leases_lost", "Times this process lost its leases to "
                      "another (it stops running their matches).", registry=REGISTRY)
GATEWAY_OUTAGES = Counter("garnet_gateway_outages", "Disconnects of the Discord "
                          "gateway.", registry=REGISTRY)
GATEWAY_OUTAGE_SECONDS = Histogram("garnet_gateway_outage_seconds",
                                   "How long each gateway outage lasted.",
                                   buckets=(1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0,
                                            3600.0), registry=REGISTRY)

# ---- the switch (METRICS=off) ---------------------------------------------------------

_on = True
# What a metric does, and what turning metrics off makes a no-op on it and its children.
_MOVING = ("inc", "dec", "set", "observe", "labels")


def _nothing(*_args: object, **_kwargs: object) -> None:
    return None


def _metrics() -> list[MetricWrapperBase]:
    """Every metric object above, and every labelled child it has made so far."""
    found = [v for v in globals().values() if isinstance(v, MetricWrapperBase)]
    children = [child for metric in found
                for child in getattr(metric, "_metrics", {}).values()]
    return found + children


def on() -> bool:
    """Whether this process measures (``METRICS``, on unless ``switch_off``)."""
    return _on


def switch_off() -> None:
    """Metrics off in this process (``METRICS=off``): every metric's ``inc``, ``dec``,
    ``set``, ``observe`` and ``labels`` becomes a no-op (``labels`` gives the metric
    back), on the objects themselves, since modules hold them; and ``on()`` says so,
    for the parts that install hooks (the HTTP trace, the pacer's wrapper, the
    database's listeners, the loop-lag watch, the metrics server) to install none.
    Call it before the bot and its database are built."""
    global _on
    _on = False
    for metric in _metrics():
        for name in _MOVING:
            setattr(metric, name, _nothing)
        if hasattr(metric, "_metrics"):
            setattr(metric, "labels", lambda *_a, _m=metric, **_k: _m)  # noqa: B010


def switch_on() -> None:
    """Metrics on again (the default; the bench's ``--metrics-compare`` alternates)."""
    global _on
    _on = True
    for metric in _metrics():
        for name in _MOVING:
            metric.__dict__.pop(name, None)


# The names of the gauges SOURCES yields (for the docs' and dashboards' check).
LIVE_GAUGES = {
    "garnet_matches_running": "Matches running in this process, by game and kind.",
    "garnet_leases_held": "Shard leases this process holds now.",
    "garnet_gateway_connected": "1 while the Discord gateway is connected on a shard.",
    "garnet_worker_queue_depth": "Jobs waiting in a worker pool's fair queue.",
    "garnet_request_budget": "Requests a second new matches are admitted up to: this "
                             "process's share of Discord's global limit times "
                             "REQUEST_BUDGET.",
    "garnet_request_budget_used": "Requests a second the running matches need, as "
                                  "measured from what they sent (a moving average).",
    "garnet_cpu_budget": "Cores of CPU new matches are admitted up to (CPU_BUDGET).",
    "garnet_cpu_used": "Cores of CPU this process uses (a moving average over 10 s).",
}


def gauge(name: str, labels: Iterable[str] = ()) -> GaugeMetricFamily:
    """One of ``LIVE_GAUGES``, to fill with ``add_metric``."""
    return GaugeMetricFamily(name, LIVE_GAUGES[name], labels=list(labels))


class Sources(Collector):
    """The gauges read at scrape time: one function per part, registered by name (a
    part built again, as tests do, replaces its function)."""

    def __init__(self) -> None:
        self.parts: dict[str, Callable[[], Iterable[Metric]]] = {}

    def add(self, name: str, part: Callable[[], Iterable[Metric]]) -> None:
        self.parts[name] = part

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for part in list(self.parts.values()):
            for family in part():
                known = families.get(family.name)
                if known is None:
                    families[family.name] = family
                else:
                    known.samples += family.samples
        yield from families.values()

    def describe(self) -> Iterator[Metric]:
        return iter(())


SOURCES = Sources()
REGISTRY.register(SOURCES)


def exported() -> set[str]:
    """Every metric name garnet exports, as Prometheus queries it (counters with
    ``_total``, histograms with ``_bucket``, ``_sum``, ``_count``)."""
    names: set[str] = set(LIVE_GAUGES)
    for family in REGISTRY.collect():
        names.update(sample.name for sample in family.samples)
        if family.type == "counter":
            names.add(family.name + "_total")
        if family.type == "histogram":
            names.update(family.name + end for end in ("_bucket", "_sum", "_count"))
    return names


# ---- Discord's routes, bounded ----------------------------------------------------------

_WORD = re.compile(r"[a-z@][a-z\-_]{0,30}")


@functools.lru_cache(maxsize=4096)
def route_of(path: str) -> str:
    """A request's path as a bounded label: every segment that is not a word of the
    API (an id, an interaction's token, an emoji) becomes ``{id}`` (remembered: a
    channel's paths come again and again, and this runs on every request)."""
    path = path.split("?", 1)[0]
    if "/api/v" in path:
        path = path.split("/api/v", 1)[1].split("/", 1)[-1]
    parts = [p if _WORD.fullmatch(p) else "{id}" for p in path.strip("/").split("/")]
    return "/" + "/".join(parts[:8])


# ---- a board's moments, across discord.py -----------------------------------------------


@dataclass
class BoardStamp:
    """A typed move's board on its way: when the message reached garnet, when the
    board's request entered discord.py, when the pacer let it go."""

    received: float
    entered: float = 0.0
    paced: float = 0.0


BOARD: contextvars.ContextVar[BoardStamp | None] = contextvars.ContextVar(
    "garnet_board", default=None)
# When the platform handed a message to garnet (``time.perf_counter()``): set around
# its dispatch, so that the task handling it inherits it (its wait for the event loop
# is the bot's share too).
RECEIVED: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "garnet_received", default=None)


def paced() -> None:
    """A request has passed its rate limits: the board of this task's move, if any,
    is stamped (the first request after ``entered``)."""
    stamp = BOARD.get()
    if stamp is not None and stamp.entered and not stamp.paced:
        stamp.paced = time.perf_counter()


@contextlib.contextmanager
def board_on_its_way(received: float) -> Iterator[BoardStamp]:
    """Around sending a move's board (``received``: ``time.perf_counter()`` when the
    message reached garnet): the bot's share is observed as it enters, the rate-limit
    wait once the board is let go."""
    stamp = BoardStamp(received, entered=time.perf_counter())
    if not _on:
        yield stamp
        return
    # The bot's share is known now: observed at once, not when the board is out (at
    # Discord's limit, a backlog later), so that it counts when it happened.
    BOARD_LATENCY.labels("bot").observe(stamp.entered - stamp.received)
    token = BOARD.set(stamp)
    try:
        yield stamp
    finally:
        BOARD.reset(token)
        if stamp.paced:
            BOARD_LATENCY.labels("rate_limit").observe(stamp.paced - stamp.entered)


def stage_done(stage: str, began: float) -> float:
    """A stage of a typed move (``MOVE_STAGE``) that began at ``began``
    (``time.perf_counter()``) is over: observed; returns now, the next one's start."""
    now = time.perf_counter()
    MOVE_STAGE.labels(stage).observe(now - began)
    return now


# ---- the event loop's lag ---------------------------------------------------------------

LAG_EVERY = 0.1  # seconds between two looks: ten wake-ups a second cost nothing


async def watch_loop_lag(every: float = LAG_EVERY) -> None:
    """Observe how late the loop wakes a sleep, until cancelled (a real-time task)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(every)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - before - every))
