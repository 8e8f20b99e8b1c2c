"""The public web pages' switches and the names they show (``bot.web`` serves them).

Nothing of a server is public until a host says ``/host web on``: the server's pages
then live under ``/s/<slug>``, an unguessable address kept while they are off, so that
turning them on again brings the same links back. ``/host web off`` takes every page
down at once: once it is committed every process serving pages is told
(``PublicPages.switched``) and forgets what it kept, so that each answers 404 from the
next request on. A player may hide their
name from every page of every server (``/web hide``): a neutral label stands for them,
and their own page is gone. No Discord id appears: a player's page address is made
from a secret of the server (``web_salt``) and their id, which cannot be read back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.messages import Post, Response
from bot.core.requests import Asker
from bot.services.permissions import HostRoles
from bot.services.users import remember
from bot.store.db import Database
from bot.store.models import GuildSettings, User
from bot.store.queries import user_names
from bot.texts import languages as joined
from bot.texts import web as say

POST_LIMIT = 2000  # characters of a Discord message
# A page's address for a post, when the server's pages are up: (server, path) -> address.
WebLink = Callable[[str, str], Awaitable[str | None]]
SLUG_BYTES = 12  # 16 characters of URL-safe base64: not guessed, not listed anywhere
TOKEN_CHARS = 16  # of a player's page address (64 bits of an HMAC)


@dataclass(frozen=True)
class Site:
    """A server whose pages are up."""

    guild_id: str
    slug: str
    salt: str

    def token(self, user_id: str) -> str:
        """The player's page address on this server: the same every time, unique in
        practice, and no way back to their id without the server's secret."""
        digest = hmac.new(self.salt.encode(), user_id.encode(), hashlib.sha256)
        return digest.hexdigest()[:TOKEN_CHARS]


class PublicPages:
    """``/host web on|off`` and ``/web hide|show``, and what the pages may show.

    ``base`` is where people open the pages (``PUBLIC_URL``, or in the console the
    local address): None, and garnet posts no links (``/host web on`` still works and
    says where the pages are once an operator sets it)."""

    def __init__(self, db: Database, roles: HostRoles, base: str | None = None) -> None:
        self.db = db
        self.roles = roles
        self.base = base
        # Told after a switch is thrown or a name hidden, once committed: the pages
        # forget what they kept, in every process (``bot.web``).
        self.switched: Callable[[], None] = _nothing

    # ---- the switches --------------------------------------------------------------

    async def turn_on(self, asker: Asker) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s, s.begin():
            row = await guild_settings(s, asker.guild_id)
            if row.web_slug is None:
                row.web_slug = secrets.token_urlsafe(SLUG_BYTES)
                row.web_salt = secrets.token_hex(32)
            row.web_on = True
            slug = row.web_slug
        self.switched()
        return Response.say(say.turned_on(self._address(slug)), ephemeral=False)

    async def turn_off(self, asker: Asker) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s, s.begin():
            row = await guild_settings(s, asker.guild_id)
            row.web_on = False
        self.switched()
        return Response.say(say.turned_off(), ephemeral=False)

    async def hide(self, asker: Asker, hidden: bool = True) -> Response:
        async with self.db.session() as s, s.begin():
            await remember(s, asker.guild_id, [asker.actor])
            await s.execute(update(User).where(User.id == asker.actor.id)
                            .values(web_hidden=hidden))
        self.switched()
        return Response.say(say.hidden() if hidden else say.shown())

    def _address(self, slug: str) -> str | None:
        return None if self.base is None else f"{self.base}/s/{slug}"

    # ---- what the pages read ---------------------------------------------------------

    async def site(self, slug: str) -> Site | None:
        return await find_site(self.db, slug)

    async def link(self, guild_id: str, path: str = "") -> str | None:
        """The address of a page of the server for a post (``path``: "/m/3"), when its
        pages are up and garnet knows where people open them; else None."""
        if self.base is None:
            return None
        async with self.db.engine.connect() as c:
            slug = (await c.execute(select(GuildSettings.web_slug).where(
                GuildSettings.guild_id == guild_id, GuildSettings.web_on.is_(True)))
                    ).scalar_one_or_none()
        return None if slug is None else f"{self.base}/s/{slug}{path}"


async def find_site(db: Database, slug: str) -> Site | None:
    """The server whose pages are at ``slug``, if they are up (read anew each time)."""
    async with db.engine.connect() as c:
        row = (await c.execute(select(GuildSettings.guild_id, GuildSettings.web_salt)
                               .where(GuildSettings.web_slug == slug,
                                      GuildSettings.web_on.is_(True)))).first()
    return None if row is None or row.web_salt is None else Site(row.guild_id, slug,
                                                                 row.web_salt)


def _nothing() -> None:
    return None


async def no_link(_guild_id: str, _path: str) -> str | None:
    return None


def linked(response: Response, address: str | None) -> Response:
    """``response`` with the page's address under its answer (in a post of its own when
    the answer is full); as it was when there is no address."""
    reply = response.reply
    if address is None or reply is None:
        return response
    line = say.web_line(address)
    if len(reply.text) + 1 + len(line) <= POST_LIMIT:
        return dataclasses.replace(response, reply=dataclasses.replace(
            reply, text=joined.lines(reply.text, line)))
    return dataclasses.replace(response, posts=[
        *response.posts, Post(line, reply.channel_id, ephemeral=reply.ephemeral, pings=())])


async def shown_names(s: AsyncSession, guild_id: str, ids: Iterable[str]) -> dict[str, str | None]:
    """What the pages call each person: their name on this server, or None for those who
    hide it (``/web hide``; the page puts its neutral label)."""
    wanted = set(ids)
    names = await user_names(s, guild_id, wanted)
    hidden = set((await s.scalars(select(User.id).where(
        User.id.in_(wanted), User.web_hidden.is_(True)))).all()) if wanted else set()
    return {uid: None if uid in hidden else names.get(uid, say.someone())
            for uid in wanted}


async def guild_settings(s: AsyncSession, guild_id: str) -> GuildSettings:
    """The server's settings row, made when it has none yet (in ``s``'s transaction)."""
    row = await s.get(GuildSettings, guild_id)
    if row is None:
        row = GuildSettings(guild_id=guild_id)
        s.add(row)
    return row
