"""The application commands Discord receives, pinned as a snapshot.

The bot syncs its command tree when it logs in (``tree.sync()``): one PUT of every
command's JSON to Discord. That body is what players see (names, descriptions,
options, choices, permissions); this test keeps it exactly as it is. After an
intended change, rewrite the snapshot with ``UPDATE_SNAPSHOTS=1`` and review its diff.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import build_discord_bot as build_bot
from bot.config import Settings
from bot.core.clock import VirtualClock
from bot.store.db import open_database
from tests import snapshots
from tests.bot.discord_fake import APP_ID, GUILD_ID, FakeDiscord

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"


def normalised(commands: list[dict[str, Any]]) -> str:
    """The commands as Discord receives them, in a stable order and layout."""
    return json.dumps(sorted(commands, key=lambda c: (c["name"], c.get("type", 1))),
                      indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def compare(expected: Path, actual: str) -> None:
    snapshots.compare(expected, actual, "the synced commands", "synced now")


async def synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str,
                 command_guild: int | None) -> list[Any]:
    """Log a bot in (Discord faked); every PUT of commands it made, as (url, body)."""
    fake = FakeDiscord()
    fake.install(monkeypatch)
    db = await open_database(url)  # migrated: nothing to apply
    settings = dataclasses.replace(
        Settings.from_env(env_file=None), discord_token="token",
        database_url=url, host_role="Host", image_dir=tmp_path,
        dm_reward=3, command_guild=command_guild, instance="test", render_processes=0)
    bot = build_bot(settings, db, clock=VirtualClock())
    try:
        await bot.login("token")
    finally:
        await bot.close()
        await db.close()
    assert fake.unexpected == []
    return [(c.url, c.body) for c in fake.calls if c.method == "PUT"]


@pytest.fixture
async def global_sync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      make_database: Callable[[], str]) -> AsyncIterator[tuple[str, Any]]:
    (put,) = await synced(tmp_path, monkeypatch, make_database(), command_guild=None)
    yield put


async def test_synced_commands_match_the_snapshot(global_sync: tuple[str, Any]) -> None:
    url, body = global_sync
    # Without COMMAND_GUILD_ID: every command, globally, in one request.
    assert url.endswith(f"/applications/{APP_ID}/commands")
    compare(SNAPSHOT, normalised(body))


async def test_the_test_server_gets_the_same_commands(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      global_sync: tuple[str, Any],
                                                      make_database: Callable[[], str]
                                                      ) -> None:
    (guild_put,) = await synced(tmp_path, monkeypatch, make_database(),
                                command_guild=GUILD_ID)
    url, body = guild_put
    assert url.endswith(f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    # The same, less what Discord documents for global commands only.
    only_global = ("contexts", "integration_types")
    assert not [c for c in body if set(c) & set(only_global)]
    assert normalised(body) == normalised([
        {k: v for k, v in c.items() if k not in only_global} for c in global_sync[1]])
