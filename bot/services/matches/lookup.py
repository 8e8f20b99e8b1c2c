"""Which match a request means: the one named by number, else the asker's here."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import String, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import ACTIVE, DONE, MatchStatus
from bot.core.messages import MENTION
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches.kit import START_TRIES, MatchKit, Retrying
from bot.services.matches.live import LiveMatch
from bot.services.matches.refusals import (
    AlreadyEnded,
    Ambiguous,
    NoneRunningHere,
    NoSuchMatch,
    NotAPlayer,
    NotBeingPlayed,
    NotRunning,
    WrongStatus,
)
from bot.store.models import Match, MatchPlayer, MemberName
from bot.store.queries import user_names
from bot.texts import languages as joined
from bot.texts import match as texts
from bot.texts import waiting as waits
from engine.game import MoveError, NotAMove
from engine.registry import get_game

# Challenges that ended without being played: declined, withdrawn, lapsed (and not worth
# offering).
NEVER_PLAYED = UNANSWERED = (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED)
PENDING = MatchStatus.PENDING
RECENT = 3600.0  # a challenge that ended this long ago is still worth explaining
WAITING = (MatchStatus.PENDING, MatchStatus.CHOOSING)  # set up, not begun


class Lookup:
    def __init__(self, kit: MatchKit) -> None:
        self.kit = kit

    async def stored(self, asker: Asker, number: int | None, statuses: Sequence[str]) -> int:
        """A match not yet being played (a challenge, a DM choosing its First Player),
        named by its number on this server or found in the channel; its internal id."""
        async with self.kit.db.session() as s:
            if number is not None:
                match = await s.scalar(select(Match).where(Match.guild_id == asker.guild_id,
                                                           Match.number == number))
                if match is None:
                    raise NoSuchMatch(number)
                if match.status not in statuses:
                    await self._why_not(s, match)
                    if match.status in DONE:  # what it is, and what a host may do
                        raise NotRunning(waits.ended(
                            texts.match_label(number, match.kind),
                            match.status == MatchStatus.VOIDED, number,
                            await self.kit.roles.is_host(asker.guild_id, asker.actor)))
                    raise WrongStatus(number, match.status)
                return match.id
            rows = (await s.execute(
                select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id).where(
                    Match.guild_id == asker.guild_id, Match.channel_id == asker.channel_id,
                    Match.status.in_(statuses),
                    MatchPlayer.user_id == asker.actor.id))).scalars().all()
            if len(rows) == 1:
                return int(rows[0])
            if not rows:
                # A chooser who is not playing (the host) names the match by channel.
                only = (await s.execute(select(Match.id).where(
                    Match.guild_id == asker.guild_id, Match.channel_id == asker.channel_id,
                    Match.status.in_(statuses)))).scalars().all()
                if len(only) == 1:
                    return int(only[0])
                if not only and PENDING in statuses:
                    # A challenge that just ended unplayed: say what became of it.
                    latest = await s.scalar(
                        select(Match).join(MatchPlayer, MatchPlayer.match_id == Match.id)
                        .where(Match.guild_id == asker.guild_id,
                               Match.channel_id == asker.channel_id,
                               MatchPlayer.user_id == asker.actor.id,
                               Match.status.in_(UNANSWERED),
                               Match.finished_at >= self.kit.now() - RECENT)
                        .order_by(Match.id.desc()).limit(1))
                    if latest is not None:
                        await self._why_not(s, latest)
                if not only:
                    raise NoSuchMatch(None)
            raise Ambiguous(running=False)

    async def _why_not(self, s: AsyncSession, match: Match) -> None:
        """Refuse with what became of a challenge that is no longer open (declined by
        whom, withdrawn, lapsed); nothing for other statuses."""
        if match.status not in UNANSWERED:
            return
        by = MENTION.search(match.result_text or "")
        name = None
        if by is not None:
            found = await user_names(s, match.guild_id, [by.group(1)])
            name = found.get(by.group(1), by.group(1))
        raise Refusal(texts.no_longer_open(match.number, match.status, name))

    def live(self, asker: Asker, number: int | None, player: bool) -> LiveMatch:
        """A match being played, named by its number on this server or found in the
        channel; ``player``: the asker must be playing in it."""
        if number is not None:
            live = self.kit.live.get(asker.guild_id, number)
            if live is None:
                raise NotBeingPlayed(number)
        else:
            live = self.kit.live.for_seat(asker.guild_id, asker.channel_id, asker.actor.id)
            if live is None and not player:
                here = self.kit.live.in_channel(asker.guild_id, asker.channel_id)
                if len(here) == 1:
                    live = here[0]
                elif len(here) > 1:
                    raise Ambiguous(running=True)
            if live is None:
                raise NoneRunningHere(player)
        if player and live.seat_of(asker.actor.id) is None:
            raise NotAPlayer()
        return live

    async def running(self, asker: Asker, number: int | None, player: bool) -> LiveMatch:
        """``live``; when the match meant is not being played, a refusal that says what
        it is doing instead and what a host can do (``NotRunning``)."""
        try:
            return self.live(asker, number, player)
        except (NotBeingPlayed, NoneRunningHere):
            said = await self.not_running(asker, number, player)
            if said is None:
                raise
            raise NotRunning(said) from None

    async def not_running(self, asker: Asker, number: int | None, player: bool
                          ) -> str | None:
        """What the match meant is doing, not being played: the one named, else those
        set up in this channel (of the asker, for a ``player``); None if nothing."""
        query = select(Match).where(Match.guild_id == asker.guild_id)
        if number is not None:
            query = query.where(Match.number == number)
        else:
            query = query.where(Match.channel_id == asker.channel_id,
                                Match.status.in_(WAITING))
            if player:
                query = query.where(Match.id.in_(select(MatchPlayer.match_id).where(
                    MatchPlayer.user_id == asker.actor.id)))
        async with self.kit.db.session() as s:
            found = list((await s.scalars(query.order_by(Match.number).limit(3))).all())
            names = await user_names(s, asker.guild_id,
                                     [p.user_id for m in found for p in m.players])
        host = await self.kit.roles.is_host(asker.guild_id, asker.actor)
        said = [line for m in found if (line := self.describe(m, names, host)) is not None]
        return joined.lines(*said) if said else None

    def describe(self, match: Match, names: dict[str, str], host: bool) -> str | None:
        """What a match not being played is doing, in a sentence (None: it is being
        played, by another process)."""
        label = texts.match_label(match.number, match.kind)
        if match.status in DONE:
            return waits.ended(label, match.status == MatchStatus.VOIDED, match.number, host)
        if match.status not in WAITING:
            return None
        retrying = Retrying.of(match.time_control)
        if retrying is not None and retrying.at is not None:
            return waits.for_board(label, retrying.at, retrying.failed + 1, START_TRIES)
        if retrying is not None:
            return waits.gave_up(label, match.number, START_TRIES, host)
        players = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
        if match.status == MatchStatus.PENDING:
            return waits.for_answer(label, [names.get(p.user_id, p.user_id)
                                            for p in match.players if not p.accepted])
        for user in players if match.chooser == "lots" else ():  # drawn once they are free
            live = self.kit.live.for_seat(match.guild_id, match.channel_id, user)
            if live is not None:
                return waits.for_player(label, names.get(user, user), live.number)
        chooser = match.chooser if match.chooser not in (None, "host", "lots") else None
        by = match.time_control.get("choose_by")
        return waits.for_first_player(label, match.number,
                                      names.get(chooser, chooser) if chooser else None,
                                      float(by) if by is not None else None, host)

    async def waiting(self, asker: Asker, text: str) -> None:
        """A message typed by a player of a match set up here but not begun: if it reads
        as a move, refuse it with what the match waits for (else it is chat: nothing)."""
        key = (asker.guild_id, asker.channel_id, asker.actor.id)
        match_id = self.kit.unstarted.get(key)
        if match_id is None:
            return
        async with self.kit.db.session() as s:
            match = await s.get(Match, match_id)
            if match is None or match.status not in WAITING:
                self.kit.unstarted.pop(key, None)
                return
            names = await user_names(s, asker.guild_id, [p.user_id for p in match.players])
        game = get_game(match.game)
        try:
            game.parse_move(game.new_state(match.seats, match.options), text)
        except NotAMove:
            return
        except MoveError:
            pass  # a move all the same, if not one of the first position
        said = self.describe(match, names, await self.kit.roles.is_host(asker.guild_id,
                                                                         asker.actor))
        if said is not None:
            raise NotRunning(said)

    async def decided(self, number: int | None, guild_id: str, channel_id: str
                      ) -> LiveMatch | Match:
        """The match a host's void or decision means: one being played, or a DM waiting
        for its First Player; by number, else the one in the channel. With several in
        the channel, the host is asked which (each listed)."""
        async with self.kit.db.session() as s:
            if number is not None:
                live = self.kit.live.get(guild_id, number)
                if live is not None:
                    return live
                match = await s.scalar(select(Match).where(Match.guild_id == guild_id,
                                                           Match.number == number))
                if match is None:
                    raise NoSuchMatch(number)
                if match.status in DONE:
                    raise AlreadyEnded(number, texts.match_label(number, match.kind),
                                       match.status == MatchStatus.VOIDED)
                if match.status != MatchStatus.CHOOSING:
                    raise NotBeingPlayed(number)
                return match
            waiting = list((await s.scalars(select(Match).where(
                Match.guild_id == guild_id, Match.channel_id == channel_id,
                Match.status == MatchStatus.CHOOSING).order_by(Match.number))).all())
            names = await user_names(s, guild_id, [p.user_id for m in waiting
                                                   for p in m.players])
        here: list[LiveMatch | Match] = [*sorted(self.kit.live.in_channel(guild_id, channel_id),
                                                 key=lambda m: m.number), *waiting]
        if len(here) == 1:
            return here[0]
        if not here:
            raise Refusal(texts.nothing_to_decide())
        raise Refusal(texts.which_match([
            (m.number, m.game.title, m.names, "running" if not m.paused else "paused")
            if isinstance(m, LiveMatch) else
            (m.number, get_game(m.game).title,
             [names.get(p.user_id, p.user_id) for p in sorted(m.players,
                                                              key=lambda p: p.order)],
             "waiting for its First Player")
            for m in here]))

    # ---- for autocomplete ----------------------------------------------------------

    def suggest_moves(self, guild_id: str, channel_id: str, user_id: str, prefix: str,
                      limit: int = 25) -> list[str]:
        """Moves starting with ``prefix`` for the asker's running match, if on turn:
        the legal ones in a match with hints; otherwise (a Death Match) every
        well-formed one, never filtered by legality, which would give away which cells
        are critical. Players move this way when the bot has no Message Content.
        """
        live = self.kit.live.for_seat(guild_id, channel_id, user_id)
        if live is None or live.to_move != live.seat_of(user_id):
            return []
        wanted = prefix[:100].strip().lower().replace(" ", "")
        game = live.game
        found = game.legal_moves(live.state) if live.hints else game.well_formed_moves(live.state)
        moves = sorted(game.notation(m) for m in found)
        return [m for m in moves if m.lower().replace(" ", "").startswith(wanted)][:limit]

    def move_help(self, guild_id: str, channel_id: str, user_id: str) -> str | None:
        """How to type a move of the asker's running match, as its game says it (what
        ``/move`` suggests when what was typed is no move)."""
        live = self.kit.live.for_seat(guild_id, channel_id, user_id)
        if live is None or live.to_move != live.seat_of(user_id):
            return None
        return live.game.move_help

    async def open_matches(self, guild_id: str, user_id: str | None = None,
                           typed: str = "", limit: int = 25) -> list[tuple[int, str]]:
        """A server's matches for autocomplete, as (number, label): found in the
        database by number (what was typed starts it) or by a player's name (contains
        it), of one user if given; open ones first, then the newest."""
        wanted = typed.strip().lstrip("#").lower()[:100]
        open_first = case((Match.status.in_(ACTIVE), 0), else_=1)
        query = select(Match).where(Match.guild_id == guild_id,
                                    Match.status.not_in(NEVER_PLAYED))
        if user_id is not None:
            query = query.where(Match.id.in_(select(MatchPlayer.match_id).where(
                MatchPlayer.user_id == user_id)))
        if wanted.isdigit():
            query = query.where(cast(Match.number, String).like(f"{wanted}%"))
        elif wanted:
            named = (select(MatchPlayer.match_id)
                     .join(MemberName, (MemberName.user_id == MatchPlayer.user_id)
                           & (MemberName.guild_id == guild_id))
                     .where(func.lower(MemberName.name).contains(wanted, autoescape=True)))
            query = query.where(Match.id.in_(named))
        async with self.kit.db.session() as s:
            rows = (await s.scalars(query.order_by(open_first, Match.number.desc())
                                    .limit(limit))).all()
            names = await user_names(s, guild_id, [p.user_id for m in rows for p in m.players])
        return [(m.number, texts.match_choice(m.number, get_game(m.game).title,
                                              [names.get(p.user_id, p.user_id)
                                               for p in m.players], m.status))
                for m in rows]

    def open_in_memory(self, guild_id: str, user_id: str | None = None, typed: str = "",
                       limit: int = 25) -> list[tuple[int, str]]:
        """``open_matches`` from the running matches held in memory only, with no
        database: what an autocomplete offers when the database is slow to answer."""
        wanted = typed.strip().lstrip("#").lower()[:100]
        found = [live for live in self.kit.live if live.guild_id == guild_id
                 and not live.finished and (user_id is None or user_id in live.users)
                 and (str(live.number).startswith(wanted) if wanted.isdigit()
                      else any(wanted in name.lower() for name in live.names))]
        found.sort(key=lambda live: -live.number)
        return [(live.number, texts.match_choice(
            live.number, live.game.title, live.names,
            MatchStatus.PAUSED if live.paused else MatchStatus.RUNNING))
            for live in found[:limit]]
