"""The metrics server's door (``bot.services.observe``): it shares the bot's event loop,
so a flood of connections must cost that loop next to nothing.

The door accepts a connection only while fewer than ``limit`` are open and its bucket
holds a token (``rate`` a second, ``burst`` at most); otherwise it stops accepting at
all (the listening socket leaves the loop's selector), so what comes meanwhile waits
in the kernel's backlog (``limit`` long) or is not let in by the kernel: the loop
never reads, parses nor answers it. Each connection admitted is one request (every
answer closes its connection) and is closed after ``lifetime`` seconds whatever it
does. The handler is aiohttp's own, built by its low-level ``web.Server``.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.core.metrics import OBSERVE_SHUT

log = logging.getLogger(__name__)

Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


class _Connection(web.RequestHandler):
    """aiohttp's connection, which tells the door when it closes and closes itself
    after the door's ``lifetime`` (aiohttp's keep-alive timeout closes one that sends
    no whole request sooner)."""

    def __init__(self, manager: web.Server, door: Door, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self._door = door
        self._closing: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._closing = asyncio.get_running_loop().call_later(self._door.lifetime,
                                                              self.force_close)
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._closing is not None:
            self._closing.cancel()
            self._closing = None
            self._door.released()
        super().connection_lost(exc)


class _Server(web.Server):
    def __init__(self, handler: Handler, door: Door, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self._door = door

    def __call__(self) -> web.RequestHandler:
        return _Connection(self, self._door, loop=self._loop, **self._kwargs)


class Door:
    """A listening socket whose connections ``handler`` answers; ``limits``: aiohttp's
    request handler's (its timeout and sizes)."""

    def __init__(self, handler: Handler, limits: dict[str, Any], limit: int, rate: float,
                 lifetime: float) -> None:
        self.server: web.Server = _Server(handler, self, **limits)
        self.limit = limit
        self.rate = rate
        self.burst = float(limit)
        self.lifetime = lifetime
        self.open = 0  # accepted and not yet closed
        self.accepted = 0
        self.peak = 0  # the most ever open at once
        self._tokens = self.burst
        self._filled = time.monotonic()
        self._sock: socket.socket | None = None
        self._reading = False
        self._shut_at: float | None = None  # when it last stopped letting in
        self._later: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        self._pending: set[asyncio.Task[Any]] = set()

    def listen(self, host: str, port: int) -> int:
        """Bind and listen; the port (a free one for port 0)."""
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(self.limit)  # the backlog: what waits while the door is shut
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self._open_door()
        return int(sock.getsockname()[1])

    def close(self) -> None:
        if self._later is not None:
            self._later.cancel()
        if self._sock is not None:
            self._shut()
            self._sock.close()
            self._sock = None

    def released(self) -> None:
        """A connection closed: perhaps the door opens again."""
        self.open -= 1
        self._open_door()

    # ---- the door -------------------------------------------------------------------

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._filled) * self.rate)
        self._filled = now

    def _open_door(self) -> None:
        """Read the listening socket again if a connection may come in now; if only
        the bucket is empty, look again when it holds a token."""
        if self._sock is None or self._reading or self.open >= self.limit:
            return
        self._refill()
        if self._tokens < 1.0:
            if self._later is None:
                wait = (1.0 - self._tokens) / self.rate
                self._later = self._loop.call_later(wait, self._after_wait)
            return
        self._loop.add_reader(self._sock, self._accept)
        self._reading = True
        if self._shut_at is not None:
            OBSERVE_SHUT.inc(time.monotonic() - self._shut_at)
            self._shut_at = None

    def _after_wait(self) -> None:
        self._later = None
        self._open_door()

    def _shut(self) -> None:
        if self._reading and self._sock is not None:
            self._loop.remove_reader(self._sock)
            self._shut_at = time.monotonic()
        self._reading = False

    def _accept(self) -> None:
        assert self._sock is not None
        while self.open < self.limit:
            self._refill()
            if self._tokens < 1.0:
                break
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return  # nothing more waits: the door stays open
            except OSError as exc:  # out of file descriptors, say: try again later
                log.warning("metrics server: accept failed: %s", exc)
                break
            self._tokens -= 1.0
            self.open += 1
            self.accepted += 1
            self.peak = max(self.peak, self.open)
            conn.setblocking(False)
            task = asyncio.ensure_future(self._serve(conn))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)
        self._shut()
        self._open_door()  # only the bucket was empty: a timer opens it

    async def _serve(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self.server, sock=conn)
        except OSError:  # before aiohttp had it (else its connection_lost releases it)
            conn.close()
            self.released()
