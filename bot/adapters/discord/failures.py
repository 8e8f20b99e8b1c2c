"""Discord's refusals, told to the services as ``PostFailure`` (``bot.core.failures``).

discord.py retries rate limits and server errors itself; what is left and final is a
403 for a missing permission (codes 50001, 50013), a 404 for a deleted channel
(10003), and a locked or archived thread (160005, 50083). Each becomes the channel
that failed and why, with what the bot lacks there when its cache can tell, and where
the hosts may be told when the server has no log channel.
"""

from __future__ import annotations

import discord

from bot.core.failures import Cause, PostFailure

DENIED = {50001, 50013}  # Missing Access, Missing Permissions
GONE = {10003}  # Unknown Channel
LOCKED = {160005, 50083}  # Thread is locked; operation on an archived thread
# What garnet needs to post a board, as Discord names the permissions.
TO_POST = (("view_channel", "View Channel"), ("send_messages", "Send Messages"),
           ("attach_files", "Attach Files"))
IN_THREAD = (("send_messages_in_threads", "Send Messages in Threads"),)


def cause_of(error: discord.HTTPException) -> Cause | None:
    """Why a post failed for good; None for anything else (a fault, a bad request)."""
    if error.code in LOCKED:
        return Cause.LOCKED
    if error.code in GONE or (isinstance(error, discord.NotFound) and error.code == 0):
        return Cause.GONE
    if error.code in DENIED or (isinstance(error, discord.Forbidden) and error.code == 0):
        return Cause.DENIED
    return None


def _guild_of(client: discord.Client, channel_id: int,
              guild_id: int | None = None) -> discord.Guild | None:
    if guild_id is not None:
        return client.get_guild(guild_id)
    channel = client.get_channel(channel_id)
    return getattr(channel, "guild", None)


def missing(channel: object, guild: discord.Guild | None) -> tuple[str, ...]:
    """The permissions garnet lacks to post boards in ``channel``, as the cache says."""
    if guild is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return ()
    have = channel.permissions_for(guild.me)
    needed: tuple[tuple[str, str], ...] = TO_POST
    if isinstance(channel, discord.Thread):
        needed += IN_THREAD
        if not have.send_messages_in_threads and channel.parent is not None:
            # discord.py takes Attach Files away in a thread one cannot post in; the
            # parent's say what else is missing.
            have = channel.parent.permissions_for(guild.me)
            have.send_messages_in_threads = False
    return tuple(label for flag, label in needed if not getattr(have, flag))


def fallback(client: discord.Client, channel_id: int, guild: discord.Guild | None,
             parent_id: int | None = None) -> str | None:
    """Where hosts may be told besides the log channel: the thread's parent, else the
    server's system channel; never the failed channel itself."""
    if parent_id is None:
        channel = client.get_channel(channel_id)
        parent_id = getattr(channel, "parent_id", None)
    if parent_id is not None and client.get_channel(parent_id) is not None:
        return str(parent_id)
    system = guild.system_channel if guild is not None else None
    if system is not None and system.id != channel_id:
        return str(system.id)
    return None


def failure_of(client: discord.Client, channel_id: str,
               error: discord.HTTPException) -> PostFailure | None:
    """A post to ``channel_id`` that failed with ``error``, as the services hear it."""
    cause = cause_of(error)
    if cause is None or not channel_id.isdigit():
        return None
    number = int(channel_id)
    guild = _guild_of(client, number)
    lacks = missing(client.get_channel(number), guild) if cause is Cause.DENIED else ()
    return PostFailure(channel_id, cause, lacks, fallback(client, number, guild))


def gone(client: discord.Client, channel_id: int, guild: discord.Guild | None,
         parent_id: int | None = None) -> PostFailure:
    """A channel or thread that was deleted."""
    return PostFailure(str(channel_id), Cause.GONE, (),
                       fallback(client, channel_id, guild, parent_id))


async def reach(client: discord.Client, channel_id: str) -> PostFailure | None:
    """Can garnet post to ``channel_id`` now? None if so, else what is in the way."""
    if not channel_id.isdigit():
        return None
    number = int(channel_id)
    channel = client.get_channel(number)
    if channel is None:
        try:
            channel = await client.fetch_channel(number)
        except discord.HTTPException as error:
            cause = cause_of(error) or Cause.GONE
            return PostFailure(channel_id, cause)
    guild = getattr(channel, "guild", None)
    if isinstance(channel, discord.Thread) and channel.locked:
        return PostFailure(channel_id, Cause.LOCKED)
    lacks = missing(channel, guild)
    if lacks:
        return PostFailure(channel_id, Cause.DENIED, lacks)
    return None
