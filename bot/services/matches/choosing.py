"""Death Matches set up by a host, until their first move: the First Player's choice
(by the chooser, a host, or lots), and its deadline.

The chooser has ``choose_within`` (the DM's ``deadline:``, else the server's
default) to choose, with a reminder before the end. When the time is up the host's
rule for the DM applies (``missed:``): lots are drawn (the default), or the DM is
void; either is announced. The deadline is kept with the match, so a restart keeps
it. A DM waiting for its First Player blocks nobody: it starts once both players are
free in its channel (a choice made while one is playing there waits for the end).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from bot.core import buttons
from bot.core.clock import Handle
from bot.core.enums import EndReason, MatchKind, MatchStatus
from bot.core.messages import Actor, Button, Pace, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.events import plan_dm
from bot.services.games import offered_game
from bot.services.matches.kit import MatchKit, Retrying
from bot.services.matches.lobby import Lobby
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import Busy, NotRunning, startable
from bot.services.users import remember
from bot.store.models import Match, MatchPlayer
from bot.store.numbers import next_number
from bot.texts import match as texts
from bot.texts import refused

log = logging.getLogger(__name__)

MAX_REWARD = 1_000_000
MISSED = ("lots", "void")  # what happens when the First Player is not chosen in time
MAX_WITHIN = 7 * 86_400.0  # a week
REMIND_BEFORE = 600.0  # the chooser is reminded this long before the deadline (at most)
RETRY = 60.0  # a deadline passed while a player plays here: try again this much later


@dataclass(frozen=True)
class DMSetup:
    """What a Death Match is set up with, built whole by the command (or a nomination).

    ``chooser`` is a player's id (the one with higher priority chooses the First
    Player), "host" (the host chooses) or "lots" (the bot draws). ``event`` (a number or
    a name) is the event the DM counts for (see ``bot.services.events.plan_dm``).
    ``within`` seconds to choose (default: the server's), then ``missed`` applies:
    "lots" (default) or "void". ``note`` ends the intro."""

    game: str
    players: Sequence[Actor]
    chooser: str | None = None
    options: dict[str, Any] | None = None
    tc: TimeControl | None = None
    hints: bool = False
    reward: int | None = None
    event: str | None = None
    within: float | None = None
    missed: str | None = None
    note: str = ""


class Choosing:
    def __init__(self, kit: MatchKit, lookup: Lookup, lobby: Lobby) -> None:
        self.kit = kit
        self.lookup = lookup
        self.lobby = lobby
        self._timers: dict[int, Handle] = {}

    # ==== setting a DM up =================================================================

    async def start_dm(self, asker: Asker, setup: DMSetup) -> Response:
        """A host starts a Death Match between two players (see ``DMSetup``)."""
        # At Discord's limit: refused first, in memory, so that a refusal reads nothing
        # (``create_dm`` lets it in once the asker is known to be a host).
        self.kit.pressure.check(asker.guild_id, admit=False)
        await self.kit.roles.require_host(asker.guild_id, asker.actor)
        return await self.create_dm(asker, setup)

    async def create_dm(self, asker: Asker, setup: DMSetup) -> Response:
        """``start_dm`` for a caller that has checked the host already (a nomination a
        host opened, whose nominator picked the opponent)."""
        self.kit.pressure.check(asker.guild_id)  # at Discord's limit: fairly
        game = await offered_game(self.kit.db, asker.guild_id, setup.game)
        players, chooser, reward = setup.players, setup.chooser, setup.reward
        if len(players) != 2:
            raise Refusal(refused.dm_of_two())
        ids = [p.id for p in players]
        if ids[0] == ids[1]:
            raise Refusal(refused.dm_players_different())
        if setup.hints:
            raise Refusal(texts.no_hints_in_dm())
        if setup.within is not None and not 60 <= setup.within <= MAX_WITHIN:
            raise Refusal(texts.bad_choose_within(MAX_WITHIN / 60))
        within = self.kit.config.choose_within if setup.within is None else setup.within
        missed = (setup.missed or "lots").strip().lower()
        if missed not in MISSED:
            raise Refusal(texts.bad_missed(MISSED))
        options = game.check_options(setup.options)
        startable(game, 2, options)
        tc = setup.tc or TimeControl()
        plan = await plan_dm(self.kit.db, asker.guild_id, setup.event, ids, chooser, reward,
                             self.kit.config.dm_reward)
        chooser = plan.chooser
        if chooser not in ("host", "lots") and chooser not in ids:
            raise Refusal(refused.chooser_is())
        if reward is not None and not 0 <= reward <= MAX_REWARD:
            raise Refusal(refused.reward_from_zero())
        now = self.kit.now()
        kept: dict[str, Any] = {"reward": plan.reward}
        if chooser != "lots":
            kept |= {"choose_by": now + within, "choose_within": within, "missed": missed}
        async with self.kit.creating:
            await self.lobby.busy(asker.guild_id, asker.channel_id, ids)
            await self._not_twice(asker, game.key, ids)
            async with self.kit.db.session() as s, s.begin():
                await remember(s, asker.guild_id, [asker.actor, *players])
                match = Match(
                    guild_id=asker.guild_id, number=await next_number(s, asker.guild_id, "match"),
                    channel_id=asker.channel_id, game=game.key, kind=MatchKind.DM,
                    status=MatchStatus.CHOOSING, seats=2,
                    options=options, time_control=tc.to_json() | kept,
                    hints=False, rated=True, host_id=asker.actor.id, chooser=chooser,
                    created_at=now, event_id=plan.event_id)
                s.add(match)
                await s.flush()
                for order, player in enumerate(players):
                    s.add(MatchPlayer(match_id=match.id, user_id=player.id, order=order,
                                      accepted=True, banks_left=tc.banks))
                match_id, number = match.id, match.number
        self.kit.expect(asker.guild_id, asker.channel_id, ids, match_id)
        label = texts.match_label(number, MatchKind.DM)
        intro = texts.dm_intro(label, game.title, ids, texts.options_line(game, options, tc),
                               plan.note + setup.note)
        done = Post(texts.set_up(label), ephemeral=True)
        if chooser == "lots":
            first = self.kit.rng.choice(ids)
            try:
                started = await self._choose(match_id, None, first,
                                             texts.first_by_lots(first))
            except Busy as busy:  # a player is playing here: lots when the match ends
                self._arm(match_id, now + RETRY, None)
                return Response(reply=done, posts=[Post(f"{intro}\n{busy.text}", asker.channel_id,
                                                        pace=Pace.LOW)])
            return Response(reply=done, posts=[Post(intro, asker.channel_id, pace=Pace.LOW),
                                               *started.posts])
        self._arm(match_id, now + within, now + within - min(within / 2, REMIND_BEFORE))
        choices = tuple(Button(texts.goes_first_button(p.name), buttons.first(number, p.id),
                               "primary") for p in players)
        return Response(reply=done, posts=[Post(
            texts.choose_first(intro, chooser, within, missed, now + within), asker.channel_id,
            buttons=choices, pace=Pace.LOW)])

    async def _not_twice(self, asker: Asker, game: str, ids: Sequence[str]) -> None:
        """A second DM of the same game between the same two players in this channel,
        while the first waits for its First Player, is a repeat: refused, naming it."""
        async with self.kit.db.session() as s:
            waiting = (await s.scalars(
                select(Match).where(Match.guild_id == asker.guild_id,
                                    Match.channel_id == asker.channel_id,
                                    Match.kind == MatchKind.DM, Match.game == game,
                                    Match.status == MatchStatus.CHOOSING)
                .order_by(Match.id))).all()
            for match in waiting:
                pair = [p.user_id for p in match.players]
                if sorted(pair) == sorted(ids):
                    raise Refusal(refused.dm_already_set_up(
                        texts.match_label(match.number, MatchKind.DM), match.number, pair))

    # ==== the choice ======================================================================

    async def choose_first(self, asker: Asker, match_id: int | None, first_user: str) -> Response:
        """The chooser (or a host) names the First Player of a Death Match."""
        match_id = await self.lookup.stored(asker, match_id, (MatchStatus.CHOOSING,))
        return await self._choose(match_id, asker.actor, first_user)

    async def _choose(self, match_id: int, actor: Actor | None, first_user: str,
                      note: str | None = None) -> Response:
        """Seat the First Player and start; ``actor`` None: the bot (lots), ``note`` the
        line that says how the First Player was chosen."""
        async with self.kit.lock(match_id):
            async with self.kit.db.session() as s:
                match = await s.get(Match, match_id)
            if match is None or match.status != MatchStatus.CHOOSING:
                raise Refusal(refused.first_already_chosen())
            ids = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
            if (actor is not None and (Retrying.of(match.time_control) is not None
                                       or match.chooser == "lots")
                    and not await self.kit.roles.is_host(match.guild_id, actor)):
                # Chosen already (its start tried again), or lots: a host may choose.
                raise NotRunning(self.lookup.describe(match, {}, False) or "")
            # Hosts may always choose: they stand in for a chooser who is away.
            if (actor is not None and actor.id != match.chooser
                    and not await self.kit.roles.is_host(match.guild_id, actor)):
                raise Refusal(texts.not_the_chooser(match.chooser or ""))
            if first_user not in ids:
                raise Refusal(refused.first_is_a_player())
            playing = self.lobby.playing_here(match.guild_id, match.channel_id, ids)
            if playing is not None:
                raise Busy(*playing, waiting=True)
            order = [first_user] + [u for u in ids if u != first_user]
            if note is None:
                note = texts.first_chosen(actor.id, first_user) if actor is not None else ""
            started = await self.lobby.start(match_id, order, note)
            # Only once started: a deadline whose start failed is tried again.
            self._disarm(match_id)
            return started

    # ==== the deadline ====================================================================

    def restore(self, match: Match) -> None:
        """After a restart: the deadline of a DM waiting for its First Player, as kept
        (DMs made before deadlines existed get the default from their creation). A
        tournament's game waiting for its First Player keeps the tournament's rules."""
        self.kit.expect(match.guild_id, match.channel_id, [p.user_id for p in match.players],
                        match.id)
        if match.kind != MatchKind.DM:
            return
        if match.chooser == "lots":  # lots waiting for a player to be free: try again now
            self._arm(match.id, self.kit.now(), None)
            return
        kept = match.time_control
        within = float(kept.get("choose_within", self.kit.config.choose_within))
        choose_by = float(kept.get("choose_by", match.created_at + within))
        remind_at = choose_by - min(within / 2, REMIND_BEFORE)
        self._arm(match.id, choose_by, remind_at if remind_at > self.kit.now() else None)

    def _arm(self, match_id: int, choose_by: float, remind_at: float | None) -> None:
        self._disarm(match_id)
        if remind_at is not None:
            async def remind() -> None:
                async with self.kit.speaking_for_match(match_id):
                    await self._remind(match_id, choose_by)

            self._timers[match_id] = self.kit.clock.call_at(remind_at, remind)
        else:
            async def expire() -> None:
                async with self.kit.speaking_for_match(match_id):
                    await self._expire(match_id)

            self._timers[match_id] = self.kit.clock.call_at(choose_by, expire)

    def _disarm(self, match_id: int) -> None:
        handle = self._timers.pop(match_id, None)
        if handle is not None:
            handle.cancel()

    def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def armed(self, match_id: int) -> bool:
        """Has the DM its deadline's timer (for the watchdog)?"""
        handle = self._timers.get(match_id)
        return handle is not None and handle.armed

    async def _remind(self, match_id: int, choose_by: float) -> None:
        # Read first: a read that fails is tried again (the clock's backoff) with the
        # reminder still due; once read, the deadline's timer replaces this one.
        async with self.kit.db.session() as s:
            match = await s.get(Match, match_id)
        if match is None or match.status != MatchStatus.CHOOSING:
            self._disarm(match_id)
            return
        self._arm(match_id, choose_by, None)
        await self.kit.deliver(Post(texts.choose_reminder(
            _chooser_of(match), texts.match_label(match.number, match.kind),
            choose_by - self.kit.now(), str(match.time_control.get("missed", "lots"))),
            match.channel_id, pace=Pace.LOW))

    async def _expire(self, match_id: int) -> None:
        """The deadline passed: the DM's rule applies (lots, or void), announced. Safe
        to run again after a failure (the clock does): it rereads the DM, and its timer
        stays armed until it is done."""
        async with self.kit.db.session() as s:
            match = await s.get(Match, match_id)
        if match is None or match.status != MatchStatus.CHOOSING:
            self._timers.pop(match_id, None)
            return
        label = texts.match_label(match.number, match.kind)
        within = float(match.time_control.get("choose_within",
                                              self.kit.config.choose_within))
        who = _chooser_of(match)
        if match.time_control.get("missed") == "void":
            async with self.kit.lock(match_id), self.kit.db.session() as s, s.begin():
                done = await s.execute(update(Match).where(
                    Match.id == match_id, Match.status == MatchStatus.CHOOSING).values(
                    status=MatchStatus.VOIDED, finished_at=self.kit.now(),
                    end_reason=EndReason.VOID, result_text=texts.unchosen_record(within)))
            self._timers.pop(match_id, None)
            if done.rowcount:  # type: ignore[attr-defined]
                await self.kit.deliver(Post(texts.unchosen_voided(who, label, within),
                                            match.channel_id))
            return
        ids = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
        first = self.kit.rng.choice(ids)
        note = (texts.first_by_lots(first) if match.chooser == "lots"
                else texts.unchosen_lots(who, label, within, first))
        try:
            started = await self._choose(match_id, None, first, note)
        except Busy:
            self._arm(match_id, self.kit.now() + RETRY, None)
            return
        except Refusal:  # chosen meanwhile
            self._timers.pop(match_id, None)
            return
        for post in started.posts:
            await self.kit.deliver(post)


def _chooser_of(match: Match) -> str:
    """Who must choose: the chooser, or the DM's host when the host chooses."""
    if match.chooser in (None, "host", "lots"):
        return match.host_id or ""
    return match.chooser or ""
