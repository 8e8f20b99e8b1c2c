"""Whose language: the answer to a member in theirs, everything public in the
server's (``bot.services.languages``), tried in the console with ``~ locale``."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import event

from bot.commands.spec import Services
from bot.core.messages import Actor, Button, Post, Response, Role
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.languages import CACHE_SECONDS, Languages, Spoken
from bot.texts.language import language, said_in, text
from bot.texts.languages import lines
from bot.web.live import Hub
from tests.catalogs import compiled
from tests.transcripts import console_session

HANGUL = re.compile(r"[\uac00-\ud7a3]")
KANA = re.compile(r"[\u3040-\u30ff]")


def _lines(printed: str, start: str) -> list[str]:
    return [line for line in printed.splitlines() if line.startswith(start)]


async def test_the_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       make_database: Callable[[], str]) -> None:
    with compiled(tmp_path / "locale", monkeypatch):
        async with console_session(tmp_path, make_database()) as session:
            assert "한국어" in await session.play("alice: ~ locale ko")
            challenged = await session.play("alice: /challenge opponent:@bob game:cairo")
            # The challenge's answer is said in alice's language.
            assert HANGUL.search(challenged), challenged
            accepted = await session.play("bob: /accept")
            assert not HANGUL.search(accepted), accepted  # bob's: the server's, English
            refused = await session.play("alice: A left")
            (answer,) = _lines(refused, "bot (to alice only)")
            assert HANGUL.search(answer), refused  # the refusal in Korean
            assert "오른쪽" in answer  # its directions as a Korean player types them
            assert not HANGUL.search(await session.play("bob: A right"))

            hosted = await session.play("host: /host language lang:ja")
            assert KANA.search(hosted) or "日本語" in hosted, hosted
            await session.play("~ channel second")
            started = await session.play("carol: /challenge opponent:@dave game:cairo")
            started += await session.play("dave: /accept")
            assert KANA.search(started), started  # public posts in the server's language
            moved = await session.play("dave: D 左")  # dave moves first (seeded)
            assert "[image:" in moved, moved  # 左 is a direction: the move is played


@text
def _hello(name: str) -> str:
    return f"[{language()}] hello {name}"


def test_lines_are_said_again_line_by_line() -> None:
    joined = lines(_hello("ana"), _hello("bo"), "as typed")
    assert said_in(joined, "ja") == "[ja] hello ana\n[ja] hello bo\nas typed"


async def test_a_request_runs_in_the_servers_language_and_answers_in_the_askers(
        services: Services) -> None:
    languages = services.languages
    host = Actor("hana", "hana", roles=frozenset({"Host"}), manage_guild=True)
    await services.roles.adopt("g", [Role("Host", "Host")])
    await languages.choose(Asker("g", "c", host), "ja")
    seen: list[str] = []

    async def produce() -> Response:
        seen.append(language())
        return Response(reply=Post(_hello("ana"), buttons=(Button(_hello("b"), "x"),)),
                        posts=[Post(_hello("all"), "c")])

    answered = await languages.answer(Asker("g", "c", host, "ko"), produce)
    assert seen == ["ja"]  # carried out in the server's language
    assert answered.reply is not None and answered.reply.text == "[ko] hello ana"
    assert answered.reply.buttons[0].label == "[ko] hello b"
    assert answered.posts[0].text == "[ja] hello all"  # a post: the server's


async def test_only_a_host_sets_the_language_and_it_is_kept(services: Services) -> None:
    languages = services.languages
    player = Actor("pat", "pat")
    with pytest.raises(Refusal):
        await languages.choose(Asker("g", "c", player), "ko")
    await languages.noticed("g", "ko")  # Discord's server locale: the default
    assert await languages.of("g") == "ko"
    host = Actor("hana", "hana", roles=frozenset({"Host"}))
    await services.roles.adopt("g", [Role("Host", "Host")])
    await languages.choose(Asker("g", "c", host), "ja", browser=True)
    again = Languages(languages.db, languages.roles)  # another process: from the database
    assert await again.spoken("g") == Spoken("ja", True, "ko")
    assert await again.of("elsewhere") == "en"


async def test_a_new_language_reaches_another_process_at_once(services: Services) -> None:
    """On PostgreSQL the web's notice (NOTIFY) tells every process to forget what it
    kept: another process's next post is in the new language, not 30 s later."""
    db = services.matches.kit.db
    if db.engine.dialect.name != "postgresql":
        pytest.skip("processes hear each other through PostgreSQL's NOTIFY")
    here, there = Hub(db), Hub(db)
    other = Languages(db, services.roles)  # another process's
    there.watchers.append(lambda guild, _n, _e: other.forget() if guild is None else None)
    await here.start()
    await there.start()
    try:
        services.languages.changed = here.reset
        assert await other.of("g") == "en"  # kept from now on
        host = Actor("hana", "hana", roles=frozenset({"Host"}))
        await services.roles.adopt("g", [Role("Host", "Host")])
        await services.languages.choose(Asker("g", "c", host), "ko")
        for _ in range(100):
            if await other.of("g") == "ko":
                break
            await asyncio.sleep(0.05)
        assert await other.of("g") == "ko"
    finally:
        await here.stop()
        await there.stop()


async def test_requests_that_find_a_server_s_language_stale_share_one_read(
        services: Services) -> None:
    """At Discord's limit a server asks for many refused matches a second, each
    answered in its language: those that find what was kept stale at once wait for one
    read, not each for SQLite's one connection (ahead of the running matches' moves)."""
    db = services.matches.kit.db
    clock = [0.0]
    languages = Languages(db, services.roles, now=lambda: clock[0])
    read: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if "guild_settings" in statement:
            read.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", seen)
    try:
        assert await asyncio.gather(*(languages.of("g") for _ in range(50))) == ["en"] * 50
        assert len(read) == 1
        clock[0] += CACHE_SECONDS  # stale: read again, once
        assert await asyncio.gather(*(languages.of("g") for _ in range(50))) == ["en"] * 50
        assert len(read) == 2
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", seen)
