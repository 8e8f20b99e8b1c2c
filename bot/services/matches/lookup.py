"""Which match a request means: the one named by number, else the asker's here."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import String, case, cast, func, select

from bot.core.enums import ACTIVE, MatchStatus
from bot.core.messages import Actor
from bot.core.refusal import Refusal
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.refusals import (
    Ambiguous,
    NoSuchMatch,
    NotAPlayer,
    NotBeingPlayed,
    WrongStatus,
)
from bot.store.models import Match, MatchPlayer, MemberName
from bot.store.queries import user_names
from bot.texts import match as texts
from engine.registry import get_game

# Challenges that were never played are not worth offering.
NEVER_PLAYED = (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED)


class Lookup:
    def __init__(self, kit: MatchKit) -> None:
        self.kit = kit

    async def stored(self, number: int | None, guild_id: str, channel_id: str,
                     actor: Actor, statuses: Sequence[str]) -> int:
        """A match not yet being played (a challenge, a DM choosing its First Player),
        named by its number on this server or found in the channel; its internal id."""
        async with self.kit.db.session() as s:
            if number is not None:
                match = await s.scalar(select(Match).where(Match.guild_id == guild_id,
                                                           Match.number == number))
                if match is None:
                    raise NoSuchMatch(number)
                if match.status not in statuses:
                    raise WrongStatus(number, match.status)
                return match.id
            rows = (await s.execute(
                select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id).where(
                    Match.guild_id == guild_id, Match.channel_id == channel_id,
                    Match.status.in_(statuses),
                    MatchPlayer.user_id == actor.id))).scalars().all()
            if len(rows) == 1:
                return int(rows[0])
            if not rows:
                # A chooser who is not playing (the host) names the match by channel.
                only = (await s.execute(select(Match.id).where(
                    Match.guild_id == guild_id, Match.channel_id == channel_id,
                    Match.status.in_(statuses)))).scalars().all()
                if len(only) == 1:
                    return int(only[0])
                if not only:
                    raise Refusal("There is no such match in this channel.")
            raise Ambiguous(running=False)

    def live(self, number: int | None, guild_id: str, channel_id: str, actor: Actor,
             player: bool) -> LiveMatch:
        """A match being played, named by its number on this server or found in the
        channel; ``player``: the asker must be playing in it."""
        if number is not None:
            live = self.kit.live.get(guild_id, number)
            if live is None:
                raise NotBeingPlayed(number)
        else:
            live = self.kit.live.for_seat(guild_id, channel_id, actor.id)
            if live is None and not player:
                here = self.kit.live.in_channel(guild_id, channel_id)
                if len(here) == 1:
                    live = here[0]
                elif len(here) > 1:
                    raise Ambiguous(running=True)
            if live is None:
                raise Refusal("There is no match of yours running in this channel.")
        if player and live.seat_of(actor.id) is None:
            raise NotAPlayer()
        return live

    # ---- for autocomplete ----------------------------------------------------------

    def suggest_moves(self, guild_id: str, channel_id: str, user_id: str, prefix: str,
                      limit: int = 25) -> list[str]:
        """Legal moves starting with ``prefix`` for the asker's running match, if on turn.

        Casual matches with hints only: in a Death Match, listing the legal moves
        would give away which cells are critical.
        """
        live = self.kit.live.for_seat(guild_id, channel_id, user_id)
        if live is None or not live.hints or live.to_move != live.seat_of(user_id):
            return []
        wanted = prefix.strip().lower().replace(" ", "")
        moves = sorted(live.game.notation(m) for m in live.game.legal_moves(live.state))
        return [m for m in moves if m.lower().startswith(wanted)][:limit]

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
