"""What the pages keep between requests, so that many viewers of one match cost one
reading of it: each match's reading (its page, its live part, the event pushed to its
streams and its board are all made from it) and each page's body until its match (or,
for the server's, tournaments' and players' pages, anything of its server) changes,
and which server each address names until a switch is thrown.

Every change reaches the cache as the live notices do (``bot.web.live``): a move or an
end drops the match's pages and its server's; ``/host web on|off`` and ``/web hide|show``
drop everything, in every process (on PostgreSQL by NOTIFY). A notice lost with a
broken connection is bounded by ``KEEP_SECONDS``.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.services.web import Site
from bot.web.read import Viewed

KEEP_SECONDS = 10.0  # at most, should a notice be lost
PAGES = 2000  # bodies kept (a few KB each)
VIEWS = 500  # matches' readings kept (their moves and position: a few KB to some tens)
SITES = 1000  # addresses kept, those that name no server included

T = TypeVar("T")
Key = tuple[str, ...]
Group = tuple[str, int]  # (server id, match number): what a change drops; 0 the server's


# When the oldest reading that what is being made comes from was begun: a page made
# from a kept reading is kept only as long as that reading would be, so that nothing
# shown is older than ``KEEP_SECONDS`` should a notice be lost.
_OLDEST: ContextVar[float] = ContextVar("oldest", default=math.inf)


def _from(begun: float) -> None:
    """What is being made comes from something begun at ``begun``."""
    if begun < _OLDEST.get():
        _OLDEST.set(begun)


@dataclass(eq=False)
class _Reading(Generic[T]):
    future: asyncio.Future[T]
    group: Group
    begun: float
    stale: bool = False  # its match changed while it read: not kept


class _Kept(Generic[T]):
    """A bounded map of values read at most ``KEEP_SECONDS`` ago, readers of one key
    sharing one reading. A change drops only its own match's values (found through
    ``_groups``, not by a look at every value: there are tens of changes a second)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Key, tuple[T, float, Group]] = OrderedDict()
        self._groups: dict[Group, set[Key]] = {}
        self._reading: dict[Key, _Reading[T]] = {}

    async def get(self, key: Key, make: Callable[[], Awaitable[T]], guild: str = "",
                  number: int = 0) -> T:
        found = self.entries.get(key)
        now = time.monotonic()
        if found is not None and now - found[1] < KEEP_SECONDS:
            self.entries.move_to_end(key)
            _from(found[1])
            return found[0]
        if (reading := self._reading.get(key)) is not None:
            value = await asyncio.shield(reading.future)
            _from(reading.begun)  # once done: as old as what it was made from
            return value
        mine = _Reading[T](asyncio.get_running_loop().create_future(), (guild, number), now)
        self._reading[key] = mine
        outer = _OLDEST.set(now)
        try:
            value = await make()
        except BaseException as exc:
            mine.future.set_exception(exc)
            mine.future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            begun = _OLDEST.get()
            _OLDEST.reset(outer)
            if self._reading.get(key) is mine:
                del self._reading[key]
        mine.begun = begun
        mine.future.set_result(value)
        _from(begun)
        if not mine.stale:
            self._keep(key, value, begun, mine.group)
        return value

    def _keep(self, key: Key, value: T, now: float, group: Group) -> None:
        self.entries[key] = (value, now, group)
        self.entries.move_to_end(key)
        self._groups.setdefault(group, set()).add(key)
        while len(self.entries) > self.size:
            old, (_, _, was) = self.entries.popitem(last=False)
            keys = self._groups.get(was)
            if keys is not None:
                keys.discard(old)
                if not keys:
                    del self._groups[was]

    def drop(self, guild: str, number: int) -> None:
        """Match ``number`` of ``guild`` (0: the server's own pages) changed."""
        group = (guild, number)
        for key in self._groups.pop(group, ()):
            self.entries.pop(key, None)
        # A reading under way may have read before the change: not kept, and not
        # shared with those who ask after it.
        for key in [k for k, r in self._reading.items() if r.group == group]:
            self._reading.pop(key).stale = True

    def drop_all(self) -> None:
        self.entries.clear()
        self._groups.clear()
        for reading in self._reading.values():
            reading.stale = True
        self._reading.clear()


class Cache:
    def __init__(self) -> None:
        self.sites: _Kept[Site | None] = _Kept(SITES)
        self.pages: _Kept[bytes | None] = _Kept(PAGES)
        self.views: _Kept[Viewed | None] = _Kept(VIEWS)

    def changed(self, guild_id: str, number: int, ended: bool) -> None:
        """Match ``number`` of ``guild_id`` changed: its pages go, and when it ended the
        server's (its lists, tournaments and players: a move changes none of them; a
        match begun shows in its server's list within ``KEEP_SECONDS``)."""
        self.views.drop(guild_id, number)
        self.pages.drop(guild_id, number)
        if ended:
            self.pages.drop(guild_id, 0)

    def reset(self) -> None:
        """A switch was thrown or a name hidden: everything goes."""
        self.sites.drop_all()
        self.views.drop_all()
        self.pages.drop_all()
