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

import discord
import pytest

from bot.app import build_discord_bot as build_bot
from bot.commands import BY_NAME
from bot.commands.spec import Audience, Call, Command, Group, Services, misplaced
from bot.config import Settings
from bot.core.clock import VirtualClock
from bot.core.messages import Response
from bot.store.db import open_database
from tests import snapshots
from tests.bot.discord_fake import APP_ID, GUILD_ID, FakeDiscord
from tests.fake.discord_spec import characters, longest

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


# ---- who is shown what -------------------------------------------------------------

MANAGE_SERVER = str(discord.Permissions(manage_guild=True).value)  # "32"


def _leaves(command: dict[str, Any], path: str = "") -> list[str]:
    """The typed names a synced command holds: itself, or its subcommands (in groups)."""
    name = f"{path}{command['name']}"
    subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
    return [leaf for sub in subs for leaf in _leaves(sub, f"{name} ")] if subs else [name]


def test_leaves_of_a_group_of_groups() -> None:
    host = {"name": "host", "options": [
        {"name": "event", "type": 2, "options": [{"name": "close", "type": 1}]},
        {"name": "note", "type": 1, "options": [{"name": "text", "type": 3}]}]}
    assert _leaves(host) == ["host event close", "host note"]


async def test_a_member_is_shown_no_hosts_command(global_sync: tuple[str, Any]) -> None:
    """Discord honours ``default_member_permissions`` on top-level commands only, and a
    member without Manage Server is shown every top-level command without it with all
    its subcommands. So: no host's action under such a command, and every player's
    action under one (an admin shows the hosts' commands to the host role under Server
    Settings → Integrations, docs/hosting.md)."""
    _, body = global_sync
    shown: dict[str, bool] = {}  # typed name -> shown to a member without Manage Server
    for command in body:
        permissions = command.get("default_member_permissions")
        assert permissions in (None, MANAGE_SERVER), command["name"]  # a string, or none
        for leaf in _leaves(command):
            assert leaf not in shown, f"/{leaf} is synced twice"
            shown[leaf] = permissions is None
    assert set(shown) == set(BY_NAME)  # every declared command, by the name typed
    for_hosts = sorted(name for name, command in BY_NAME.items() if command.for_hosts)
    assert [name for name in for_hosts if shown[name]] == []
    assert [name for name in BY_NAME if name not in for_hosts and not shown[name]] == []
    # The hosts' actions of groups players use too are under /host, as the docs say.
    assert {"host tournament create", "host event create", "host deck add",
            "host nomination open", "host priority set", "host token grant"} <= set(shown)
    assert {"tournament join", "event info", "deck show", "priority show",
            "nomination pick"} <= {name for name, member in shown.items() if member}


def test_a_hosts_command_declared_where_members_look_is_refused() -> None:
    async def run(s: Services, c: Call) -> Response:
        raise AssertionError

    groups = (Group("tournament", "Tournaments"), Group("host", "Hosts", Audience.HOSTS),
              Group("host tournament", "Run tournaments"))
    good = (Command("tournament join", "Join", run),
            Command("host tournament undrop", "Undo a drop", run, audience=Audience.HOSTS),
            Command("void", "Void a match", run, audience=Audience.HOSTS))
    assert misplaced(good, groups) == []
    bad = (Command("tournament undrop", "Undo a drop", run, audience=Audience.HOSTS),
           Command("host tournament join", "Join", run))
    assert misplaced(bad, groups) == [
        "/tournament undrop is for hosts but /tournament is shown to everyone: declare it "
        "as 'host tournament undrop'",
        "/host tournament join is for everyone but /host is shown to hosts only"]
    nested = (Group("tournament", "Tournaments"),
              Group("tournament staff", "Staff", Audience.HOSTS))
    assert misplaced((), nested) == ["/tournament staff is for hosts but is not a top-level "
                                     "command: Discord would show it to everyone"]


# ---- headroom against Discord's limits ----------------------------------------------

# Discord's documented limits of application commands ("Application Commands"): over
# any, Discord refuses the whole sync (every command of every server stays as it was).
# The test fails at 90 % of each, so that what is added later (a game's own options)
# finds room, or the one who adds it restructures first.
LIMITS = {"commands": 100, "characters": 8000, "options": 25, "choices": 25,
          "name": 32, "description": 100, "choice": 100, "max_length": 6000}
HEADROOM = 0.9


def usage(commands: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """(where, which limit, how much of it) for every limited thing of ``commands``."""
    found = [("(all)", "commands", len(commands))]

    def walk(item: dict[str, Any], where: str) -> None:
        found.extend([(where, "name", longest(item, "name")),
                      (where, "description", longest(item, "description")),
                      (where, "options", len(item.get("options") or [])),
                      (where, "choices", len(item.get("choices") or []))])
        if "max_length" in item:
            found.append((where, "max_length", int(item["max_length"])))
        for choice in item.get("choices") or []:
            found.extend([(f"{where}={choice['value']}", "choice", longest(choice, "name")),
                          (f"{where}={choice['value']}", "choice", len(str(choice["value"])))])
        for option in item.get("options") or []:
            walk(option, f"{where} {option['name']}")

    for command in commands:
        found.append((command["name"], "characters", characters(command)))
        walk(command, command["name"])
    return found


def test_the_counting_is_discords() -> None:
    command = {"name": "host", "description": "For hosts",
               "name_localizations": {"de": "gastgeber"}, "options": [
                   {"name": "mode", "description": "How", "type": 3,
                    "description_localizations": {"fr": "Comment faire"},
                    "choices": [{"name": "Swiss", "value": "swiss"}]}]}
    # gastgeber 9 + "For hosts" 9 + mode 4 + "Comment faire" 13 + Swiss 5 + swiss 5
    assert characters(command) == 45
    assert ("host mode", "description", 13) in usage([command])
    assert ("host mode=swiss", "choice", 5) in usage([command])


async def test_every_command_keeps_a_tenth_of_discords_limits(
        global_sync: tuple[str, Any]) -> None:
    """The commands as discord.py's tree sends them: at most 90 % of every limit."""
    _, body = global_sync
    over = [f"{where}: {limit} {used} of {LIMITS[limit]}"
            for where, limit, used in usage(body) if used >= HEADROOM * LIMITS[limit]]
    assert over == []


# ---- in Korean and Japanese ---------------------------------------------------------

ENDONYMS = {"English", "한국어", "日本語"}  # /host language's choices: the same everywhere


def unlocalised(commands: list[dict[str, Any]], locale: str, names: bool = True
                ) -> list[str]:
    """Every field of the synced commands without a ``locale`` localisation: the
    descriptions, the choices' names and (with ``names``) the typed names."""
    found: list[str] = []

    def walk(item: dict[str, Any], where: str) -> None:
        fields = ("name", "description") if names else ("description",)
        found.extend(f"{where}.{key}" for key in fields if key in item
                     and locale not in (item.get(f"{key}_localizations") or {}))
        found.extend(f"{where}={choice['value']}" for choice in item.get("choices") or []
                     if choice["name"] not in ENDONYMS
                     and locale not in (choice.get("name_localizations") or {}))
        for option in item.get("options") or []:
            walk(option, f"{where} {option['name']}")

    for command in commands:
        walk(command, command["name"])
    return found


async def test_the_sync_carries_korean_and_japanese(global_sync: tuple[str, Any]) -> None:
    """Every command, option and choice in Korean; in Japanese every description and
    choice (its translators keep the typed names as the texts quote them: `/challenge`);
    each within Discord's limits (``test_every_command_keeps_a_tenth_of_discords_limits``
    counts the longest localisation of each field, and the fake refuses a name against
    Discord's rules)."""
    _, body = global_sync
    assert unlocalised(body, "ko") == []
    assert unlocalised(body, "ja", names=False) == []
