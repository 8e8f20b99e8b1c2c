"""Start and stop: matches restored with their clocks as they stood, and the
heartbeat that makes that exact.

The time the bot was down is never charged: a turn resumes from the last heartbeat
of its shard's lease (written every ``heartbeat_every``, 2 s, while a clock runs, and
just before each reminder), so after a crash or a takeover a player may get up to one
heartbeat back, never lose any.

Why that bound holds, and what the restore does when a heartbeat is older than it.
The heartbeat keeps its 2-s grid through database failures (a failed tick is tried at
the next one), and while it cannot be written every running clock of the process stands
still in memory (``Timing.stall``); the first heartbeat written after the outage commits
those clocks' resumption in its own transaction. So, for a turn whose clock ran:

- never charged for an outage: the last heartbeat H is at most when the clock stopped
  (the kill, or the first failed tick of a database outage); counting the turn up to H
  charges nothing after that;
- never given back more than the bound: H is at most one step (2 s) before the clock
  stopped, while the heartbeat is on schedule. A heartbeat older than that, next to a
  later committed sign that the owner was alive (the lease's last renewal, at a tick or
  at a move's fenced write, ``Leases.renewed_before``), means the owner stopped beating
  while it ran (a bug, or a version without these fixes): that heartbeat is not trusted,
  and the turn counts up to the lease's renewal instead (logged, and counted in
  ``kit.health.stale_heartbeats``). The player then gets back at most the time since
  that renewal (10 s), never the whole gap since the stale heartbeat (issue 27: 14.1 s
  used came back as 0.0). A lease renewed during another match's stall can count at
  most the one step before the next heartbeat resumes the stalled clocks.
- a started turn is never taken for one waiting for its board: the write that starts
  it (``Timing._started``) moves the heartbeat with it.

A match without a clock (or paused) needs no such precision: its only deadline is the
idle lapse of a casual game, a day away. The heartbeat then rides on the lease renewal
(every ``renew_every``, 10 s) and nothing wakes in between; a clock that starts
running wakes the 2-s heartbeat again (``Calls.clock_runs``, in ``kit``). The ticks stay on one
grid from the start, so a running clock is beaten at the same instants either way.
A write that fails changes nothing of that schedule (the next tick writes again): while
the heartbeat cannot be written every running clock stands still (``Timing.stall``), and
the first heartbeat written again wakes them.

A watchdog (every ``WATCHDOG_EVERY``, the database's part every ``SWEEP_EVERY``) looks
for what runs without a timer: a live match, a challenge, a DM's First Player deadline,
a tournament's round (``kit.sweeps``); it arms
each again, logs it and counts it (``kit.health.rearmed``). With timers that retry until
they succeed, each one it finds is a bug: the operators are to hear of it.
"""

from __future__ import annotations

import logging
import math

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.clock import Handle
from bot.core.enums import ACTIVE, PLAYING, MatchKind, MatchStatus
from bot.core.messages import Pace, Post
from bot.core.timecontrol import TimeControl
from bot.services.matches.choosing import Choosing
from bot.services.matches.ending import reward_of
from bot.services.matches.kit import CHALLENGE_TTL, MatchKit, Retrying
from bot.services.matches.live import LiveMatch, extended_of
from bot.services.matches.lobby import Lobby, show_up_by
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.store.models import Heartbeat, Match, Move
from bot.store.movelog import Beat
from bot.texts import match as texts
from bot.texts import outages as outage_texts
from engine.animation import Ply, final_position
from engine.registry import get_game

log = logging.getLogger(__name__)

# The watchdog's round: a live match without a timer is armed again (in memory, cheap);
# every SWEEP_EVERY it also reads what waits in the database (challenges, First Player
# deadlines, tournament rounds), whose deadlines are minutes away.
WATCHDOG_EVERY = 60.0
SWEEP_EVERY = 300.0


class Lifecycle:
    def __init__(self, kit: MatchKit, timing: Timing, lobby: Lobby,
                 choosing: Choosing) -> None:
        self.kit = kit
        self.timing = timing
        self.lobby = lobby
        self.choosing = choosing
        self._heartbeat: Handle | None = None
        self._beat_at = 0.0  # when the next tick is due
        self._ticking = False  # from start to stop (or the lease lost)
        self._grid = 0.0  # the start: every tick falls on it plus a multiple of ``_step``
        self._renewed = 0.0
        self._watchdog: Handle | None = None
        self._swept = 0.0  # when the watchdog last read the database
        kit.leases.on_lost.append(self.abandon)

    async def claim(self) -> None:
        """Hold the leases of our shards before anything else: the Discord adapter
        claims them before it connects, so a waiting process hears no events."""
        if self.kit.leases.lost or set(self.kit.leases.keys) - self.kit.leases.held:
            await self.kit.leases.acquire()

    async def start(self) -> None:
        """Take the leases of our shards, then restore every match of their servers
        that was running, with its clock as it stood when their owner was last alive."""
        await self.claim()
        now = self.kit.now()
        shards = self.kit.leases.shards
        async with self.kit.db.session() as s, s.begin():
            beats = {b.instance: b.at for b in (await s.scalars(select(Heartbeat))).all()}
            legacy = beats.get(self.kit.config.instance)  # written before leases
            rows = [m for m in (await s.scalars(
                select(Match).where(Match.status.in_(ACTIVE)))).all()
                if shards.owns(m.guild_id)]
            waiting: set[int] = set()
            for match in rows:
                if match.status == MatchStatus.RUNNING and match.turn_resumed_at is not None:
                    # Count the turn up to when its shard's owner was last known alive,
                    # never the outage: a restart or a takeover must not cost time.
                    last_alive = self._last_alive(match, beats, legacy, now)
                    if match.turn_resumed_at > (last_alive if last_alive else now):
                        # The turn was waiting for its board (Timing.start_turn), which
                        # may never have been posted: it is posted again and waits again.
                        waiting.add(match.id)
                    ran = (max(0.0, last_alive - match.turn_resumed_at)
                           if last_alive is not None else 0.0)
                    match.turn_elapsed += ran
                    match.turn_resumed_at = now
            await self._beat(s, now)
        self._renewed = now
        boards: list[Post] = []
        for match in rows:
            if match.status in PLAYING:
                live = await self._load(match)
                self.kit.live.add(live)
                if live.game.outcome(live.state) is not None:  # over, never ended: now
                    over = await self.lobby.ending.by_rules(live, texts.match_label(
                        live.number, live.kind))
                    boards += over.posts
                    continue
                if match.id in waiting and live.turn_elapsed == 0.0:
                    boards.append(await self._board_again(live, now))
                else:
                    self.timing.arm(live)
                self.kit.on_turn(live)  # the computer player's turn: it thinks again
            elif self.lobby.restore_start(match):
                continue  # its start failed: tried again when due
            elif match.status == MatchStatus.PENDING:
                self.lobby.arm_expiry(match.id, match.created_at + CHALLENGE_TTL)
            elif match.status == MatchStatus.CHOOSING:
                self.choosing.restore(match)
        self._schedule_heartbeat()
        self._swept = self.kit.now()
        self._arm_watchdog()
        log.info("matches started on shards %s: %d restored, %d waiting for their boards",
                 shards, len(self.kit.live), len(boards))
        for post in boards:
            await self.kit.deliver(post)
        for hook in self.kit.started:  # what runs on the matches (tournaments) restores now
            await hook()

    def _last_alive(self, match: Match, beats: dict[str, float], legacy: float | None,
                    now: float) -> float | None:
        """When the owner of ``match``'s shard was last known alive with its clock
        running: its heartbeat, unless a later committed sign of life (the lease's last
        renewal, at a tick or a move) shows that heartbeat older than its bound (one
        step of the grid): then that sign (see the module's docstring)."""
        key = self.kit.leases.shards.key_of(match.guild_id)
        beat = beats.get(key, legacy)
        renewed = self.kit.leases.renewed_before.get(key)
        if renewed is None or renewed > now:
            return beat
        if beat is None or renewed > beat + self._step + 1.0:
            if beat is not None and TimeControl.from_json(match.time_control).enabled:
                self.kit.health.stale_heartbeats += 1
                log.warning("match %s: the heartbeat of %s (%.1f s before the lease's "
                            "last renewal) is stale; the turn counts up to that renewal",
                            match.id, key, renewed - beat)
            return renewed
        return beat

    async def stop(self) -> None:
        """Stop timers, record the moment (so that the next start is exact) and give
        the leases back (so that the next process starts at once)."""
        for hook in self.kit.stopping:
            try:
                await hook()
            except Exception:
                log.exception("a stop hook failed")
        self._stop_timers()
        if not self.kit.leases.lost:
            async with self.kit.db.session() as s, s.begin():
                await self._beat(s, self.kit.now())
            await self.kit.leases.release()
        self.kit.renderer.close()

    def abandon(self) -> None:
        """The lease is lost (another process took our shards over): stop every timer
        and forget every match, so that nothing here acts on them again."""
        for live in self.kit.live:
            live.finished = True
            self.timing.disarm(live)
            self.kit.live.remove(live)
        self._stop_timers()

    def _stop_timers(self) -> None:
        for live in self.kit.live:
            self.timing.disarm(live)
        self.lobby.stop()
        self.choosing.stop()
        self._ticking = False
        if self._heartbeat:
            self._heartbeat.cancel()
            self._heartbeat = None
        if self._watchdog:
            self._watchdog.cancel()
            self._watchdog = None

    # ---- the watchdog ----------------------------------------------------------------

    def _arm_watchdog(self) -> None:
        async def round_() -> None:
            try:
                await self.watch()
            except Exception:
                log.exception("WATCHDOG: a round failed; the next one in %.0f s",
                              WATCHDOG_EVERY)
            if self._ticking and not self.kit.leases.lost:
                self._arm_watchdog()

        self._watchdog = self.kit.clock.call_at(self.kit.now() + WATCHDOG_EVERY, round_)

    async def watch(self, sweep: bool | None = None) -> int:
        """One round of the watchdog: everything that runs and has no armed timer is
        armed again, logged and counted; what waits in the database only with ``sweep``
        (None: when ``SWEEP_EVERY`` has passed). How many it armed."""
        if self.kit.leases.lost:
            return 0
        found = 0
        for live in self.kit.live:
            if not self.timing.armed(live):
                found += 1
                log.error("WATCHDOG: match %s was running without a timer; armed again",
                          live.id)
                self.timing.arm(live)
        now = self.kit.now()
        if sweep is None:
            sweep = now >= self._swept + SWEEP_EVERY - 1e-6
        if not sweep:
            self.kit.health.rearmed += found
            return found
        self._swept = now
        shards = self.kit.leases.shards
        async with self.kit.db.session() as s:
            waiting = [m for m in (await s.scalars(select(Match).where(
                Match.status.in_((MatchStatus.PENDING, MatchStatus.CHOOSING))))).all()
                if shards.owns(m.guild_id)]
        for match in waiting:
            retrying = Retrying.of(match.time_control)
            if retrying is not None:
                if retrying.at is not None and not self.lobby.start_armed(match.id):
                    found += 1
                    log.error("WATCHDOG: match %s had its start kept to try again, with "
                              "no timer; armed again", match.id)
                    self.lobby.restore_start(match)
                continue
            if match.status == MatchStatus.PENDING and not self.lobby.expiry_armed(match.id):
                found += 1
                log.error("WATCHDOG: challenge %s had no expiry; armed again", match.id)
                self.lobby.arm_expiry(match.id, match.created_at + CHALLENGE_TTL)
            elif (match.status == MatchStatus.CHOOSING and match.kind == MatchKind.DM
                  and not self.choosing.armed(match.id)):
                found += 1
                log.error("WATCHDOG: DM %s had no First Player deadline; armed again",
                          match.id)
                self.choosing.restore(match)
        for sweep_more in self.kit.sweeps:
            found += await sweep_more()
        self.kit.health.rearmed += found
        return found

    async def _board_again(self, live: LiveMatch, now: float) -> Post:
        """A turn that was waiting for its board when the bot stopped: its board again,
        and its clock starts once that is out (never charged for the restart)."""
        async with self.kit.db.session() as s, s.begin():
            await s.execute(update(Match).where(Match.id == live.id).values(
                turn_resumed_at=now + BOARD_WAIT))
        extra, banked = live.extra, live.banked  # a host's extension of this turn stays
        turn = self.timing.start_turn(live, now)
        live.extra, live.banked = extra, banked
        live.plan_reminders()
        image = await self.kit.render(live.game, live.state, live.names, live.hints,
                                      server=live.guild_id)
        text = texts.board_again(texts.match_label(live.number, live.kind),
                                 self.kit.turn_line(live))
        return Post(text, live.channel_id, image=image, turn=turn, pace=Pace.BOARD)

    async def _beat(self, s: AsyncSession, now: float) -> None:
        """The heartbeat of every lease we hold, in the caller's transaction."""
        for key in self.kit.leases.keys:
            beat = await s.get(Heartbeat, key)
            if beat is None:
                s.add(Heartbeat(instance=key, at=now))
            else:
                beat.at = now

    async def alive(self, live: LiveMatch) -> None:
        """The heartbeat of one match's shard, now (before a reminder is posted)."""
        if self.kit.leases.lost:
            return
        # Through the move writer: one transaction with the moves of the moment.
        await self.kit.moves.write(Beat(self.kit.leases.shards.key_of(live.guild_id),
                                        self.kit.now()))

    @property
    def _step(self) -> float:
        return min(self.kit.config.heartbeat_every, self.kit.leases.renew_every)

    def _clock_running(self) -> bool:
        """Does a match's clock run (timed, not paused), or stand still only because the
        database could not be written? Only then is the 2-s beat due."""
        return any(live.tc.enabled and (not live.paused or live.stalled_at is not None)
                   for live in self.kit.live)

    def _schedule_heartbeat(self) -> None:
        """From ``start``: the first tick, one step on."""
        self._ticking = True
        self._grid = self.kit.now()
        self._arm_tick(self._grid + self._step)

    def _arm_tick(self, when: float) -> None:
        if self._heartbeat:
            self._heartbeat.cancel()
        self._beat_at = when
        self._heartbeat = self.kit.clock.call_at(when, self._tick)

    def _on_grid(self, at_least: float) -> float:
        """The first tick of the grid at or after ``at_least``."""
        steps = math.ceil((at_least - self._grid) / self._step - 1e-6)
        return self._grid + steps * self._step

    def _next_on_grid(self, after: float) -> float:
        """The first tick of the grid after ``after``."""
        steps = math.floor((after - self._grid) / self._step + 1e-6) + 1
        return self._grid + steps * self._step

    def wake(self) -> None:
        """A clock starts running: the next tick no later than the next step of the grid
        (it may have been put off to the next lease renewal while no clock ran). Nothing
        to do while a tick runs (it looks again when it is done) or once stopped."""
        if self._heartbeat is None or self.kit.leases.lost:
            return
        due = self._next_on_grid(self.kit.now())
        if due < self._beat_at - 1e-9:
            self._arm_tick(due)

    async def _tick(self) -> None:
        # Only a running clock needs to know when its owner was last alive; the leases
        # are renewed on their own every ``renew_every``, and a live match without a
        # running clock has its heartbeat then (its idle lapse is a day away). A write
        # that fails changes nothing of the schedule: the next tick tries again.
        leases = self.kit.leases
        now = self.kit.now()
        self._heartbeat = None
        running = self._clock_running()
        renew = now >= self._renewed + leases.renew_every - 1e-9
        beat = running or (renew and len(self.kit.live) > 0)
        failed = False
        if not leases.lost and (beat or renew):
            # The matches stalled by an outage go on in the heartbeat's own transaction:
            # a heartbeat after the outage never stands for a clock still stopped in
            # memory only. Their locks are free (taken at once) or they are left to
            # their own timers.
            stalled = [live for live in self.kit.live if live.stalled_at is not None
                       and live.paused and not live.finished and not live.lock.locked()]
            for live in stalled:
                await live.lock.acquire()
            went_on: list[LiveMatch] = []
            try:
                async with self.kit.db.engine.begin() as conn:
                    kept = True
                    if renew:
                        kept = await leases.renew_in(conn)
                    if kept and beat:  # only the heartbeats of leases still ours
                        await conn.execute(update(Heartbeat)
                                           .where(Heartbeat.instance.in_(leases.mine()))
                                           .values(at=now))
                        for live in stalled:
                            await conn.execute(update(Match).where(
                                Match.id == live.id, Match.status == MatchStatus.RUNNING)
                                .values(turn_elapsed=live.turn_elapsed, turn_resumed_at=now))
                        went_on = stalled
                if renew:
                    self._renewed = now
                posts = [self.timing.went_on(live, now) for live in went_on]
                for live in went_on:
                    self.timing.arm(live)
            except Exception as error:
                failed = True
                for live in stalled:
                    live.lock.release()
                await self._cannot_beat(now, error)
            else:
                for live in stalled:
                    live.lock.release()
                await self._beat_again(now, posts)
        if leases.lost or not self._ticking:
            return  # lost, or stopped while this tick wrote
        if failed or self._clock_running():
            self._arm_tick(self._next_on_grid(now))
        else:  # nothing to beat for: the next renewal, on the grid
            self._arm_tick(self._on_grid(self._renewed + leases.renew_every))

    async def _cannot_beat(self, now: float, error: Exception) -> None:
        """The heartbeat (or the lease renewal) could not be written: every running
        clock stands still from this tick (nobody is charged for the outage), told."""
        health = self.kit.health
        health.heartbeat_failures += 1
        if health.db_down_since is None:
            health.db_down_since = now
            log.error("DATABASE: the heartbeat cannot be written (%s); every running "
                      "clock stands still until it can", error)
        else:
            log.warning("DATABASE: the heartbeat still cannot be written, %.0f s on (%s)",
                        now - health.db_down_since, error)
        told = []
        for live in self.kit.live:
            if live.lock.locked() or not live.tc.enabled:
                # In the middle of a write of its own (that write tells), or without a
                # clock (its idle lapse is a day away; its own timer stalls it if need be).
                continue
            if self.timing.stall(live, now):
                self.timing.arm(live)  # tries to write again, with backoff
                told.append(live)
        for live in told:
            await self.timing.tell(live, outage_texts.cannot_save(live.number, live.kind))

    async def _beat_again(self, now: float, posts: list[Post]) -> None:
        """The heartbeat is written, and with it the resumption of the matches stalled
        by the outage (``posts`` tell them); any other stalled match tries now."""
        health = self.kit.health
        if health.db_down_since is not None:
            log.warning("DATABASE: the heartbeat is written again after %.1f s",
                        now - health.db_down_since)
            health.db_down_since = None
        for live in self.kit.live:
            self.timing.kick(live)
        for post in posts:
            try:
                await self.kit.deliver(post)
            except Exception:
                log.exception("a notice could not be posted")

    async def _load(self, match: Match) -> LiveMatch:
        """A running match rebuilt from the database: its moves replayed."""
        game = get_game(match.game)
        async with self.kit.db.session() as s:
            moves = list((await s.scalars(
                select(Move).where(Move.match_id == match.id).order_by(Move.ply))).all())
        state = final_position(game, [Ply(m.kind, m.seat, m.notation) for m in moves],
                               match.seats, match.options)
        players = sorted(match.players, key=lambda p: p.seat if p.seat is not None else 99)
        names = await self.kit.names(match.guild_id, [p.user_id for p in players])
        live = LiveMatch(
            id=match.id, number=match.number, guild_id=match.guild_id, channel_id=match.channel_id,
            kind=match.kind, game=game, state=state, users=[p.user_id for p in players],
            names=names, tc=TimeControl.from_json(match.time_control),
            banks_left=[p.banks_left for p in players],
            time_used=[p.time_used for p in players], out=[p.out for p in players],
            ply=len(moves), turn_elapsed=match.turn_elapsed,
            resumed_at=match.turn_resumed_at if match.status == MatchStatus.RUNNING else None,
            extra=match.turn_extra, hints=match.hints, hosted=match.host_id is not None,
            reward=reward_of(match, self.kit.config.dm_reward), options=dict(match.options),
            show_up_by=show_up_by(match))
        kept = extended_of(match.time_control, live.ply)
        if kept is not None:
            live.banked = kept[1]
        offer = match.time_control.get("draw_offer")
        if isinstance(offer, list) and len(offer) == 2 and offer[1] == live.ply:
            live.draw_offer = int(offer[0])  # offered, and no move since
        live.plan_reminders()
        return live
