"""Whose language: the answer to a member in theirs, everything public in the
server's (``bot.services.languages``), tried in the console with ``~ locale``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

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
