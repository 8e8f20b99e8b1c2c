"""What a live match costs however many watch it: each move is read and rendered once,
pushed in every viewer's stream (no request back per viewer), and the page, its live
part and its board are made from that one reading; a move drops only its own match's
kept pages. The event cannot be broken out of by what it carries. The bot's event loop
gets the interpreter's lock back quickly from the database threads the pages keep busy."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import io
import random
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from bot.app import LOCK_SWITCH_SECONDS, run_console
from bot.commands.spec import Services
from bot.config import Settings
from bot.web import cache as cache_module
from bot.web import read
from bot.web.cache import KEEP_SECONDS, Cache
from bot.web.read import Positions
from bot.web.server import CHANGE, MAX_EVENT, framed
from engine.animation import Ply, final_position
from engine.registry import get_game
from tests.web_pages import ADDRESS, Site, web_console

VIEWERS = 5


async def _event(stream: aiohttp.ClientResponse) -> bytes:
    """The next event of ``stream`` (pings skipped), its lines as sent."""
    while True:
        event = b""
        while not event.endswith(b"\n\n"):
            event += await asyncio.wait_for(stream.content.readline(), 5)
        if not event.startswith(b": ping"):
            return event


async def _dm(site: Site) -> tuple[str, str, str]:
    """Pages on, a Cairo DM begun: its page's address and the players, first to move
    first."""
    home = ADDRESS.search(await site.say("host: /host web on"))
    assert home
    said = await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:lots")
    first = re.search(r"Lots were drawn: @(\w+) is the First Player", said)
    assert first, said
    second = "ben" if first.group(1) == "ann" else "ann"
    return f"{home.group(1)}/m/1", first.group(1), second


async def test_every_viewer_gets_the_move_in_its_stream_from_one_reading(
        services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readings: list[tuple[int, int | None]] = []
    real = read.match

    async def counted(db: Any, site: Any, number: int, now: float, ply: int | None = None,
                      **kw: Any) -> Any:
        readings.append((number, ply))
        return await real(db, site, number, now, ply, **kw)

    monkeypatch.setattr(read, "match", counted)
    async with web_console(services, tmp_path) as site:
        page, first, _second = await _dm(site)
        streams = [await site.http.get(page + "/events",
                                       headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
                   for i in range(VIEWERS)]
        try:
            for stream in streams:
                assert await stream.content.readline() == b"retry: 2000\n"
                await stream.content.readline()
            readings.clear()
            await site.say(f"{first}: D left")
            events = [await _event(stream) for stream in streams]
        finally:
            for stream in streams:
                stream.close()
        assert readings == [(1, None)]  # one reading for every viewer
        event = events[0]
        assert event.startswith(b"event: live\ndata: ")
        assert all(e == event for e in events[1:])
        html = b"\n".join(line[6:] for line in event.split(b"\n") if line.startswith(b"data: "))
        assert b"/board/1.png" in html and b"DL</a>" in html
        assert b"@@NOW@@" not in html  # the clocks are told when it was sent
        # The page, its live part and its board come from that same reading.
        for url in (page, page + "?part=live", page + "/board/1.png"):
            status, _body, _r = await site.raw(url)
            assert status == 200, url
        assert readings == [(1, None)]


async def test_a_move_drops_only_its_own_matchs_kept_pages(services: Services,
                                                          tmp_path: Path) -> None:
    async with web_console(services, tmp_path) as site:
        page, first, _second = await _dm(site)
        other = page[:-1] + "2"
        said = await site.say("host: /dm game:cairo player1:@cat player2:@dan chooser:lots")
        assert "begins" in said, said
        for url in (page, other):
            assert (await site.get(url))[0] == 200
        kept = dict(site.server.cache.pages.entries)
        await site.say(f"{first}: D left")
        left = site.server.cache.pages.entries
        assert [k for k in kept if k in left] == [k for k in kept if "/m/2" in k[1]]


async def test_a_reading_under_way_when_its_match_changes_is_not_kept() -> None:
    cache = Cache()
    gate = asyncio.Event()

    async def slow() -> bytes:
        await gate.wait()
        return b"before the move"

    async def other() -> bytes:
        return b"another match"

    reading = asyncio.ensure_future(cache.pages.get(("a",), slow, "g", 1))
    await asyncio.sleep(0)
    await cache.pages.get(("b",), other, "g", 2)
    cache.changed("g", 1, ended=False)  # match 1 moved while it was read
    gate.set()
    assert await reading == b"before the move"  # its asker gets it, but it is not kept
    assert ("a",) not in cache.pages.entries and ("b",) in cache.pages.entries
    cache.changed("g", 2, ended=True)
    assert not cache.pages.entries


def test_an_event_cannot_be_broken_out_of_and_stays_bounded() -> None:
    event = framed(b"live", b"<p>a\revent: gone\r\ndata: x\n</p>")
    assert event == (b"event: live\ndata: <p>a\ndata: event: gone\ndata: data: x\n"
                     b"data: </p>\n\n")
    # Every line of it is a data line: no field of its own, whatever the names say.
    assert all(line.startswith(b"data: ") for line in event.split(b"\n")[1:-2])
    assert framed(b"live", b"x" * MAX_EVENT) == CHANGE


async def test_a_match_read_again_after_a_move_replays_that_move_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("quoridor")
    rng = random.Random(3)
    state, plies = game.new_state(), []
    for _ in range(20):
        move = rng.choice(game.legal_moves(state))
        plies.append(Ply("move", game.to_move(state), game.notation(move)))
        state = game.apply(state, move)
    played: list[str] = []
    real = type(game).play

    def counted(self: Any, position: Any, text: str) -> Any:
        played.append(text)
        return real(self, position, text)

    monkeypatch.setattr(type(game), "play", counted)
    record: Any = SimpleNamespace(id=7, game="quoridor", seats=2, options={})
    kept = Positions()
    # Read first: replayed from the start (in slices, the loop let in between).
    assert await kept.after(record, tuple(plies[:18])) == final_position(game, plies[:18])
    assert len(played) == 2 * 18  # its replay, and the reference's
    played.clear()
    after = await kept.after(record, tuple(plies[:19]))
    assert len(played) == 1  # read again after a move: the new move alone
    assert after == final_position(game, plies[:19])
    # A take-back since (the moves kept are no longer the start of the game's): anew.
    played.clear()
    assert await kept.after(record, tuple(plies[:17])) == final_position(game, plies[:17])
    assert len(played) == 2 * 17


async def test_a_page_made_from_a_kept_reading_is_kept_no_longer_than_that_reading(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(cache_module.time, "monotonic", lambda: now[0])
    cache = Cache()

    async def reading() -> Any:
        return "the match read"

    async def page() -> bytes:
        return f"made from {await cache.views.get(('m',), reading, 'g', 1)}".encode()

    await cache.views.get(("m",), reading, "g", 1)  # read at 100
    now[0] = 100.0 + KEEP_SECONDS - 1
    assert await cache.pages.get(("p",), page, "g", 1) == b"made from the match read"
    assert cache.pages.entries[("p",)][1] == 100.0  # as old as the reading it shows
    now[0] = 100.0 + KEEP_SECONDS + 0.5  # a notice lost: both are read and made anew
    made = []

    async def again() -> bytes:
        made.append(1)
        return await page()

    await cache.pages.get(("p",), again, "g", 1)
    assert made and cache.pages.entries[("p",)][1] == now[0]


async def test_the_bot_hands_the_interpreters_lock_back_to_its_loop_quickly(
        tmp_path: Path) -> None:
    """The event loop gets the lock back from a busy database thread within half a
    millisecond, not CPython's 5 ms, in the console as with Discord."""
    script = tmp_path / "script.txt"
    script.write_text("ann: /help\n", encoding="utf-8")
    settings = dataclasses.replace(
        Settings.from_env(env_file=None), web_address=None, public_url=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'garnet.db'}", image_dir=tmp_path)
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        assert await run_console(settings, script, True, ("host",), out=io.StringIO()) == 0
        assert sys.getswitchinterval() == pytest.approx(LOCK_SWITCH_SECONDS)
        # And what was loaded at its start is out of the garbage collector's walks: a
        # full collection (it stops the loop) no longer goes through every module.
        assert gc.get_freeze_count() > 50_000
    finally:
        sys.setswitchinterval(before)
