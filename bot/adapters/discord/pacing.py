"""Discord's global rate limit kept by the bot itself, as @discordjs/rest's
``globalRequestsPerSecond`` does.

Discord allows a bot 50 requests per second in all (its *global* limit; interaction
callbacks and follow-ups, sent with the interaction's token, are exempt). discord.py
learns of that limit only from a 429, then sleeps and releases every waiting request
at once, which earns the next 429; and 10,000 refused requests (401, 403, 429) in ten
minutes get the bot's address banned by Cloudflare for an hour. So every request
discord.py's ``HTTPClient`` sends (all of them carry the bot token; interactions go
through the webhook adapter instead, unpaced) first waits for its turn here:
``GlobalPacer`` lets at most ``per_second`` requests through in any one second (with
``SLACK`` to spare: at the limit, ``per_second`` every 1.05 s).

Where: a request is paced *after* discord.py's per-route bucket has let it through
(5 posts per 5 s per channel), just before it goes on the wire, so that a post which
waited for its channel does not burst out later with others. ``install`` makes the
``HTTPClient``'s route buckets ``PacedRatelimit`` s. discord.py's own retries of one
request (after a 429 or a 500) are not paced again; with pacing they are rare.

Order: first come, first served (each request's turn is reserved when it asks), so
the oldest request goes first. Nothing has priority: a burst of reminders delays the
boards behind it by as long as it takes to drain at ``per_second`` (a second per
``per_second`` requests queued ahead).

Time: the pacer reads the clock and sleeps the way discord.py's rate limiter does
(``discord.http``'s ``asyncio``), so that it runs on whatever clock discord.py does:
real time in production, the tests' virtual clock under the Discord fake.
"""

from __future__ import annotations

import collections
import logging
from typing import Any

import discord.http

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot, unless Discord raised it
WINDOW = 1.0  # seconds: the global limit is counted per second
# A turn is kept this much longer than the window: a request reaches Discord a little
# after its turn (its upload is built, the event loop is busy), and without room for
# that delay 51 requests can fall into one of Discord's seconds.
SLACK = 0.05


def _asyncio() -> Any:
    """The ``asyncio`` discord.py's HTTP client sleeps with (the fake swaps it)."""
    return vars(discord.http)["asyncio"]


def _now() -> float:
    return float(_asyncio().get_running_loop().time())


async def pause(seconds: float) -> None:
    """Sleep on discord.py's clock (virtual under the Discord fake)."""
    await _asyncio().sleep(seconds)


class GlobalPacer:
    """At most ``per_second`` requests in any window of one second, FIFO.

    A sliding window: the moments of the last ``per_second`` requests are kept, and a
    request waits until the oldest of them is a second (and ``SLACK``) old. Unlike a token bucket
    that starts full, it never lets through more than ``per_second`` in a second,
    however Discord aligns its own window.
    """

    def __init__(self, per_second: int = DISCORD_GLOBAL_LIMIT) -> None:
        if per_second < 1:
            raise ValueError(f"per_second must be at least 1, not {per_second}")
        self.per_second = per_second
        # The turns of the last ``per_second`` requests, sent or reserved, oldest first.
        self._sent: collections.deque[float] = collections.deque(maxlen=per_second)
        self.waited = 0.0  # seconds spent waiting for a turn, in all (for the logs)
        self.paced = 0  # requests that had to wait

    async def acquire(self) -> None:
        """Wait for this request's turn; return when it may be sent.

        The turn is reserved at once, in the order of the calls (FIFO, no lock): the
        moment the request ``per_second`` places back in line is a second old.
        """
        now = _now()
        turn = now
        if len(self._sent) == self.per_second:
            turn = max(now, self._sent[0] + WINDOW + SLACK)
        self._sent.append(turn)  # drops the oldest once full
        if turn <= now:
            return
        self.paced += 1
        self.waited += turn - now
        for _ in range(3):  # a sleep may end a hair early
            await pause(turn - now)
            now = _now()
            if now >= turn:
                break


class PacedRatelimit(discord.http.Ratelimit):
    """discord.py's route bucket, which then waits for the global pacer."""

    __slots__ = ("pacer",)

    def __init__(self, max_ratelimit_timeout: float | None, pacer: GlobalPacer) -> None:
        super().__init__(max_ratelimit_timeout)
        self.pacer = pacer

    async def __aenter__(self) -> PacedRatelimit:
        await super().__aenter__()
        try:
            await self.pacer.acquire()
        except BaseException as error:
            await super().__aexit__(type(error), error, error.__traceback__)  # type: ignore[arg-type]
            raise
        return self


def install(http: discord.http.HTTPClient, pacer: GlobalPacer) -> None:
    """Pace every request ``http`` sends (its route buckets made ``PacedRatelimit``);
    discord.py's ``get_ratelimit`` with the bucket's class changed."""
    buckets: dict[str, discord.http.Ratelimit] = http._buckets

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        try:
            return buckets[key]
        except KeyError:
            buckets[key] = value = PacedRatelimit(http.max_ratelimit_timeout, pacer)
            http._try_clear_expired_ratelimits()
        return value

    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign]
    http._buckets.clear()  # any made before (none: install before login)
