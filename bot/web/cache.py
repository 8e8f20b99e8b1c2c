"""What the pages keep between requests, so that many viewers of one match cost one
reading of it: each page's body until its match (or, for the server's, tournaments'
and players' pages, anything of its server) changes, and which server each address
names until a switch is thrown.

Every change reaches the cache as the live notices do (``bot.web.live``): a move or an
end drops the match's pages and its server's; ``/host web on|off`` and ``/web hide|show``
drop everything, in every process (on PostgreSQL by NOTIFY). A notice lost with a
broken connection is bounded by ``KEEP_SECONDS``.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from bot.services.web import Site

KEEP_SECONDS = 10.0  # at most, should a notice be lost
PAGES = 2000  # bodies kept (a few KB each)
SITES = 1000  # addresses kept, those that name no server included

T = TypeVar("T")
Key = tuple[str, ...]


class _Kept(Generic[T]):
    """A bounded map of values read at most ``KEEP_SECONDS`` ago, readers of one key
    sharing one reading."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Key, tuple[T, float, str, int]] = OrderedDict()
        self._reading: dict[Key, asyncio.Future[T]] = {}
        self._generation = 0  # moved on by each change: a reading begun before is not kept

    async def get(self, key: Key, make: Callable[[], Awaitable[T]], guild: str = "",
                  number: int = 0) -> T:
        found = self.entries.get(key)
        now = time.monotonic()
        if found is not None and now - found[1] < KEEP_SECONDS:
            self.entries.move_to_end(key)
            return found[0]
        if (reading := self._reading.get(key)) is not None:
            return await asyncio.shield(reading)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._reading[key] = future
        generation = self._generation
        try:
            value = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            if self._reading.get(key) is future:
                del self._reading[key]
        future.set_result(value)
        if generation == self._generation:
            self.entries[key] = (value, now, guild, number)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def drop(self, keep: Callable[[str, int], bool]) -> None:
        for key in [k for k, (_, _, g, n) in self.entries.items() if not keep(g, n)]:
            del self.entries[key]
        # A reading under way may have read before the change: not kept, and not
        # shared with those who ask after it.
        self._generation += 1
        self._reading.clear()


class Cache:
    def __init__(self) -> None:
        self.sites: _Kept[Site | None] = _Kept(SITES)
        self.pages: _Kept[bytes | None] = _Kept(PAGES)

    def changed(self, guild_id: str, number: int, ended: bool) -> None:
        """Match ``number`` of ``guild_id`` changed: its pages go, and when it ended the
        server's (its lists, tournaments and players: a move changes none of them; a
        match begun shows in its server's list within ``KEEP_SECONDS``)."""
        gone = (number, 0) if ended else (number,)
        self.pages.drop(lambda g, n: g != guild_id or n not in gone)

    def reset(self) -> None:
        """A switch was thrown or a name hidden: everything goes."""
        self.sites.drop(lambda _g, _n: False)
        self.pages.drop(lambda _g, _n: False)
