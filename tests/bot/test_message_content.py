"""Without Discord's Message Content intent (privileged; reviewed for bots in more than
100 servers) the bot starts anyway, says so once, and players move with ``/move``."""

from __future__ import annotations

import dataclasses
import logging

import discord
import pytest

from bot.adapters.discord.client import GarnetBot
from bot.app import serve_discord
from bot.config import ConfigError, Settings
from bot.core.clock import VirtualClock
from bot.store.db import open_database


def _settings(url: str, **kw: object) -> Settings:
    return dataclasses.replace(Settings.from_env(env_file=None), discord_token="token",
                               database_url=url, instance="test", render_processes=0, **kw)


def _gateway(monkeypatch: pytest.MonkeyPatch, refuses: bool) -> list[bool]:
    """Discord's gateway as far as intents go: it closes with 4014 when a privileged
    intent it has not granted is asked for (``refuses``: Message Content)."""
    asked: list[bool] = []

    async def start(self: GarnetBot, token: str, *, reconnect: bool = True) -> None:
        asked.append(self.intents.message_content)
        if self.intents.message_content and refuses:
            raise discord.PrivilegedIntentsRequired(None)

    monkeypatch.setattr(GarnetBot, "start", start)
    return asked


async def test_refused_message_content_starts_again_without_it(
        monkeypatch: pytest.MonkeyPatch, database_url: str,
        caplog: pytest.LogCaptureFixture) -> None:
    asked = _gateway(monkeypatch, refuses=True)
    db = await open_database(database_url)
    with caplog.at_level(logging.WARNING):
        await serve_discord(_settings(database_url), db, VirtualClock())
    await db.close()
    assert asked == [True, False]
    said = [r.getMessage() for r in caplog.records if "Message Content" in r.getMessage()]
    assert len(said) == 1 and "/move" in said[0] and "4014" in said[0]


async def test_granted_message_content_is_kept(monkeypatch: pytest.MonkeyPatch,
                                               database_url: str) -> None:
    asked = _gateway(monkeypatch, refuses=False)
    db = await open_database(database_url)
    await serve_discord(_settings(database_url), db, VirtualClock())
    await db.close()
    assert asked == [True]


async def test_message_content_off_never_asks(monkeypatch: pytest.MonkeyPatch,
                                              database_url: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    asked = _gateway(monkeypatch, refuses=True)
    db = await open_database(database_url)
    with caplog.at_level(logging.WARNING):
        await serve_discord(_settings(database_url, message_content="off"), db,
                            VirtualClock())
    await db.close()
    assert asked == [False]
    assert "MESSAGE_CONTENT=off" in caplog.text


def test_the_setting_is_auto_or_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MESSAGE_CONTENT", "OFF")
    assert Settings.from_env(env_file=None).message_content == "off"
    monkeypatch.setenv("MESSAGE_CONTENT", "")
    assert Settings.from_env(env_file=None).message_content == "auto"
    monkeypatch.setenv("MESSAGE_CONTENT", "maybe")
    with pytest.raises(ConfigError, match="MESSAGE_CONTENT"):
        Settings.from_env(env_file=None)
