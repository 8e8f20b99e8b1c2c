"""Matches before their first move: challenges, who may start a match where, and the
start of the clock. (Death Matches and their First Player: ``choosing``.)"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import buttons
from bot.core.clock import Handle
from bot.core.enums import ACTIVE, EndReason, MatchKind, MatchStatus
from bot.core.messages import Actor, Button, Pace, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.games import offered_game
from bot.services.limits import RateLimit
from bot.services.matches import menus
from bot.services.matches.ending import Ending, reward_of
from bot.services.matches.kit import (
    CHALLENGE_TTL,
    START_RETRIES,
    START_TRIES,
    MatchKit,
    Retrying,
)
from bot.services.matches.live import LiveMatch
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import Busy, Elsewhere, startable
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.services.users import remember
from bot.store.models import Match, MatchPlayer
from bot.store.numbers import next_number
from bot.texts import match as texts
from bot.texts import refused
from bot.texts import waiting as waits
from bot.texts import web as web_texts
from engine.registry import get_game

log = logging.getLogger(__name__)
MAX_OPEN_CHALLENGES = 5  # open challenges of one challenger on one server
CHALLENGES_PER_WINDOW, CHALLENGE_WINDOW = 12, 600.0  # challenges and withdrawals
# What keeps a player from another match in the same channel.
BLOCKING = tuple(s for s in ACTIVE if s != MatchStatus.CHOOSING)
NOT_BEGUN = (MatchStatus.PENDING, MatchStatus.CHOOSING)
BUSY_AGAIN = 60.0  # a start due while a player plays here: looked at again this much later


@dataclass(frozen=True)
class HostedMatch:
    """A match a service sets up for its players: ``first`` moves first and the match
    starts at once; or ``chooser`` (a player's id) picks the First Player with the
    buttons, as in a Death Match. ``note`` is a line of the intro."""

    game: str
    players: Sequence[Actor]
    first: str | None = None
    chooser: str | None = None
    options: dict[str, Any] | None = None
    tc: TimeControl | None = None
    hints: bool = False
    event_id: int | None = None
    note: str = ""
    show_up: float = 0.0  # seconds added to the First Player's first turn (a no-show window)


def show_up_by(match: Match) -> float | None:
    """The end of a match's no-show window (``HostedMatch.show_up``), once it began:
    each player's first turn runs its clock only after it."""
    window = float((match.time_control or {}).get("show_up", 0.0))
    if not window or match.started_at is None:
        return None
    return float(match.started_at) + window


class Lobby:
    def __init__(self, kit: MatchKit, lookup: Lookup, timing: Timing, ending: Ending) -> None:
        self.kit = kit
        self.lookup = lookup
        self.timing = timing
        self.ending = ending
        self._expiries: dict[int, Handle] = {}
        self._starts: dict[int, Handle] = {}  # starts tried again (``Retrying``)
        # One user's challenges and withdrawals: a loop of them would flood a channel.
        self.asking = RateLimit(kit.clock, most=CHALLENGES_PER_WINDOW, per=CHALLENGE_WINDOW)

    # ==== matches made for others (a tournament's pairings) ================================

    async def host_match(self, asker: Asker, setup: HostedMatch,
                         link: Callable[[AsyncSession, int], Awaitable[None]] | None = None,
                         ) -> tuple[int, Response]:
        """A rated two-player match that a service sets up for its players (a pairing
        of a tournament; see ``HostedMatch``): no reward, no challenge. ``link`` writes
        what the caller keeps of the match in the same transaction as the match (so a
        crash leaves both or neither). The match's internal id and the posts."""
        game_name, players, first, chooser = (setup.game, setup.players, setup.first,
                                               setup.chooser)
        options, tc, hints, event_id, note = (setup.options, setup.tc, setup.hints,
                                              setup.event_id, setup.note)
        game = get_game(game_name)
        ids = [p.id for p in players]
        if len(ids) != 2 or ids[0] == ids[1]:
            raise Refusal(refused.two_different_players())
        if (first is None) == (chooser is None) or (first or chooser) not in ids:
            raise Refusal(refused.first_or_chooser_a_player())
        options = game.check_options(options)
        tc = tc or TimeControl()
        clock = tc.to_json() | ({"show_up": setup.show_up}
                                if setup.show_up > 0 and tc.enabled else {})
        async with self.kit.creating:
            await self.busy(asker.guild_id, asker.channel_id, ids)
            self._free_elsewhere(asker.guild_id, ids)
            async with self.kit.db.session() as s, s.begin():
                await remember(s, asker.guild_id, [asker.actor, *players])
                match = Match(
                    guild_id=asker.guild_id, number=await next_number(s, asker.guild_id, "match"),
                    channel_id=asker.channel_id, game=game.key, kind=MatchKind.CASUAL,
                    status=MatchStatus.CHOOSING, seats=2, options=options,
                    time_control=clock, hints=hints, rated=True, host_id=asker.actor.id,
                    chooser=chooser, created_at=self.kit.now(), event_id=event_id)
                s.add(match)
                await s.flush()
                for order, player in enumerate(players):
                    s.add(MatchPlayer(match_id=match.id, user_id=player.id, order=order,
                                      accepted=True, banks_left=tc.banks))
                if link is not None:
                    await link(s, match.id)
                match_id, number = match.id, match.number
        label = texts.match_label(number, MatchKind.CASUAL)
        settings = texts.options_line(game, options, tc)
        if first is not None:
            seats = [first] + [u for u in ids if u != first]
            started = await self.start(match_id, seats, "\n".join(
                line for line in (note.strip(), f"{settings}.") if line))
            return match_id, started
        intro = texts.dm_intro(label, game.title, ids, settings, f"\n{note}" if note else "")
        assert chooser is not None
        self.kit.expect(asker.guild_id, asker.channel_id, ids, match_id)
        choices = tuple(Button(texts.goes_first_button(p.name), buttons.first(number, p.id),
                               "primary") for p in players)
        return match_id, Response(posts=[Post(texts.choose_first(intro, chooser), asker.channel_id,
                                              buttons=choices, pace=Pace.LOW)])

    async def close_unstarted(self, match_id: int, reason: str) -> Response | None:
        """Void a match that has not begun (its First Player not chosen, a challenge not
        accepted); None if it has begun or ended by now."""
        async with self.kit.lock(match_id), self.kit.db.session() as s, s.begin():
            match = await s.get(Match, match_id)
            if match is None or match.status not in (MatchStatus.CHOOSING,
                                                     MatchStatus.PENDING):
                return None
            match.status = MatchStatus.VOIDED
            match.finished_at = self.kit.now()
            match.end_reason = EndReason.VOID
            match.result_text = texts.void_by_rule(reason)
            said = texts.voided(texts.match_label(match.number, match.kind), reason)
            where = match.channel_id
        self._cancel_expiry(match_id)
        return Response(posts=[Post(said, where)])

    # ==== challenges ======================================================================

    async def challenge(self, asker: Asker, game_name: str, opponents: Sequence[Actor],
                        first: str = "random", options: dict[str, Any] | None = None,
                        tc: TimeControl | None = None, hints: bool = False,
                        rated: bool = True) -> Response:
        """A casual game: the challenger names opponents, who each accept or decline."""
        # At Discord's limit: fairly (the match starts at its acceptance, checked again).
        self.kit.pressure.check(asker.guild_id, starts=False)
        game = await offered_game(self.kit.db, asker.guild_id, game_name)
        ids = [asker.actor.id, *[o.id for o in opponents]]
        if not opponents:
            raise Refusal(refused.name_who_you_challenge())
        if len(set(ids)) != len(ids):
            raise Refusal(refused.players_all_different())
        game.check_seats(len(ids))
        options = game.check_options(options)
        startable(game, len(ids), options)
        first = first.strip().lower()
        if first not in ("me", "them", "random"):
            raise Refusal(refused.first_is())
        tc = tc or TimeControl()
        async with self.kit.creating:
            await self.busy(asker.guild_id, asker.channel_id, ids)
            await self._bound_challenges(asker.guild_id, asker.actor)
            now = self.kit.now()
            async with self.kit.db.session() as s, s.begin():
                await remember(s, asker.guild_id, [asker.actor, *opponents])
                match = Match(
                    guild_id=asker.guild_id, number=await next_number(s, asker.guild_id, "match"),
                    channel_id=asker.channel_id, game=game.key, kind=MatchKind.CASUAL,
                    status=MatchStatus.PENDING, seats=len(ids),
                    options=options, time_control=tc.to_json(), hints=hints, rated=rated,
                    host_id=None, chooser=first, created_at=now)
                s.add(match)
                await s.flush()
                for order, uid in enumerate(ids):
                    s.add(MatchPlayer(match_id=match.id, user_id=uid, order=order,
                                      accepted=order == 0, banks_left=tc.banks))
                match_id, number = match.id, match.number
        self.arm_expiry(match_id, now + CHALLENGE_TTL)
        text = texts.challenge(texts.match_label(number, MatchKind.CASUAL), game.title,
                               asker.actor.id, [o.id for o in opponents],
                               texts.options_line(game, options, tc), hints, rated,
                               int(CHALLENGE_TTL // 60), now + CHALLENGE_TTL)
        answers = (Button(texts.accept_button(), buttons.accept(number), "success"),
                   Button(texts.decline_button(), buttons.decline(number), "danger"))
        return Response(reply=Post(text, asker.channel_id, buttons=answers))

    async def _bound_challenges(self, guild_id: str, actor: Actor) -> None:
        """A bounded number of open challenges per challenger, and of challenges and
        withdrawals in a while."""
        async with self.kit.db.session() as s:
            open_now = await s.scalar(
                select(func.count()).select_from(MatchPlayer)
                .join(Match, Match.id == MatchPlayer.match_id)
                .where(Match.guild_id == guild_id, Match.status == MatchStatus.PENDING,
                       MatchPlayer.user_id == actor.id, MatchPlayer.order == 0))
        if (open_now or 0) >= MAX_OPEN_CHALLENGES:
            raise Refusal(texts.too_many_challenges(MAX_OPEN_CHALLENGES))
        self.asking.take((guild_id, actor.id))

    async def busy(self, guild_id: str, channel_id: str, user_ids: Sequence[str]) -> None:
        """Typed moves are routed by (channel, player), so one match each that is being
        played or may start on an answer. A DM waiting for its First Player blocks
        nobody: it starts only once its players are free here (``playing_here``).
        Every new match asks this first, so none starts on a server of another shard."""
        if not self.kit.leases.runs(guild_id):
            raise Refusal(texts.not_our_shard())
        async with self.kit.db.session() as s:
            row = (await s.execute(
                select(MatchPlayer.user_id, Match.number)
                .join(Match, Match.id == MatchPlayer.match_id)
                .where(Match.guild_id == guild_id, Match.channel_id == channel_id,
                       Match.status.in_(BLOCKING),
                       MatchPlayer.user_id.in_(user_ids)))).first()
        if row is not None:
            raise Busy(row[0], row[1])

    def _free_elsewhere(self, guild_id: str, user_ids: Sequence[str]) -> None:
        """A game set up for its players (a tournament's) waits while one of them is
        still playing a match anywhere on the server: its no-show window would run
        while they cannot come (``Elsewhere``)."""
        for live in self.kit.live:
            if live.guild_id != guild_id or live.finished:
                continue
            for seat, user in enumerate(live.users):
                if user in user_ids and not live.out[seat]:
                    raise Elsewhere(user, live.number, live.channel_id)

    def playing_here(self, guild_id: str, channel_id: str,
                     user_ids: Sequence[str]) -> tuple[str, int] | None:
        """(player, match number) of one of ``user_ids`` who is playing a match in this
        channel now, if any."""
        for user in user_ids:
            live = self.kit.live.for_seat(guild_id, channel_id, user)
            if live is not None:
                return user, live.number
        return None

    async def answer(self, asker: Asker, match_id: int | None, accept: bool) -> Response:
        """Accept or decline a challenge."""
        match_id = await self.lookup.stored(asker, match_id, (MatchStatus.PENDING,))
        async with self.kit.lock(match_id):
            async with self.kit.db.session() as s, s.begin():
                match = await s.get(Match, match_id)
                if match is None or match.status != MatchStatus.PENDING:
                    raise Refusal(refused.challenge_not_open())
                me = next((p for p in match.players if p.user_id == asker.actor.id), None)
                if me is None or me.order == 0:
                    raise Refusal(refused.only_the_challenged_answer())
                label = texts.match_label(match.number, match.kind)
                if not accept:
                    match.status = MatchStatus.DECLINED
                    match.finished_at = self.kit.now()
                    match.result_text = texts.declined_record(asker.actor.id)
                    self._cancel_expiry(match.id)
                    return Response(reply=Post(texts.declined(asker.actor.id, label),
                                               match.channel_id))
                waiting = [p.user_id for p in match.players
                           if not p.accepted and p.user_id != asker.actor.id]
                if not waiting:  # this answer would start it: everyone must be free here
                    # A match made now, however old its challenge: none while boards
                    # wait for Discord's limit (the challenge stays open meanwhile).
                    self.kit.pressure.check(match.guild_id)
                    playing = self.playing_here(match.guild_id, match.channel_id,
                                                [p.user_id for p in match.players])
                    if playing is not None:
                        raise Busy(*playing, waiting=True)
                await remember(s, match.guild_id, [asker.actor])
                me.accepted = True
                first = match.chooser or "random"
            if waiting:
                return Response(reply=Post(texts.accepted(asker.actor.id, label, waiting),
                                           match.channel_id))
            self._cancel_expiry(match_id)
            order = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
            if first == "random":
                self.kit.rng.shuffle(order)
            elif first == "them":
                order = order[1:] + order[:1]
            result = await self.start(match_id, order, note="")
            result.reply = Post(texts.accepted(asker.actor.id, label), match.channel_id)
            return result

    async def cancel(self, asker: Asker, match_id: int | None) -> Response:
        """The challenger withdraws a challenge not yet accepted by all."""
        match_id = await self.lookup.stored(asker, match_id, (MatchStatus.PENDING,))
        self.asking.take((asker.guild_id, asker.actor.id))
        async with self.kit.lock(match_id), self.kit.db.session() as s, s.begin():
            match = await s.get(Match, match_id)
            if match is None or match.status != MatchStatus.PENDING:
                raise Refusal(refused.challenge_not_open())
            challenger = next(p for p in match.players if p.order == 0)
            if challenger.user_id != asker.actor.id:
                raise Refusal(refused.only_the_challenger_withdraws())
            match.status = MatchStatus.CANCELLED
            match.finished_at = self.kit.now()
            match.result_text = texts.withdrawn_record(asker.actor.id)
            where, number = match.channel_id, match.number
        self._cancel_expiry(match_id)
        return Response(reply=Post(texts.withdrawn(asker.actor.id, number), where))

    def arm_expiry(self, match_id: int, when: float) -> None:
        """The challenge lapses at ``when``. A write that fails is tried again (the
        clock's backoff): the handle stays in ``_expiries`` until it is done."""
        async def expire() -> None:
            async with self.kit.lock(match_id), self.kit.db.session() as s, s.begin():
                match = await s.get(Match, match_id)
                if match is None or match.status != MatchStatus.PENDING:
                    self._forget_expiry(match_id, handle)
                    return
                match.status = MatchStatus.EXPIRED
                match.finished_at = self.kit.now()
                channel, number = match.channel_id, match.number
            self._forget_expiry(match_id, handle)
            await self.kit.deliver(Post(texts.lapsed(number), channel, pace=Pace.LOW))

        async def expire_spoken() -> None:
            async with self.kit.speaking_for_match(match_id):
                await expire()

        self._cancel_expiry(match_id)
        handle = self.kit.clock.call_at(when, expire_spoken)
        self._expiries[match_id] = handle

    def _forget_expiry(self, match_id: int, handle: Handle) -> None:
        if self._expiries.get(match_id) is handle:
            del self._expiries[match_id]

    def expiry_armed(self, match_id: int) -> bool:
        """Has the challenge its expiry (for the watchdog)?"""
        handle = self._expiries.get(match_id)
        return handle is not None and handle.armed

    def _cancel_expiry(self, match_id: int) -> None:
        handle = self._expiries.pop(match_id, None)
        if handle:
            handle.cancel()

    def stop(self) -> None:
        for handle in [*self._expiries.values(), *self._starts.values()]:
            handle.cancel()
        self._expiries.clear()
        self._starts.clear()

    # ==== the start =======================================================================

    async def start(self, match_id: int, order: list[str], note: str) -> Response:
        """Seat the players (seat 0 first), post the board and start the clock."""
        async with self.kit.db.session() as s:
            match = await s.get(Match, match_id)
        assert match is not None
        game = get_game(match.game)
        state = game.new_state(match.seats, match.options)
        names = await self.kit.names(match.guild_id, order)
        tc = TimeControl.from_json(match.time_control)
        extra = float(match.time_control.get("show_up", 0.0))  # the first turn's window
        try:
            image = await self.kit.render(game, state, names, match.hints,
                                          server=match.guild_id)
        except Exception:  # past its time limit (under load), or its worker failed
            log.warning("match %s: its first board could not be drawn", match_id,
                        exc_info=True)
            return await self._not_begun(match, order, note)
        now = self.kit.now()
        async with self.kit.db.session() as s, s.begin():
            row = await s.get(Match, match_id)
            assert row is not None
            row.time_control = {k: v for k, v in row.time_control.items() if k != "start"}
            for player in row.players:
                player.seat = order.index(player.user_id)
                player.banks_left = tc.banks
            row.status = MatchStatus.RUNNING
            row.started_at = now
            row.turn_elapsed = 0.0
            row.turn_resumed_at = now + BOARD_WAIT  # at the latest: see Timing.start_turn
            row.turn_extra = extra
        live = LiveMatch(
            id=match.id, number=match.number, guild_id=match.guild_id, channel_id=match.channel_id,
            kind=match.kind, game=game, state=state, users=order, names=names, tc=tc,
            banks_left=[tc.banks] * len(order), time_used=[0.0] * len(order),
            out=[False] * len(order), ply=0, turn_elapsed=0.0, resumed_at=now, extra=extra,
            hints=match.hints, reward=reward_of(match, self.kit.config.dm_reward),
            hosted=match.host_id is not None,
            options=dict(match.options), show_up_by=now + extra if extra else None)
        self.kit.live.add(live)
        self._cancel_start(match_id)
        self.kit.begun(match.guild_id, match.channel_id, order, match_id)
        label = texts.match_label(match.number, match.kind)
        lines = [note] if note else []
        lines.append(texts.begins(label, game.title, texts.seat_line(game, state, order)))
        if len(order) > 2:
            lines.append(texts.turn_order(names))
        if game.outcome(state) is not None:  # over before its first move: ended as any
            return await self.ending.by_rules(live, "\n".join(lines))
        turn = self.timing.start_turn(live, now)  # once the first board is out
        if extra:  # a no-show window: the first turn's clock runs once it is over
            live.extra = extra
            live.plan_reminders()
            self.timing.arm(live)
        self.kit.on_turn(live)
        lines.append(self.kit.turn_line(live))
        if match.kind != MatchKind.PRACTICE and (
                page := await self.kit.web_link(match.guild_id, f"/m/{match.number}")):
            lines.append(web_texts.web_line(page))
        return Response(posts=[Post("\n".join(lines), match.channel_id, image=image,
                                    selects=menus.card_menu(live), turn=turn,
                                    pace=Pace.BOARD)])

    # ==== a start that failed =============================================================

    async def _not_begun(self, match: Match, order: list[str], note: str) -> Response:
        """The first board could not be drawn: the match stays as it was, its start is
        kept with it and tried again after ``START_RETRIES`` (the channel told each
        time); after the last, a challenge is void and a DM or a tournament's game
        waits for its host, who is pinged with what to do."""
        before = Retrying.of(match.time_control)
        failed = (before.failed if before is not None else 0) + 1
        now = self.kit.now()
        at = now + START_RETRIES[failed - 1] if failed <= len(START_RETRIES) else None
        challenge = match.status == MatchStatus.PENDING
        async with self.kit.db.session() as s, s.begin():
            row = await s.get(Match, match.id)
            assert row is not None
            row.time_control = {**row.time_control,
                                "start": Retrying(tuple(order), note, failed, at).to_json()}
            if at is None and challenge:
                row.status = MatchStatus.VOIDED
                row.finished_at = now
                row.end_reason = EndReason.VOID
                row.result_text = texts.void_by_rule(waits.void_record())
        label = texts.match_label(match.number, match.kind)
        if at is not None:
            self.kit.expect(match.guild_id, match.channel_id, order, match.id)
            self.arm_start(match.id, at)
            return Response(posts=[Post(waits.start_failed(label, note, at, failed + 1,
                                                           START_TRIES), match.channel_id)])
        self._cancel_start(match.id)
        if challenge:
            self.kit.begun(match.guild_id, match.channel_id, order, match.id)
            return Response(posts=[Post(waits.challenge_gave_up(label, START_TRIES),
                                        match.channel_id)])
        return Response(posts=[Post(waits.start_gave_up(label, match.number, START_TRIES,
                                                        match.host_id), match.channel_id)])

    def arm_start(self, match_id: int, when: float) -> None:
        """Try the kept start of a match again at ``when`` (safe to run again: it
        rereads the match under its lock)."""
        async def again() -> None:
            async with self.kit.speaking_for_match(match_id):
                posts = await self._start_again(match_id)
                if self._starts.get(match_id) is handle:
                    del self._starts[match_id]
                for post in posts:
                    await self.kit.deliver(post)

        self._cancel_start(match_id)
        handle = self.kit.clock.call_at(when, again)
        self._starts[match_id] = handle

    async def _start_again(self, match_id: int) -> list[Post]:
        async with self.kit.lock(match_id):
            async with self.kit.db.session() as s:
                match = await s.get(Match, match_id)
            retrying = Retrying.of(match.time_control) if match is not None else None
            if (match is None or match.status not in NOT_BEGUN or retrying is None
                    or retrying.at is None):
                return []
            if self.playing_here(match.guild_id, match.channel_id, retrying.order):
                self.arm_start(match_id, self.kit.now() + BUSY_AGAIN)
                return []
            return (await self.start(match_id, list(retrying.order), retrying.note)).posts

    def restore_start(self, match: Match) -> bool:
        """After a restart (or by the watchdog): a match whose start failed is tried
        again when it was due (at once if that passed); True if it has one kept."""
        retrying = Retrying.of(match.time_control)
        if retrying is None:
            return False
        self.kit.expect(match.guild_id, match.channel_id, retrying.order, match.id)
        if retrying.at is not None and not self.start_armed(match.id):
            self.arm_start(match.id, max(retrying.at, self.kit.now()))
        return True

    def start_armed(self, match_id: int) -> bool:
        handle = self._starts.get(match_id)
        return handle is not None and handle.armed

    def _cancel_start(self, match_id: int) -> None:
        handle = self._starts.pop(match_id, None)
        if handle:
            handle.cancel()
