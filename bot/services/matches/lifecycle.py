"""Start and stop: matches restored with their clocks as they stood, and the
heartbeat that makes that exact.

The time the bot was down is never charged: a turn resumes from the bot's last
heartbeat, so after a crash a player may get up to one heartbeat back, never lose
any.
"""

from __future__ import annotations

import logging

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.clock import Handle
from bot.core.enums import ACTIVE, PLAYING, MatchStatus
from bot.core.messages import Post
from bot.core.timecontrol import TimeControl
from bot.services.matches.choosing import Choosing
from bot.services.matches.ending import reward_of
from bot.services.matches.kit import CHALLENGE_TTL, MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lobby import Lobby
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.store.models import Heartbeat, Match, Move
from bot.texts import match as texts
from engine.animation import Ply, final_position
from engine.registry import get_game

log = logging.getLogger(__name__)


class Lifecycle:
    def __init__(self, kit: MatchKit, timing: Timing, lobby: Lobby,
                 choosing: Choosing) -> None:
        self.kit = kit
        self.timing = timing
        self.lobby = lobby
        self.choosing = choosing
        self._heartbeat: Handle | None = None

    async def start(self) -> None:
        """Restore every match that was running, with its clock as it stood."""
        now = self.kit.now()
        instance = self.kit.config.instance
        async with self.kit.db.session() as s, s.begin():
            beat = await s.get(Heartbeat, instance)
            last_alive = beat.at if beat else None
            rows = (await s.scalars(select(Match).where(Match.status.in_(ACTIVE)))).all()
            waiting: set[int] = set()
            for match in rows:
                if (match.status == MatchStatus.RUNNING and match.turn_resumed_at is not None
                        and match.turn_resumed_at > (last_alive if last_alive else now)):
                    # The turn was waiting for its board (Timing.start_turn), which may
                    # never have been posted: it is posted again and waits again.
                    waiting.add(match.id)
                if match.status == MatchStatus.RUNNING and match.turn_resumed_at is not None:
                    # Count the turn up to when the bot was last known alive, never the
                    # outage: a restart must not cost a player time.
                    ran = (max(0.0, last_alive - match.turn_resumed_at)
                           if last_alive is not None else 0.0)
                    match.turn_elapsed += ran
                    match.turn_resumed_at = now
            await self._beat(s, now)
        boards: list[Post] = []
        for match in rows:
            if match.status in PLAYING:
                live = await self._load(match)
                self.kit.live.add(live)
                if match.id in waiting and live.turn_elapsed == 0.0:
                    boards.append(await self._board_again(live, now))
                else:
                    self.timing.arm(live)
                self.kit.on_turn(live)  # the computer player's turn: it thinks again
            elif match.status == MatchStatus.PENDING:
                self.lobby.arm_expiry(match.id, match.created_at + CHALLENGE_TTL)
            elif match.status == MatchStatus.CHOOSING:
                self.choosing.restore(match)
        self._schedule_heartbeat()
        log.info("matches started: %d restored, %d waiting for their boards",
                 len(self.kit.live), len(boards))
        for post in boards:
            await self.kit.deliver(post)
        for hook in self.kit.started:  # what runs on the matches (tournaments) restores now
            await hook()

    async def stop(self) -> None:
        """Stop timers and record the moment, so that the next start is exact."""
        for hook in self.kit.stopping:
            try:
                await hook()
            except Exception:
                log.exception("a stop hook failed")
        for live in self.kit.live:
            self.timing.disarm(live)
        self.lobby.stop()
        self.choosing.stop()
        if self._heartbeat:
            self._heartbeat.cancel()
        async with self.kit.db.session() as s, s.begin():
            await self._beat(s, self.kit.now())
        self.kit.renderer.close()

    async def _board_again(self, live: LiveMatch, now: float) -> Post:
        """A turn that was waiting for its board when the bot stopped: its board again,
        and its clock starts once that is out (never charged for the restart)."""
        async with self.kit.db.session() as s, s.begin():
            await s.execute(update(Match).where(Match.id == live.id).values(
                turn_resumed_at=now + BOARD_WAIT))
        extra = live.extra  # a host's extension of this turn stays
        turn = self.timing.start_turn(live, now)
        live.extra = extra
        live.plan_reminders()
        image = await self.kit.render(live.game, live.state, live.names, live.hints)
        text = texts.board_again(texts.match_label(live.number, live.kind),
                                 self.kit.turn_line(live))
        return Post(text, live.channel_id, image=image, turn=turn)

    async def _beat(self, s: AsyncSession, now: float) -> None:
        instance = self.kit.config.instance
        beat = await s.get(Heartbeat, instance)
        if beat is None:
            s.add(Heartbeat(instance=instance, at=now))
        else:
            beat.at = now

    def _schedule_heartbeat(self) -> None:
        async def tick() -> None:
            # Only a running clock needs to know when the bot was last alive.
            if any(not live.paused for live in self.kit.live):
                async with self.kit.db.engine.begin() as conn:
                    await conn.execute(
                        update(Heartbeat)
                        .where(Heartbeat.instance == self.kit.config.instance)
                        .values(at=self.kit.now()))
            self._schedule_heartbeat()

        self._heartbeat = self.kit.clock.call_at(
            self.kit.now() + self.kit.config.heartbeat_every, tick)

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
            reward=reward_of(match, self.kit.config.dm_reward), options=dict(match.options))
        offer = match.time_control.get("draw_offer")
        if isinstance(offer, list) and len(offer) == 2 and offer[1] == live.ply:
            live.draw_offer = int(offer[0])  # offered, and no move since
        live.plan_reminders()
        return live
