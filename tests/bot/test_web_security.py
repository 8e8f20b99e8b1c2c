"""The web pages are safe and bounded: security headers on every answer and no inline
script; GET only; long request lines and too many headers refused; a server's pages show
nothing of another server; hostile names are escaped on every page; event streams
capped per address; a client that sends no request is cut off."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from pathlib import Path

import aiohttp

from bot.commands.spec import Services
from bot.web.guard import FIRST_REQUEST_SECONDS, STREAMS_PER_ADDRESS
from tests.web_pages import ADDRESS, Site, web_console

HOSTILE = ['<script>alert(1)</script>', '"><img/src=x/onerror=alert(1)>', "{{7*7}}",
           "';alert(1)//", "&lt;b&gt;"]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)", re.IGNORECASE)


async def _on(site: Site) -> str:
    found = ADDRESS.search(await site.say("host: /host web on"))
    assert found
    return found.group(1)


async def test_every_answer_has_the_security_headers_and_no_inline_script(
        services: Services, tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:lots")
        for url in (home, f"{home}/m/1", f"{home}/m/99", home + "x", f"{home}/static/x"):
            _, body, response = await site.raw(url)
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "script-src 'self'" in policy
            assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
            assert response.headers["X-Frame-Options"] == "DENY"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert response.headers["Cache-Control"] == "no-store"
            assert not INLINE_SCRIPT.search(body.decode()), url
        async with site.http.post(home, data=b"x") as r:
            assert r.status == 405 and r.headers["Allow"] == "GET, HEAD"
        async with site.http.get(home + "?q=" + "a" * 5000) as r:
            assert r.status in (400, 414)
        async with site.http.get(home, headers={f"X-H{i}": "1" for i in range(60)}) as r:
            assert r.status in (400, 431)


async def test_hostile_names_are_escaped_on_every_page(services: Services,
                                                       tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        said = await site.say(
            "host: /host tournament create name:<b>Cup</b> {{7*7}} game:cairo format:swiss",
            *(f"{name}: /tournament join" for name in HOSTILE),
            "host: /host tournament start")
        assert "begins with 5 players" in said, said
        pages = [home, f"{home}/t/1", f"{home}/m/1"]
        status, page = await site.get(f"{home}/t/1")
        pages += [home.split("/s/")[0] + p for p in set(re.findall(r'href="(/s/[^"]+/p/\w+)"',
                                                                    page))]
        assert len(pages) == 3 + len(HOSTILE)
        for url in pages:
            status, page = await site.get(url)
            assert status == 200, url
            assert "<script>alert" not in page and "<img/src" not in page
            assert "<b>Cup" not in page and ">49<" not in page
        status, page = await site.get(f"{home}/t/1")
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "&amp;lt;b&amp;gt;" in page and "&lt;b&gt;Cup&lt;/b&gt; {{7*7}}" in page


async def test_a_servers_pages_show_nothing_of_another(services: Services,
                                                       tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        # The other server keeps its pages off; its match #1 is not this one's.
        await site.say("~ server other", "~ host boss",
                       "boss: /dm game:cairo player1:@zed player2:@yan chooser:lots")
        assert (await site.get(f"{home}/m/1"))[0] == 404  # #1 is the other server's
        _, page = await site.get(home)
        assert "zed" not in page and "yan" not in page
        assert (await site.get(home.rsplit("/", 1)[0] + "/console"))[0] == 404  # no ids


async def test_event_streams_are_capped_per_address(services: Services,
                                                    tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:lots")
        open_streams = []
        try:
            for _ in range(STREAMS_PER_ADDRESS):
                r = await site.http.get(f"{home}/m/1/events")
                assert r.status == 200
                await r.content.readline()  # the stream is open
                open_streams.append(r)
            async with site.http.get(f"{home}/m/1/events") as r:
                assert r.status == 429 and r.headers["Retry-After"]
            # Another address (through the proxy on loopback) still gets one.
            async with site.http.get(f"{home}/m/1/events",
                                     headers={"X-Forwarded-For": "203.0.113.9"}) as r:
                assert r.status == 200
        finally:
            for r in open_streams:
                r.close()


async def test_a_client_that_sends_no_request_is_cut_off(services: Services,
                                                         tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        reader, writer = await asyncio.open_connection("127.0.0.1", site.server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of it
        await writer.drain()
        for _ in range(100):
            if site.server.guard.connections:
                break
            await asyncio.sleep(0.01)
        assert site.server.guard.cut_slow(time.monotonic()) == 0  # not yet
        later = time.monotonic() + FIRST_REQUEST_SECONDS + 1
        assert site.server.guard.cut_slow(later) == 1
        with contextlib.suppress(ConnectionResetError):  # cut off: reset, or closed
            assert await asyncio.wait_for(reader.read(), 2) == b""
        writer.close()
        async with aiohttp.ClientSession() as http, http.get(site.server.address) as r:
            assert r.status == 200  # the server goes on


def test_the_process_has_room_for_every_connection_the_pages_allow() -> None:
    import resource

    from bot.web.guard import MAX_CONNECTIONS, STREAMS, room_for_connections

    assert MAX_CONNECTIONS >= 2 * STREAMS  # a stream and a page beside each
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))  # systemd's
        now = room_for_connections()
        assert now == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert now >= min(MAX_CONNECTIONS, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
