"""Requests carried out once: a retry of the same interaction gets the first answer.

Kept in memory for the requests of the last while (a retry comes within seconds); the
writes that matter across a restart (garnets) are keyed by the request id in the
ledger as well (``bot.core.requests``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.core.messages import Post, Response
from bot.core.requests import REQUEST
from bot.texts import match as texts

KEEP = 2000  # requests remembered


class Once:
    def __init__(self) -> None:
        self._done: OrderedDict[str, str] = OrderedDict()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def run(self, request_id: str, produce: Callable[[], Awaitable[Response]]
                  ) -> Response:
        """``produce``'s response, or for a request already carried out, a word that it
        was (a second try of the same request waits for the first)."""
        lock, users = self._locks.get(request_id, (asyncio.Lock(), 0))
        self._locks[request_id] = (lock, users + 1)
        try:
            async with lock:
                if request_id in self._done:
                    return Response(reply=Post(texts.already_done(self._done[request_id]),
                                               ephemeral=True, pings=()))
                token = REQUEST.set(request_id)
                try:
                    response = await produce()
                finally:
                    REQUEST.reset(token)
                shown = response.reply or (response.posts[0] if response.posts else None)
                self._done[request_id] = shown.text if shown is not None else ""
                while len(self._done) > KEEP:
                    self._done.popitem(last=False)
                return response
        finally:
            lock, users = self._locks[request_id]
            if users <= 1:
                del self._locks[request_id]
            else:
                self._locks[request_id] = (lock, users - 1)
