"""The clock of a running match: its one timer, the reminders, the flag.

Each match has one timer at a time: the next reminder or the flag, whichever is
first. Everything is arithmetic on the seconds the turn has used (see
``bot.core.timecontrol``), so it is the same after a restart.

A timer that cannot write (the database locked, disconnected, full) does not die: the
clock runs it again with backoff (``bot.core.clock``) until it succeeds or the match is
settled, and each callback rereads the match under its lock, so running it again is
safe. Meanwhile the match is *stalled*: its clock stands still from the instant the
failed attempt began (in memory; nobody is charged for the outage), its channel is told
once, and moves are still taken (a committed move ends the stall). The first write that
succeeds for it (the retried timer's, or a move's) ends the stall; the flag of a turn
that had run out before the outage is applied then, else the clock goes on from that
commit and the channel is told, after the commit. The heartbeat stalls every running
clock of this process when it cannot write either, and wakes the stalled ones when it
can again (``lifecycle``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import update

from bot.core import logs
from bot.core.clock import RETRY_FIRST
from bot.core.enums import MatchKind, MatchStatus
from bot.core.messages import Pace, Post, Response, TurnStart, Withdrawn
from bot.core.metrics import REMINDER_LATE, REMINDERS_DROPPED
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.vitals import CANNOT_SAVE
from bot.store.models import Heartbeat, Match
from bot.store.movelog import Beat, Record, TurnStarted
from bot.texts import match as texts
from bot.texts import outages as outage_texts

log = logging.getLogger(__name__)

OnFlag = Callable[[LiveMatch], Awaitable[Response]]
# A move counts when its player sent it (the message's Discord timestamp), up to this
# many seconds before the bot received it: a move sent in time but delivered late
# (a slow gateway, a short outage) is in time, and no older message can rewrite the
# game. The flag waits as long, so that such a move can still arrive.
MAX_LAG = 2.0
# A turn starts when its board is out (the adapter reports the post's own timestamp),
# so that a slow upload or a rate-limit wait is charged to no one; if no report comes
# within this many seconds of the move (the post failed, or the adapter is stuck), the
# turn starts anyway, and that is logged.
BOARD_WAIT = 30.0


class Timing:
    def __init__(self, kit: MatchKit, on_flag: OnFlag, on_idle: OnFlag) -> None:
        self.kit = kit
        # What happens when the reserve runs out (Ending.timeout), and when a casual
        # match without a clock has waited too long for a move (Courtesy.lapse).
        self.on_flag = on_flag
        self.on_idle = on_idle
        # The reminders on their way (by the post's id, with the post itself, so that
        # an id is never taken for another post's): the moment each fell due.
        self._reminding: dict[int, tuple[Post, float]] = {}
        # The latest reminder of each match (by match id): an earlier one still on its
        # way is replaced by it (``reminder``).
        self._latest: dict[int, Post] = {}

    def arm(self, live: LiveMatch) -> None:
        """Set the one timer of a match: the next reminder or the flag, whichever first."""
        if live.timer:
            live.timer.cancel()
            live.timer = None
        if live.finished or live.to_move is None:
            return
        if live.stalled_at is not None and live.paused:
            # Stalled: try to write again soon (then with the clock's backoff).
            self.kit.clock_runs()
            self._call(live, self.kit.now() + RETRY_FIRST, lambda: self._tick(live))
            return
        if live.paused:
            return
        if not live.tc.enabled:
            self._arm_idle(live)
            return
        assert live.resumed_at is not None
        self.kit.clock_runs()
        if live.waiting is not None:
            # Nothing is due before the turn starts: at the latest, when the wait ends.
            token = live.waiting
            self._call(live, live.resumed_at, lambda: self._board_late(live, token))
            return
        due = live.flag_at() + MAX_LAG
        if live.next_reminder < len(live.reminders):
            due = min(due, live.reminders[live.next_reminder].at)
        when = live.resumed_at + (due - live.turn_elapsed)
        self._call(live, when, lambda: self._tick(live))

    def armed(self, live: LiveMatch) -> bool:
        """Does the match have the timer it needs (for the watchdog)?"""
        if live.timer is not None and live.timer.armed:
            return True
        if live.finished or live.to_move is None:
            return True
        if live.stalled_at is not None:
            return False
        if live.paused:
            return True
        if not live.tc.enabled:  # only a casual game's idle lapse
            return (self.kit.config.casual_idle <= 0 or live.hosted
                    or live.kind not in (MatchKind.CASUAL, MatchKind.PRACTICE))
        return False

    def kick(self, live: LiveMatch) -> None:
        """A stalled match: try its write now (the heartbeat wrote again)."""
        if live.finished or live.stalled_at is None:
            return
        if live.timer:
            live.timer.cancel()
        self._call(live, self.kit.now(), lambda: self._tick(live))

    def _call(self, live: LiveMatch, when: float, action: Callable[[], Awaitable[None]]
              ) -> None:
        """The match's one timer: ``action`` at ``when``; a stalled match's tick instead
        (it ends the stall first); a write that fails stalls the match and raises, so
        that the clock runs it again."""
        async def run() -> None:
            began = self.kit.now()
            # The log's match and server while the timer runs (given back after).
            match, server = logs.MATCH.set(live.id), logs.SERVER.set(live.guild_id)
            try:
                async with self.kit.speaking_for(live.guild_id):  # its posts: the server's
                    if live.stalled_at is not None:
                        await self._tick(live)
                    else:
                        await action()
            except CANNOT_SAVE:
                async with live.lock:
                    stalled = self.stall(live, began)
                if stalled:
                    await self.tell(live, outage_texts.cannot_save(live.number, live.kind))
                raise
            finally:
                logs.SERVER.reset(server)
                logs.MATCH.reset(match)

        live.timer = self.kit.clock.call_at(when, run)

    def stall(self, live: LiveMatch, at: float) -> bool:
        """The database cannot be written: the match's clock stands still from ``at``
        (in memory; the caller holds its lock or knows it free). True if it ran until
        now (its channel is to be told), False if it was stopped already."""
        if live.finished or live.stalled_at is not None or live.paused:
            return False
        live.turn_elapsed = live.elapsed(at)
        live.resumed_at = None
        live.waiting = None  # a turn waiting for its board starts when it goes on
        live.stalled_at = at
        self.kit.health.stalls += 1
        log.warning("match %s: the database cannot be written; its clock stands still "
                    "at %.1f s of the turn", live.id, live.turn_elapsed)
        return True

    async def tell(self, live: LiveMatch, text: str) -> None:
        """A notice in the match's channel; one that cannot be posted is logged only."""
        try:
            await self.kit.deliver(Post(text, live.channel_id, pings=()))
        except Exception:
            log.exception("match %s: a notice could not be posted", live.id)

    async def _go_on(self, live: LiveMatch) -> list[Post]:
        """End a stall: the turn goes on from now, committed first (raises while the
        database still cannot be written), then told."""
        now = self.kit.now()
        assert live.stalled_at is not None
        async with self.kit.db.session() as s, s.begin():
            await s.execute(update(Match).where(
                Match.id == live.id, Match.status == MatchStatus.RUNNING).values(
                turn_elapsed=live.turn_elapsed, turn_resumed_at=now))
            await s.execute(update(Heartbeat).where(
                Heartbeat.instance == self.kit.leases.shards.key_of(live.guild_id))
                .values(at=now))
        return [self.went_on(live, now)]

    def went_on(self, live: LiveMatch, now: float) -> Post:
        """A stalled match whose resumption from ``now`` is committed: in memory, and
        what its channel is told."""
        assert live.stalled_at is not None
        lasted = now - live.stalled_at
        live.stalled_at = None
        live.resumed_at = now
        self.kit.health.recoveries += 1
        log.warning("match %s: the database can be written again after %.1f s; its clock "
                    "goes on", live.id, lasted)
        self.kit.on_turn(live)
        return Post(outage_texts.saved_again(live.number, live.kind, lasted,
                                             self.kit.turn_line(live)),
                    live.channel_id, pings=())

    def _arm_idle(self, live: LiveMatch) -> None:
        """A casual match without a clock lapses after the idle time without a move."""
        idle = self.kit.config.casual_idle
        if idle <= 0 or live.hosted or live.kind not in (MatchKind.CASUAL, MatchKind.PRACTICE):
            return
        assert live.resumed_at is not None
        when = live.resumed_at + (idle - live.turn_elapsed)
        self._call(live, when, lambda: self._idle(live))

    async def _idle(self, live: LiveMatch) -> None:
        async with live.lock:
            if live.finished or live.paused or live.tc.enabled:
                return
            if live.elapsed(self.kit.now()) < self.kit.config.casual_idle - 1e-6:
                self.arm(live)
                return
            response = await self.on_idle(live)
        await self.deliver(live, response.posts)

    def start_turn(self, live: LiveMatch, now: float) -> TurnStart:
        """The next player's turn, waiting for its board: its clock starts when the
        adapter reports the board post (``board_posted``), at most ``BOARD_WAIT`` from
        ``now``. Returns the token for the board's post."""
        token = live.new_turn(now, BOARD_WAIT)
        assert token is not None
        self.arm(live)
        return token

    def board_again(self, live: LiveMatch, now: float) -> TurnStart:
        """The turn under way goes on (resumed, or taken back to) with a board of its
        own: its clock, with what it used so far, runs again once that board is out
        (``board_posted``), at most ``BOARD_WAIT`` from ``now``. The caller stores
        ``live.resumed_at`` (what a restart reads). Returns the token for the board."""
        live.resumed_at = now + BOARD_WAIT
        live.board_from = now
        live.waiting = TurnStart(live.guild_id, live.id, live.ply)
        self.arm(live)
        return live.waiting

    async def board_posted(self, token: TurnStart, at: float) -> None:
        """The adapter's report: the board of ``token``'s turn is out since ``at`` (the
        post's own timestamp). The turn's clock runs from then: never before the move
        was processed, never after now or the end of the wait."""
        live = self.kit.live.by_id().get(token.match_id)
        if live is None or live.guild_id != token.guild_id or live.waiting != token:
            return  # another turn by now, a pause, or late: nothing to start
        async with live.lock:
            if live.waiting != token or live.finished or live.resumed_at is None:
                return
            start = min(max(at, live.board_from), live.resumed_at, self.kit.now())
            await self._started(live, start)
            log.debug("match %s: board of ply %s out %.3f s after the move", live.id,
                      token.ply, start - live.board_from)

    async def _board_late(self, live: LiveMatch, token: TurnStart) -> None:
        async with live.lock:
            if live.waiting != token or live.finished or live.resumed_at is None:
                return
            log.warning("match %s: no report of the board of ply %s within %.0f s; "
                        "the turn starts now", live.id, token.ply, BOARD_WAIT)
            await self._started(live, live.resumed_at)

    async def _started(self, live: LiveMatch, start: float) -> None:
        """The waiting turn starts at ``start``: in the database (what a restart reads)
        and in memory. Its shard's heartbeat is written with it, so that a restart never
        takes a started turn for one still waiting for its board."""
        # Through the move writer: with the moves and the other turns' starts of the
        # moment in one transaction, not one each behind them all (``movelog``).
        records: list[Record] = [TurnStarted(live.id, start)]
        if not self.kit.leases.lost:
            records.append(Beat(self.kit.leases.shards.key_of(live.guild_id),
                                max(start, self.kit.now())))
        await self.kit.moves.write(*records)
        live.waiting = None
        live.resumed_at = start
        self.arm(live)

    def disarm(self, live: LiveMatch) -> None:
        if live.timer:
            live.timer.cancel()
            live.timer = None

    def counted_at(self, sent_at: float | None) -> float:
        """When a move counts: when it was sent, bounded to ``MAX_LAG`` before now."""
        now = self.kit.now()
        if sent_at is None or sent_at >= now:
            return now
        if now - sent_at > MAX_LAG:
            log.info("a move sent %.1f s before it arrived counts %.1f s early", now - sent_at,
                     MAX_LAG)
        return now - min(now - sent_at, MAX_LAG)

    def flagged(self, live: LiveMatch, elapsed: float) -> bool:
        """Has the player to move run out of time after ``elapsed`` seconds of the turn?"""
        return live.tc.enabled and elapsed >= live.flag_at() - 1e-9

    async def _tick(self, live: LiveMatch) -> None:
        async with live.lock:
            posts = await self._due(live)
        # Posted outside the lock: a board that starts the next turn (a game of more
        # than two plays on after a flag) is reported back under it (board_posted).
        await self.deliver(live, posts)

    async def deliver(self, live: LiveMatch, posts: list[Post]) -> None:
        """A timer's posts, once what they say is committed. One that fails is logged
        (the adapter reports what it cannot post): it is no database failure, and the
        timer is not run again for it (that would post the rest twice)."""
        for post in posts:
            reminding = self._reminding.pop(id(post), None)
            due = reminding[1] if reminding is not None and reminding[0] is post else None
            try:
                await self.kit.deliver(post)
            except Withdrawn:  # a reminder the move or a later reminder overtook
                REMINDERS_DROPPED.labels("moved" if self._latest.get(live.id) is post
                                         else "replaced").inc()
                continue
            except Exception:
                log.exception("match %s: a post of its timer could not be delivered",
                              live.id)
                continue
            finally:
                if self._latest.get(live.id) is post:  # out or dropped: none waits
                    del self._latest[live.id]
            if due is not None:
                # A reminder's lateness: from its moment to when it is out (its post
                # through the global pacer and Discord's limits), not to the timer.
                late = max(0.0, self.kit.now() - due)
                REMINDER_LATE.observe(late)
                if self.kit.on_reminder is not None:
                    self.kit.on_reminder(late)

    def reminder(self, live: LiveMatch, post: Post, due: float) -> Post:
        """A reminder of the turn under way, due at ``due``, wanted only until that
        turn's move lands (or the match ends) and while no later reminder of the turn
        replaced it: one still waiting at Discord's limit then is dropped, not sent
        (``Post.current``). Its lateness is observed once it is out (``deliver``)."""
        self._reminding[id(post)] = (post, due)
        ply = live.ply

        def current() -> bool:
            return (live.ply == ply and not live.finished
                    and self._latest.get(live.id) is post)

        post.current = current
        self._latest[live.id] = post
        return post

    async def _due(self, live: LiveMatch) -> list[Post]:
        """What falls due at a tick (the caller holds the lock): the end of a stall, the
        flag, a reminder; the timer for the next."""
        posts: list[Post] = []
        if live.finished:
            return posts
        if live.stalled_at is not None:
            if not live.paused:  # resumed meanwhile (a host): that write went through
                live.stalled_at = None
            elif (live.tc.enabled and live.to_move is not None
                  and live.turn_elapsed >= live.flag_at() + MAX_LAG - 1e-6):
                # Run out before the outage: the flag, which ends the stall.
                posts = (await self.on_flag(live)).posts
                live.stalled_at = None
                return posts
            else:
                posts = await self._go_on(live)
                if not live.tc.enabled:
                    self.arm(live)
                    return posts
        if live.paused:
            return posts
        elapsed = live.elapsed(self.kit.now())
        if elapsed >= live.flag_at() + MAX_LAG - 1e-6:
            return posts + (await self.on_flag(live)).posts
        due = None
        passed = live.next_reminder
        while passed < len(live.reminders) and live.reminders[passed].at <= elapsed + 1e-6:
            due = live.reminders[passed]
            passed += 1
        seat = live.to_move
        if due is not None and seat is not None:
            # Once posted, never posted again by a takeover: written first (a failure
            # leaves the reminder due, and the tick runs again).
            await self.kit.alive(live)
        live.next_reminder = passed
        self.arm(live)
        if due is not None and seat is not None:
            # Several overdue at once (the loop was stalled) post only the newest.
            # Its moment on the kit's clock: its lateness is observed once it is out.
            posts.append(self.reminder(
                live, Post(texts.reminder(live.users[seat], due, live.tc), live.channel_id,
                           pace=Pace.LOW), self.kit.now() - (elapsed - due.at)))
        return posts
