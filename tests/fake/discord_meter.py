"""Discord's rate limits over real HTTP, for a shared REST proxy in front of it.

Several bot processes of one token send through one proxy (``DISCORD_API_BASE``, e.g.
``@discordjs/proxy``); each process's fake still answers its requests from its own world
(``FakeDiscord``), but every request first really travels through the proxy to this
meter, which keeps the limits exactly as the fake does (``discord_world``: the global
limit of the token, the routes' buckets per major parameter, a channel's posts) and
answers as Discord would: the limit headers on every answer, 429 with Discord's body
past a limit. What it counts shows whether the proxy held the limit for them all: the
429s it had to give (none, when it did), and the requests a second that came through.

Run on its own by the benchmark (``bench/proxied.py``):
``python -m tests.fake.discord_meter PORT [GLOBAL]`` (GLOBAL: the global limit a second,
Discord's 50 unless the bench models a bigger bot with less) prints one JSON line of its
counts at exit (SIGTERM or SIGINT).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fake.discord_world import (
    GLOBAL_LIMIT,
    MESSAGE_LIMIT,
    MESSAGES,
    ROUTE_LIMIT,
    _Limited,
    _limited,
)
from tests.fake.fake_transport import Request, Window, Windows, match_route

MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token")


@dataclass
class Meter:
    """The limits of one token, and what came through."""

    clock: Any = time.monotonic
    global_window: Window = field(default_factory=lambda: Window(*GLOBAL_LIMIT))
    buckets: Windows = field(default_factory=Windows)
    requests: int = 0
    limited: int = 0  # 429s given (global or a route's)
    limited_global: int = 0
    first: float | None = None  # the first and the last request with the token
    last: float = 0.0

    def answer(self, method: str, path: str, headers: dict[str, str]) -> tuple[
            int, dict[str, Any], dict[str, str]]:
        now = float(self.clock())
        found = match_route(method, path)
        template, params = found if found is not None else (path, {})
        req = Request(method, path, template, params, None, [], {}, headers)
        major = "+".join(params.get(k, "") for k in MAJOR if k in params)
        limit = MESSAGE_LIMIT if (method, template) == ("POST", MESSAGES) else ROUTE_LIMIT
        bucket = f"{method} {template}"
        window = self.buckets.get((bucket, major), *limit)
        self.requests += 1
        try:
            if req.bot_token:
                self.first = now if self.first is None else self.first
                self.last = now
                if not self.global_window.take(now):
                    raise _limited(self.global_window.reset_after(now), True)
            if not window.take(now):
                raise _limited(window.reset_after(now), False)
        except _Limited as limited:
            self.limited += 1
            self.limited_global += bool(limited.body["global"])
            return 429, limited.body, {**self._headers(window, bucket, now), **limited.headers}
        return 200, {}, self._headers(window, bucket, now)

    @staticmethod
    def _headers(window: Window, bucket: str, now: float) -> dict[str, str]:
        after = window.reset_after(now)
        return {"X-RateLimit-Limit": str(window.limit),
                "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(bucket.encode()).hexdigest()[:16]}

    def counts(self) -> dict[str, float]:
        span = self.last - self.first if self.first is not None else 0.0
        return {"requests": self.requests, "limited": self.limited,
                "limited_global": self.limited_global, "seconds": round(span, 2),
                "per_second": round(self.requests / span, 1) if span > 0 else 0.0}


def app(meter: Meter) -> web.Application:
    async def handle(request: web.Request) -> web.Response:
        await request.read()  # the body is the fake's business, not the meter's
        status, body, headers = meter.answer(request.method, request.path,
                                             dict(request.headers))
        return web.json_response(body, status=status, headers=headers)

    application = web.Application(client_max_size=32 * 1024 * 1024)
    application.router.add_route("*", "/{tail:.*}", handle)
    return application


async def serve(port: int, global_limit: int = GLOBAL_LIMIT[0]) -> None:
    meter = Meter(global_window=Window(global_limit, GLOBAL_LIMIT[1]))
    runner = web.AppRunner(app(meter), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print(json.dumps({"listening": port}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()
    print(json.dumps(meter.counts()), flush=True)


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]), *map(int, sys.argv[2:3])))
