"""What the operators are told about garnet's own health: plain counters (the metrics
export reads them) and a log line for each event.

- ``rearmed``: timers a watchdog found missing and armed again (a running match, a
  challenge, a First Player deadline, a tournament round): each one is a bug.
- ``stalls``/``recoveries``: matches whose clock stood still because the database could
  not be written (nobody charged), and those that went on once it could.
- ``heartbeat_failures``: heartbeats (and lease renewals) that could not be written;
  the heartbeat keeps its schedule and tries again at its next tick.
- ``timer_failures``: failed attempts of timer callbacks (``bot.core.clock``), retried.
- ``stale_heartbeats``: restores that found a heartbeat older than a later committed
  sign of life (the lease) and trusted that instead.
- ``discord_at_limit`` (1 while on), ``discord_limit_spells``, ``discord_limit_refusals``
  and ``board_wait_ms``: boards waited past ``BOARD_WAIT_LIMIT`` for Discord's global
  limit, so new matches are refused (``bot.services.pressure``); how often that began,
  the requests refused, and the boards' last wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError

from bot.core.clock import FAILURES

# What a write that the database refused raises: its driver's errors (locked, gone,
# full), a connection that broke, a pool that timed out. A timer that fails with one of
# these is tried again (with backoff) until it succeeds; its match stands still meanwhile.
CANNOT_SAVE = (DBAPIError, OSError, TimeoutError)


@dataclass
class Health:
    rearmed: int = 0
    stalls: int = 0
    recoveries: int = 0
    heartbeat_failures: int = 0
    stale_heartbeats: int = 0
    db_down_since: float | None = None  # the first failed heartbeat of an outage
    at_limit_since: float | None = None  # new matches refused for Discord's limit since
    limit_spells: int = 0
    limit_refusals: int = 0
    board_wait: float = 0.0  # seconds the last board waited for Discord's global limit

    @property
    def timer_failures(self) -> int:
        return FAILURES.failed

    def counters(self) -> dict[str, int]:
        return {"rearmed": self.rearmed, "stalls": self.stalls,
                "recoveries": self.recoveries,
                "heartbeat_failures": self.heartbeat_failures,
                "stale_heartbeats": self.stale_heartbeats,
                "timer_failures": self.timer_failures,
                "timer_recoveries": FAILURES.recovered,
                "discord_at_limit": int(self.at_limit_since is not None),
                "discord_limit_spells": self.limit_spells,
                "discord_limit_refusals": self.limit_refusals,
                "board_wait_ms": round(self.board_wait * 1000)}
