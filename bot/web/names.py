"""Who a page names, and how: each person's name on the server, the neutral label for
those who hide it (``/web hide``), and the address of their page (none for them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.messages import ai_level, ai_name
from bot.services.web import Site, shown_names
from bot.texts import web as say


@dataclass(frozen=True)
class Person:
    label: str
    href: str | None  # their page, None when they hide their name


class People:
    """The people of one page, read in one query."""

    def __init__(self, site: Site, names: dict[str, str | None]) -> None:
        self.site = site
        self._names = names

    @classmethod
    async def read(cls, s: AsyncSession, site: Site, ids: Iterable[str]) -> People:
        return cls(site, await shown_names(s, site.guild_id, ids))

    def hidden(self, user_id: str) -> bool:
        return self._names.get(user_id, "") is None

    def __getitem__(self, user_id: str) -> Person:
        level = ai_level(user_id)
        if level is not None:  # the computer player: named, no page
            return Person(ai_name(level), None)
        name = self._names.get(user_id, say.someone())
        if name is None:
            return Person(say.hidden_player(), None)
        return Person(name, f"/s/{self.site.slug}/p/{self.site.token(user_id)}")

    def label(self, user_id: str) -> str:
        return self[user_id].label
