"""Helpers of the web pages' tests: the pages served for a console on the test's
services, and a client that reads them."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from bot.adapters.console import Console
from bot.app import build_services, served_web
from bot.commands.spec import Services
from bot.config import Settings
from bot.core.clock import VirtualClock
from bot.store.db import open_database
from bot.web import WebServer
from bot.web.process import PagesProcess
from tests.fixtures import SERVICES

ADDRESS = re.compile(r"<(http://[^>\s]+)>")


@dataclasses.dataclass
class Site:
    console: Console
    out: io.StringIO
    server: WebServer | PagesProcess
    http: aiohttp.ClientSession

    async def say(self, *lines: str) -> str:
        """The console's output for these lines."""
        start = len(self.out.getvalue())
        for line in lines:
            await self.console.handle_line(line)
        return self.out.getvalue()[start:]

    async def get(self, url: str) -> tuple[int, str]:
        async with self.http.get(url) as r:
            return r.status, await r.text(errors="replace")

    async def raw(self, url: str) -> tuple[int, bytes, aiohttp.ClientResponse]:
        async with self.http.get(url) as r:
            return r.status, await r.read(), r


@asynccontextmanager
async def built_services(url: str, start: bool = True) -> AsyncIterator[Services]:
    """Every service on the database at ``url``, as the ``services`` fixture builds them
    (for tests whose event loop outlives one test, and for a second process); with
    ``start`` False its matches are not started (a process that only serves pages)."""
    db = await open_database(url)
    built = build_services(db, VirtualClock(), SERVICES, rng=random.Random(7))
    if start:
        await built.matches.start()
    try:
        yield built
    finally:
        if start:
            await built.matches.stop()
        await db.close()


@asynccontextmanager
async def web_console(services: Services, images: Path,
                      apart: bool = False) -> AsyncIterator[Site]:
    """A console whose server's pages are served on a free loopback port, the links
    in its posts pointing there (as ``python -m bot`` does with WEB_ADDRESS alone): in
    the test's process, or with ``apart`` by a process of their own (WEB_PROCESS=on)."""
    out = io.StringIO()
    console = Console(services, images, out=out, hosts=("host",))
    services.matches.deliver = console.show
    services.matches.threads = console.thread_in
    settings = dataclasses.replace(Settings.from_env(env_file=None),
                                   web_address=("127.0.0.1", 0), public_url=None,
                                   web_process=apart)
    async with served_web(settings, services, services.matches.kit.db,
                          local_links=True) as server:
        assert server is not None
        async with aiohttp.ClientSession() as http:
            yield Site(console, out, server, http)
