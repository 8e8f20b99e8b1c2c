"""Which user request is being carried out: its platform id (Discord's interaction id).

A request that timed out on the user's side ("The application did not respond") is
often sent again. Writes made while a request runs take their idempotency keys from
its id, so the second try books nothing twice, even after a restart in between.
"""

from __future__ import annotations

from contextvars import ContextVar

REQUEST: ContextVar[str | None] = ContextVar("garnet_request", default=None)


def request_key(part: str) -> str | None:
    """An idempotency key for one write of the current request (None outside one)."""
    request = REQUEST.get()
    return None if request is None else f"req:{request}:{part}"[:100]
