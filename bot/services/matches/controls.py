"""What hosts may do to a running match: pause, resume, extend, void, adjudicate.
Each is checked, done under the match's lock, and logged with the match."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import update

from bot.core.enums import EndReason, MatchStatus
from bot.core.messages import Actor, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches.ending import Ending, Seated, Unstarted
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import MatchOver, NeedsReason
from bot.services.matches.timing import Timing
from bot.store.models import HostAction, Match
from bot.texts import match as texts
from bot.texts import outages as outage_texts
from bot.texts import refused
from bot.texts import waiting as waits

MAX_EXTEND = 86_400.0
GARNET = "garnet"  # who the log names for what garnet did on its own (a pause)


class Controls:
    def __init__(self, kit: MatchKit, lookup: Lookup, timing: Timing, ending: Ending) -> None:
        self.kit = kit
        self.lookup = lookup
        self.timing = timing
        self.ending = ending

    @asynccontextmanager
    async def _held(self, asker: Asker, match_id: int | None) -> AsyncIterator[LiveMatch]:
        """A host's hold on a running match: checked, found, locked, not yet over."""
        await self.kit.roles.require_host(asker.guild_id, asker.actor)
        live = await self.lookup.running(asker, match_id, player=False)
        async with live.lock:
            if live.finished:
                raise MatchOver()
            yield live

    async def pause(self, asker: Asker, match_id: int | None, reason: str = "") -> Response:
        async with self._held(asker, match_id) as live:
            if live.paused and live.suspended_at is None:
                raise Refusal(waits.already_paused(texts.match_label(live.number,
                                                                     live.kind)))
            await self.stop_clock(live, asker.actor, reason)
        return Response(reply=Post(
            texts.paused(texts.match_label(live.number, live.kind), asker.actor.id, reason),
            live.channel_id))

    async def stop_clock(self, live: LiveMatch, actor: Actor | None, reason: str) -> None:
        """Pause a match's clock now, logged as ``actor``'s pause (None: garnet's own,
        when it cannot post to the match); the caller holds the match's lock."""
        elapsed = live.elapsed(self.kit.now())
        async with self.kit.db.session() as s, s.begin():
            await s.execute(update(Match).where(Match.id == live.id).values(
                status=MatchStatus.PAUSED, turn_elapsed=elapsed, turn_resumed_at=None))
            if actor is not None:
                await self.ending.log(s, live, actor, "pause", reason)
            else:
                s.add(HostAction(match_id=live.id, actor_id=GARNET, action="pause",
                                 detail=reason, at=self.kit.now(), ply=live.ply))
        live.turn_elapsed = elapsed
        live.resumed_at = None
        live.suspended_at = None
        live.stalled_at = None  # a host's pause now, committed
        live.waiting = None  # a turn waiting for its board starts at the resume
        self.timing.arm(live)

    async def resume(self, asker: Asker, match_id: int | None) -> Response:
        async with self._held(asker, match_id) as live:
            if not live.paused or live.suspended_at is not None:
                raise Refusal(waits.not_paused(texts.match_label(live.number, live.kind)))
            halted = live.halted
            if halted is not None and self.kit.reach is not None:
                # Paused because garnet could not post there: only once it can again.
                still = await self.kit.reach(live.channel_id)
                if still is not None:
                    raise Refusal(outage_texts.still_blocked(
                        live.number, live.kind, still.channel_id, still.cause, still.missing))
            image = None
            if halted is not None:
                # The players may have missed the last board: it comes with the resume.
                image = await self.kit.render(live.game, live.state, live.names,
                                              live.hints, server=live.guild_id)
            now = self.kit.now()
            live.halted = None
            # The clock runs again once the post that says so is out (never during its
            # upload): ``Timing.board_again``.
            turn = self.timing.board_again(live, now)
            async with self.kit.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    status=MatchStatus.RUNNING, turn_resumed_at=live.resumed_at))
                await self.ending.log(s, live, asker.actor, "resume", "")
            self.kit.on_turn(live)
            line = self.kit.turn_line(live)
        return Response(reply=Post(
            texts.resumes(texts.match_label(live.number, live.kind), line), live.channel_id,
            image=image, turn=turn))

    async def extend(self, asker: Asker, match_id: int | None, seconds: float) -> Response:
        """Add seconds to this turn of the player to move: they run before any more of
        the reserve and belong to this turn only (``TimeControl.extend``), in turn
        time, in the reserve, or at the second of a flag."""
        if not 1 <= seconds <= MAX_EXTEND:
            raise Refusal(refused.extend_bounds())
        async with self._held(asker, match_id) as live:
            seat = live.to_move
            if not live.tc.enabled or seat is None:
                raise Refusal(refused.no_clock())
            if live.extra + seconds > MAX_EXTEND:
                # Many extensions in a row add up: a turn gets 24 h more at most.
                raise Refusal(texts.extend_cap(MAX_EXTEND, live.extra))
            now = self.kit.now()
            elapsed = live.elapsed(now)
            extra, banked = live.tc.extend(elapsed, live.banks_left[seat], live.extra,
                                           live.banked, seconds)
            async with self.kit.db.session() as s, s.begin():
                match = await s.get(Match, live.id)
                assert match is not None
                match.turn_extra = extra
                # What the turn keeps of it (a restart, a takeback read it back).
                match.time_control = {**match.time_control,
                                      "extended": [live.ply, extra, banked]}
                await self.ending.log(s, live, asker.actor, "extend", f"{seconds:g} s")
            live.extra, live.banked = extra, banked
            if not live.paused and live.waiting is None:
                live.turn_elapsed, live.resumed_at = elapsed, now
            live.plan_reminders()
            self.timing.arm(live)
            line = self.kit.turn_line(live)
        return Response(reply=Post(texts.extended(asker.actor.id, seconds, line), live.channel_id))

    @asynccontextmanager
    async def _decided(self, asker: Asker,
                       match_id: int | None) -> AsyncIterator[LiveMatch | Match]:
        """A host's hold on a match to void or decide: one being played, or a DM still
        waiting for its First Player; checked, locked, not yet over."""
        await self.kit.roles.require_host(asker.guild_id, asker.actor)
        target = await self.lookup.decided(match_id, asker.guild_id, asker.channel_id)
        if isinstance(target, LiveMatch):
            async with target.lock:
                if target.finished:
                    raise MatchOver()
                yield target
            return
        async with self.kit.lock(target.id):
            async with self.kit.db.session() as s:
                match = await s.get(Match, target.id)
            if match is None or match.status != MatchStatus.CHOOSING:
                raise MatchOver()
            yield match

    async def void(self, asker: Asker, match_id: int | None, reason: str) -> Response:
        """Cancel a match without a result (no reward, no rating); a DM waiting for its
        First Player too."""
        if not reason.strip():
            raise NeedsReason()
        async with self._decided(asker, match_id) as target:
            async with self.kit.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == target.id).values(
                    status=MatchStatus.VOIDED, finished_at=self.kit.now(),
                    end_reason=EndReason.VOID, turn_resumed_at=None,
                    result_text=texts.void_record(reason)))
                await self.ending.log(s, target, asker.actor, "void", reason)
            if isinstance(target, LiveMatch):
                self.ending.forget(target)
                seated: Seated = target
            else:
                seated = Unstarted.of(target, 0)
            said = Post(texts.voided(texts.match_label(target.number, target.kind), reason),
                        target.channel_id)
            told = await self.ending.told(seated, None, Response(), voided=True)
        return Response(reply=said, posts=told.posts)

    async def close(self, match_id: int, reason: str, at_ply: int | None = None) -> Response:
        """Void a running match by a rule rather than a host (a tournament's round
        deadline, a withdrawal): no result, nothing booked; watchers are told. With
        ``at_ply``, only if no move was made since (a no-show's window)."""
        live = self.kit.live.by_id().get(match_id)
        if live is None:
            return Response()
        async with live.lock:
            if live.finished or (at_ply is not None and live.ply != at_ply):
                return Response()
            async with self.kit.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    status=MatchStatus.VOIDED, finished_at=self.kit.now(),
                    end_reason=EndReason.VOID, turn_resumed_at=None,
                    result_text=texts.void_by_rule(reason)))
            self.ending.forget(live)
            return await self.ending.told(live, None, Response(posts=[Post(
                texts.voided(texts.match_label(live.number, live.kind), reason),
                live.channel_id)]), voided=True)

    async def adjudicate(self, asker: Asker, match_id: int | None, winner: str | None,
                         reason: str) -> Response:
        """The host decides the result: a player wins, or (``winner`` None) a draw; a DM
        waiting for its First Player too (a player who never came)."""
        if not reason.strip():
            raise NeedsReason()
        action = (asker.actor, "adjudicate", texts.adjudication_log(winner, reason))
        async with self._decided(asker, match_id) as target:
            if not isinstance(target, LiveMatch):
                if winner and winner not in {p.user_id for p in target.players}:
                    raise Refusal(refused.winner_is_a_player())
                return await self.ending.decide_unstarted(
                    target, winner, texts.adjudicated(reason), action)
            seat = target.seat_of(winner) if winner else None
            if winner and seat is None:
                raise Refusal(refused.winner_is_a_player())
            return await self.ending.finish_by(
                target, seat, EndReason.ADJUDICATED, texts.adjudicated(reason),
                draw=seat is None, action=action)
