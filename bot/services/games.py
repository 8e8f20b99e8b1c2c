"""Which installed games a server offers (``/host games``).

The built-in games are on everywhere unless a server turns one off; a game another
package installed (``engine.registry``) runs code of its own, so it is on only where a
server turns it on. Every request that sets a new match up asks ``offered_game``;
matches already set up go on whatever is turned off later."""

from __future__ import annotations

from typing import Any

from bot.core.messages import Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.permissions import HostRoles
from bot.store.db import Database
from bot.store.models import GuildSettings
from bot.texts import games as texts
from engine.game import EngineError, Game
from engine.registry import Entry, broken, entries, entry, get_game


def _changes(settings: GuildSettings | None) -> set[str]:
    return set((settings.games or "").split()) if settings is not None else set()


def _on(found: Entry, changes: set[str]) -> bool:
    return f"-{found.key}" not in changes if found.built_in else f"+{found.key}" in changes


async def offered(db: Database, guild_id: str) -> list[str]:
    """The keys of the games a server offers, in order of key."""
    async with db.session() as s:
        changes = _changes(await s.get(GuildSettings, guild_id))
    return [found.key for found in entries() if _on(found, changes)]


async def offered_game(db: Database, guild_id: str, name: str) -> Game[Any, Any]:
    """The game a new match of this server is set up with: Refusal when the server does
    not offer it (EngineError when no such game is installed)."""
    game = get_game(name)
    if game.key not in await offered(db, guild_id):
        raise Refusal(texts.not_offered(game.title, game.key))
    return game


class Games:
    def __init__(self, db: Database, roles: HostRoles) -> None:
        self.db = db
        self.roles = roles

    async def offered(self, guild_id: str) -> list[str]:
        return await offered(self.db, guild_id)

    async def choose(self, asker: Asker, on: str | None, off: str | None) -> Response:
        """``/host games``: list the installed games, or turn one on or off here."""
        await self.roles.require_host(asker.guild_id, asker.actor)
        if on and off:
            raise Refusal(texts.on_and_off())
        if not on and not off:
            keys = await offered(self.db, asker.guild_id)
            rows = [(e.key, get_game(e.key).title, f"{e.package} {e.version}", e.key in keys)
                    for e in entries()]
            return Response.say(texts.listing(rows, sorted(broken())))
        name = on or off or ""
        try:
            found = entry(name)
        except EngineError:
            raise Refusal(texts.unknown(name, [e.key for e in entries()])) from None
        async with self.db.session() as s, s.begin():
            settings = await s.get(GuildSettings, asker.guild_id)
            if settings is None:
                settings = GuildSettings(guild_id=asker.guild_id)
                s.add(settings)
            changes = _changes(settings) - {f"+{found.key}", f"-{found.key}"}
            if found.built_in and not on:
                changes.add(f"-{found.key}")
            elif not found.built_in and on:
                changes.add(f"+{found.key}")
            settings.games = " ".join(sorted(changes)) or None
        return Response.say(texts.turned(get_game(found.key).title, bool(on)), False)
