"""The requests the running matches need, against what this process may send: new
matches are admitted by budget, before any board has to wait.

Discord lets a bot token send ``GLOBAL_REQUESTS_PER_SECOND`` requests a second (this
process's share of the 50); past that, posts queue at the adapter's pacer. Waiting
until boards already wait (``BOARD_WAIT_LIMIT``, the emergency brake in
``bot.services.pressure``) lets every running match slow down first. So each running
match's need is measured from what it actually sent (``spent``: each request with the
bot token the adapter sends for its channel, boards, reminders and answers alike), as
a moving average (``TAU``), and a new match or practice game is admitted only while
the running matches' need and a new match's expected need stay within the *budget*:
this process's share of the limit times ``REQUEST_BUDGET`` (85 % by default), so that
the boards of the admitted matches pass the pacer at once.

A match too young to have been measured counts at what a match needs here (what the
running matches measured over the weight their measures hold, with ``MEASURED``
matches' weight at ``NEW_MATCH_RATE``, the need of the fastest play, beside it),
fading into its own measure as it ages: a burst of new matches cannot slip in before
their first boards are counted, nor on the first seconds' measure of young matches
(which, begun just after a board, is low: the next board is a think time away).
Each start also takes ``START_REQUESTS`` from a bucket filled by what the budget
leaves spare, so that starts asked for together are spread out.

The budget is checked by ``Pressure.refusal``: past ``FAIR`` of it, the servers that
run their share of the matches or more are refused (``Shares``); past it, every
server. The operators see the budget and its use in the gauges
``garnet_request_budget`` and ``garnet_request_budget_used`` (requests a second) and
the refusals in ``garnet_limit_refusals_total{reason="budget"}``.

Without a limit (``per_second`` None) nothing is counted and nothing is refused.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.core.clock import Clock

TAU = 60.0  # seconds: the moving average's time constant
# Requests a second a new match counts at before any is measured: a board every two
# seconds, the need of the fastest play (the bench's stress pace). Counted lower, a
# start's first seconds let in matches the limit cannot carry once they move, and
# boards that wait then hold the running matches' measures (what the limit let
# through) at what was let in: they never show the need again.
NEW_MATCH_RATE = 0.5
# The weight, in matches measured for good, that ``NEW_MATCH_RATE`` has beside the
# running matches' measures in a new match's need (a match seen for t seconds weighs
# 1 - exp(-t / TAU)): a few young measures move it little, hundreds at once.
MEASURED = 2
# An admission counts as a young match until a new match is seen running, or this
# many seconds: matches asked for at once are not all let in before any is running.
HELD = 15.0
# The running matches are looked at when a new match is asked for, when the metrics
# are read, and on a request at most this often (seconds): a match that began moving is
# measured from then.
SEE_EVERY = 1.0
# What a look found is kept this long (seconds) while no match started or ended
# (``changes``): each look walks every running match (~0.5 ms at 500, on the event
# loop), and at the limit dozens of new matches a second are asked for. In the meantime
# a request adds its channel's share to what the look found; a quarter second's fading
# of a 60-second average is 0.4 % of it.
FRESH = 0.25
BUDGET = 0.85  # the share of the limit new matches are admitted up to, by default
# Past this share of the budget the servers that run their share of the matches or
# more are refused (when more than one server runs any): refusals go to them first.
FAIR = 0.9
# A match's start is a burst: the first post, who moves first, the first boards and
# answers within seconds. New matches take these from a bucket that fills at what the
# budget leaves spare and holds ``BURST`` seconds of the budget (a few starts at
# once), so that starts let in together do not line up in front of running boards.
START_REQUESTS = 3.0
BURST = 1.0


CPU_TAU = 10.0  # real seconds: the process's CPU use is a moving average over these
CPU_MATCHES = 20  # a new match's part of the CPU: at most 1 / this of what is used


class Busy:
    """This process's CPU use, in cores (all its threads: the event loop and the
    database's; the render and computer workers are processes of their own), as a
    moving average over ``CPU_TAU`` real seconds, whatever clock the services run on.
    Python runs one thread at a time: past most of one core, every move waits for the
    loop, however few requests the matches need."""

    def __init__(self, cpu: Callable[[], float] = time.process_time,
                 wall: Callable[[], float] = time.monotonic) -> None:
        self.cpu = cpu
        self.wall = wall
        self.value = 0.0
        self._at = wall()
        self._used = cpu()

    def read(self) -> float:
        now, used = self.wall(), self.cpu()
        elapsed = now - self._at
        if elapsed >= 0.5:  # a sample at most twice a second: shorter ones are noise
            kept = math.exp(-elapsed / CPU_TAU)
            self.value = self.value * kept + (used - self._used) / elapsed * (1 - kept)
            self._at, self._used = now, used
        return self.value


class Counted(Protocol):
    """A match as the budget counts it (``LiveMatch`` is one)."""

    id: int
    channel_id: str
    finished: bool
    ply: int  # moves made: 0 until its first


@dataclass
class Rate:
    """Events a second, as an exponentially weighted moving average over ``TAU``."""

    value: float = 0.0
    at: float = 0.0
    since: float = 0.0  # its first event

    def read(self, now: float) -> float:
        return self.value * math.exp(-max(0.0, now - self.at) / TAU)

    def add(self, now: float, n: float = 1.0) -> None:
        self.value = self.read(now) + n / TAU
        self.at = max(now, self.at)


@dataclass
class _Found:
    """A look at the running matches (``Budget._tally``): when (``at``, ``changes``),
    their need in all (``used``, requests a second), how many, a new match's expected
    need, what its measures' weight and the weight at the expected need were
    (``weight``: theirs plus ``MEASURED``; ``unknown``), each channel's matches
    (all of them, and those measured), and the matches waiting for their first move."""

    at: float
    changes: int
    used: float
    running: int
    expected: float
    weight: float
    unknown: float
    per_channel: dict[str, tuple[int, int]]
    waiting: list[Counted]  # the matches that had not moved yet

    def sent(self, channel_id: str) -> None:
        """A request for ``channel_id`` since the look, as the next look would count
        it: its rate (1 / TAU more) shared among the matches there; the measured
        ones' share moves the expected need too."""
        matches, measured = self.per_channel.get(channel_id, (0, 0))
        if not matches:
            return  # no match runs there: no need
        rise = 1.0 / TAU / matches
        more = rise * measured / self.weight
        self.used += rise * matches + more * self.unknown
        self.expected += more


def _nothing_runs() -> Iterable[Counted]:
    return ()


class Budget:
    """The running matches' measured need of requests against ``per_second`` ×
    ``fraction``. ``running``: the matches running now (the live registry)."""

    def __init__(self, clock: Clock, per_second: float | None = None,
                 fraction: float = BUDGET,
                 running: Callable[[], Iterable[Counted]] = _nothing_runs,
                 cores: float | None = None, busy: Busy | None = None,
                 changes: Callable[[], int] | None = None) -> None:
        self.clock = clock
        self.limit = per_second
        self.fraction = fraction
        self.running = running
        # CPU_BUDGET: the share of one core this process's matches are admitted up to
        # (None: not looked at).
        self.cores = cores
        self.busy = busy or Busy()
        self._channels: dict[str, Rate] = {}  # what each channel sent
        self._seen: set[int] = set()  # the running matches seen
        self._since: dict[int, float] = {}  # when each was first seen moving (its measure's start)
        self._held: list[float] = []  # when each admission not yet seen running was made
        self._tallied = float("-inf")  # when the running matches were last looked at
        self.looked = 0.0  # what they used at the last ``over()``
        self._room = math.inf  # the starts' bucket, requests (full at first)
        self._room_at = clock.now()
        # A count that moves whenever a running match is added or removed (the live
        # registry's ``version``); None: every look walks the matches.
        self.changes = changes
        self._found: _Found | None = None  # the last look, while it is ``FRESH``

    @property
    def per_second(self) -> float:
        """The budget: what new matches are admitted up to (infinite without a limit)."""
        return math.inf if self.limit is None else self.limit * self.fraction

    def spent(self, channel_id: str | None) -> None:
        """One request with the bot token went out for ``channel_id`` (None: for no
        channel, a member looked up, say: counted nowhere)."""
        if channel_id is None or self.limit is None:
            return
        rate = self._channels.get(channel_id)
        if rate is None:
            rate = self._channels[channel_id] = Rate(at=self.clock.now(),
                                                     since=self.clock.now())
        rate.add(self.clock.now())
        found = self._found
        if found is not None:
            found.sent(channel_id)
        if self.clock.now() - self._tallied >= SEE_EVERY:
            self._tally()  # matches that began moving are measured from about now

    def _look(self) -> _Found:
        """What the running matches need, from the last look while it is fresh
        (``FRESH``, ``changes``), else from a new one."""
        now = self.clock.now()
        found = self._found
        if (found is not None and self.changes is not None
                and found.changes == self.changes() and 0.0 <= now - found.at < FRESH
                and not any(m.ply or m.finished for m in found.waiting)):
            return found  # (a match's first move ends its wait: looked at again)
        self._tally()
        assert self._found is not None  # set by every look
        return self._found

    def _tally(self) -> tuple[dict[int, float], float]:
        """Each running match's need, requests a second, and a new match's expected
        need. A match is measured from when it is first seen moving (its first move
        here, or when this process took it over): before, it needs what a new match
        is expected to (a match waiting for its first move says nothing of what it
        will need, and its start is the starts' bucket's) and what it sends meanwhile.
        A moving average that began at zero ``age`` seconds ago holds only
        ``1 - exp(-age / TAU)`` of the rate it measures: a match's need is its
        channel's measure (shared among the matches running there) plus the rest of
        that weight at the expected need, so that it moves from the expected need to
        its own measure as it ages. The expected need is what the moving matches
        measured over the weight their measures hold, with ``MEASURED`` matches'
        weight at ``NEW_MATCH_RATE`` (a prior that their measures outweigh as they
        age)."""
        now = self._tallied = self.clock.now()
        matches = [m for m in self.running() if not m.finished]
        per_channel: dict[str, int] = {}
        for m in matches:
            per_channel[m.channel_id] = per_channel.get(m.channel_id, 0) + 1
        running_in = {m.id: m.channel_id for m in matches}
        ids = running_in.keys()
        self._seen &= ids
        for gone in [i for i in self._since if i not in ids]:
            del self._since[gone]
        for channel in [c for c in self._channels if c not in per_channel]:
            del self._channels[channel]  # no match runs there: its measure is no need
        self._held = [at for at in self._held if now - at < HELD]
        measured: dict[int, float] = {}
        waiting: dict[int, float] = {}  # the matches waiting for their first move
        still: list[Counted] = []  # and the matches themselves
        for m in matches:
            if m.id not in self._seen:
                self._seen.add(m.id)
                if self._held:
                    self._held.pop(0)  # an admission now running: counted as itself
            if m.ply == 0:
                # What it sends while it waits (its first turn's reminders) counts,
                # on top of a new match's need.
                rate = self._channels.get(m.channel_id)
                waiting[m.id] = (rate.read(now) if rate else 0.0) / per_channel[m.channel_id]
                still.append(m)
                continue
            if m.id not in self._since:
                # Its measure starts now: what its channel sent while it waited (its
                # start, reminders of a first turn) is no measure of its moves.
                self._since[m.id] = now
                self._channels[m.channel_id] = Rate(at=now, since=now)
            rate = self._channels[m.channel_id]
            measured[m.id] = rate.read(now) / per_channel[m.channel_id]
        unknown = {i: math.exp(-(now - self._since[i]) / TAU) for i in measured}
        # What they measured over the weight their measures hold: the young ones add
        # little of either, so a restart's hundreds of matches seen for seconds give a
        # new match's need long before any of them is a minute old. A few seconds'
        # measure of a few matches is mostly the time before their next board: the
        # prior holds until their weight outgrows it.
        weight = sum(1.0 - u for u in unknown.values())
        expected = ((sum(measured.values()) + MEASURED * NEW_MATCH_RATE)
                    / (weight + MEASURED))
        needs = {i: v + expected * unknown[i] for i, v in measured.items()}
        needs.update({i: expected + sent for i, sent in waiting.items()})
        moving = dict.fromkeys(per_channel, 0)
        for i in measured:
            moving[running_in[i]] += 1
        self._found = _Found(
            now, self.changes() if self.changes is not None else 0, sum(needs.values()),
            len(needs), expected, weight + MEASURED, sum(unknown.values()) + len(waiting),
            {c: (n, moving[c]) for c, n in per_channel.items()}, still)
        return needs, expected

    def admitted(self) -> None:
        """A new match or practice game was let in: it counts as a new one until it is
        seen running (or ``HELD`` seconds), so that matches asked for at once are not
        all admitted before any of them runs, and its start is taken from the starts'
        bucket."""
        if self.limit is not None:
            self._held.append(self.clock.now())
            self._fill(self.used())
            self._room -= START_REQUESTS

    def _fill(self, used: float) -> float:
        """The starts' bucket now: filled since it was last looked at by what the
        budget leaves spare (``used`` now), up to ``BURST`` seconds of the budget."""
        now = self.clock.now()
        size = max(self.per_second * BURST, START_REQUESTS)
        spare = max(0.0, self.per_second - used)
        self._room = min(size, self._room + spare * max(0.0, now - self._room_at))
        self._room_at = now
        return self._room

    def needs(self) -> dict[int, float]:
        """Each running match's need, requests a second (``_tally``)."""
        return self._tally()[0]

    def expected(self) -> float:
        """What a new match is expected to need, requests a second."""
        return self._look().expected

    def used(self) -> float:
        """The running matches' need, and the admitted ones' not running yet, requests
        a second."""
        if self.limit is None:
            return 0.0
        found = self._look()
        return found.used + len(self._held) * found.expected

    def over(self) -> str | None:
        """Whether one more match would pass the budget: ``budget`` (past it: every
        server refused), ``cpu`` (past the CPU budget: every server), ``share`` (past
        ``FAIR`` of it: the servers that run their share or more), or None (it fits)."""
        if self.limit is None:
            return None
        found = self._look()
        expected = found.expected
        after = found.used + (len(self._held) + 1) * expected
        self.looked = after - expected  # ``used()`` as this look saw it
        if after > self.per_second:
            return "budget"
        # Each running match's part of the CPU used, and one more: past the budget
        # every move would wait for the loop. (With few running, what the process
        # does anyway is most of it: not a match's part.)
        if self.cores is not None and self.busy.read() * (
                max(found.running, CPU_MATCHES) + len(self._held) + 1) \
                / max(found.running, CPU_MATCHES) > self.cores:
            return "cpu"
        return "share" if after > FAIR * self.per_second else None

    def room_to_start(self, used: float | None = None) -> bool:
        """Whether the starts' bucket holds a start now; ``used``: what ``used()``
        says now, when the caller has just looked (``looked``: each look walks every
        running match, and at the limit a hundred new matches a second ask)."""
        if self.limit is None:
            return True
        return self._fill(self.used() if used is None else used) >= START_REQUESTS
