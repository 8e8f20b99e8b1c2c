"""The clock of a running match: its one timer, the reminders, the flag.

Each match has one timer at a time: the next reminder or the flag, whichever is
first. Everything is arithmetic on the seconds the turn has used (see
``bot.core.timecontrol``), so it is the same after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import update

from bot.core.enums import MatchKind, MatchStatus
from bot.core.messages import Post, Response, TurnStart
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.store.models import Match
from bot.texts import match as texts

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

    def arm(self, live: LiveMatch) -> None:
        """Set the one timer of a match: the next reminder or the flag, whichever first."""
        if live.timer:
            live.timer.cancel()
            live.timer = None
        if live.finished or live.paused or live.to_move is None:
            return
        if not live.tc.enabled:
            self._arm_idle(live)
            return
        assert live.resumed_at is not None
        if live.waiting is not None:
            # Nothing is due before the turn starts: at the latest, when the wait ends.
            token = live.waiting
            live.timer = self.kit.clock.call_at(live.resumed_at,
                                                lambda: self._board_late(live, token))
            return
        due = live.flag_at() + MAX_LAG
        if live.next_reminder < len(live.reminders):
            due = min(due, live.reminders[live.next_reminder].at)
        when = live.resumed_at + (due - live.turn_elapsed)
        live.timer = self.kit.clock.call_at(when, lambda: self._tick(live))

    def _arm_idle(self, live: LiveMatch) -> None:
        """A casual match without a clock lapses after the idle time without a move."""
        idle = self.kit.config.casual_idle
        if idle <= 0 or live.hosted or live.kind not in (MatchKind.CASUAL, MatchKind.PRACTICE):
            return
        assert live.resumed_at is not None
        when = live.resumed_at + (idle - live.turn_elapsed)
        live.timer = self.kit.clock.call_at(when, lambda: self._idle(live))

    async def _idle(self, live: LiveMatch) -> None:
        async with live.lock:
            live.timer = None
            if live.finished or live.paused or live.tc.enabled:
                return
            if live.elapsed(self.kit.now()) < self.kit.config.casual_idle - 1e-6:
                self.arm(live)
                return
            response = await self.on_idle(live)
        for post in response.posts:
            await self.kit.deliver(post)

    def start_turn(self, live: LiveMatch, now: float) -> TurnStart:
        """The next player's turn, waiting for its board: its clock starts when the
        adapter reports the board post (``board_posted``), at most ``BOARD_WAIT`` from
        ``now``. Returns the token for the board's post."""
        token = live.new_turn(now, BOARD_WAIT)
        assert token is not None
        self.arm(live)
        return token

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
            live.timer = None
            if live.waiting != token or live.finished or live.resumed_at is None:
                return
            log.warning("match %s: no report of the board of ply %s within %.0f s; "
                        "the turn starts now", live.id, token.ply, BOARD_WAIT)
            await self._started(live, live.resumed_at)

    async def _started(self, live: LiveMatch, start: float) -> None:
        """The waiting turn starts at ``start``: in the database (what a restart reads)
        and in memory."""
        async with self.kit.db.session() as s, s.begin():
            await s.execute(update(Match).where(
                Match.id == live.id, Match.status == MatchStatus.RUNNING).values(
                turn_resumed_at=start))
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
        posts: list[Post] = []
        async with live.lock:
            live.timer = None
            if live.finished or live.paused:
                return
            elapsed = live.elapsed(self.kit.now())
            if elapsed >= live.flag_at() + MAX_LAG - 1e-6:
                posts = (await self.on_flag(live)).posts
            else:
                due = None
                while (live.next_reminder < len(live.reminders)
                       and live.reminders[live.next_reminder].at <= elapsed + 1e-6):
                    due = live.reminders[live.next_reminder]
                    live.next_reminder += 1
                self.arm(live)
                seat = live.to_move
                if due is not None and seat is not None:
                    # Several overdue at once (the loop was stalled) post only the newest.
                    if self.kit.on_reminder is not None:
                        self.kit.on_reminder(elapsed - due.at)
                    await self.kit.alive(live)  # once posted, never posted again by a takeover
                    posts = [Post(texts.reminder(live.users[seat], due, live.tc),
                                  live.channel_id)]
        # Posted outside the lock: a board that starts the next turn (a game of more
        # than two plays on after a flag) is reported back under it (board_posted).
        for post in posts:
            await self.kit.deliver(post)
