"""Several processes: a viewer of one process's pages sees the moves of a match that
another process runs, within a second (PostgreSQL's LISTEN/NOTIFY; on SQLite one
process runs the bot and the notices go in memory, as the browser tests show)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
import time
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.console import Console
from bot.app import served_web
from bot.config import Settings
from tests import database
from tests.web_pages import built_services

pytestmark = pytest.mark.skipif(database.backend() == "sqlite",
                                reason="SQLite runs one bot process: notices go in memory")


async def test_a_move_in_one_process_reaches_the_viewers_of_another(
        database_url: str, tmp_path: Path) -> None:
    base = Settings.from_env(env_file=None)
    runs = dataclasses.replace(base, web_address=None, public_url="https://garnet.example")
    serves = dataclasses.replace(base, web_address=("127.0.0.1", 0),
                                 public_url="https://garnet.example")
    async with built_services(database_url) as first, built_services(
            database_url, start=False) as second:
        out = io.StringIO()
        console = Console(first, tmp_path, out=out, hosts=("host",))
        first.matches.deliver = console.show
        async with served_web(runs, first, first.matches.kit.db) as none, \
                served_web(serves, second, second.matches.kit.db) as server:
            assert none is None and server is not None
            await console.handle_line("host: /host web on")
            on = re.search(r"<https://garnet\.example/s/([\w-]+)>", out.getvalue())
            assert on, out.getvalue()
            slug = on.group(1)
            await console.handle_line(
                "host: /dm game:cairo player1:@ann player2:@ben chooser:player1")
            await console.handle_line("ann: /first player:@ann")
            local = f"{server.address}/s/{slug}/m/1"
            async with aiohttp.ClientSession() as http, \
                    http.get(local + "/events") as stream:
                assert stream.status == 200
                assert await stream.content.readline() == b"retry: 2000\n"
                await stream.content.readline()
                start = time.monotonic()
                await console.handle_line("ann: D left")
                line = await asyncio.wait_for(stream.content.readline(), 5)
                took = time.monotonic() - start
                assert line == b"event: live\n" and took < 1.0, (line, took)
                event = b""  # the live part itself, read by the process that serves it
                while not event.endswith(b"\n\n"):
                    event += await asyncio.wait_for(stream.content.readline(), 5)
                assert re.search(rb"^data: .*/board/1\.png", event, re.M), event
