"""The courtesies of casual play that lichess players expect: a draw offered and
accepted, an abort in the first two moves (no result, no rating), a rematch with the
colours swapped, and the lapse of a game without a clock that nobody plays on.

Death Matches have none of these: their result is the rules' or a host's.
"""

from __future__ import annotations

from sqlalchemy import select

from bot.core import buttons
from bot.core.enums import DONE, EndReason, MatchKind
from bot.core.messages import Actor, Button, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches.ending import Ending
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lobby import Lobby
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import MatchOver, NoSuchMatch
from bot.store.models import Match
from bot.texts import tools as say
from bot.texts.match import match_label

ABORT_BEFORE = 2  # a casual match may be aborted until its second move is played


class Courtesy:
    def __init__(self, kit: MatchKit, lookup: Lookup, lobby: Lobby, ending: Ending) -> None:
        self.kit = kit
        self.lookup = lookup
        self.lobby = lobby
        self.ending = ending

    def _casual(self, live: LiveMatch, what: str) -> None:
        if live.kind == MatchKind.DM:
            raise Refusal(say.not_in_a_dm(what))
        if live.hosted:
            raise Refusal(say.hosted_game(what))
        if live.kind != MatchKind.CASUAL and what == "draw":
            raise Refusal(say.no_draw_with_the_computer())

    async def draw(self, asker: Asker, match_id: int | None) -> Response:
        """Offer a draw, or accept the one the opponent offered."""
        live = await self.lookup.running(asker, match_id, player=True)
        self._casual(live, "draw")
        async with live.lock:
            if live.finished:
                raise MatchOver()
            if len(live.users) != 2:
                raise Refusal(say.draw_for_two())
            seat = live.seat_of(asker.actor.id)
            assert seat is not None
            label = match_label(live.number, live.kind)
            if live.draw_offer == seat:
                raise Refusal(say.offered_already(live.names[1 - seat]))
            if live.draw_offer is None:
                # Kept with the match (and the move it stands at), so a restart keeps it.
                async with self.kit.db.session() as s, s.begin():
                    match = await s.get(Match, live.id)
                    assert match is not None
                    match.time_control = {**match.time_control,
                                          "draw_offer": [seat, live.ply]}
                live.draw_offer = seat
                accept = Button(say.accept_draw_button(), buttons.draw(live.number), "success")
                return Response(reply=Post(say.draw_offered(asker.actor.id, live.users[1 - seat],
                                                            label),
                                           live.channel_id, buttons=(accept,)))
            return await self.ending.finish_by(live, None, EndReason.AGREED, say.agreed_draw(),
                                               draw=True)

    async def abort(self, asker: Asker, match_id: int | None) -> Response:
        """End a casual match in its first two moves, without a result."""
        live = await self.lookup.running(asker, match_id, player=True)
        self._casual(live, "abort")
        async with live.lock:
            if live.finished:
                raise MatchOver()
            label = match_label(live.number, live.kind)
            if live.ply >= ABORT_BEFORE:
                raise Refusal(say.too_late_to_abort(label))
            await self.ending.void_live(live, EndReason.ABORTED,
                                        say.aborted_record(asker.actor.id, live.ply))
            return await self.ending.told(live, None, Response(
                reply=Post(say.aborted(asker.actor.id, label), live.channel_id)), voided=True)

    async def lapse(self, live: LiveMatch) -> Response:
        """A casual match without a clock left without a move for the idle time (the
        caller holds the lock)."""
        idle = self.kit.config.casual_idle
        await self.ending.void_live(live, EndReason.LAPSED, say.lapsed_record(idle))
        return await self.ending.told(live, None, Response(posts=[Post(
            say.lapsed(match_label(live.number, live.kind), idle), live.channel_id)]),
            voided=True)

    async def rematch(self, asker: Asker, match_id: int) -> Response:
        """Challenge the opponent of a finished casual match to the same game, with the
        same options and the colours swapped."""
        async with self.kit.db.session() as s:
            match = await s.scalar(select(Match).where(Match.guild_id == asker.guild_id,
                                                       Match.number == match_id))
        if match is None:
            raise NoSuchMatch(match_id)
        label = match_label(match.number, match.kind)
        seats = sorted(match.players, key=lambda p: (p.seat is None, p.seat, p.order))
        mine = next((p for p in seats if p.user_id == asker.actor.id), None)
        if mine is None:
            raise Refusal(say.not_your_match(label))
        if match.kind != MatchKind.CASUAL or match.host_id is not None or len(seats) != 2:
            raise Refusal(say.no_rematch(label))
        if match.status not in DONE:
            raise Refusal(say.not_over(label))
        other = next(p for p in seats if p is not mine)
        # The second player of this game moves first in the next.
        first = "me" if mine.seat == 1 else "them"
        names = await self.kit.names(asker.guild_id, [other.user_id])
        return await self.lobby.challenge(
            Asker(asker.guild_id, match.channel_id, asker.actor), match.game,
            [Actor(other.user_id, names[0])],
            first=first, options=dict(match.options),
            tc=TimeControl.from_json(match.time_control), hints=match.hints,
            rated=match.rated)
