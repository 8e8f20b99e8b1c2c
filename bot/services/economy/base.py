"""What every part of the economy shares: the database, the clock, who hosts, the
default reward, and the locks of spending."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.clock import Clock
from bot.core.messages import Actor, Button
from bot.services.limits import ServerQueues
from bot.services.permissions import HostRoles
from bot.store import season
from bot.store.db import Database
from bot.store.models import MemberName
from bot.texts import economy as say
from bot.texts import season as season_say
from engine.registry import get_game

LEDGER_PAGE = 10
MAX_LISTED = 60  # players listed in one message (Discord allows 2,000 characters)


def game_key(game: str | None) -> str | None:
    return get_game(game).key if game is not None and game.strip() else None


def page_buttons(page_id: Callable[[int], str], page: int, pages: int) -> tuple[Button, ...]:
    """◀ Prev / Next ▶ for a page of ``pages``; ``page_id(n)`` is page n's button id."""
    buttons = []
    if page > 1:
        buttons.append(Button(say.page_button(say.PREV), page_id(page - 1)))
    if page < pages:
        buttons.append(Button(say.page_button(say.NEXT), page_id(page + 1)))
    return tuple(buttons)


async def name_of(s: AsyncSession, guild_id: str, who: Actor) -> str:
    """What this server calls a person: as the platform names them now (the adapter
    gives the name on this server), else as this server last knew them."""
    if who.name and who.name != who.id:
        return who.name
    known = await s.get(MemberName, (guild_id, who.id))
    return known.name if known is not None else who.id


async def season_line(s: AsyncSession, event_id: int, user_id: str) -> str:
    """A player's Tokens of Life and elimination in an event, said after their balance."""
    held = (await season.tokens(s, event_id, [user_id])).get(user_id, 0)
    out = await season.eliminations(s, event_id, [user_id])
    line = season_say.token_line(held=held)
    if user_id in out:
        line += season_say.out_line(match_number=out[user_id])
    return line


class EconomyBase:
    """Built once and handed what it needs; its state lives in the database, except
    the locks that keep one player's spending in this process one at a time."""

    def __init__(self, db: Database, clock: Clock, roles: HostRoles, dm_reward: int,
                 queues: ServerQueues | None = None) -> None:
        self.db = db
        self.clock = clock
        self.roles = roles
        self.dm_reward = dm_reward
        # Exports read a whole event: a few at a time per server (bot.services.limits).
        self.queues = queues or ServerQueues()
        # One lock per (event, player) that spends garnets (see services/ledger.py).
        self.locks: dict[tuple[int, str], asyncio.Lock] = {}

    def now(self) -> float:
        return self.clock.now()
