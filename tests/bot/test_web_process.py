"""The pages in a process of their own (``WEB_PROCESS=on``, the default): the bot's
process starts ``garnet web``, which serves every page from the database and gets
each move live (on SQLite down its standard input, on PostgreSQL by NOTIFY); it is
started again should it die, and ends with the bot."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import aiohttp
import pytest

from bot import __main__ as launcher
from bot.commands.spec import Services
from bot.web import process
from bot.web.process import PagesProcess
from tests.web_pages import ADDRESS, Site, web_console

LIVE_PLY = re.compile(rb'data-ply="(\d+)"')


async def _live_ply(stream: aiohttp.ClientResponse) -> int:
    """The ply of the next live part pushed in ``stream`` (pings skipped)."""
    while True:
        event = b""
        while not event.endswith(b"\n\n"):
            event += await asyncio.wait_for(stream.content.readline(), 20)
        if event.startswith(b"event: live\n"):
            found = LIVE_PLY.search(event)
            assert found, event
            return int(found.group(1))


async def _dm(site: Site) -> tuple[str, str, str]:
    home = ADDRESS.search(await site.say("host: /host web on"))
    assert home
    said = await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:lots")
    first = re.search(r"Lots were drawn: @(\w+) is the First Player", said)
    link = re.search(r"On the web: <(http://[^>\s]+)>", said)
    assert first and link, said
    second = "ben" if first.group(1) == "ann" else "ann"
    return link.group(1), first.group(1), second


async def test_the_pages_process_serves_the_match_and_gets_each_move_live(
        services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "MTA.bot-token")
    async with web_console(services, tmp_path, apart=True) as site:
        apart = site.server
        assert isinstance(apart, PagesProcess)
        child = apart._child
        assert child is not None and child.pid != os.getpid()
        # The process facing the internet does not hold the bot's token.
        environ = Path(f"/proc/{child.pid}/environ").read_bytes().split(b"\0")
        assert not any(v.startswith(b"DISCORD_TOKEN") for v in environ)
        assert any(v.startswith(b"WEB_ADDRESS=") for v in environ)
        page, first, second = await _dm(site)
        assert page.startswith(apart.address)
        status, html = await site.get(page)
        assert status == 200 and ">ann</a>" in html and ">ben</a>" in html
        async with site.http.get(page + "/events") as stream:
            assert await stream.content.readline() == b"retry: 2000\n"
            assert await stream.content.readline() == b"\n"
            await site.say(f"{first}: D left")
            assert await _live_ply(stream) == 1
            await site.say(f"{second}: /move move:B left")
            assert await _live_ply(stream) == 2
        status, html = await site.get(page)
        assert status == 200 and "DL</a>" in html and "BL</a>" in html

        # Turned off in the bot's process: gone from the pages' process as soon as the
        # notice arrives (a line down its standard input, or NOTIFY on PostgreSQL).
        await site.say("host: /host web off")
        for _ in range(100):
            status, _ = await site.get(page)
            if status == 404:
                break
            await asyncio.sleep(0.05)
        assert status == 404
    assert child.returncode is not None  # it ended with the bot


async def test_a_pages_process_that_dies_is_started_again_on_its_address(
        services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "RESTART_SECONDS", 0.05)
    async with web_console(services, tmp_path, apart=True) as site:
        apart = site.server
        assert isinstance(apart, PagesProcess)
        page, first, _second = await _dm(site)
        dead = apart._child
        assert dead is not None
        dead.kill()
        await dead.wait()
        for _ in range(200):  # its restart: RESTART_SECONDS, then its start
            if apart._child is not dead and apart._child is not None:
                break
            await asyncio.sleep(0.1)
        assert apart._child is not dead
        assert page.startswith(apart.address)  # the same address: the links still work
        await site.say(f"{first}: D left")
        for _ in range(100):
            try:
                status, html = await site.get(page)
            except aiohttp.ClientError:
                status, html = 0, ""
            if status == 200 and "DL</a>" in html:
                break
            await asyncio.sleep(0.1)
        assert status == 200 and "DL</a>" in html


def test_garnet_web_without_an_address_says_what_to_set(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    monkeypatch.delenv("WEB_ADDRESS", raising=False)
    assert launcher.main(["web"]) == 2
    err = capsys.readouterr().err
    assert "WEB_ADDRESS" in err and "not set" in err
