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

Where: a request is paced *before* discord.py's per-route bucket (5 posts per 5 s per
channel) lets it through, so that no request holds its channel's room while it waits
for a turn: discord.py counts a bucket's room from Discord's answers and the requests
it let through, and a request that then waited seconds at the pacer would reach
Discord after later ones and meet the channel's 429. A request that then had to wait
for its bucket has lost its turn and takes another (at once if one is free, ahead of
every line: it had its turn), so that it does not burst out later with others.
``install`` makes the ``HTTPClient``'s route buckets ``PacedRatelimit`` s. discord.py's
own retries of one request (after a 429 or a 500) are not paced again; with pacing
they are rare.

Order: by urgency, declared with each post (``bot.core.messages.Pace``): the board of
a running match goes before answers and notices, and those before reminders, set-up
posts, standings and reviews. While several paces wait, each free turn goes to the pace
furthest behind its ``SHARE`` (stride scheduling: boards get 8 turns of every 11,
answers 2, the rest 1; a pace with nothing waiting leaves its turns to the others), so
boards pass reminders, and reminders still get a turn in every 11 however many
boards wait: none starves. Within a pace, first come, first served. ``fifo=True``
(the benchmark's ``--fifo``) orders by the moment of asking alone. A request that finds
a free turn and nobody waiting goes at once. Interaction answers (deferrals, the edit
that replaces "thinking…", follow-ups) go through discord.py's webhook adapter with
the interaction's token and are never paced here: Discord exempts them from the global
limit, and they must meet its 3 s and 15 min windows whatever is queued.

Spread: while requests wait, the turns are given one every ``1.05 s / per_second``
(21 ms at 50 a second), not as they free. The sliding window alone lets a second's
turns go in the bunch they went in a second before, and so keeps a burst's shape for as
long as the line lasts: a board posted in a bunch of 15 earns 15 moves at once, 15
boards to draw at once in the bot's two render workers, and 15 posts reaching Discord
at once (near its limit, a 429 for any that the way there delays into the next
second). Spread, the turns keep the window's rate and arrive one at a time.

Dropped: a post that is of no use once something happened (a reminder whose turn's
move has landed, or that a later reminder of the same turn replaced) carries a check
(``Post.current``); a request of it still waiting for a turn when the check says no
leaves the line without taking a turn, and the post is not sent (``Withdrawn``).

Counted: each request that takes a turn is told with its channel (``spend``), so that
the services measure what each running match needs (``bot.services.budget``).

The wait of the boards is what the services watch (``board_wait``, and ``watch`` told
each board's wait as it leaves): past ``BOARD_WAIT_LIMIT`` they refuse new matches
(``bot.services.pressure``).

Time: the pacer reads the clock and sleeps the way discord.py's rate limiter does
(``discord.http``'s ``asyncio``), so that it runs on whatever clock discord.py does:
real time in production, the tests' virtual clock under the Discord fake.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import heapq
import itertools
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord.http

from bot.core.messages import SHARE, Pace, Withdrawn

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50  # requests per second per bot, unless Discord raised it
WINDOW = 1.0  # seconds: the global limit is counted per second
# A turn is kept this much longer than the window: a request reaches Discord a little
# after its turn (its upload is built, the event loop is busy), and without room for
# that delay 51 requests can fall into one of Discord's seconds.
SLACK = 0.05
# The wait of the last board out counts as the boards' wait this long after it left
# (with no board in line); then the boards wait nothing.
RECENT = 10.0

# The pace of the requests the current task makes (``paced``); a request made outside
# any post (a thread opened, a member looked up) is NORMAL.
PACE: contextvars.ContextVar[Pace] = contextvars.ContextVar("garnet_pace",
                                                            default=Pace.NORMAL)




def _always() -> bool:
    return True


@dataclass(frozen=True)
class Sending:
    """What the requests of the current task are sent for: the channel (for the
    budget), and whether they are still wanted (``Post.current``)."""

    channel: str | None = None
    current: Callable[[], bool] = _always


ANY = Sending()  # a request made outside any post: for no channel, always wanted
SENDING: contextvars.ContextVar[Sending | None] = contextvars.ContextVar(
    "garnet_sending", default=None)


@contextlib.contextmanager
def paced(pace: Pace, channel: str | None = None,
          current: Callable[[], bool] | None = None) -> Iterator[None]:
    """The requests made within go at ``pace`` (a post's own, set by the delivery), for
    ``channel``, and only while ``current()`` says they are still wanted."""
    token = PACE.set(pace)
    sending = SENDING.set(Sending(channel, current or _always))
    try:
        yield
    finally:
        SENDING.reset(sending)
        PACE.reset(token)


def _asyncio() -> Any:
    """The ``asyncio`` discord.py's HTTP client sleeps with (the fake swaps it)."""
    return vars(discord.http)["asyncio"]


def _now() -> float:
    return float(_asyncio().get_running_loop().time())


async def pause(seconds: float) -> None:
    """Sleep on discord.py's clock (virtual under the Discord fake)."""
    await _asyncio().sleep(seconds)


@dataclass
class _Waiting:
    asked: float
    seq: int  # among equal moments, the first asked
    pace: Pace  # its own (for the figures)
    line: Pace  # the line it waits in: its pace, or the first (a turn taken again)
    turn: asyncio.Future[None] = field(repr=False)
    again: bool = False  # a turn taken again goes first
    sending: Sending = field(default=ANY, repr=False)

    def dropped(self) -> bool:
        """No longer wanted: its future is failed with ``Withdrawn`` (once)."""
        if self.turn.done() or self.sending.current():
            return False
        self.turn.set_exception(Withdrawn())
        return True

    def __lt__(self, other: _Waiting) -> bool:
        return ((not self.again, self.asked, self.seq)
                < (not other.again, other.asked, other.seq))


@dataclass
class PaceFigures:
    """What the requests of one pace met, since the start (for the logs and the bench)."""

    sent: int = 0
    paced: int = 0  # of them, had to wait
    waited: float = 0.0  # seconds, in all
    longest: float = 0.0  # seconds


def _nobody(_wait: float) -> None:
    return None


def _nowhere(_channel: str | None) -> None:
    return None


class GlobalPacer:
    """At most ``per_second`` requests in any window of one second, most urgent first.

    A sliding window: the moments of the last ``per_second`` requests are kept, and a
    request waits until the oldest of them is a second (and ``SLACK``) old. Unlike a token bucket
    that starts full, it never lets through more than ``per_second`` in a second,
    however Discord aligns its own window. Who goes when a turn frees is decided then,
    among those waiting (one line per pace, each first come, first served).
    """

    def __init__(self, per_second: int = DISCORD_GLOBAL_LIMIT, fifo: bool = False,
                 in_flight: int | None = None) -> None:
        if per_second < 1:
            raise ValueError(f"per_second must be at least 1, not {per_second}")
        self.per_second = per_second
        self.fifo = fifo
        # Behind a shared REST proxy (``in_flight``): at most that many of this
        # process's requests on their way at once; the rest wait here, in order of
        # urgency, rather than first come, first served in the proxy's queue, where
        # every process's requests meet once together they send past the limit.
        self.in_flight = in_flight
        self.outstanding = 0  # requests given a turn and not yet answered
        self._room: asyncio.Event | None = None
        # The turns of the last ``per_second`` requests, sent, oldest first.
        self._sent: collections.deque[float] = collections.deque(maxlen=per_second)
        self._lines: dict[Pace, list[_Waiting]] = {pace: [] for pace in Pace}  # heaps
        # Stride scheduling: each line's pass moves on by 1/SHARE per turn it gets.
        self._pass = {pace: 0.0 for pace in Pace}
        self._now_pass = 0.0  # the pass of the last turn given
        self._seq = itertools.count()
        self._granting: asyncio.Task[None] | None = None
        self.spacing = (WINDOW + SLACK) / per_second  # between turns given from the line
        self._given = float("-inf")  # when the last turn given from the line was due
        self._last_board = (0.0, float("-inf"))  # its wait, when it left
        self.waited = 0.0  # seconds spent waiting for a turn, in all (for the logs)
        self.paced = 0  # requests that had to wait
        self.figures = {pace: PaceFigures() for pace in Pace}
        # Told the wait of every board as it leaves (the services' ``Pressure``).
        self.watch: Callable[[float], None] = _nobody
        # Told the channel of every request that takes a turn (the services' ``Budget``).
        self.spend: Callable[[str | None], None] = _nowhere
        self.dropped = 0  # requests no longer wanted, dropped from the line

    def queued(self) -> int:
        """Requests waiting for a turn now."""
        return sum(1 for line, heap in self._lines.items() for w in heap
                   if not w.turn.done() and w.line is line)

    def waiting(self, pace: Pace) -> list[float]:
        """How long each request of ``pace`` still waiting for a turn has waited (the
        bench's boards still on their way)."""
        now = _now()
        return [now - w.asked for heap in self._lines.values() for w in heap
                if not w.turn.done() and w.pace is pace]

    def _head(self, line: Pace) -> _Waiting | None:
        """The first request still waiting in ``line`` (those gone or moved dropped)."""
        heap = self._lines[line]
        while heap and (heap[0].turn.done() or heap[0].line is not line
                        or heap[0].dropped()):
            if heap[0].line is line and heap[0].sending.current is not _always \
                    and not heap[0].turn.cancelled() and heap[0].turn.exception() is not None:
                self.dropped += 1
            heapq.heappop(heap)
        return heap[0] if heap else None

    def board_wait(self) -> float:
        """How long boards wait now: the first board in line so far, else the last one
        out if it left within ``RECENT`` seconds, else nothing."""
        now = _now()
        if self.fifo:  # one line: its first board
            boards = [w for w in self._lines[Pace.BOARD]
                      if w.pace is Pace.BOARD and not w.turn.done()]
            first = min(boards) if boards else None
        else:
            first = self._head(Pace.BOARD)
        if first is not None:
            return now - first.asked
        wait, left = self._last_board
        return wait if now - left <= RECENT else 0.0

    def _full(self) -> bool:
        return self.in_flight is not None and self.outstanding >= self.in_flight

    def done(self) -> None:
        """A request given a turn is answered (or was never sent): its room is free."""
        self.outstanding = max(0, self.outstanding - 1)
        if self._room is not None:
            self._room.set()

    def _free_at(self) -> float:
        if len(self._sent) < self.per_second:
            return float("-inf")
        return self._sent[0] + WINDOW + SLACK

    def _next(self) -> _Waiting | None:
        """The head of the line furthest behind its share."""
        best: tuple[float, Pace] | None = None
        chosen = None
        for line in Pace:
            head = self._head(line)
            if head is not None and (best is None or (self._pass[line], line) < best):
                best, chosen = (self._pass[line], line), head
        return chosen

    def _went(self, pace: Pace, wait: float, now: float, again: bool = False,
              channel: str | None = None) -> None:
        self._sent.append(now)
        if again:  # counted at its first turn
            return
        try:
            self.spend(channel)
        except Exception:
            log.exception("a request's channel could not be counted")
        self.outstanding += 1
        figures = self.figures[pace]
        figures.sent += 1
        if wait > 0:
            figures.paced += 1
            figures.waited += wait
            figures.longest = max(figures.longest, wait)
            self.paced += 1
            self.waited += wait
        if pace is Pace.BOARD:
            self._last_board = (wait, now)
            try:
                self.watch(wait)
            except Exception:
                log.exception("the board wait could not be reported")

    def _wake(self, line: Pace) -> None:
        if self._head(line) is None:  # a line that was idle gets no credit for it
            self._pass[line] = max(self._pass[line], self._now_pass)

    async def acquire(self, pace: Pace | None = None, again: bool = False) -> None:
        """Wait for this request's turn (at ``pace``, else the task's ``PACE``; ahead
        of every line if it takes a turn ``again``); return when it may be sent."""
        pace = PACE.get() if pace is None else pace
        sending = SENDING.get() or ANY
        if not sending.current():  # no longer wanted: it takes no turn
            self.dropped += 1
            raise Withdrawn()
        now = _now()
        if self._free_at() <= now and self._next() is None and (again or not self._full()):
            self._went(pace, 0.0, now, again, sending.channel)
            return
        line = Pace.BOARD if self.fifo or again else pace
        # Taken again: first in the first line (it had its turn once).
        waiting = _Waiting(now, next(self._seq), pace, line,
                           asyncio.get_running_loop().create_future(), again, sending)
        self._wake(line)
        heapq.heappush(self._lines[line], waiting)
        if self._granting is None or self._granting.done():
            self._granting = asyncio.ensure_future(self._grant())
        await waiting.turn  # cancelled: the future is too, and its place is dropped

    async def _grant(self) -> None:
        """Give each turn as it frees to the line furthest behind, while any wait."""
        while (first := self._next()) is not None:
            if self._full() and not first.again:
                self._room = self._room or asyncio.Event()
                self._room.clear()
                await self._room.wait()
                continue
            now = _now()
            free = max(self._free_at(), self._given + self.spacing)
            if free > now:
                await pause(free - now)
                continue
            line = first.line
            heapq.heappop(self._lines[line])
            self._now_pass = self._pass[line]
            self._pass[line] += 1.0 / SHARE[line]
            self._went(first.pace, now - first.asked, now, first.again,
                       first.sending.channel)
            # Counted from when the turn was due, so that the loop's lateness in waking
            # does not add up turn after turn; from now after a pause in the line.
            due = self._given + self.spacing
            self._given = due if now - due < self.spacing else now
            first.turn.set_result(None)


class PacedRatelimit(discord.http.Ratelimit):
    """discord.py's route bucket, entered once the global pacer gave a turn."""

    __slots__ = ("pacer",)

    def __init__(self, max_ratelimit_timeout: float | None, pacer: GlobalPacer) -> None:
        super().__init__(max_ratelimit_timeout)
        self.pacer = pacer

    async def __aenter__(self) -> PacedRatelimit:
        pace = PACE.get()
        await self.pacer.acquire(pace)
        before = _now()
        try:
            await super().__aenter__()
        except BaseException:
            self.pacer.done()
            raise
        if _now() - before > SLACK / 2:  # it waited for its bucket: its turn has passed
            try:
                await self.pacer.acquire(pace, again=True)
            except BaseException as error:
                self.pacer.done()
                await super().__aexit__(type(error), error, error.__traceback__)  # type: ignore[arg-type]
                raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.pacer.done()
        await super().__aexit__(*exc)


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
