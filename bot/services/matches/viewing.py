"""Looking at a match: its board (to the asker, or reposted by a host) and its clocks.
A match that is over shows its final board."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import DONE, MatchStatus
from bot.core.messages import Image, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.history_queries import match_record, position_of
from bot.services.history_view import ended_by
from bot.services.matches import menus
from bot.services.matches.kit import CHALLENGE_TTL, MatchKit
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import (
    NoneRunningHere,
    NoSuchMatch,
    NotBeingPlayed,
    NotRunning,
)
from bot.services.render import described
from bot.store.models import Match, MatchPlayer, Tournament, TournamentGame
from bot.store.queries import user_names
from bot.texts import languages as joined
from bot.texts import match as texts
from engine.registry import get_game


class Viewing:
    def __init__(self, kit: MatchKit, lookup: Lookup) -> None:
        self.kit = kit
        self.lookup = lookup

    async def board(self, asker: Asker, match_id: int | None, public: bool = False) -> Response:
        """The current board: to the asker, or to the channel (``/repost``, hosts only).
        After the end, the final board (to the asker)."""
        if public:
            await self.kit.roles.require_host(asker.guild_id, asker.actor)
        try:
            live = self.lookup.live(asker, match_id, player=False)
        except (NotBeingPlayed, NoneRunningHere):
            if public:
                await self._not_begun(asker, match_id, player=False)
                raise
            return await self._final(asker, match_id)
        image = await self.kit.render(live.game, live.state, live.names,
                                      live.hints and not live.finished,
                                      server=live.guild_id)
        text = texts.board(texts.match_label(live.number, live.kind), live.game.title,
                           texts.seat_line(live.game, live.state, live.users),
                           live.game.moves_played(live.state), live.paused,
                           self.kit.turn_line(live))
        if public:
            return Response(reply=Post(texts.board_posted(), ephemeral=True),
                            posts=[Post(text, live.channel_id, image=image,
                                        selects=menus.card_menu(live))])
        return Response(reply=Post(text, image=image, ephemeral=True))

    async def _final(self, asker: Asker, number: int | None) -> Response:
        """The final board of a match that is over: the one named, else the asker's last
        here (or the channel's last)."""
        if number is None:
            await self._not_begun(asker, None, player=True)  # the asker's, set up here
            number = await self._last_here(asker)
            if number is None:
                raise NoneRunningHere()
        record = await match_record(self.kit.db, asker.guild_id, number)
        if record is None:
            raise NoSuchMatch(number)
        label = texts.match_label(record.number, record.kind)
        if record.status not in DONE:
            await self._not_begun(asker, number, player=False)
            raise Refusal(texts.not_started(label))
        game = get_game(record.game)
        state = position_of(record)
        image = await self.kit.renderer.render(game, state, record.names, False,
                                               server=asker.guild_id)
        users = [p.user_id for p in record.players]
        text = texts.final_board(label, game.title, texts.seat_line(game, state, users),
                                 game.moves_played(state),
                                 record.status == MatchStatus.VOIDED, record.result_text or "")
        return Response(reply=Post(text, image=Image(image, f"{game.key}.png",
                                                     described(game, state, record.names,
                                                               ended_by(record, state))),
                                   ephemeral=True))

    async def _not_begun(self, asker: Asker, number: int | None, player: bool) -> None:
        """Refuse with what the match meant is waiting for, if it has not begun."""
        said = await self.lookup.not_running(asker, number, player)
        if said is not None:
            raise NotRunning(said)

    async def _last_here(self, asker: Asker) -> int | None:
        async with self.kit.db.session() as s:
            here = select(Match.number).where(Match.guild_id == asker.guild_id,
                                              Match.channel_id == asker.channel_id,
                                              Match.status.in_(DONE))
            latest = here.order_by(Match.finished_at.desc(), Match.id.desc()).limit(1)
            mine = await s.scalar(latest.join(MatchPlayer, MatchPlayer.match_id == Match.id)
                                  .where(MatchPlayer.user_id == asker.actor.id))
            return mine if mine is not None else await s.scalar(latest)

    async def overview(self, guild_id: str) -> Response:
        """``/matches``: the server's matches being played and waiting to start, with
        their players, whose turn it is and the clock; to the asker."""
        now = self.kit.now()
        lines = []
        playing = sorted((m for m in self.kit.live if m.guild_id == guild_id and not m.finished),
                         key=lambda m: m.number)
        async with self.kit.db.session() as s:
            waiting = list((await s.scalars(select(Match).where(
                Match.guild_id == guild_id,
                Match.status.in_((MatchStatus.PENDING, MatchStatus.CHOOSING)))
                .order_by(Match.number))).all())
            names = await user_names(s, guild_id, [p.user_id for m in waiting
                                                   for p in m.players])
            hosted = await _tournament_games(s, [m.id for m in playing]
                                             + [m.id for m in waiting])
        for live in playing:
            seat = live.to_move
            clock = None
            if seat is not None and live.tc.enabled:
                clock = texts.clock_left(live.tc, live.elapsed(now), *live.terms())
            lines.append(texts.overview_playing(
                texts.overview_label(live.number, live.kind, hosted.get(live.id)),
                live.game.title, live.channel_id, live.names,
                live.game.moves_played(live.state),
                live.names[seat] if seat is not None else None, clock, live.paused))
        for match in waiting:
            players = sorted(match.players, key=lambda p: p.order)
            named = [names.get(p.user_id, p.user_id) for p in players]
            if match.status == MatchStatus.CHOOSING:
                chooser = match.chooser if match.chooser not in (None, "host") else None
                by = match.time_control.get("choose_by")
                lines.append(texts.overview_choosing(
                    texts.overview_label(match.number, match.kind, hosted.get(match.id)),
                    get_game(match.game).title, match.channel_id, named,
                    names.get(chooser, chooser) if chooser else None,
                    float(by) - now if by is not None else None))
            else:
                lines.append(texts.overview_challenge(
                    match.number, get_game(match.game).title, match.channel_id, named,
                    [names.get(p.user_id, p.user_id) for p in players if not p.accepted],
                    match.created_at + CHALLENGE_TTL - now))
        return Response.say(texts.overview(lines, len(playing), len(waiting)))

    async def time(self, asker: Asker, match_id: int | None) -> Response:
        live = await self.lookup.running(asker, match_id, player=False)
        if not live.tc.enabled:
            return Response.say(texts.no_clock())
        now = self.kit.now()
        lines = []
        for seat in range(len(live.users)):
            if live.out[seat]:
                continue
            if seat == live.to_move:
                left = texts.clock_left(live.tc, live.elapsed(now), *live.terms())
                lines.append(texts.clock_on_turn(live.names[seat], left))
            else:
                banks = live.banks_left[seat]
                lines.append(texts.clock_waiting(live.names[seat], banks,
                                                 banks * live.tc.bank))
        if live.paused:
            lines.append(texts.clock_paused())
        return Response.say(joined.lines(*lines))


async def _tournament_games(s: AsyncSession,
                            match_ids: list[int]) -> dict[int, tuple[str, int, int]]:
    """The tournament games among ``match_ids``: (tournament, round, board) by match."""
    rows = await s.execute(
        select(TournamentGame.match_id, Tournament.name, TournamentGame.round,
               TournamentGame.board)
        .join(Tournament, Tournament.id == TournamentGame.tournament_id)
        .where(TournamentGame.match_id.in_(match_ids)))
    return {match_id: (name, number, board) for match_id, name, number, board in rows}
