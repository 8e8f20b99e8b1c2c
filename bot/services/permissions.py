"""Who may host: Manage Server, or the server's host role. Decided here only.

The host role is stored by id, so renaming it keeps it and another role given the
same name does not grant it. A name (the ``HOST_ROLE`` setting on a first start, or
a role stored by name by an older version) is resolved once per server to the id of
the one role with that name, when the adapter shows the server's roles (``adopt``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.core.messages import Actor, Role
from bot.core.refusal import Refusal
from bot.store.db import Database
from bot.store.models import GuildSettings
from bot.texts import match as texts

log = logging.getLogger(__name__)


class NotHost(Refusal):
    def __init__(self, role: str | None) -> None:
        super().__init__(texts.not_host(role))
        self.role = role


class HostRoles:
    """The host role of each server: set with ``/hostrole``, else the configured default
    (a role id, or a name to resolve)."""

    def __init__(self, db: Database, default_role: str) -> None:
        self.db = db
        self.default_role = default_role.strip()
        # Resolved roles by server, so that each check is not a database read.
        self._cache: dict[str, tuple[str | None, str | None]] = {}

    async def host_role(self, guild_id: str) -> tuple[str | None, str | None]:
        """(role id, role name) of a server's host role; the id is None while a name
        waits to be resolved."""
        if guild_id in self._cache:
            return self._cache[guild_id]
        async with self.db.session() as s:
            settings = await s.get(GuildSettings, guild_id)
        if settings is not None and (settings.host_role or settings.host_role_name):
            found = (settings.host_role, settings.host_role_name)
        elif self.default_role.isdigit():
            found = (self.default_role, None)
        else:
            found = (None, self.default_role or None)
        self._cache[guild_id] = found
        return found

    async def is_host(self, guild_id: str, actor: Actor) -> bool:
        if actor.manage_guild:
            return True
        role_id, _ = await self.host_role(guild_id)
        return role_id is not None and role_id in actor.roles

    async def require_host(self, guild_id: str, actor: Actor) -> None:
        if not await self.is_host(guild_id, actor):
            raise NotHost((await self.host_role(guild_id))[1])

    async def set_host_role(self, guild_id: str, actor: Actor, role: Role) -> Role:
        """Store the role (Manage Server only); returns it."""
        if not actor.manage_guild:
            raise Refusal(texts.only_managers_set_host_role())
        await self._store(guild_id, role.id, role.name)
        return role

    async def adopt(self, guild_id: str, roles: Iterable[Role]) -> Role | None:
        """Resolve a server's host role by name to an id, once, from the roles the
        server has; the role now in force (None while there is none)."""
        role_id, name = await self.host_role(guild_id)
        known = list(roles)
        if role_id is not None:
            named = next((r for r in known if r.id == role_id), None)
            if named is not None and named.name != name:
                await self._store(guild_id, role_id, named.name)  # renamed: keep the id
            return named or Role(role_id, name or role_id)
        if not name:
            return None
        same = [r for r in known if r.name.lower() == name.lower()]
        if len(same) != 1:
            log.warning("server %s: %s roles are called %r; the host role stays unset "
                        "until someone with Manage Server uses /hostrole",
                        guild_id, len(same) or "no", name)
            return None
        await self._store(guild_id, same[0].id, same[0].name)
        return same[0]

    async def _store(self, guild_id: str, role_id: str, name: str) -> None:
        async with self.db.session() as s, s.begin():
            settings = await s.get(GuildSettings, guild_id)
            if settings is None:
                s.add(GuildSettings(guild_id=guild_id, host_role=role_id,
                                    host_role_name=name[:100]))
            else:
                settings.host_role, settings.host_role_name = role_id, name[:100]
        self._cache[guild_id] = (role_id, name)
