"""People named several at once: Discord resolves a user option to a member, but a
text option of several people (``players:@a @b @c``) arrives as text with mentions
(``<@123> <@456>``): each is looked up on the server here.

A member not in the cache costs a request to Discord on the bot's token, which every
server shares: so the names are looked up only for a request its asker may make (a
hosts' command: a host; ``may_name``), at most the option's bound per request (checked
before any lookup) and ``MemberFetches`` per server per minute."""

from __future__ import annotations

import logging
import re
import time
from collections import defaultdict, deque
from collections.abc import Callable

import discord

from bot.adapters.discord.delivery import UserError, player_of
from bot.commands.spec import MAX_PEOPLE, Audience, Command
from bot.core.messages import Actor
from bot.services.permissions import HostRoles
from bot.texts import input as say
from bot.texts import match as texts

log = logging.getLogger(__name__)

MENTIONED = re.compile(r"<@!?(\d{1,20})>")
BETWEEN = re.compile(r"[\s,]+")
FETCHES_PER_MINUTE = 120  # members looked up on Discord per server per minute


class MemberFetches:
    """At most ``most`` member lookups on Discord per server in ``per`` seconds; a
    request that needs more than is left is refused whole (nothing looked up)."""

    def __init__(self, most: int = FETCHES_PER_MINUTE, per: float = 60.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.per = per
        self.now = now
        self._used: dict[str, deque[float]] = defaultdict(deque)

    def take(self, guild_id: str, count: int) -> None:
        if count <= 0:
            return
        now = self.now()
        used = self._used[guild_id]
        while used and used[0] <= now - self.per:
            used.popleft()
        if len(used) + count > self.most:
            wait = used[0] + self.per - now if used else self.per
            raise UserError(texts.slow_down(wait))
        used.extend([now] * count)
        if len(self._used) > 10_000:  # forget servers whose window has passed
            for old in [g for g, u in self._used.items() if not u or u[-1] <= now - self.per]:
                del self._used[old]


async def may_name(roles: HostRoles, guild_id: str, actor: Actor, command: Command) -> None:
    """Refuse, before anyone is looked up, a command its asker may not use."""
    if command.audience is Audience.HOSTS:
        await roles.require_host(guild_id, actor)
    elif command.audience is Audience.MANAGERS and not actor.manage_guild:
        raise UserError(texts.only_managers())


def mentioned(option: str, text: str) -> list[str]:
    """The user ids a text of mentions names, in order, each once, within the bound."""
    ids = MENTIONED.findall(text)
    if not ids or BETWEEN.sub("", MENTIONED.sub("", text)):
        raise UserError(say.takes_mentions(option))
    unique = list(dict.fromkeys(ids))
    if len(unique) > MAX_PEOPLE:
        raise UserError(say.too_many_people(option, MAX_PEOPLE))
    return unique


async def people(interaction: discord.Interaction, option: str, text: str,
                 fetches: MemberFetches | None = None) -> tuple[Actor, ...]:
    """The members a text of mentions names, in order, each once: from the cache, else
    looked up on Discord within the server's budget (``fetches``)."""
    unique = mentioned(option, text)
    guild = interaction.guild
    if guild is None:
        raise UserError(say.servers_only())
    cached = {uid: guild.get_member(int(uid)) for uid in unique}
    if fetches is not None:
        fetches.take(str(guild.id), sum(1 for m in cached.values() if m is None))
    found = []
    for user_id in unique:
        member = cached[user_id]
        if member is None:
            try:
                member = await guild.fetch_member(int(user_id))
            except discord.HTTPException:
                raise UserError(say.not_a_member(user_id)) from None
        found.append(player_of(member))
    return tuple(found)
