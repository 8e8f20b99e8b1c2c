"""How a match ends, through one path: every result is written by ``book``.

The rules end a game (``Play``), or time (``timeout``), a resignation or a host
(``finish_by``); a seat may also leave a game of more than two (``eliminate``).
Each writes the result, the reward, an event's confiscation and the ratings in one
transaction, once, and only then forgets the live match and announces it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import noload

from bot.core import buttons
from bot.core.enums import EndReason, MatchKind, MatchStatus, MoveKind
from bot.core.messages import Actor, Button, Pace, Post, Response
from bot.services.matches.kit import MatchEnd, MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.services.results import settle
from bot.services.users import remember
from bot.store.models import HostAction, Match, MatchPlayer, Move
from bot.texts import match as texts
from bot.texts import tools
from engine.game import Outcome


class Known(Protocol):
    """A match as a log entry needs it."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> str: ...


class Seated(Known, Protocol):
    """A match whose players have seats: a live one, or one decided before its start."""

    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def users(self) -> list[str]: ...
    @property
    def reward(self) -> int: ...


@dataclass(frozen=True)
class Unstarted:
    """A DM decided before its first move, seated in the order its players were named."""

    id: int
    number: int
    guild_id: str
    kind: str
    users: list[str]
    reward: int

    @classmethod
    def of(cls, match: Match, reward: int) -> Unstarted:
        """A match not begun, its players in the order they were named."""
        return cls(match.id, match.number, match.guild_id, match.kind,
                   [p.user_id for p in sorted(match.players, key=lambda p: p.order)], reward)


log = logging.getLogger(__name__)


class Ending:
    def __init__(self, kit: MatchKit, timing: Timing) -> None:
        self.kit = kit
        self.timing = timing

    async def log(self, s: AsyncSession, match: Known, actor: Actor, action: str,
                  detail: str) -> None:
        """A host's action on a match, in the caller's transaction, with the moves the
        match had then (none before it began)."""
        await remember(s, match.guild_id, [actor])
        ply = match.ply if isinstance(match, LiveMatch) else 0
        s.add(HostAction(match_id=match.id, actor_id=actor.id, action=action, detail=detail,
                         at=self.kit.now(), ply=ply))

    async def timeout(self, live: LiveMatch) -> Response:
        """The player to move ran out of reserve: an instant loss (caller holds the lock)."""
        seat = live.to_move
        assert seat is not None
        # The flag waits out the lag allowance; the player had used exactly their all.
        elapsed = min(live.elapsed(self.kit.now()), live.flag_at())
        if live.active_seats() > 2:
            return await self.eliminate(live, seat, elapsed, texts.ran_out(live.users[seat]))
        return await self.finish_by(live, live.other_than(seat), EndReason.TIMEOUT,
                                    texts.ran_out_reason(live.names[seat]), elapsed_of=seat,
                                    elapsed=elapsed)

    async def eliminate(self, live: LiveMatch, seat: int, elapsed: float,
                        why: str) -> Response:
        """A seat leaves a game of more than two; the others play on."""
        game = live.game
        new_state = game.eliminate(live.state, seat)
        outcome = game.outcome(new_state)
        image = await self.kit.render(game, new_state, live.names,
                                      live.hints and outcome is None, server=live.guild_id)
        now = self.kit.now()
        moved = live.to_move == seat
        async with self.kit.db.session() as s, s.begin():
            s.add(Move(match_id=live.id, ply=live.ply + 1, seat=seat, kind=MoveKind.OUT,
                       notation="out", elapsed=elapsed if moved else 0.0, banks_spent=0,
                       at=now))
            await s.execute(update(MatchPlayer).where(
                MatchPlayer.match_id == live.id, MatchPlayer.seat == seat).values(out=True))
            if moved:
                await s.execute(update(Match).where(Match.id == live.id).values(
                    turn_elapsed=0.0, turn_resumed_at=now + BOARD_WAIT, turn_extra=0.0))
            result_text = None
            if outcome is not None:
                result_text = await self.book(s, live, outcome.winner, outcome.draw,
                                              outcome.scores, EndReason.RULES,
                                              rules_reason(live, outcome), now)
        live.state = new_state
        live.ply += 1
        live.out[seat] = True
        if result_text is not None:
            self.forget(live)
            return await self.told(live, outcome.winner if outcome else None, Response(
                posts=[Post(f"{why}\n{result_text}", live.channel_id, image=image,
                            buttons=self.after(live), pace=Pace.BOARD)]))
        turn = None
        if moved:  # the next player's clock starts when this board is out
            turn = self.timing.start_turn(live, now)
        else:
            self.timing.arm(live)
        return Response(posts=[Post(texts.out_of_game(why, self.kit.turn_line(live)),
                                    live.channel_id, image=image, turn=turn,
                                    pace=Pace.BOARD)])

    async def finish_by(self, live: LiveMatch, winner: int | None, how: EndReason,
                        reason: str, elapsed_of: int | None = None, elapsed: float = 0.0,
                        draw: bool = False,
                        action: tuple[Actor, str, str] | None = None) -> Response:
        """End a match by something other than the rules (time, resignation, host).

        ``action`` is a host action to log in the same transaction as the result."""
        now = self.kit.now()
        verdict = None if winner is None else live.names[winner]
        image = await self.kit.render(live.game, live.state, live.names, False,
                                      banner=texts.banner(verdict, reason),
                                      server=live.guild_id)
        time_used, banks_left = list(live.time_used), list(live.banks_left)
        async with self.kit.db.session() as s, s.begin():
            if elapsed_of is not None:
                time_used[elapsed_of] += elapsed
                if how == EndReason.TIMEOUT:  # the whole reserve went with the clock
                    banks_left[elapsed_of] = 0
                await s.execute(update(MatchPlayer).where(
                    MatchPlayer.match_id == live.id, MatchPlayer.seat == elapsed_of
                ).values(time_used=time_used[elapsed_of], banks_left=banks_left[elapsed_of]))
            if action is not None:
                await self.log(s, live, *action)
            text = await self.book(s, live, winner, draw, None, how, reason, now)
        live.time_used, live.banks_left = time_used, banks_left
        self.forget(live)
        return await self.told(live, winner, Response(posts=[Post(
            text, live.channel_id, image=image, buttons=self.after(live))]))

    async def by_rules(self, live: LiveMatch, head: str) -> Response:
        """A match whose position is over with no move to make (its game ended before the
        first move, or a restored one): its result by the rules, booked as any other."""
        outcome = live.game.outcome(live.state)
        assert outcome is not None
        image = await self.kit.render(live.game, live.state, live.names, False,
                                      server=live.guild_id)
        async with self.kit.db.session() as s, s.begin():
            text = await self.book(s, live, outcome.winner, outcome.draw, outcome.scores,
                                   EndReason.RULES, rules_reason(live, outcome), self.kit.now())
        self.forget(live)
        return await self.told(live, outcome.winner, Response(posts=[Post(
            f"{head}\n{text}", live.channel_id, image=image, buttons=self.after(live))]))

    def after(self, live: LiveMatch) -> tuple[Button, ...]:
        """The buttons under a result: a rematch, colours swapped, for a casual game of
        two (lichess's courtesy); none for a DM, which a host arranges."""
        if live.kind != MatchKind.CASUAL or live.hosted or len(live.users) != 2:
            return ()
        return (Button(tools.rematch_button(), buttons.rematch(live.number), "primary"),)

    async def void_live(self, live: LiveMatch, how: EndReason, record: str) -> None:
        """End a match being played without a result (a courtesy's abort, an idle
        lapse): no reward, no rating; the caller holds its lock and announces it."""
        async with self.kit.db.session() as s, s.begin():
            await self.kit.leases.guard(s, live.guild_id)
            await s.execute(update(Match).where(Match.id == live.id).values(
                status=MatchStatus.VOIDED, finished_at=self.kit.now(), end_reason=how,
                turn_resumed_at=None, result_text=record))
        self.forget(live)

    async def decide_unstarted(self, match: Match, winner: str | None, reason: str,
                               action: tuple[Actor, str, str]) -> Response:
        """A host decides a DM before its first move (a player who never came): the
        players take their seats in the order named, the result is booked as any other
        (reward, confiscation), but a game never played is not rated."""
        seated = Unstarted.of(match, reward_of(match, self.kit.config.dm_reward))
        ids = seated.users
        seat = ids.index(winner) if winner is not None else None
        async with self.kit.db.session() as s, s.begin():
            for player in ids:
                await s.execute(update(MatchPlayer).where(
                    MatchPlayer.match_id == match.id, MatchPlayer.user_id == player
                ).values(seat=ids.index(player)))
            await self.log(s, seated, *action)
            text = await self.book(s, seated, seat, seat is None, None, EndReason.ADJUDICATED,
                                   reason, self.kit.now(), rate=False)
        return await self.told(seated, seat, Response(posts=[Post(text, match.channel_id)]))

    async def book(self, s: AsyncSession, live: Seated, winner: int | None, draw: bool,
                   scores: tuple[int, ...] | None, how: EndReason, reason: str,
                   now: float, rate: bool = True) -> str:
        """Write the result and pay the reward, in the caller's transaction, once: the
        one path of every result. ``rate`` False: a result without a game (a DM decided
        before its first move) leaves the ratings alone."""
        # Only the holder of the lease of this server's shard decides a result: a process
        # that lost it raises here, and the transaction writes nothing.
        await self.kit.leases.guard(s, live.guild_id)
        # Its players are the live match's: not loaded (a trip fewer in the booking).
        match = await s.get(Match, live.id, options=[noload(Match.players)])
        assert match is not None
        match.status = MatchStatus.FINISHED
        match.finished_at = now
        match.winner_seat = winner
        match.draw = draw
        match.scores = list(scores) if scores is not None else None
        match.end_reason = how
        match.turn_resumed_at = None
        label = texts.match_label(live.number, live.kind)
        text = texts.result(label, None if winner is None else live.users[winner], reason)
        # The reward, an event's confiscation and the ratings, each booked once.
        text += await settle(s, match, live.users, winner, live.reward, now, rate=rate)
        match.result_text = text
        return text

    async def told(self, live: Seated, winner: int | None, response: Response,
                   voided: bool = False) -> Response:
        """Tell the watchers (``MatchKit.watchers``) that a match ended, once its result is
        committed; their posts follow the match's own. A watcher that fails is logged:
        the match's end stands (a tournament catches up when it next looks)."""
        end = MatchEnd(live.id, live.guild_id, live.number, tuple(live.users),
                       None if winner is None else live.users[winner], voided)
        for watch in self.kit.watchers:
            try:
                response.posts.extend(await watch(end))
            except Exception:
                log.exception("a watcher of match %s's end failed", live.id)
        return response

    def forget(self, live: LiveMatch) -> None:
        """The match is over: no timer, no longer found by its players' messages."""
        live.finished = True
        self.timing.disarm(live)
        self.kit.live.remove(live)


def rules_reason(live: LiveMatch, outcome: Outcome) -> str:
    """Why the rules ended the game. Equal scores decided by the tie rule name the
    player the rule made lose: "11–11: a tie, and Bob, the First Player, loses"."""
    scores = outcome.scores
    if (outcome.draw or outcome.winner is None or not scores or len(set(scores)) != 1
            or len(scores) != 2):
        return outcome.reason
    loser = 1 - outcome.winner
    return texts.tie_decided(scores, live.names[loser], str(live.options.get("tie", "")),
                             first=loser == 0)


def reward_of(match: Match, default: int) -> int:
    """Garnets for the winner: a DM's own reward (kept with its time control)."""
    if match.kind != MatchKind.DM:
        return 0
    return int(match.time_control.get("reward", default))
