"""Discord's global limit as the services see it: new matches wait while boards do.

One bot token may send 50 requests a second; past that the adapter queues its posts,
boards of running matches first (``bot.adapters.discord.pacing``). When even the
boards wait longer than ``BOARD_WAIT_LIMIT`` seconds, more matches would only make
every running one slower: new matches (``/challenge``, ``/dm``, a nomination's DM, and
the acceptance that would start a challenge made earlier, which stays open) and
practice games are then refused with ``refused.at_discord_limit`` until the boards'
wait has stayed at half the limit or less for ``HOLD`` seconds (hysteresis: a limit
that flickers does not open and close the door with every board). Running matches,
their moves and a tournament's next rounds are never refused.

The adapter gives the signal: ``signal`` (how long boards wait now, read when a new
match is asked for) and ``observe`` (each board's wait as it leaves). Without one (the
console, which has no global limit) boards wait nothing. The operators see it in the
counters (``Health``: ``discord_at_limit``, ``discord_limit_spells``,
``discord_limit_refusals``, ``board_wait_ms``) and in a log line when it starts and
ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.clock import Clock
from bot.core.metrics import AT_LIMIT, LIMIT_REFUSALS
from bot.core.refusal import Refusal
from bot.services.vitals import Health
from bot.texts import refused

log = logging.getLogger(__name__)

BOARD_WAIT_LIMIT = 5.0  # seconds, the default of the setting
HOLD = 30.0  # seconds the boards must wait at most half the limit before it lifts


class AtDiscordLimit(Refusal):
    """A new match asked for while boards wait past ``BOARD_WAIT_LIMIT``."""

    def __init__(self) -> None:
        super().__init__(refused.at_discord_limit())


def _no_wait() -> float:
    return 0.0


class Pressure:
    """Whether garnet is at Discord's limit: on when a board has waited more than
    ``limit`` seconds, off once boards have waited at most ``limit / 2`` for ``hold``
    seconds."""

    def __init__(self, clock: Clock, health: Health, limit: float = BOARD_WAIT_LIMIT,
                 hold: float = HOLD) -> None:
        self.clock = clock
        self.health = health
        self.limit = limit
        self.hold = hold
        self.signal: Callable[[], float] = _no_wait
        self._high_at = float("-inf")  # the last wait above half the limit

    @property
    def at_limit(self) -> bool:
        return self.health.at_limit_since is not None

    def observe(self, wait: float) -> None:
        """A board waited ``wait`` seconds (or boards wait so long now)."""
        now = self.clock.now()
        health = self.health
        health.board_wait = wait
        if wait > self.limit / 2:
            self._high_at = now
        if health.at_limit_since is None:
            if wait > self.limit:
                health.at_limit_since = now
                health.limit_spells += 1
                AT_LIMIT.set(1)
                log.warning("at Discord's limit: boards wait %.1f s (BOARD_WAIT_LIMIT %.1f s);"
                            " new matches and practice games are refused", wait, self.limit)
        elif now - self._high_at >= self.hold:
            lasted = now - health.at_limit_since
            health.at_limit_since = None
            AT_LIMIT.set(0)
            log.warning("below Discord's limit again after %.0f s: boards wait %.1f s; new "
                        "matches and practice games are accepted (%d refused in all)",
                        lasted, wait, health.limit_refusals)

    def check(self) -> None:
        """Refuse a new match or practice game while at the limit."""
        self.observe(self.signal())
        if self.at_limit:
            self.health.limit_refusals += 1
            LIMIT_REFUSALS.inc()
            raise AtDiscordLimit()
