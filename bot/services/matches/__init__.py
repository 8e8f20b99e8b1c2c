"""The match host, as small collaborators wired in one place (like lichess's round):

- ``choosing``: Death Matches set up by hosts, their First Player and its deadline;
- ``lobby``: challenges, who may start a match where, the start of the clock;
- ``play``: moves and resignations;
- ``timing``: the clock of a running match, its reminders and its flag;
- ``ending``: every end of a match, through one path that books the result once;
- ``controls``: what hosts may do to a running match;
- ``corrections``: a host takes back the last move, or corrects a finished result;
- ``courtesy``: casual draws, aborts, rematches and idle lapses;
- ``viewing``: the board and the clocks on request;
- ``lookup``: which match a request means; ``registry``: the matches in memory;
- ``outages``: a channel garnet cannot post to, a lost gateway, a player who left;
- ``lifecycle``: restore at start, heartbeat, stop;
- ``practice``: matches against the computer player, whose moves come from workers.

Order of work for anything that changes a match: check, compute the new state,
render the image (in a worker), commit to the database, and only then change
memory and announce. A crash at any point leaves either the old or the new match,
never half of one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.core.clock import Clock
from bot.core.messages import Response
from bot.services.matches.choosing import Choosing, DMSetup
from bot.services.matches.controls import Controls
from bot.services.matches.corrections import Corrections
from bot.services.matches.courtesy import Courtesy
from bot.services.matches.ending import Ending
from bot.services.matches.kit import (
    CHALLENGE_TTL,
    Calls,
    Deliver,
    EndWatcher,
    Hook,
    MatchConfig,
    MatchEnd,
    MatchKit,
    Outlets,
    Reach,
    Sweep,
    ThreadMaker,
)
from bot.services.matches.lifecycle import Lifecycle
from bot.services.matches.live import LiveMatch
from bot.services.matches.lobby import HostedMatch, Lobby, show_up_by
from bot.services.matches.lookup import Lookup
from bot.services.matches.outages import Outages
from bot.services.matches.picks import Menus
from bot.services.matches.play import Play
from bot.services.matches.practice import Practice
from bot.services.matches.refusals import Busy, startable
from bot.services.matches.timing import Timing
from bot.services.matches.viewing import Viewing
from bot.services.permissions import HostRoles
from bot.services.render import Renderer
from bot.services.workers import Workers
from bot.store.db import Database

__all__ = ["CHALLENGE_TTL", "Busy", "DMSetup", "Deliver", "EndWatcher", "HostedMatch",
           "MatchConfig", "MatchEnd", "Matches", "Outlets", "Reach", "ThreadMaker", "show_up_by",
           "startable"]


class Matches:
    """Every rule of a match, for every chat platform; built once by ``bot.app``."""

    def __init__(self, db: Database, clock: Clock, config: MatchConfig | None = None,
                 deliver: Deliver | None = None, rng: random.Random | None = None,
                 roles: HostRoles | None = None, renderer: Renderer | None = None,
                 workers: Workers | None = None, outlets: Outlets | None = None) -> None:
        config = config or MatchConfig()
        # Built in dependency order; what runs later on a collaborator built after
        # (the flag, an idle lapse, the computer's turn, the heartbeat) is passed in
        # as a call to it, never assigned afterwards.
        self.kit = MatchKit(db, clock, config, rng or random.Random(),
                            renderer or Renderer(config.render_processes),
                            roles or HostRoles(db, config.default_host_role), deliver=deliver,
                            outlets=outlets,
                            calls=Calls(on_turn=lambda live: self._turned(live),
                                        alive=lambda live: self.lifecycle.alive(live),
                                        clock_runs=lambda: self.lifecycle.wake()))
        self.lookup = Lookup(self.kit)
        self.timing = Timing(self.kit, on_flag=lambda live: self.ending.timeout(live),
                             on_idle=lambda live: self.courtesy.lapse(live))
        self.ending = Ending(self.kit, self.timing)
        self.lobby = Lobby(self.kit, self.lookup, self.timing, self.ending)
        self.choosing = Choosing(self.kit, self.lookup, self.lobby)
        self.play = Play(self.kit, self.lookup, self.timing, self.ending)
        self.controls = Controls(self.kit, self.lookup, self.timing, self.ending)
        self.corrections = Corrections(self.kit, self.lookup, self.timing, self.ending)
        self.courtesy = Courtesy(self.kit, self.lookup, self.lobby, self.ending)
        self.viewing = Viewing(self.kit, self.lookup)
        self.menus = Menus(self.kit, self.lookup, self.play)
        self.outages = Outages(self.kit, self.timing, self.controls)
        self.lifecycle = Lifecycle(self.kit, self.timing, self.lobby, self.choosing)
        self.practice = Practice(self.kit, self.lobby, self.play,
                                 workers or Workers(config.ai_processes))
        # Whether garnet is at Discord's limit (the adapter gives the boards' wait).
        self.pressure = self.kit.pressure

    async def claim(self) -> None:
        await self.lifecycle.claim()

    async def start(self) -> None:
        await self.lifecycle.start()

    async def stop(self) -> None:
        await self.practice.stop()
        await self.lifecycle.stop()

    async def close(self, match_id: int, reason: str, at_ply: int | None = None) -> Response:
        """Void a match by a rule, not a host (a tournament's deadline or withdrawal):
        one not yet begun, or one being played; nothing if it has ended (or, with
        ``at_ply``, if a move took it past that ply meanwhile)."""
        unstarted = await self.lobby.close_unstarted(match_id, reason)
        if unstarted is not None:
            return unstarted
        return await self.controls.close(match_id, reason, at_ply)

    # ---- what runs on the matches (wired by the composition root) --------------------

    def watch_ends(self, watcher: EndWatcher) -> None:
        """``watcher`` hears of every match that ends, after its result is committed."""
        self.kit.watchers.append(watcher)

    def watch_turns(self, watcher: Callable[[LiveMatch], None]) -> None:
        """``watcher`` hears of every turn that starts (a start, a move, a take-back, a
        resume), after it is committed; it must not block (the web pages' live notice)."""
        self.kit.turn_watchers.append(watcher)

    def _turned(self, live: LiveMatch) -> None:
        self.practice.wake(live)
        for watcher in self.kit.turn_watchers:
            watcher(live)

    def watch_timers(self, sweep: Sweep) -> None:
        """``sweep`` runs in each round of the watchdog (``lifecycle``): it re-arms the
        timers it finds missing and says how many."""
        self.kit.sweeps.append(sweep)

    def around(self, started: Hook, stopping: Hook) -> None:
        """``started`` runs once the matches are restored; ``stopping`` before they stop."""
        self.kit.started.append(started)
        self.kit.stopping.append(stopping)

    @property
    def threads(self) -> ThreadMaker | None:
        return self.kit.threads

    @threads.setter
    def threads(self, threads: ThreadMaker | None) -> None:
        self.kit.threads = threads

    @property
    def reach(self) -> Reach | None:
        return self.kit.reach

    @reach.setter
    def reach(self, reach: Reach | None) -> None:
        self.kit.reach = reach

    # ---- what other parts and tests read -------------------------------------------

    @property
    def db(self) -> Database:
        return self.kit.db

    @property
    def clock(self) -> Clock:
        return self.kit.clock

    @property
    def config(self) -> MatchConfig:
        return self.kit.config

    @property
    def roles(self) -> HostRoles:
        return self.kit.roles

    @property
    def renderer(self) -> Renderer:
        return self.kit.renderer

    @property
    def live(self) -> dict[int, LiveMatch]:
        return self.kit.live.by_id()

    @property
    def deliver(self) -> Deliver:
        return self.kit.deliver

    @deliver.setter
    def deliver(self, deliver: Deliver) -> None:
        self.kit.deliver = deliver
