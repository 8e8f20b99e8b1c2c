"""Moves: a player's first valid submission of their turn is applied, written,
and answered by the next board; and a player may resign."""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from bot.core import logs
from bot.core.enums import EndReason, MoveKind
from bot.core.escape import defang
from bot.core.messages import Actor, Pace, Post, Response
from bot.core.metrics import MOVES, stage_done
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches import menus
from bot.services.matches.ending import Ending, rules_reason
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import MatchOver, NotAPlayer, NotYourTurn
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.store.db import first_in_line
from bot.store.models import MatchPlayer, Move
from bot.store.movelog import MoveRecord
from bot.texts import game_errors, refused
from bot.texts import match as texts
from bot.texts.game_errors import colour
from engine.game import EngineError, GameOverError, MoveError, NotAMove

log = logging.getLogger(__name__)


class Play:
    def __init__(self, kit: MatchKit, lookup: Lookup, timing: Timing, ending: Ending) -> None:
        self.kit = kit
        self.lookup = lookup
        self.timing = timing
        self.ending = ending

    async def typed(self, asker: Asker, text: str, message_id: str | None = None,
                    sent_at: float | None = None) -> Response:
        """A message in a channel. Only a player's message can touch their match, and
        only one that reads as a move; everything else is ignored. ``sent_at`` is when
        the player sent it (the platform's timestamp): the move counts then, within
        ``timing.MAX_LAG`` of its arrival."""
        received = self.timing.counted_at(sent_at)
        live = self.kit.live.for_seat(asker.guild_id, asker.channel_id, asker.actor.id)
        if live is None:
            # A move for a match not begun yet is told what it waits for.
            await self.lookup.waiting(asker, text)
            return Response()
        try:
            return await self._submit(live, asker.actor, text, message_id, explicit=False,
                                      received=received, ply_seen=live.ply)
        except _Silent:
            return Response()

    async def move(self, asker: Asker, match_id: int | None, text: str,
                   sent_at: float | None = None) -> Response:
        """``/move``: the same as typing the move, with every problem reported; it
        counts when the command was sent, not after its round trip."""
        received = self.timing.counted_at(sent_at)
        live = await self.lookup.running(asker, match_id, player=True)
        return await self._submit(live, asker.actor, text, None, explicit=True, received=received,
                                  ply_seen=live.ply)

    async def _submit(self, live: LiveMatch, actor: Actor, text: str,
                      message_id: str | None, explicit: bool, received: float,
                      ply_seen: int) -> Response:
        """Apply a player's move if it is their first valid submission of their turn.

        ``ply_seen`` is the move number when the message arrived: a message that
        arrived before another move was applied was not sent on its sender's turn
        and never counts, even if the turn is theirs by the time it is read. A typed
        message that is not meant as a move (chat, a stranger) is ignored silently.
        """
        logs.MATCH.set(live.id)  # the log's match, in this task
        waiting = time.perf_counter()
        async with live.lock:
            stage_done("lock", waiting)
            if live.finished:
                raise MatchOver() if explicit else _Silent()
            if message_id is not None:
                if message_id in live.seen:
                    return Response()
                live.seen.append(message_id)
            seat = live.seat_of(actor.id)
            game, state = live.game, live.state
            if seat is None or live.out[seat]:
                raise NotAPlayer() if explicit else _Silent()
            try:
                move = game.parse_move(state, text)
            except NotAMove as exc:
                if explicit:
                    # The game's sentence says how moves are written: once is enough.
                    raise Refusal(game_errors.refusal(exc)) from None
                missing = (game.incomplete(state, text)
                           if seat == live.to_move and live.ply == ply_seen else None)
                if missing is not None:
                    # Clearly a try at a move by the player on turn: say what is missing.
                    raise Refusal(game_errors.refusal(missing) if isinstance(
                        missing, EngineError) else defang(missing)) from None
                raise _Silent() from None
            except GameOverError as exc:
                raise Refusal(game_errors.refusal(exc)) from None
            except MoveError as exc:
                if seat != live.to_move:
                    raise self._not_your_turn(live) from None
                raise Refusal(game_errors.refusal(exc)) from None
            if live.ply != ply_seen:
                if seat == live.to_move:
                    raise Refusal(refused.move_arrived_early())
                raise self._not_your_turn(live)
            if seat != live.to_move:
                raise self._not_your_turn(live)
            if (live.paused and live.suspended_at is None  # not a gateway outage's stop
                    and live.stalled_at is None):  # nor a database outage's
                raise Refusal(refused.paused_wait())
            elapsed = live.elapsed(received)
            if self.timing.flagged(live, elapsed):
                return await self.ending.timeout(live)
            return await self._apply(live, seat, move, elapsed, received, message_id)

    async def machine_move(self, live: LiveMatch, seat: int, ply_seen: int,
                           text: str) -> Response | None:
        """The computer player's move, through the same path as a person's; None when
        the match moved on while it thought (a resignation, a host, a restart)."""
        async with live.lock:
            if (live.finished or live.ply != ply_seen or live.to_move != seat
                    or live.paused):
                return None
            move = live.game.parse_move(live.state, text)
            received = self.kit.now()
            elapsed = live.elapsed(received)
            if self.timing.flagged(live, elapsed):
                return await self.ending.timeout(live)
            return await self._apply(live, seat, move, elapsed, received, None)

    def _not_your_turn(self, live: LiveMatch) -> Refusal:
        seat = live.to_move
        if seat is None:
            return MatchOver()
        return NotYourTurn(live.names[seat])

    async def _apply(self, live: LiveMatch, seat: int, move: Any, elapsed: float,
                     received: float, message_id: str | None) -> Response:
        game = live.game
        new_state = game.apply(live.state, move)
        notation = game.notation(move)
        spent = live.banks_spent(elapsed)
        outcome = game.outcome(new_state)
        began = time.perf_counter()
        image = await self.kit.render(game, new_state, live.names,
                                      live.hints and outcome is None, server=live.guild_id)
        began = stage_done("render", began)
        now = self.kit.now()
        banks_left = list(live.banks_left)
        banks_left[seat] -= spent
        time_used = list(live.time_used)
        time_used[seat] += elapsed
        result_text = None
        window = live.window_left(live.ply + 1, now)  # the second player's no-show window
        try:
            if outcome is None:
                # The common case goes through the batching writer (see movelog).
                await self.kit.moves.write(MoveRecord(
                    match_id=live.id, ply=live.ply + 1, seat=seat, notation=notation,
                    elapsed=elapsed, banks_spent=spent, at=received, message_id=message_id,
                    banks_left=banks_left[seat], time_used=time_used[seat],
                    turn_starts_at=now + BOARD_WAIT, turn_extra=window))
                stage_done("write", began)
                # The next clock starts once the move is safe, never earlier.
                now = max(now, self.kit.now())
            else:
                # The last move and the result in one transaction: a move's commit, so
                # it takes the connection ahead of the requests waiting (``FIRST``).
                with first_in_line():
                    async with self.kit.db.session() as s, s.begin():
                        await s.execute(insert(Move).values(
                            match_id=live.id, ply=live.ply + 1, seat=seat,
                            kind=MoveKind.MOVE, notation=notation, elapsed=elapsed,
                            banks_spent=spent, at=received, message_id=message_id))
                        await s.execute(
                            update(MatchPlayer)
                            .where(MatchPlayer.match_id == live.id, MatchPlayer.seat == seat)
                            .values(banks_left=banks_left[seat], time_used=time_used[seat]))
                        result_text = await self.ending.book(
                            s, live, outcome.winner, outcome.draw, outcome.scores,
                            EndReason.RULES, rules_reason(live, outcome), now)
                stage_done("book", began)
        except IntegrityError:
            log.warning("match %s: ply %s was already written", live.id, live.ply + 1)
            raise Refusal(refused.move_not_saved()) from None
        old_state, live.state = live.state, new_state
        live.ply += 1
        MOVES.labels(game.key).inc()
        live.banks_left = banks_left
        live.time_used = time_used
        number = game.moves_played(old_state) + 1  # as the boards count, passes included
        head = texts.played(texts.match_label(live.number, live.kind), number, live.users[seat],
                            colour(game.seat_name(new_state, seat)), notation, spent,
                            banks_left[seat])
        live.draw_offer = None  # a move declines a draw offered
        if result_text is not None:
            self.ending.forget(live)
            assert outcome is not None
            # The watchers' reads (its tournament, its event's review) are on the way to
            # the final board too: ahead of the requests waiting, as its booking was.
            with first_in_line():
                return await self.ending.told(live, outcome.winner, Response(posts=[
                    Post(f"{head}\n{result_text}", live.channel_id, image=image,
                         buttons=self.ending.after(live), pace=Pace.BOARD)]))
        # The next clock starts when this board is out (see ``Timing.board_posted``).
        turn = self.timing.start_turn(live, now)
        if window:  # their clock runs once the window is over (or when they move)
            live.extra = window
            live.plan_reminders()
            self.timing.arm(live)
        self.kit.on_turn(live)
        return Response(posts=[Post(f"{head}\n{self.kit.turn_line(live)}", live.channel_id,
                                    image=image, selects=menus.card_menu(live),
                                    turn=turn, pace=Pace.BOARD)])

    async def resign(self, asker: Asker, match_id: int | None) -> Response:
        live = await self.lookup.running(asker, match_id, player=True)
        async with live.lock:
            if live.finished or live.game.outcome(live.state) is not None:
                raise MatchOver()  # a game its rules ended is not resigned
            seat = live.seat_of(asker.actor.id)
            assert seat is not None
            on_turn = live.to_move == seat
            elapsed = live.elapsed(self.kit.now()) if on_turn else 0.0
            if live.active_seats() > 2:
                return await self.ending.eliminate(live, seat, elapsed,
                                                   texts.resigned(asker.actor.id))
            return await self.ending.finish_by(
                live, live.other_than(seat), EndReason.RESIGN,
                texts.resigned_reason(live.names[seat]),
                elapsed_of=seat if on_turn else None, elapsed=elapsed)


class _Silent(Exception):
    """A typed message that is not for the host (chat, a stranger): no answer at all."""
