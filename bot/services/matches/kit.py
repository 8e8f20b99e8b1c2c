"""What every part of a match's life needs, built once and shared: the database,
the clock, the renderer, the move writer, the live matches, and where posts go."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from bot.core.clock import Clock
from bot.core.failures import PostFailure
from bot.core.messages import Image, Post
from bot.core.shards import Shards
from bot.services.budget import BUDGET, Budget
from bot.services.leases import Leases
from bot.services.matches.live import LiveMatch
from bot.services.matches.registry import LiveMatches
from bot.services.permissions import HostRoles
from bot.services.pressure import BOARD_WAIT_LIMIT, Pressure
from bot.services.render import Renderer, described
from bot.services.vitals import Health
from bot.services.web import WebLink, no_link
from bot.store.db import Database
from bot.store.models import Match, Tournament
from bot.store.movelog import MoveWriter
from bot.store.queries import user_names
from bot.texts import board_labels
from bot.texts import match as texts
from bot.texts.game_errors import colour
from bot.texts.language import SOURCE, speaking
from engine.game import Game
from engine.labels import labelled

Deliver = Callable[[Post], Awaitable[None]]
# The adapter's way to open a thread for a match outside a command (a tournament's
# next game): (parent channel id, thread name) -> the thread's channel id, and a way
# to archive it unused.
ThreadMaker = Callable[[str, str], Awaitable[tuple[str, Callable[[], Awaitable[None]]]]]
Hook = Callable[[], Awaitable[None]]
Sweep = Callable[[], Awaitable[int]]
# The adapter's way to tell whether garnet can post to a channel now: None if it can,
# else what stands in the way (a ``/resume`` after a failure checks it first).
Reach = Callable[[str], Awaitable[PostFailure | None]]
HEARTBEAT_EVERY = 2.0
CHALLENGE_TTL = 15 * 60.0  # an unanswered challenge lapses after this long
# A first board that cannot be drawn in time (the renderer overloaded): the start is
# tried again after each of these, then given up, the host told (``Lobby.start``).
START_RETRIES = (30.0, 120.0, 600.0)
START_TRIES = len(START_RETRIES) + 1


@dataclass(frozen=True)
class Retrying:
    """A start that failed, kept with the match (``time_control["start"]``, so that a
    restart tries again): the seats and the First Player's note it was to begin with,
    the tries failed so far, and when the next is due (None: given up)."""

    order: tuple[str, ...]
    note: str
    failed: int
    at: float | None

    @classmethod
    def of(cls, kept: dict[str, Any]) -> Retrying | None:
        found = kept.get("start")
        if not isinstance(found, dict):
            return None
        at = found.get("at")
        return cls(tuple(found.get("order", ())), str(found.get("note", "")),
                   int(found.get("failed", 1)), float(at) if at is not None else None)

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "note": self.note, "failed": self.failed,
                "at": self.at}


@dataclass(frozen=True)
class MatchEnd:
    """A match that ended, told to whoever watches (``Matches.watch_ends``) once its
    result is committed: who played (by seat), who won (None: a draw, or no result
    when ``voided``)."""

    id: int
    guild_id: str
    number: int
    users: tuple[str, ...]
    winner: str | None
    voided: bool = False


# A watcher answers with posts to add after the match's own (a tournament's next game).
EndWatcher = Callable[[MatchEnd], Awaitable[list[Post]]]


@dataclass(frozen=True)
class MatchConfig:
    instance: str = "main"
    default_host_role: str = "Host"
    dm_reward: int = 3
    heartbeat_every: float = HEARTBEAT_EVERY
    render_processes: int = 0  # 0: render in threads (tests); the bot uses processes
    ai_processes: int = 0  # the computer player's processes (0: a thread, for tests)
    # The computer's searches to their node budgets alone, without their move-time caps
    # (``Workers.fixed``): the console on its virtual clock, the same moves under any load.
    ai_fixed: bool = False
    choose_within: float = 3600.0  # a DM's First Player is chosen within this, by default
    casual_idle: float = 86_400.0  # a casual match without a clock lapses after this idle
    shards: Shards = field(default_factory=Shards)  # the servers whose matches this process runs
    lease_seconds: float = 30.0  # a process that stops renewing is taken over after this
    lease_wait: bool | None = None  # a held lease at start: wait (None: PostgreSQL only)
    # New matches are refused while boards wait longer than this for Discord's limit.
    board_wait_limit: float = BOARD_WAIT_LIMIT
    # Requests a second this process may send (its share of Discord's global limit;
    # None: no limit, as in the tests), and the share of it new matches are admitted up
    # to (``bot.services.budget``).
    requests_per_second: float | None = None
    request_budget: float = BUDGET
    # The share of one core this process's matches are admitted up to (None: not looked
    # at, as in the tests, whose CPU runs against a virtual clock).
    cpu_budget: float | None = None


async def _nowhere(_post: Post) -> None:
    return None


async def _not_yet(_live: LiveMatch) -> None:
    return None


def _no_one(_live: LiveMatch) -> None:
    return None


def _nothing_runs() -> None:
    return None


ServerLanguage = Callable[[str], Awaitable[str]]


async def english(_guild_id: str) -> str:
    return SOURCE


@dataclass(frozen=True)
class Outlets:
    """What the matches call outside the services, given by the composition root when
    it builds them (never assigned afterwards): the adapter's way to open a thread
    outside a command (a tournament's next game) and to tell whether garnet can post
    to a channel (``/resume`` after a failure), and the address of a match's web page
    for its start post (``bot.services.web``)."""

    threads: ThreadMaker | None = None
    reach: Reach | None = None
    web_link: WebLink = no_link
    # The language a server speaks (``bot.services.languages``): every timer of a
    # match posts in it (``MatchKit.speaking_for``).
    language: ServerLanguage = english


@dataclass(frozen=True)
class Calls:
    """Calls from the kit's users into collaborators of ``Matches`` built after the
    kit: each is a lambda that finds its collaborator when it is called."""

    # Told whenever a turn starts (a start, a move, a restart, a resume): the
    # computer player's seat thinks then (see ``practice``), then the watchers.
    on_turn: Callable[[LiveMatch], None] = _no_one
    # Called before a reminder is posted: the heartbeat of its shard moves on, so
    # that whoever restores the match later does not post the reminder again.
    alive: Callable[[LiveMatch], Awaitable[None]] = _not_yet
    # Called when a match's clock starts running (a turn, a resume): the heartbeat,
    # idle while no clock runs, beats again (see ``lifecycle``).
    clock_runs: Callable[[], None] = _nothing_runs


class MatchKit:
    def __init__(self, db: Database, clock: Clock, config: MatchConfig, rng: random.Random,
                 renderer: Renderer, roles: HostRoles, *, deliver: Deliver | None,
                 outlets: Outlets | None = None, calls: Calls | None = None) -> None:
        outlets, calls = outlets or Outlets(), calls or Calls()
        self.db = db
        self.clock = clock
        self.config = config
        self.rng = rng
        self.renderer = renderer
        self.roles = roles
        self.deliver: Deliver = deliver or _nowhere
        self.live = LiveMatches()
        self.health = Health()  # counters for the operators (see ``bot.services.vitals``)
        # New matches wait while boards do (``bot.services.pressure``).
        # New matches are admitted within a budget of requests (``bot.services.budget``).
        self.budget = Budget(clock, config.requests_per_second, config.request_budget,
                             running=self.live.__iter__, cores=config.cpu_budget,
                             changes=lambda: self.live.version)
        self.pressure = Pressure(clock, self.health, config.board_wait_limit,
                                 running=self.live.__iter__, budget=self.budget)
        # One owner per match: the leases of our shards fence every deciding write.
        self.leases = Leases(db, clock, config.shards, config.instance,
                             config.lease_seconds, config.lease_wait)
        self.moves = MoveWriter(db.engine, guard=self.leases.guard_all)
        self.alive = calls.alive
        self.clock_runs = calls.clock_runs
        # Matches not being played yet (a challenge, a DM choosing its First Player) are
        # changed one request at a time: by match, and creation as a whole (whether a
        # player is busy is checked and the match made under it).
        self.creating = asyncio.Lock()
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # with its users
        # Players of matches set up but not begun, by (server, channel, user): a move
        # they type is answered with what the match waits for (``Lookup.waiting``).
        # Only a hint: the database says whether the match still waits.
        self.unstarted: dict[tuple[str, str, str], int] = {}
        # Observer for the benchmark: reminder lateness in seconds.
        self.on_reminder: Callable[[float], None] | None = None
        self.threads = outlets.threads
        self.reach = outlets.reach
        # Added to by the composition root: who watches ends, what else starts after
        # the matches and stops before them.
        self.watchers: list[EndWatcher] = []
        # The watchdog's rounds beyond the matches (a tournament's deadlines): each
        # arms what it finds without a timer and says how many it armed.
        self.sweeps: list[Sweep] = []
        self.started: list[Hook] = []
        self.stopping: list[Hook] = []
        self.on_turn = calls.on_turn
        # Told after ``on_turn``: who else follows the turns (``Matches.watch_turns``).
        self.turn_watchers: list[Callable[[LiveMatch], None]] = []
        self.web_link = outlets.web_link
        self.language = outlets.language

    @asynccontextmanager
    async def speaking_for(self, guild_id: str) -> AsyncIterator[None]:
        """Say everything inside in the server's language (a timer's posts)."""
        with speaking(await self.language(guild_id)):
            yield

    @asynccontextmanager
    async def speaking_for_match(self, match_id: int) -> AsyncIterator[None]:
        """Say everything inside in the language of the match's server."""
        async with self.speaking_for_row(Match, match_id):
            yield

    @asynccontextmanager
    async def speaking_for_row(self, table: type[Match] | type[Tournament], key: int
                               ) -> AsyncIterator[None]:
        """Say everything inside in the language of the server of a match or a
        tournament (by its id)."""
        async with self.db.engine.connect() as c:
            guild = (await c.execute(select(table.guild_id).where(table.id == key))
                     ).scalar_one_or_none()
        with speaking(await self.language(guild) if guild is not None else SOURCE):
            yield

    async def spoken(self, table: type[Match] | type[Tournament], key: int,
                     job: Callable[[], Awaitable[None]]) -> None:
        """A timer's ``job``, in the language of its match's or tournament's server."""
        async with self.speaking_for_row(table, key):
            await job()

    def now(self) -> float:
        return self.clock.now()

    def expect(self, guild_id: str, channel_id: str, users: Sequence[str],
               match_id: int) -> None:
        """``users`` have ``match_id`` set up in the channel, not begun yet."""
        for user in users:
            self.unstarted[(guild_id, channel_id, user)] = match_id

    def begun(self, guild_id: str, channel_id: str, users: Sequence[str],
              match_id: int) -> None:
        """``match_id`` began or ended: its players wait for it no longer."""
        for user in users:
            if self.unstarted.get((guild_id, channel_id, user)) == match_id:
                del self.unstarted[(guild_id, channel_id, user)]

    @asynccontextmanager
    async def lock(self, match_id: int) -> AsyncIterator[None]:
        """Hold the lock of a match not yet being played. A match's lock is kept only
        while a request holds it or waits for it: the last to leave drops it, so the
        locks do not pile up with every match ever made."""
        lock, users = self._locks.get(match_id, (asyncio.Lock(), 0))
        self._locks[match_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[match_id]
            if users <= 1:
                del self._locks[match_id]
            else:
                self._locks[match_id] = (lock, users - 1)

    async def render(self, game: Game[Any, Any], state: Any, names: Sequence[str],
                     hints: bool, banner: str | None = None, server: str = "") -> Image:
        """A board, drawn in the renderer's workers in ``server``'s turn."""
        data = await self.renderer.render(game, state, names, hints, banner, server)
        return Image(data, f"{game.key}.png", described(game, state, names, banner))

    async def names(self, guild_id: str, user_ids: Sequence[str]) -> list[str]:
        async with self.db.session() as s:
            found = await user_names(s, guild_id, user_ids)
        return [found.get(uid, uid) for uid in user_ids]

    def turn_line(self, live: LiveMatch) -> str:
        seat = live.to_move
        with labelled(board_labels.labels()):  # the engine's words, in the language spoken
            status = live.game.status(live.state)
        if seat is None:
            return texts.capitalised(status)
        clock = runs_out = None
        if live.tc.enabled:
            now = self.now()
            elapsed = live.elapsed(now)
            clock = texts.clock_left(live.tc, elapsed, *live.terms())
            if not live.paused:  # a turn waiting for its board: as if it began now
                runs_out = now + live.flag_at() - elapsed
        return texts.turn_line(live.users[seat], colour(live.game.seat_name(live.state, seat)),
                               clock, status, runs_out)
