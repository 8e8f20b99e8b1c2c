"""Live notices for the pages: "match N of server G changed" reaches every viewer,
whichever process ran the match.

On PostgreSQL the match host's process says it with ``NOTIFY garnet_web`` and every
process serving pages ``LISTEN``s on one connection of its own (its own notices come
back that way too). On SQLite only one process runs the bot, and the notice goes from
the match host to the viewers in memory, or, when the pages have a process of their
own (``WEB_PROCESS``, ``bot.web.process``), down its standard input as the same line
PostgreSQL would carry (``outlets``). A viewer's queue holds one pending notice:
a page only needs to know that something changed, so a slow viewer never piles up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import text

from bot.store.db import Database

log = logging.getLogger(__name__)

CHANNEL = "garnet_web"
MAX_PAYLOAD = 200  # a server id and a number; anything longer is not ours
RESET = "reset"
Key = tuple[str, int]  # (server id, match number); number 0: anything of the server


class Hub:
    """Who listens to what, in this process, and how notices arrive."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.postgres = db.engine.dialect.name == "postgresql"
        self._viewers: dict[Key, set[asyncio.Queue[None]]] = {}
        # Told of every notice before the viewers: (server, number, ended), or (None, 0,
        # True) when a switch was thrown or a name hidden (``reset``): the pages' cache.
        self.watchers: list[Callable[[str | None, int, bool], None]] = []
        self._listening: Any = None  # the connection LISTENing (PostgreSQL)
        # On SQLite, where else this process's notices go (the pages' own process).
        self.outlets: list[Callable[[str], None]] = []
        self._sending: set[asyncio.Task[None]] = set()

    # ---- the match host's side -------------------------------------------------------

    def changed(self, guild_id: str, number: int, ended: bool = False) -> None:
        """Match ``number`` of ``guild_id`` changed (committed): tell its viewers, and when
        it ``ended`` those of the server's pages too (its lists, tournaments, players).
        Never blocks the match host: on PostgreSQL the NOTIFY is sent by a task of its
        own."""
        payload = f"{'e' if ended else 't'}{number}:{guild_id}"
        if not self.postgres:
            self.deliver(guild_id, number, ended)
            for outlet in self.outlets:
                outlet(payload)
            return
        self._send(payload)

    def reset(self) -> None:
        """A server's pages were turned on or off, or a player hid or showed their name:
        every process forgets what it kept, and every stream checks its server again."""
        self._reset()  # here at once; the other processes by NOTIFY (and this one again)
        if self.postgres:
            self._send(RESET)
        for outlet in self.outlets:
            outlet(RESET)

    def _send(self, payload: str) -> None:
        task = asyncio.get_running_loop().create_task(self._notify(payload))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _notify(self, payload: str) -> None:
        try:
            async with self.db.engine.begin() as conn:
                await conn.execute(text("SELECT pg_notify(:c, :p)"),
                                   {"c": CHANNEL, "p": payload})
        except Exception:  # a viewer misses a live update; the page still reads right
            log.warning("could not send a web page notice", exc_info=True)

    # ---- the viewers' side -------------------------------------------------------------

    def deliver(self, guild_id: str, number: int, ended: bool = False) -> None:
        for watcher in self.watchers:
            watcher(guild_id, number, ended)
        for key in ((guild_id, number), (guild_id, 0)) if ended else ((guild_id, number),):
            for queue in self._viewers.get(key, ()):
                if queue.empty():
                    queue.put_nowait(None)

    @contextlib.contextmanager
    def follow(self, guild_id: str, number: int) -> Iterator[asyncio.Queue[None]]:
        """A queue that gets an item when match ``number`` (0: anything of the server)
        changes, for as long as the ``with`` lasts."""
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        viewers = self._viewers.setdefault((guild_id, number), set())
        viewers.add(queue)
        try:
            yield queue
        finally:
            viewers.discard(queue)
            if not viewers:
                self._viewers.pop((guild_id, number), None)

    async def start(self) -> None:
        """On PostgreSQL: LISTEN on a connection kept for it."""
        if not self.postgres:
            return
        conn = await self.db.engine.connect()
        raw = await conn.get_raw_connection()
        driver = raw.driver_connection
        assert driver is not None
        await driver.add_listener(CHANNEL, self._heard)
        self._listening = (conn, driver)

    def _reset(self) -> None:
        for watcher in self.watchers:
            watcher(None, 0, True)
        for viewers in self._viewers.values():
            for queue in viewers:
                if queue.empty():
                    queue.put_nowait(None)

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.heard(payload)

    def heard(self, payload: str) -> None:
        """A notice as PostgreSQL carries it (or the bot's process writes it to the
        pages' own): ``t<number>:<server>`` a move, ``e...`` an end, ``reset``."""
        if payload == RESET:
            self._reset()
            return
        if len(payload) > MAX_PAYLOAD:
            return
        number, _, guild_id = payload[1:].partition(":")
        if payload[:1] in ("t", "e") and number.isdigit() and guild_id:
            self.deliver(guild_id, int(number), payload[0] == "e")

    async def stop(self) -> None:
        for task in list(self._sending):
            with contextlib.suppress(BaseException):
                await task
        if self._listening is not None:
            conn, driver = self._listening
            self._listening = None
            with contextlib.suppress(Exception):
                await driver.remove_listener(CHANNEL, self._heard)
            await conn.close()
