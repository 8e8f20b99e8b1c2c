"""Leaderboards: by garnets, wins or rating; per event, outside events, or overall.

Each board is computed whole (an aggregate over the scope, a few hundred rows for a
big event) and then ranked and cut into pages in Python: ties share a rank
(standard competition ranking, 1, 2, 2, 4), the asker's own rank is known wherever
they stand, and a deep page costs what page 1 does. The indexes that keep the
aggregates fast are in the schema (see ``python -m bot bench --queries``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.services import ledger, ratings
from bot.services.events import EventError, Scope
from bot.services.results import DRAWN, WON
from bot.store.models import EventPlayer, LedgerEntry, MatchResult, MemberName, Rating
from bot.store.queries import named_on
from bot.texts import standings as standing_texts
from bot.texts.words import garnets

BY = ("garnets", "wins", "rating")
PER_PAGE = 10


@dataclass(frozen=True)
class Standing:
    user_id: str
    name: str
    key: tuple[float, ...]  # larger is better; equal keys share a rank
    text: str


@dataclass(frozen=True)
class Board:
    rows: list[tuple[int, Standing]]  # (rank, standing), all of them, best first

    def page(self, page: int, per_page: int = PER_PAGE) -> tuple[int, int,
                                                                 list[tuple[int, Standing]]]:
        """(page number clamped to the board, number of pages, its rows)."""
        pages = max(1, math.ceil(len(self.rows) / per_page))
        page = max(1, min(page, pages))
        start = (page - 1) * per_page
        return page, pages, self.rows[start:start + per_page]

    def of(self, user_id: str) -> tuple[int, Standing] | None:
        return next(((r, st) for r, st in self.rows if st.user_id == user_id), None)


def ranked(standings: Sequence[Standing]) -> Board:
    """Best first; equal keys share the rank of the first of them, in name order."""
    ordered = sorted(standings, key=lambda st: (tuple(-k for k in st.key), st.name.casefold(),
                                                st.user_id))
    rows: list[tuple[int, Standing]] = []
    for index, standing in enumerate(ordered):
        if rows and rows[-1][1].key == standing.key:
            rows.append((rows[-1][0], standing))
        else:
            rows.append((index + 1, standing))
    return Board(rows)


async def _members(s: AsyncSession, scope: Scope) -> dict[str, str]:
    """An event's players with their names (nobody outside events)."""
    if scope.event is None:
        return {}
    shown, on = named_on(scope.event.guild_id, EventPlayer.user_id)
    rows = await s.execute(select(EventPlayer.user_id, shown).outerjoin(MemberName, on)
                           .where(EventPlayer.event_id == scope.event.id))
    return {user_id: name for user_id, name in rows.all()}


async def by_garnets(s: AsyncSession, guild_id: str, scope: Scope) -> Board:
    """Balances in the scope; an event's players are on its board from 0 garnets."""
    sums = (select(LedgerEntry.user_id, func.sum(LedgerEntry.amount).label("total"))
            .where(*ledger.in_scope(guild_id, scope)).group_by(LedgerEntry.user_id)
            .subquery())
    shown, on = named_on(guild_id, sums.c.user_id)
    rows = await s.execute(select(sums.c.user_id, shown, sums.c.total)
                           .outerjoin(MemberName, on))
    found = {user_id: (name, int(total)) for user_id, name, total in rows.all()}
    for user_id, name in (await _members(s, scope)).items():
        found.setdefault(user_id, (name, 0))
    return ranked([Standing(u, name, (float(n),), garnets(n))
                   for u, (name, n) in found.items()])


def _tally(guild_id: str, scope: Scope, game: str | None) -> Any:
    """(user, won, drawn, played) per player in the scope's finished matches."""
    won = func.sum(case((MatchResult.outcome == WON, 1), else_=0))
    drawn = func.sum(case((MatchResult.outcome == DRAWN, 1), else_=0))
    query = (select(MatchResult.user_id, won.label("won"), drawn.label("drawn"),
                    func.count().label("played"))
             .where(MatchResult.guild_id == guild_id))
    if not scope.overall:
        query = query.where(MatchResult.event_id == scope.event_id if scope.event is not None
                            else MatchResult.event_id.is_(None))
    if game is not None:
        query = query.where(MatchResult.game == game)
    return query.group_by(MatchResult.user_id)


async def records(s: AsyncSession, guild_id: str, scope: Scope,
                  game: str | None) -> dict[str, tuple[int, int, int]]:
    """(won, drawn, played) per player in the scope's finished matches."""
    rows = await s.execute(_tally(guild_id, scope, game))
    return {u: (int(w), int(d), int(n)) for u, w, d, n in rows.all()}


async def by_wins(s: AsyncSession, guild_id: str, scope: Scope, game: str | None) -> Board:
    """Finished matches won (draws and losses shown); an event's players from 0."""
    tally = _tally(guild_id, scope, game).subquery()
    shown, on = named_on(guild_id, tally.c.user_id)
    rows = await s.execute(select(tally.c.user_id, shown, tally.c.won, tally.c.drawn,
                                  tally.c.played).outerjoin(MemberName, on))
    found = {u: (name, int(w), int(d), int(n)) for u, name, w, d, n in rows.all()}
    for user_id, name in (await _members(s, scope)).items():
        found.setdefault(user_id, (name, 0, 0, 0))
    standings = []
    for user_id, (name, w, d, n) in found.items():
        text = standing_texts.wins_standing(won=w, lost=n - w - d, drawn=d)
        standings.append(Standing(user_id, name, (float(w),), text))
    return ranked(standings)


async def by_rating(s: AsyncSession, guild_id: str, scope: Scope, game: str) -> Board:
    """Ratings in ``game`` by ordinal. An event's players who never played rated
    games stand at the newcomer's rating; elsewhere only the rated are listed."""
    shown, on = named_on(guild_id, Rating.user_id)
    query = (select(Rating.user_id, shown, Rating.mu, Rating.sigma, Rating.games)
             .outerjoin(MemberName, on)
             .where(Rating.guild_id == guild_id, Rating.game == game))
    if scope.event is not None:
        query = query.where(Rating.user_id.in_(
            select(EventPlayer.user_id).where(EventPlayer.event_id == scope.event.id)))
    else:
        query = query.where(Rating.games > 0)
    found = {u: (name, mu, sigma, games)
             for u, name, mu, sigma, games in (await s.execute(query)).all()}
    for user_id, name in (await _members(s, scope)).items():
        found.setdefault(user_id, (name, ratings.MODEL.mu, ratings.MODEL.sigma, 0))
    standings = []
    for user_id, (name, mu, sigma, games) in found.items():
        text = standing_texts.rating_standing(rating=ratings.shown(mu, sigma), games=games)
        standings.append(Standing(user_id, name, (round(ratings.ordinal(mu, sigma), 9),),
                                  text))
    return ranked(standings)


async def default_game(s: AsyncSession, guild_id: str, scope: Scope) -> str | None:
    """The game a rating board means when none is named: the event's most played
    game, else the server's most rated one."""
    if scope.event is not None:
        game = await s.scalar(select(MatchResult.game).where(
            MatchResult.guild_id == guild_id, MatchResult.event_id == scope.event.id)
            .group_by(MatchResult.game).order_by(func.count().desc()).limit(1))
        if game is not None:
            return str(game)
    game = await s.scalar(select(Rating.game).where(Rating.guild_id == guild_id)
                          .group_by(Rating.game).order_by(func.count().desc()).limit(1))
    return str(game) if game is not None else None


async def board(s: AsyncSession, guild_id: str, by: str, scope: Scope,
                game: str | None) -> Board:
    if by == "garnets":
        if game is not None:
            raise EventError(standing_texts.garnets_per_game())
        return await by_garnets(s, guild_id, scope)
    if by == "wins":
        return await by_wins(s, guild_id, scope, game)
    if by == "rating":
        if game is None:
            raise EventError(standing_texts.rating_board_needs_game())
        return await by_rating(s, guild_id, scope, game)
    raise EventError(standing_texts.bad_board(by=by, choices=BY))
