"""The wire under the Discord fake: aiohttp requests answered in process, Discord's
rate limits, and discord.py's sleeps on the tests' virtual clock.

``tests/bot/discord_fake.py`` is the Discord the tests talk to; this module is the
plumbing it stands on (see that module's docstring for what it models):

- ``Request``/``Response``: what ``aiohttp.ClientSession.request`` receives and what
  its context manager yields, shaped enough for discord.py (``status``, ``reason``,
  case-insensitive ``headers``, ``text()``).
- ``match_route``: a URL back to discord.py's own route template
  (``/channels/{channel_id}/messages``), read from discord.py's source.
- ``Windows``: fixed-window rate limits (a per-route bucket and the global limit).
- ``VirtualAsyncio``: the ``asyncio`` that ``discord.http``, ``discord.webhook.async_``
  and ``discord.state`` see while the fake is installed: ``sleep``, ``wait``,
  ``wait_for`` and the loop's ``time`` run on the virtual clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
from multidict import CIMultiDict

# ---- routes ---------------------------------------------------------------------------


def _templates() -> list[tuple[str, str]]:
    """Every (method, path template) discord.py builds a ``Route`` of."""
    root = Path(discord.__file__).parent
    found: set[tuple[str, str]] = set()
    for name in ("http.py", "webhook/async_.py", "interactions.py"):
        text = (root / name).read_text(encoding="utf-8")
        found.update(re.findall(r"Route\(\s*'([A-Z]+)',\s*'([^']+)'", text))
        found.update(re.findall(r'Route\(\s*"([A-Z]+)",\s*"([^"]+)"', text))
    return sorted(found)


TEMPLATES = _templates()
API_PREFIX = "/api/v10"


def match_route(method: str, path: str) -> tuple[str, dict[str, str]] | None:
    """The route template a request's path was made from, and its parameters; the
    template with the most literal segments wins (``@original`` over ``{message_id}``)."""
    found = _matched(method, path)
    return None if found is None else (found[0], dict(found[1]))


@functools.lru_cache(maxsize=4096)  # a channel's posts share their path (the benchmark)
def _matched(method: str, path: str) -> tuple[str, dict[str, str]] | None:
    if path.startswith(API_PREFIX):
        path = path[len(API_PREFIX):]
    parts = path.split("/")
    best: tuple[int, str, dict[str, str]] | None = None
    for m, template in TEMPLATES:
        if m != method:
            continue
        pattern = template.split("/")
        if len(pattern) != len(parts):
            continue
        params: dict[str, str] = {}
        literal = 0
        for want, got in zip(pattern, parts, strict=True):
            if want.startswith("{") and want.endswith("}"):
                params[want[1:-1]] = got
            elif want == got:
                literal += 1
            else:
                break
        else:
            if best is None or literal > best[0]:
                best = (literal, template, params)
    return None if best is None else (best[1], best[2])


# ---- requests and responses -----------------------------------------------------------


@dataclass
class Request:
    """One HTTP request discord.py made, decoded."""

    method: str
    url: str  # without the query
    path: str  # the route template
    params: dict[str, str]  # the template's parameters
    body: Any  # the JSON body (payload_json of a multipart request)
    files: list[tuple[str, bytes]]
    query: dict[str, Any]
    headers: dict[str, str]

    @property
    def bot_token(self) -> bool:
        """Sent with the bot's token (not an interaction's): counts to the global limit."""
        return (self.headers.get("Authorization", "").startswith("Bot ")
                and not self.path.startswith(("/interactions/", "/webhooks/")))


def decode(method: str, url: Any, kwargs: dict[str, Any]) -> Request:
    split = urlsplit(str(url))
    found = match_route(method, split.path)
    path, params = found if found is not None else (split.path, {})
    data = kwargs.get("data")
    body: Any = None
    files: list[tuple[str, bytes]] = []
    if isinstance(data, aiohttp.FormData):
        for options, _headers, value in data._fields:
            if options.get("name") == "payload_json":
                body = json.loads(value)
            elif options.get("filename") is not None:
                start = value.tell()
                files.append((str(options["filename"]), value.read()))
                value.seek(start)
    elif isinstance(data, str | bytes) and data:
        body = json.loads(data)
    base = f"{split.scheme}://{split.netloc}{split.path}"
    return Request(method, base, path, params, body, files, dict(kwargs.get("params") or {}),
                   dict(kwargs.get("headers") or {}))


class Response:
    """What discord.py reads of an aiohttp response."""

    def __init__(self, method: str, url: str, status: int, data: Any,
                 headers: dict[str, str]) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = REASONS.get(status, "OK")
        self.headers: CIMultiDict[str] = CIMultiDict(headers)
        self._text = "" if data is None else json.dumps(data)
        if data is not None:
            self.headers["Content-Type"] = "application/json"
        # Every answer of Discord's API comes through Google's load balancer; discord.py
        # treats a 429 without it as Cloudflare's ban, not a rate limit.
        self.headers.setdefault("Via", "1.1 google")

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def json(self) -> Any:
        return json.loads(self._text)

    def release(self) -> None:
        pass


REASONS = {200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request",
           401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
           503: "Service Unavailable", 504: "Gateway Timeout"}


class Exchange:
    """The context manager ``ClientSession.request`` returns."""

    def __init__(self, answer: Awaitable[Response]) -> None:
        self._answer = answer

    async def __aenter__(self) -> Response:
        return await self._answer

    async def __aexit__(self, *exc: object) -> None:
        return None


# ---- rate limits ----------------------------------------------------------------------


@dataclass
class Window:
    limit: int
    per: float
    start: float = 0.0
    used: int = 0

    def take(self, now: float) -> bool:
        """Count one request now; False when the window is already full (429)."""
        if now >= self.start + self.per:
            self.start, self.used = now, 0
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        return max(0.0, round(self.start + self.per - now, 3))


@dataclass
class Windows:
    """Fixed windows keyed by (bucket, major parameter)."""

    windows: dict[tuple[str, str], Window] = field(default_factory=dict)

    def get(self, key: tuple[str, str], limit: int, per: float) -> Window:
        if key not in self.windows:
            self.windows[key] = Window(limit, per)
        return self.windows[key]


# ---- virtual time for discord.py ------------------------------------------------------

# How many times a virtual sleep lets the other ready tasks run before it decides that
# nothing else will happen by itself and moves the clock on.
YIELDS = 20


class _VirtualLoop:
    """The running loop, except that ``time()`` is the virtual clock's."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: Any) -> None:
        self._loop = loop
        self._clock = clock

    def time(self) -> float:
        return float(self._clock.now()) if self._clock is not None else 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loop, name)


class VirtualAsyncio:
    """``asyncio`` as discord.py's HTTP, webhook and gateway-state modules see it in tests.

    ``sleep(d)``, ``wait(fs, timeout=d)`` and ``wait_for(aw, timeout=d)`` wait ``d``
    seconds of the virtual clock: they first let every other ready task run (what
    could finish the wait), then, if nothing did, move the clock to the end of the
    wait themselves (``VirtualClock.set``, which runs the bot's timers due on the
    way), as real time would pass. With several waits under way (discord.py's bucket
    wait, the bot's global pacer), the clock moves only to the earliest end among
    them, and the others look again once its tasks have run. Without a clock they do
    not wait at all.
    ``get_running_loop().time()`` is the virtual clock, so discord.py's rate-limit
    buckets expire in virtual time. Everything else is the real ``asyncio``.
    """

    def __init__(self, clock: Any) -> None:
        self._clock = clock
        self.slept: list[float] = []  # every virtual sleep discord.py made, in seconds
        self._ends: list[float] = []  # when each wait under way ends, on the clock

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    def get_running_loop(self) -> Any:
        return _VirtualLoop(asyncio.get_running_loop(), self._clock)

    async def _pass(self, delay: float, done: Any = None) -> None:
        """Let ``delay`` virtual seconds pass, or less if ``done()`` becomes true.

        Several waits at once (a rate-limit wait and a back-off) move the clock only
        to the earliest end among them, then let the tasks run again: what that one
        wakes may finish this one sooner, as in real time."""
        target = (self._clock.now() if self._clock is not None else 0.0) + max(0.0, delay)
        self._ends.append(target)
        try:
            while True:
                seen = self._clock.now() if self._clock is not None else 0.0
                for _ in range(YIELDS):
                    if done is not None and done():
                        return
                    if self._clock is not None and self._clock.now() != seen:
                        break
                    await asyncio.sleep(0)
                if self._clock is None or self._clock.now() >= target:
                    break
                if self._clock.now() != seen:
                    continue  # another wait moved the clock: let its tasks run first
                now = self._clock.now()
                step = min(end for end in self._ends if end > now)
                await self._clock.set(step)
                if step >= target:
                    break
        finally:
            self._ends.remove(target)
        await asyncio.sleep(0)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        self.slept.append(float(delay))
        await self._pass(float(delay))
        return result

    async def wait(self, fs: Iterable[Any], *, timeout: float | None = None,
                   return_when: str = asyncio.FIRST_COMPLETED) -> Any:
        futures = {asyncio.ensure_future(f) for f in fs}
        if timeout is None:
            return await asyncio.wait(futures, return_when=return_when)
        await self._pass(timeout, lambda: any(f.done() for f in futures))
        done = {f for f in futures if f.done()}
        return done, futures - done

    async def wait_for(self, aw: Any, timeout: float | None) -> Any:
        if timeout is None:
            return await aw
        task = asyncio.ensure_future(aw)
        await self._pass(timeout, task.done)
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        raise TimeoutError
