"""Which language garnet speaks, to whom.

A server's language is the one a host set (``/host language``), else Discord's server
locale as the adapter last saw it, else English. A request is carried out in it
(``answer``: what it posts for everyone comes out in the server's language however it
was put together), and so is every timer of a match (``under``); the answer to the
asker is then said again in the asker's own language (``Asker.language``: their
Discord client's, or ``~ locale`` in the console), here, for every adapter.

The lookup is cached for ``CACHE_SECONDS``: a change made here takes effect at once in
this process, and within that time in the others (several processes share one
PostgreSQL database).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import select

from bot.core.messages import Post, Response
from bot.core.refusal import Refusal, answered
from bot.core.requests import Asker
from bot.services.permissions import HostRoles
from bot.services.web import guild_settings
from bot.store.db import Database
from bot.store.models import GuildSettings
from bot.texts import game_errors
from bot.texts import languages as say
from bot.texts.language import LANGUAGES, SOURCE, said_in, speaking
from engine.game import EngineError

CACHE_SECONDS = 30.0


@dataclass(frozen=True)
class Spoken:
    """A server's language: the one garnet speaks there, and whether its web pages
    follow a visitor's browser language; ``told`` is Discord's server locale."""

    language: str = SOURCE
    browser: bool = False
    told: str | None = None


class Languages:
    def __init__(self, db: Database, roles: HostRoles,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.roles = roles
        self.now = now
        self._known: dict[str, tuple[float, Spoken]] = {}
        self._reading: dict[str, asyncio.Lock] = {}  # a server's read, one at a time
        # Told once a change is committed: the other processes forget what they kept
        # (``bot.app`` sets it where the web's notices run).
        self.changed: Callable[[], None] = _nothing

    async def spoken(self, guild_id: str) -> Spoken:
        known = self._known.get(guild_id)
        if known is not None and self.now() - known[0] < CACHE_SECONDS:
            return known[1]
        # One read a server at a time: the requests that find it stale meanwhile wait
        # for that read, not each for the connection. At Discord's limit a server asks
        # for hundreds of refused matches a minute; each reading it, on SQLite's one
        # connection, queued the running matches' moves behind them, and the longer
        # they waited the more requests found it stale.
        async with self._reading.setdefault(guild_id, asyncio.Lock()):
            known = self._known.get(guild_id)
            if known is not None and self.now() - known[0] < CACHE_SECONDS:
                return known[1]
            return await self._read(guild_id)

    async def _read(self, guild_id: str) -> Spoken:
        async with self.db.engine.connect() as c:
            row = (await c.execute(select(
                GuildSettings.language, GuildSettings.discord_locale,
                GuildSettings.browser_language).where(GuildSettings.guild_id == guild_id))
                   ).first()
        spoken = Spoken() if row is None else Spoken(
            row.language or row.discord_locale or SOURCE, bool(row.browser_language),
            row.discord_locale)
        self._known[guild_id] = (self.now(), spoken)
        return spoken

    async def of(self, guild_id: str) -> str:
        """The language of the server's posts, boards and pages."""
        return (await self.spoken(guild_id)).language

    def forget(self, guild_id: str | None = None) -> None:
        """Read the server's language anew (another process changed it)."""
        if guild_id is None:
            self._known.clear()
        else:
            self._known.pop(guild_id, None)

    async def choose(self, asker: Asker, lang: str, browser: bool | None = None) -> Response:
        """``/host language``: the server's language, answered in it."""
        await self.roles.require_host(asker.guild_id, asker.actor)
        if lang not in LANGUAGES:
            raise ValueError(lang)  # the declaration's choices let no other through
        async with self.db.session() as s, s.begin():
            row = await guild_settings(s, asker.guild_id)
            row.language = lang
            if browser is not None:
                row.browser_language = browser
            browsing = bool(row.browser_language)
        self.forget(asker.guild_id)
        self.changed()
        with speaking(lang):  # a plain string: the asker reads it in the new language too
            return Response.say(str(say.language_set(lang, browsing)), ephemeral=False)

    async def noticed(self, guild_id: str, told: str | None) -> None:
        """Discord's server locale, as an interaction says it (None: not one garnet
        speaks); kept when it changed, as the default of a server no host set."""
        spoken = await self.spoken(guild_id)
        if told == spoken.told:
            return
        async with self.db.session() as s, s.begin():
            (await guild_settings(s, guild_id)).discord_locale = told
        self.forget(guild_id)

    async def answer(self, asker: Asker, produce: Callable[[], Awaitable[Response]]
                     ) -> Response:
        """Carry out a request in the server's language; its answer to the asker (a
        refusal too) said again in the asker's."""
        server = await self.of(asker.guild_id)

        async def produced() -> Response:
            try:
                return await produce()
            except EngineError as exc:  # a game's refusal, said by its cause
                raise Refusal(game_errors.refusal(exc)) from None

        with speaking(server):
            response = await answered(produced)
        return said_to(response, asker.language or server)



def said_to(response: Response, lang: str) -> Response:
    """``response`` with its answer to the asker said again in ``lang``: its words and
    its buttons' and menus' labels, when each was said by one text function."""
    reply = response.reply
    if reply is None:
        return response
    return dataclasses.replace(response, reply=_post_in(reply, lang))


def _post_in(post: Post, lang: str) -> Post:
    return dataclasses.replace(
        post, text=said_in(post.text, lang),
        buttons=tuple(dataclasses.replace(b, label=said_in(b.label, lang))
                      for b in post.buttons),
        selects=tuple(dataclasses.replace(
            s, placeholder=said_in(s.placeholder, lang),
            choices=tuple(dataclasses.replace(c, label=said_in(c.label, lang),
                                              description=said_in(c.description, lang))
                          for c in s.choices)) for s in post.selects))


def _nothing() -> None:
    return None


def from_browser(accepted: str) -> str | None:
    """The first language of a browser's ``Accept-Language`` that garnet speaks
    (``ko-KR,ko;q=0.9,en;q=0.8``: ``ko``), by the browser's order of preference."""
    tried: list[tuple[float, int, str]] = []
    for place, part in enumerate(accepted.split(",")[:20]):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            continue
        base = tag.split("-", 1)[0].strip().lower()
        if base in LANGUAGES and q > 0:
            tried.append((-q, place, base))
    return min(tried)[2] if tried else None

