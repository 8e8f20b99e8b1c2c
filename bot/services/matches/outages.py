"""When Discord stands in the way of a match, nobody is charged and a host is told.

- A channel garnet cannot post to for good (a permission taken away, a deleted
  channel or thread, a locked thread), told by the adapter as a ``PostFailure``:
  each match played there is paused at that moment, the pause logged as garnet's,
  and the hosts are told what is missing and how to fix it, in the server's log
  channel (``/logchannel``), else where the match was started. ``/resume`` checks
  that garnet can post again and posts the board.
- Removed from a server: its matches are paused and logged (nothing can be posted).
- A lost gateway connection: every running clock of this process stands still from
  the disconnect (in memory) and goes on when the connection is back; an outage
  longer than ``OUTAGE_NOTICE`` is announced in each match it touched.
- A player who leaves the server during a match: the hosts are told; they decide.
"""

from __future__ import annotations

import logging

from sqlalchemy import update

from bot.core.enums import MatchStatus
from bot.core.failures import Cause, PostFailure
from bot.core.messages import Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches.controls import Controls
from bot.services.matches.kit import MatchKit
from bot.services.matches.timing import Timing
from bot.store.models import GuildSettings, Match
from bot.texts import outages as texts

log = logging.getLogger(__name__)

# An outage at most this long passes without a word in the matches (nobody is charged
# for it either way).
OUTAGE_NOTICE = 5.0


class Outages:
    def __init__(self, kit: MatchKit, timing: Timing, controls: Controls) -> None:
        self.kit = kit
        self.timing = timing
        self.controls = controls
        self.down_since: float | None = None  # the gateway's disconnect, while it lasts

    # ---- a channel garnet cannot post to -----------------------------------------

    async def post_failed(self, failure: PostFailure) -> list[Post]:
        """Pause every match played in the failed channel, now; the posts that tell
        the hosts (none for a match already told of this channel)."""
        notices: list[Post] = []
        for live in self.kit.live:
            if live.channel_id != failure.channel_id or live.finished:
                continue
            async with live.lock:
                if live.finished or (live.halted is not None
                                      and live.halted.channel_id == failure.channel_id):
                    continue
                if not live.paused or live.suspended_at is not None:
                    await self.controls.stop_clock(live, None, texts.halt_reason(
                        failure.cause, failure.channel_id, failure.missing))
                    log.warning("match %s paused: cannot post to channel %s (%s)", live.id,
                                failure.channel_id, failure.cause.value)
                live.halted = failure
            where = await self.log_channel(live.guild_id)
            if where is None or where == failure.channel_id:
                where = failure.fallback
            if where is None or where == failure.channel_id:
                log.warning("match %s: no channel to tell its hosts in", live.id)
                continue
            notices.append(Post(texts.halted(live.number, live.kind, failure.channel_id,
                                             failure.cause, failure.missing),
                                where, pings=()))
        return notices

    async def server_left(self, guild_id: str) -> None:
        """garnet was removed from a server: its matches are paused and logged."""
        for live in self.kit.live:
            if live.guild_id != guild_id:
                continue
            async with live.lock:
                if live.finished:
                    continue
                if not live.paused or live.suspended_at is not None:
                    await self.controls.stop_clock(
                        live, None, texts.removed(live.number, live.kind))
                live.halted = PostFailure(live.channel_id, Cause.REMOVED)
                log.warning("match %s paused: garnet was removed from server %s", live.id,
                            guild_id)

    # ---- the gateway ---------------------------------------------------------------

    def disconnected(self) -> None:
        """The gateway is down: every running clock stands still from now (again and
        again while it stays down: only the first disconnect counts)."""
        if self.down_since is not None:
            return
        now = self.kit.now()
        self.down_since = now
        for live in self.kit.live:
            if live.finished or live.paused:
                continue
            live.turn_elapsed = live.elapsed(now)
            live.resumed_at = None
            live.suspended_at = now
            self.timing.disarm(live)

    async def reconnected(self) -> list[Post]:
        """The gateway is back: the clocks stopped by the outage go on from now (once,
        however many times it says so); an outage over ``OUTAGE_NOTICE`` is told."""
        if self.down_since is None:
            return []
        now = self.kit.now()
        lasted = now - self.down_since
        self.down_since = None
        posts: list[Post] = []
        for live in self.kit.live:
            async with live.lock:
                if live.finished or live.suspended_at is None:
                    continue
                live.suspended_at = None
                async with self.kit.db.session() as s, s.begin():
                    # The turn restarts from now: a restart later must not count the
                    # outage either.
                    await s.execute(update(Match).where(
                        Match.id == live.id, Match.status == MatchStatus.RUNNING).values(
                        turn_elapsed=live.turn_elapsed, turn_resumed_at=now))
                live.resumed_at = now
                self.timing.arm(live)
                self.kit.on_turn(live)
                if lasted > OUTAGE_NOTICE:
                    posts.append(Post(texts.reconnected(lasted, self.kit.turn_line(live)),
                                      live.channel_id, pings=()))
        if lasted > OUTAGE_NOTICE:
            log.warning("gateway outage of %.1f s: %d matches told", lasted, len(posts))
        return posts

    # ---- people who leave --------------------------------------------------------

    async def member_left(self, guild_id: str, user_id: str) -> list[Post]:
        """A player left the server: the hosts of each match they play are told."""
        posts = []
        for live in self.kit.live:
            if live.guild_id != guild_id or live.finished:
                continue
            seat = live.seat_of(user_id)
            if seat is None or live.out[seat]:
                continue
            where = await self.log_channel(guild_id) or live.channel_id
            posts.append(Post(texts.left_server(live.number, live.kind, user_id,
                                                live.names[seat], live.channel_id),
                              where, pings=()))
        return posts

    # ---- the log channel ---------------------------------------------------------

    async def log_channel(self, guild_id: str) -> str | None:
        async with self.kit.db.session() as s:
            settings = await s.get(GuildSettings, guild_id)
        return settings.log_channel if settings is not None else None

    async def set_log_channel(self, asker: Asker, channel_id: str | None,
                              clear: bool) -> Response:
        """``/logchannel``: set (``channel_id``), clear, or show the server's log channel."""
        guild_id = asker.guild_id
        await self.kit.roles.require_host(guild_id, asker.actor)
        if channel_id is not None and clear:
            raise Refusal(texts.channel_or_clear())
        if channel_id is None and not clear:
            return Response.say(texts.log_channel_is(await self.log_channel(guild_id)))
        async with self.kit.db.session() as s, s.begin():
            settings = await s.get(GuildSettings, guild_id)
            if settings is None:
                s.add(GuildSettings(guild_id=guild_id, log_channel=channel_id))
            else:
                settings.log_channel = channel_id
        if channel_id is None:
            return Response.say(texts.log_channel_cleared(), False)
        return Response.say(texts.log_channel_set(channel_id), False)

