"""Whose language on Discord, through discord.py's real tree: a member's answer in
their app's language (``interaction.locale``), the server's posts in the server's
(Discord's ``guild_locale`` until a host says ``/host language``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.discord_fake import ALICE, BOB, GUILD_ID, HANA
from tests.catalogs import compiled
from tests.discord_bot import World, sends, sub

HANGUL = re.compile(r"[\uac00-\ud7a3]")
KANA = re.compile(r"[\u3040-\u30ff]")


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with compiled(tmp_path / "locale", monkeypatch):
        yield


@pytest.mark.usefixtures("catalogs")
async def test_a_member_reads_their_answers_in_their_apps_language(world: World) -> None:
    korean = dataclasses.replace(ALICE, locale="ko")
    (call,) = await world.slash(korean, "challenge", opponent=BOB, game="cairo", first="me")
    assert HANGUL.search(call.content or ""), call.content  # the challenge's answer
    (accepted, *_) = sends(await world.press(BOB, call.sent, call.buttons[0]["custom_id"]))
    assert not HANGUL.search(accepted.content or "")  # Bob's app says English
    (refused,) = sends(await world.slash(korean, "move", move="A left"))
    assert refused.ephemeral and "왼쪽" in (refused.content or ""), refused.content


@pytest.mark.usefixtures("catalogs")
async def test_the_servers_language_from_discord_until_a_host_sets_one(world: World) -> None:
    world.fake.guild_locales[GUILD_ID] = "ja"
    await world.slash(BOB, "help")  # Discord tells garnet the server's language
    languages = world.bot.services.languages
    assert await languages.of(str(GUILD_ID)) == "ja"
    (set_,) = sends(await sub(world, HANA, "host", "language", lang="ko"))
    assert not set_.ephemeral and "한국어" in (set_.content or "")
    assert await languages.of(str(GUILD_ID)) == "ko"
    (call,) = await world.slash(BOB, "challenge", opponent=ALICE, game="cairo", first="me")
    assert not HANGUL.search(call.content or "")  # the answer: in Bob's app's English
    pressed = sends(await world.press(ALICE, call.sent, call.buttons[0]["custom_id"]))
    (begins,) = [c for c in pressed if c.method == "POST" and "#1" in (c.content or "")
                 and c is not pressed[0]]
    assert HANGUL.search(begins.content or ""), begins.content  # the start: the server's
