"""The public server's bounds, the lessons of the metrics server: a cap on connections
in all, on requests and event streams per address and in all, small requests only,
and clients too slow to send a request or to read their answer cut off.

Behind a reverse proxy every request comes from its address: a request from loopback
is counted against the last address of its ``X-Forwarded-For`` (only a process on this
machine can send one from there).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# open at once, in all: every live event stream (``STREAMS``) beside a page each (a viewer
# following a match reads its live part on a second connection while its stream is open)
MAX_CONNECTIONS = 4096
FIRST_REQUEST_SECONDS = 10.0  # from connecting to a request's headers, at most
REQUEST_SECONDS = 20.0  # a page's answer written, at most (a stream is a page apart)
IDLE_SECONDS = 5.0  # aiohttp's keep-alive: a connection idle this long is closed
PER_ADDRESS = 24  # requests in progress from one address (streams included)
STREAMS = 2000  # live event streams in all
STREAMS_PER_ADDRESS = 8
MAX_LINE = 2048  # the request line (so the URL) and each header line, in bytes
MAX_HEADERS = 40
MAX_BODY = 1024  # GET only: a body has no use
SWEEP_EVERY = 1.0


class Refused(Exception):
    """Over a bound: answered 503 (429 for one address)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@dataclass
class Connection:
    opened: float
    requests: int = 0
    busy_since: float | None = None
    streaming: bool = False
    idle_since: float = field(default_factory=time.monotonic)


def client_address(request: web.Request) -> str:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    address = str(peer[0]) if peer else "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and _loopback(address):
        last = forwarded.rsplit(",", 1)[-1].strip()[:64]
        if last:
            return last
    return address


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class Guard:
    """Counts what each address has open and cuts off what runs past its bounds."""

    def __init__(self, per_address: int = PER_ADDRESS, streams: int = STREAMS) -> None:
        self.per_address = per_address
        self.streams_cap = streams
        self.connections: dict[Any, Connection] = {}
        self._requests: Counter[str] = Counter()
        self._streams: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def streams(self) -> int:
        return sum(self._streams.values())

    def wrap(self, server: web.Server) -> Any:
        """A protocol factory for ``loop.create_server``: aiohttp's, counted."""
        return lambda: _Counted(server(), self)

    @contextlib.contextmanager
    def request(self, request: web.Request) -> Iterator[Connection | None]:
        address = client_address(request)
        if self._requests[address] >= self.per_address:
            raise Refused(429)
        conn = self.connections.get(request.transport)
        if conn is not None:
            conn.requests += 1
            conn.busy_since = time.monotonic()
        self._requests[address] += 1
        try:
            yield conn
        finally:
            self._requests[address] -= 1
            if not self._requests[address]:
                del self._requests[address]
            if conn is not None:
                conn.busy_since = None
                conn.streaming = False
                conn.idle_since = time.monotonic()

    @contextlib.contextmanager
    def stream(self, request: web.Request) -> Iterator[None]:
        address = client_address(request)
        if self.streams >= self.streams_cap:
            raise Refused(503)
        if self._streams[address] >= STREAMS_PER_ADDRESS:
            raise Refused(429)
        conn = self.connections.get(request.transport)
        if conn is not None:
            conn.streaming = True
        self._streams[address] += 1
        try:
            yield
        finally:
            self._streams[address] -= 1
            if not self._streams[address]:
                del self._streams[address]

    def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            self.cut_slow(time.monotonic())

    def cut_slow(self, now: float) -> int:
        """Close every connection past a bound: no request within
        ``FIRST_REQUEST_SECONDS``, an answer (not a stream) still being written after
        ``REQUEST_SECONDS``, or half a request sent after the keep-alive ran out."""
        slow = []
        for transport, conn in self.connections.items():
            if conn.streaming:
                continue
            if conn.busy_since is not None:
                late = now - conn.busy_since > REQUEST_SECONDS
            elif conn.requests == 0:
                late = now - conn.opened > FIRST_REQUEST_SECONDS
            else:
                late = now - conn.idle_since > IDLE_SECONDS + FIRST_REQUEST_SECONDS
            if late:
                slow.append(transport)
        for transport in slow:
            transport.abort()
        return len(slow)


def room_for_connections(wanted: int = MAX_CONNECTIONS + 256) -> int:
    """Raise this process's limit of open files (its soft limit, up to the hard one) so
    that ``MAX_CONNECTIONS`` fit beside the database's and workers' own; systemd starts a
    service with a soft limit of 1,024. The limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if raised > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    return int(soft)


class _Counted(asyncio.Protocol):
    """aiohttp's protocol of one connection, passed everything, and counted: over
    ``MAX_CONNECTIONS`` a connection is closed as soon as it is made."""

    def __init__(self, inner: Any, guard: Guard) -> None:
        self.inner = inner
        self.guard = guard
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.inner.connection_made(transport)
        if len(self.guard.connections) >= MAX_CONNECTIONS:
            transport.abort()
            return
        self.transport = transport
        self.guard.connections[transport] = Connection(time.monotonic())

    def connection_lost(self, exc: BaseException | None) -> None:
        self.guard.connections.pop(self.transport, None)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return bool(self.inner.eof_received())

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()
