"""Who may host: Manage Server, or the server's host role. Decided here only."""

from __future__ import annotations

from bot.core.messages import Actor
from bot.core.refusal import Refusal
from bot.store.db import Database
from bot.store.models import GuildSettings


class NotHost(Refusal):
    def __init__(self, role: str) -> None:
        super().__init__(f"Only hosts can do that (the '{role}' role or Manage Server).")
        self.role = role


class HostRoles:
    """The host role of each server: set with ``/hostrole``, else the configured default."""

    def __init__(self, db: Database, default_role: str) -> None:
        self.db = db
        self.default_role = default_role

    async def host_role(self, guild_id: str) -> str:
        async with self.db.session() as s:
            settings = await s.get(GuildSettings, guild_id)
        return (settings.host_role if settings else None) or self.default_role

    async def is_host(self, guild_id: str, actor: Actor) -> bool:
        if actor.manage_guild:
            return True
        role = await self.host_role(guild_id)
        return role.lower() in {r.lower() for r in actor.roles}

    async def require_host(self, guild_id: str, actor: Actor) -> None:
        if not await self.is_host(guild_id, actor):
            raise NotHost(await self.host_role(guild_id))

    async def set_host_role(self, guild_id: str, actor: Actor, role: str) -> str:
        """Store the role (Manage Server only); returns the role as stored."""
        if not actor.manage_guild:
            raise Refusal("Only members with Manage Server can set the host role.")
        role = role.strip().lstrip("@")
        if not role:
            raise Refusal("Name the role, e.g. `/hostrole role:Host`.")
        async with self.db.session() as s, s.begin():
            settings = await s.get(GuildSettings, guild_id)
            if settings is None:
                s.add(GuildSettings(guild_id=guild_id, host_role=role))
            else:
                settings.host_role = role
        return role
