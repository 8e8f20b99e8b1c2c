"""Board images for the pages: drawn by the same render workers as the boards posted
on Discord (``bot.services.render``), in the server's turn of their fair queue, and
kept in a small cache: a position is drawn once however many people watch it."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from bot.services.render import Renderer
from bot.texts.language import language
from engine.game import Game

CACHED = 256  # boards kept (a few hundred KB at most each; most are 20-60 KB)
DRAWING = 2  # boards the pages have in the workers at once: the matches' boards go first

Key = tuple[str, int, int, tuple[str, ...], bool, str | None, str]  # ..., the language


class Boards:
    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._drawing: dict[Key, asyncio.Future[bytes]] = {}
        self._slots = asyncio.Semaphore(DRAWING)

    async def png(self, match_id: int, ply: int, game: Game[Any, Any], state: Any,
                  names: Sequence[str], hints: bool, banner: str | None,
                  server: str) -> bytes:
        """The board of match ``match_id`` after ``ply`` moves, with ``names`` (the page's:
        a hidden player's label, never their name); viewers asking for the same board
        at once wait for one drawing."""
        key = (server, match_id, ply, tuple(names), hints, banner, language())  # its labels
        if (found := self._cache.get(key)) is not None:
            self._cache.move_to_end(key)
            return found
        if (pending := self._drawing.get(key)) is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            async with self._slots:
                data = await self.renderer.render(game, state, names, hints, banner, server)
            future.set_result(data)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self._drawing[key]
        self._cache[key] = data
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return data

    def forget(self, server: str) -> None:
        """Drop a server's boards (its pages were turned off, or a name was hidden)."""
        for key in [k for k in self._cache if k[0] == server]:
            del self._cache[key]
