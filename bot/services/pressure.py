"""Discord's global limit as the services see it: new matches are admitted by budget
(``bot.services.budget``), and wait while boards do, first on the servers the load
comes from.

Before boards wait at all: a new match is admitted only while the running matches'
measured need of requests, and a new match's, stay within the budget (this process's
share of the limit × ``REQUEST_BUDGET``). Past it, the servers that run their share of
the matches or more are refused first; past the whole share, every server (reason
``budget`` both). While boards wait longer than ``WAITING`` of ``BOARD_WAIT_LIMIT``
(a second by default), the servers that run their share are refused too (``waiting``):
what the running matches sent is then what the limit let through, not what they need.
What follows is the emergency brake, for a load the budget did not foresee (a burst
of answers, a slow Discord).

One bot token may send 50 requests a second; past that the adapter queues its posts,
boards of running matches first (``bot.adapters.discord.pacing``). When even the
boards wait longer than ``BOARD_WAIT_LIMIT`` seconds, more matches would only make
every running one slower: garnet is then "at the limit" until the boards' wait has
stayed at half the limit or less for ``HOLD`` seconds (hysteresis: a limit that
flickers does not open and close the door with every board). At the limit, a new
match (``/challenge``, ``/dm``, a nomination's DM, and the acceptance that would start
a challenge made earlier, which stays open) or practice game is refused:

- ``share``: on a server that runs its share of garnet's running matches or more
  (``Shares``: the running matches over the servers that run any), with
  ``refused.at_discord_limit``; a server below its share (one that runs none, say) is
  still let in, so that one server's burst does not lock the others out;
- ``all``: on every server alike while boards wait longer than ``ALL_AT`` times the
  limit (a load the shares alone do not bring down).

Running matches, their moves and a tournament's next rounds are never refused.

The adapter gives the signal: ``signal`` (how long boards wait now, read when a new
match is asked for) and ``observe`` (each board's wait as it leaves). Without one (the
console, which has no global limit) boards wait nothing. The operators see it in the
counters (``Health``: ``discord_at_limit``, ``discord_limit_spells``,
``discord_limit_refusals``, ``board_wait_ms``), in the metric
``garnet_limit_refusals_total`` by reason, and in a log line when it starts and ends.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.core.clock import Clock
from bot.core.metrics import AT_LIMIT, LIMIT_REFUSALS
from bot.core.refusal import Refusal
from bot.services.budget import Budget
from bot.services.vitals import Health
from bot.texts import refused

log = logging.getLogger(__name__)

BOARD_WAIT_LIMIT = 5.0  # seconds, the default of the setting
HOLD = 30.0  # seconds the boards must wait at most half the limit before it lifts
ALL_AT = 2.0  # boards waiting this many times the limit: every server is refused
SAY_EVERY = 60.0  # seconds: the budget's verdict is logged at most this often
# Boards waiting longer than this share of ``BOARD_WAIT_LIMIT`` (1 s by default): new
# matches are refused on the servers that run their share or more (reason
# ``waiting``; the others still within the budget). A running match's measure is what
# it sent; while its boards wait, that is what the limit let through, not what it
# needs, and the budget would let in more matches on a need it no longer sees.
WAITING = 0.2


class AtDiscordLimit(Refusal):
    """A new match asked for while boards wait past ``BOARD_WAIT_LIMIT``, or past the
    budget; or (``starting``) while the starts let in a moment ago use what it leaves."""

    def __init__(self, starting: bool = False) -> None:
        super().__init__(refused.starting_many() if starting else refused.at_discord_limit())
        self.starting = starting


def _no_wait() -> float:
    return 0.0


class Running(Protocol):
    """A match as ``Shares`` counts it (``LiveMatch`` is one)."""

    guild_id: str
    finished: bool


@dataclass(frozen=True)
class Shares:
    """Who runs how many of the matches running now, by server: the measure of where
    the load comes from (admission at Discord's limit; a budget of requests later)."""

    running: Mapping[str, int]  # server id -> its running matches (none: absent)

    @classmethod
    def of(cls, matches: Iterable[Running]) -> Shares:
        return cls(Counter(m.guild_id for m in matches if not m.finished))

    @property
    def total(self) -> int:
        return sum(self.running.values())

    def of_server(self, guild_id: str) -> int:
        return self.running.get(guild_id, 0)

    def fair(self) -> float:
        """Each server's even share: the running matches over the servers running any."""
        return self.total / len(self.running) if self.running else 0.0

    def at_or_over(self, guild_id: str) -> bool:
        """Whether the server runs its even share or more (one that runs none: never;
        every server, when they all run as many)."""
        mine = self.of_server(guild_id)
        return mine > 0 and mine >= self.fair()


def _none_running() -> Iterable[Running]:
    return ()


class Pressure:
    """Whether garnet is at Discord's limit: on when a board has waited more than
    ``limit`` seconds, off once boards have waited at most ``limit / 2`` for ``hold``
    seconds; and who is refused meanwhile (``check``). ``running``: the matches
    running now (the live registry), for the servers' shares."""

    def __init__(self, clock: Clock, health: Health, limit: float = BOARD_WAIT_LIMIT,
                 hold: float = HOLD,
                 running: Callable[[], Iterable[Running]] = _none_running,
                 budget: Budget | None = None) -> None:
        self.clock = clock
        self.health = health
        self.limit = limit
        self.hold = hold
        self.running = running
        self.signal: Callable[[], float] = _no_wait
        self._high_at = float("-inf")  # the last wait above half the limit
        self.budget = budget or Budget(clock)  # without one: no limit, nothing refused
        # For the log: how the budget refuses now (None: it does not), said when it
        # changes, at most once every ``SAY_EVERY`` seconds (``_log_budget``).
        self._over_budget: str | None = None
        self._said_at = float("-inf")
        self._unsaid = 0  # changes since the last line

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

    def refusal(self, guild_id: str, starts: bool = True) -> str | None:
        """Why a new match on ``guild_id`` is refused now (``budget``, ``waiting``,
        ``cpu``, ``starts``, ``share`` or ``all``), or None: within the budget and not
        at the limit, or the server is below its share. ``starts``: a match would
        start now (one that does not, a challenge, takes nothing of the starts'
        bucket). In memory only: nothing is read or written."""
        self.observe(self.signal())
        if self.at_limit:
            if self.health.board_wait > ALL_AT * self.limit:
                return "all"
            if Shares.of(self.running()).at_or_over(guild_id):
                return "share"
        if self.health.board_wait > WAITING * self.limit \
                and Shares.of(self.running()).at_or_over(guild_id):
            return "waiting"
        over = self.budget.over()
        self._log_budget(None if over is None else "cpu" if over == "cpu" else "requests")
        if over == "cpu":
            return "cpu"
        if over == "budget" or (over == "share"
                                and Shares.of(self.running()).at_or_over(guild_id)):
            return "budget"  # (the budget's last tenth is kept for servers below their share)
        if starts and not self.budget.room_to_start(self.budget.looked):
            return "starts"
        return None

    def _log_budget(self, over: str | None) -> None:
        """Say how the budget refuses when that changes. A process at its budget flips
        between refusing and admitting with nearly every look (a hundred lines a
        minute at 750 DMs offered): a change within ``SAY_EVERY`` seconds of the last
        line waits, and the next line, once that time is past, says the state then
        and how many changes it stands for."""
        if over != self._over_budget:
            self._over_budget = over
            self._unsaid += 1
        now = self.clock.now()
        if not self._unsaid or now - self._said_at < SAY_EVERY:
            return
        changes, self._unsaid, self._said_at = self._unsaid, 0, now
        also = (f" ({changes} changes since the last line)" if changes > 1 else "")
        budget = self.budget
        if over == "cpu":
            log.warning("this process uses %.2f of a core of a CPU budget of %.2f: new "
                        "matches are refused%s", budget.busy.value, budget.cores, also)
            return
        log.warning("the running matches need %.1f requests a second of a budget of %.1f: "
                    "%s%s", budget.used(), budget.per_second,
                    "new matches are refused, first on the servers that run the most"
                    if over else "new matches are admitted again", also)

    def check(self, guild_id: str, starts: bool = True, admit: bool = True) -> None:
        """Refuse a new match or practice game on ``guild_id`` at the limit, first on
        the servers the load comes from. ``starts``: one let in starts now (counted
        as running at once by the budget; a challenge waits for its acceptance).
        ``admit`` False: only refuse (an adapter's look before it acknowledges the
        request; the service's own check lets the match in)."""
        reason = self.refusal(guild_id, starts)
        if reason is None and starts and admit:
            self.budget.admitted()
        if reason is not None:
            self.health.limit_refusals += 1
            LIMIT_REFUSALS.labels(reason).inc()
            raise AtDiscordLimit(starting=reason == "starts")
