"""The load benchmark's figures, read as operators read them: from the bot process's
/metrics (``METRICS_ADDRESS`` on loopback), scraped over HTTP before and after the
measured run; each histogram's buckets are subtracted and its quantiles estimated
from them as Prometheus's ``histogram_quantile`` does (linear within a bucket).

A figure is therefore as fine as the histogram's buckets (``bot.core.metrics``); the
largest value is reported as its bucket's upper bound.
"""

from __future__ import annotations

import asyncio
import math
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

# A histogram's cumulative buckets: upper bound -> count.
Buckets = dict[float, float]
# Every histogram's buckets, by (name, the labels other than ``le``).
Scrape = dict[tuple[str, tuple[tuple[str, str], ...]], Buckets]

# The report's figures and the histograms they come from.
FIGURES = {
    "bot_latency_ms": ("garnet_board_latency_seconds", (("part", "bot"),)),
    "rate_limit_wait_ms": ("garnet_board_latency_seconds", (("part", "rate_limit"),)),
    "reminder_late_ms": ("garnet_reminder_lateness_seconds", ()),
    "loop_lag_ms": ("garnet_event_loop_lag_seconds", ()),
    # Where the bot's share goes: a board's wait for a render worker, its drawing, and
    # the database's transactions (their commits).
    "render_wait_ms": ("garnet_worker_queue_wait_seconds", (("pool", "render"),)),
    "render_job_ms": ("garnet_worker_job_seconds", (("pool", "render"),)),
    "transaction_ms": ("garnet_db_transaction_seconds", (("outcome", "commit"),)),
    "connection_wait_ms": ("garnet_db_connection_wait_seconds", ()),
    # A typed move's stages, in order (``MOVE_STAGE``): their sum is the bot's share.
    **{f"stage_{stage}_ms": ("garnet_move_stage_seconds", (("stage", stage),))
       for stage in ("dispatch", "lock", "render", "write", "book", "announce")},
}


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:  # loopback
        return str(answer.read().decode())


async def scrape(port: int) -> Scrape:
    """Every histogram's buckets on the bot's /metrics (in a thread: the bot's server
    answers on this very event loop); every other sample as a bucket of its own
    (``TOTAL``), summed over its labels (``total``)."""
    text = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/metrics")
    found: Scrape = {}
    for family in text_string_to_metric_families(text):
        if family.type != "histogram":
            for sample in family.samples:
                into = found.setdefault((sample.name, ()), {TOTAL: 0.0})
                into[TOTAL] += sample.value
            continue
        for sample in family.samples:
            if not sample.name.endswith("_bucket"):
                continue
            labels = dict(sample.labels)
            le = float(labels.pop("le"))
            key = (family.name, tuple(sorted(labels.items())))
            found.setdefault(key, {})[le] = sample.value
    return found


TOTAL = -1.0  # the key of a counter's or a gauge's sum in a ``Scrape``


def total(scraped: Scrape, name: str) -> float:
    """A counter's or a gauge's value, summed over its labels (0 if absent)."""
    return scraped.get((name, ()), {}).get(TOTAL, 0.0)


def delta(before: Scrape, after: Scrape) -> dict[str, Buckets]:
    """Each figure's buckets, counted between the two scrapes."""
    out = {}
    for figure, key in FIGURES.items():
        was, now = before.get(key, {}), after.get(key, {})
        out[figure] = {le: now[le] - was.get(le, 0.0) for le in now}
    return out


def merged(parts: list[dict[str, Buckets]]) -> dict[str, Buckets]:
    """Several processes' buckets added up."""
    out: dict[str, Buckets] = {}
    for part in parts:
        for figure, buckets in part.items():
            into = out.setdefault(figure, {})
            for le, n in buckets.items():
                into[float(le)] = into.get(float(le), 0.0) + n
    return out


def observed_in(buckets: Buckets, values: list[float]) -> None:
    """Count more samples (seconds) in cumulative buckets, as the histogram would."""
    for value in values:
        for bound in buckets:
            if value <= bound:
                buckets[bound] += 1


def quantile(q: float, buckets: Buckets) -> float | None:
    """``histogram_quantile(q, ...)`` of cumulative buckets, in seconds."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return None
    total = buckets[bounds[-1]]
    rank = q * total
    below, lower = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower  # above the largest finite bucket: its bound, as Prometheus
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)
        below, lower = count, bound
    return lower


def largest(buckets: Buckets) -> float | None:
    """The upper bound of the highest bucket that holds a sample (the largest finite
    bound when it is above them all)."""
    top, previous = None, 0.0
    for bound in sorted(buckets):
        if buckets[bound] > previous:
            top = bound
        previous = buckets[bound]
    if top is None or not math.isinf(top):
        return top
    return max((b for b in buckets if not math.isinf(b)), default=None)


def figures(buckets: Buckets) -> dict[str, float | None]:
    """p50, p99, max (milliseconds) and n, as the report prints them."""
    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 1)

    n = max(buckets.values(), default=0.0)
    return {"p50": ms(quantile(0.5, buckets)), "p99": ms(quantile(0.99, buckets)),
            "max": ms(largest(buckets)), "n": int(n)}
