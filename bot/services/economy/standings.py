"""Standings: leaderboards by garnets, wins or rating, and a player's ratings."""

from __future__ import annotations

from sqlalchemy import select

from bot.core import buttons
from bot.core.messages import Actor, Post, Response
from bot.services import events, leaderboard, ratings
from bot.services.economy.base import EconomyBase, game_key, name_of, page_buttons
from bot.services.events import EventError, Scope
from bot.store import season
from bot.store.models import Rating
from bot.texts import economy as say
from bot.texts import season as season_say
from bot.texts import standings as standing_texts
from engine.registry import game_keys, get_game


class Standings(EconomyBase):
    async def leaderboard(self, guild_id: str, actor: Actor, by: str = "garnets",
                          game: str | None = None, event: str | None = None,
                          page: int = 1) -> Response:
        by = (by or "garnets").strip().lower()
        if by not in leaderboard.BY:
            raise EventError(standing_texts.bad_board(by=by, choices=leaderboard.BY))
        key = game_key(game)
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event, allow_overall=True)
            if by == "rating" and key is None:
                key = await leaderboard.default_game(s, guild_id, scope) or game_keys()[0]
            table = await leaderboard.board(s, guild_id, by, scope, key)
            out = (await season.eliminations(s, scope.event.id) if scope.event is not None
                   else {})
        head = standing_texts.board_head(by=by, where=scope.label if scope.event is not None
                              or scope.overall else say.scope_label(event=None, overall=False),
                              game=get_game(key).title if key is not None else None)
        if not table.rows:
            return Response.say(standing_texts.board_empty(head=head))
        number, pages, rows = table.page(page)
        mine = table.of(actor.id)
        text = standing_texts.board_page(
            head=head, page=number, pages=pages, count=len(table.rows),
            rows=[(rank, st.name, st.text + (season_say.out_line(match_number=out[st.user_id])
                                            if st.user_id in out else ""),
                   st.user_id == actor.id) for rank, st in rows],
            mine=(mine[0], mine[1].text) if mine is not None else None,
            rating=by == "rating")
        return Response(reply=Post(text, ephemeral=True, buttons=page_buttons(
            lambda n: buttons.leaderboard(by, key, scope.key, n), number, pages)))

    async def rating(self, guild_id: str, actor: Actor, person: Actor | None = None,
                     game: str | None = None) -> Response:
        who = person or actor
        key = game_key(game)
        async with self.db.session() as s:
            name = await name_of(s, guild_id, who)
            query = select(Rating).where(Rating.guild_id == guild_id, Rating.user_id == who.id,
                                         Rating.games > 0)
            if key is not None:
                query = query.where(Rating.game == key)
            mine = list((await s.scalars(query.order_by(Rating.game))).all())
            rows = []
            for row in mine:
                table = await leaderboard.by_rating(s, guild_id, Scope(None, overall=True),
                                                    row.game)
                place = table.of(who.id)
                rows.append((get_game(row.game).title, ratings.shown(row.mu, row.sigma),
                             row.games, (place[0], len(table.rows)) if place else None))
        if not mine:
            return Response.say(standing_texts.no_ratings(
                name=name, game=get_game(key).title if key else None,
                start=ratings.shown(ratings.MODEL.mu, ratings.MODEL.sigma)))
        return Response.say(standing_texts.ratings_of(name=name, rows=rows))
