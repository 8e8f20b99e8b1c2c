"""What the platform tells the services when it cannot reach a channel: a small
vocabulary, so that the adapter says what failed and the services decide what follows
(a match whose channel cannot be posted to is paused, and its host is told)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Cause(enum.Enum):
    """Why posting to a channel failed for good (not a rate limit or a server error,
    which the platform's client retries)."""

    DENIED = "denied"  # the bot lacks a permission there (Discord: 403, 50001/50013)
    GONE = "gone"  # the channel or thread was deleted (404, 10003)
    LOCKED = "locked"  # a locked or archived thread (160005, 50083)
    REMOVED = "removed"  # the bot is no longer on the server


@dataclass(frozen=True)
class PostFailure:
    """Posting to ``channel_id`` failed for good, because of ``cause``.

    ``missing`` names the permissions the bot lacks there, when the platform knows;
    ``fallback`` is where a host may be told when the server has no log channel (a
    thread's parent channel, else the server's system channel)."""

    channel_id: str
    cause: Cause
    missing: tuple[str, ...] = ()
    fallback: str | None = None
