"""What one user or one server may ask for at once: the bounds against abuse.

A rate limit counts one user's requests of a kind in a sliding window of the host's
clock (virtual in tests). Queues run heavy work (an animated replay, an event's CSV
books) a few at a time per server, with a short waiting line and an overall cap, so
that one busy server cannot take the render workers or the database from the rest.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager

from bot.core.clock import Clock
from bot.core.refusal import Refusal
from bot.texts import match as texts


class SlowDown(Refusal):
    def __init__(self, seconds: float) -> None:
        super().__init__(texts.slow_down(seconds))
        self.seconds = seconds


class ServerBusy(Refusal):
    """Too much heavy work on the way for this server."""

    def __init__(self) -> None:
        super().__init__(texts.server_busy())


class RateLimit:
    """At most ``most`` uses per ``per`` seconds for each key."""

    def __init__(self, clock: Clock, most: int, per: float) -> None:
        self.clock = clock
        self.most = most
        self.per = per
        self._uses: dict[Hashable, deque[float]] = defaultdict(deque)

    def take(self, key: Hashable) -> None:
        """Count one use, or refuse with the wait until the next is allowed."""
        now = self.clock.now()
        uses = self._uses[key]
        while uses and uses[0] <= now - self.per:
            uses.popleft()
        if len(uses) >= self.most:
            raise SlowDown(uses[0] + self.per - now)
        uses.append(now)
        if len(self._uses) > 10_000:  # forget keys whose window has passed
            for old in [k for k, v in self._uses.items() if not v or v[-1] <= now - self.per]:
                del self._uses[old]


class ServerQueues:
    """Heavy work, ``per_server`` at a time for each server (``waiting`` more may wait
    their turn, others are refused) and ``overall`` at a time in all."""

    def __init__(self, per_server: int = 1, waiting: int = 3, overall: int = 4) -> None:
        self.per_server = per_server
        self.waiting = waiting
        self._overall = asyncio.Semaphore(overall)
        self._servers: dict[str, asyncio.Semaphore] = {}
        self._queued: dict[str, int] = defaultdict(int)

    @asynccontextmanager
    async def slot(self, guild_id: str) -> AsyncIterator[None]:
        if self._queued[guild_id] >= self.per_server + self.waiting:
            raise ServerBusy()
        self._queued[guild_id] += 1
        try:
            server = self._servers.setdefault(guild_id, asyncio.Semaphore(self.per_server))
            async with server, self._overall:
                yield
        finally:
            self._queued[guild_id] -= 1
            if not self._queued[guild_id]:
                del self._queued[guild_id]
                self._servers.pop(guild_id, None)
