"""Who asks, where, and which request is being carried out.

``Asker`` is a request's context, built once by the adapter (``Call.asker``) and passed
whole to the services: the server, the channel and the person who asked.

``REQUEST`` holds the request's platform id (Discord's interaction id).

A request that timed out on the user's side ("The application did not respond") is
often sent again. Writes made while a request runs take their idempotency keys from
its id, so the second try books nothing twice, even after a restart in between.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from bot.core.messages import Actor

REQUEST: ContextVar[str | None] = ContextVar("garnet_request", default=None)


def request_key(part: str) -> str | None:
    """An idempotency key for one write of the current request (None outside one)."""
    request = REQUEST.get()
    return None if request is None else f"req:{request}:{part}"[:100]


@dataclass(frozen=True)
class Asker:
    """Who asks, and where: the server (``guild_id``), the channel and the person;
    ``language`` is the person's own (their Discord client's, or ``~ locale`` in the
    console): the answer to them is said in it. None: the server's language."""

    guild_id: str
    channel_id: str
    actor: Actor
    language: str | None = None
