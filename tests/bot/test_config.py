"""Settings that the bot cannot use are refused at start with a sentence naming them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import host_config
from bot.config import ConfigError, Settings


@pytest.mark.parametrize(("url", "says"), [
    ("postgres://u@db/garnet", "not 'postgres' (PostgreSQL: postgresql+asyncpg://"),
    ("postgresql://u@db/garnet", "not 'postgresql' (PostgreSQL: postgresql+asyncpg://"),
    ("sqlite:///garnet.db", "must start with sqlite+aiosqlite:// or postgresql+asyncpg://"),
    ("garnet.db", "not 'garnet.db'"),
])
def test_a_database_url_without_an_async_driver_is_refused(
        monkeypatch: pytest.MonkeyPatch, url: str, says: str) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ConfigError, match="DATABASE_URL") as refused:
        Settings.from_env(env_file=None)
    assert says in str(refused.value)


@pytest.mark.parametrize("url", ["sqlite+aiosqlite:///g.db",
                                 "postgresql+asyncpg://garnet:pw@db:5432/garnet"])
def test_the_async_drivers_are_taken(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    assert Settings.from_env(env_file=None).database_url == url


@pytest.mark.parametrize(("count", "ids", "shards"), [
    ("8", "0-3", (0, 1, 2, 3)),
    ("8", "5,1, 2", (1, 2, 5)),
    ("16", "0-2,7", (0, 1, 2, 7)),
    ("4", "", (0, 1, 2, 3)),
])
def test_shards_are_read_as_lists_and_ranges(monkeypatch: pytest.MonkeyPatch, count: str,
                                             ids: str, shards: tuple[int, ...]) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    settings = Settings.from_env(env_file=None)
    assert settings.shards.ids == shards and settings.shards.count == int(count)
    assert settings.shards.keys()[0] == f"shard:{shards[0]}/{count}"


def test_without_shards_one_process_runs_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    monkeypatch.delenv("SHARD_IDS", raising=False)
    settings = Settings.from_env(env_file=None)
    assert settings.shard_count is None and settings.shards.keys() == ["shard:0/1"]
    assert settings.shards.owns("310000000000000004") and settings.shards.owns("console")


@pytest.mark.parametrize(("count", "ids", "says"), [
    ("", "0,1", "SHARD_IDS needs SHARD_COUNT"),
    ("0", "", "SHARD_COUNT must be at least 1, not 0"),
    ("two", "", "SHARD_COUNT must be a whole number, not 'two'"),
    ("4", "4", "SHARD_IDS: shard 4 does not exist: with SHARD_COUNT=4 the shards are 0-3"),
    ("4", "3-1", "SHARD_IDS: the range '3-1' runs backwards"),
    ("4", "a", "SHARD_IDS: 'a' is not a shard id or a range such as 0-3"),
    ("4", "1,,2", "SHARD_IDS: an empty entry in '1,,2'"),
    ("5000", "", "SHARD_COUNT must be at most 4096, not 5000"),
])
def test_bad_shards_are_refused(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                                says: str) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env_file=None)
    assert says in str(refused.value)


def test_a_lease_shorter_than_three_seconds_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEASE_SECONDS", "1")
    with pytest.raises(ConfigError, match="LEASE_SECONDS must be at least 3, not 1"):
        Settings.from_env(env_file=None)


def test_global_requests_per_second_defaults_to_discords_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GLOBAL_REQUESTS_PER_SECOND", raising=False)
    assert Settings.from_env(env_file=None).global_requests_per_second == 50
    monkeypatch.setenv("GLOBAL_REQUESTS_PER_SECOND", "25")
    assert Settings.from_env(env_file=None).global_requests_per_second == 25


@pytest.mark.parametrize(("value", "says"), [
    ("0", "GLOBAL_REQUESTS_PER_SECOND must be at least 1, not 0"),
    ("10001", "GLOBAL_REQUESTS_PER_SECOND must be at most 10000, not 10001"),
    ("fifty", "GLOBAL_REQUESTS_PER_SECOND must be a whole number, not 'fifty'"),
])
def test_bad_global_requests_per_second_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                   value: str, says: str) -> None:
    monkeypatch.setenv("GLOBAL_REQUESTS_PER_SECOND", value)
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env_file=None)
    assert says in str(refused.value)


def test_the_token_is_read_from_the_file_a_secret_is_mounted_as(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    secret = tmp_path / "discord_token"
    secret.write_text("MTA.token-of-the-bot.xyz\n", encoding="utf-8")  # as echo writes it
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN_FILE", str(secret))
    assert Settings.from_env(env_file=None).discord_token == "MTA.token-of-the-bot.xyz"
    monkeypatch.setenv("DISCORD_TOKEN", "")  # `DISCORD_TOKEN=` left empty in .env is unset
    assert Settings.from_env(env_file=None).discord_token == "MTA.token-of-the-bot.xyz"


@pytest.mark.parametrize(("content", "says"), [
    (None, "names {path}, which does not exist"),
    ("", "DISCORD_TOKEN_FILE {path} is empty: write the bot token"),
    (" \n", "DISCORD_TOKEN_FILE {path} is empty: write the bot token"),
    ("MTA.one\nMTA.two\n", "does not hold a bot token alone"),
    ("x" * 5000, "does not hold a bot token alone"),
    (b"\xff\xfe", "does not hold a bot token alone"),
    ("folder", "which is a folder, not a file"),
])
def test_a_token_file_garnet_cannot_use_is_refused_with_its_reason(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: str | bytes | None,
        says: str) -> None:
    path = tmp_path / "discord_token"
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN_FILE", str(path))
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env_file=None)
    assert says.format(path=path) in str(refused.value)


def test_a_token_and_a_token_file_together_are_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    secret = tmp_path / "discord_token"
    secret.write_text("MTA.file", encoding="utf-8")
    monkeypatch.setenv("DISCORD_TOKEN", "MTA.variable")
    monkeypatch.setenv("DISCORD_TOKEN_FILE", str(secret))
    with pytest.raises(ConfigError, match="DISCORD_TOKEN and DISCORD_TOKEN_FILE are both "
                       "set: keep only DISCORD_TOKEN_FILE") as refused:
        Settings.from_env(env_file=None)
    assert "MTA" not in str(refused.value)  # neither token is repeated in the error

@pytest.mark.parametrize(("address", "public", "served", "url"), [
    ("", "", None, None),  # off by default
    ("8080", "", ("127.0.0.1", 8080), None),  # a port alone: loopback only
    ("0.0.0.0:8080", "https://garnet.example.org/", ("0.0.0.0", 8080),
     "https://garnet.example.org"),
    ("[::1]:8080", "http://localhost:8080", ("::1", 8080), "http://localhost:8080"),
])
def test_the_web_pages_are_off_unless_an_address_is_set(
        monkeypatch: pytest.MonkeyPatch, address: str, public: str,
        served: tuple[str, int] | None, url: str | None) -> None:
    monkeypatch.setenv("WEB_ADDRESS", address)
    monkeypatch.setenv("PUBLIC_URL", public)
    settings = Settings.from_env(env_file=None)
    assert settings.web_address == served and settings.public_url == url


@pytest.mark.parametrize(("name", "value"), [
    ("WEB_ADDRESS", "web"), ("WEB_ADDRESS", "1:99999"),
    ("PUBLIC_URL", "garnet.example.org"), ("PUBLIC_URL", "ftp://garnet.example.org"),
    ("PUBLIC_URL", "https://garnet.example.org/garnet"),
    ("PUBLIC_URL", 'https://x.org"><script>'), ("PUBLIC_URL", "https://user@x.org"),
    ("WEB_PROCESS", "yes"), ("WEB_PROCESS", "2"),
])
def test_bad_web_settings_are_refused(monkeypatch: pytest.MonkeyPatch, name: str,
                                      value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        Settings.from_env(env_file=None)


@pytest.mark.parametrize(("raw", "apart"), [("", True), ("on", True), (" OFF", False)])
def test_the_pages_have_a_process_of_their_own_unless_told_off(
        monkeypatch: pytest.MonkeyPatch, raw: str, apart: bool) -> None:
    monkeypatch.setenv("WEB_PROCESS", raw)
    assert Settings.from_env(env_file=None).web_process is apart


@pytest.mark.parametrize(("raw", "cores"), [("", 0.7), ("65", 0.65), ("off", None),
                                            (" OFF ", None)])
def test_the_cpu_budget_is_a_share_of_a_core_or_off(monkeypatch: pytest.MonkeyPatch,
                                                   raw: str, cores: float | None) -> None:
    monkeypatch.setenv("CPU_BUDGET", raw)
    budget = host_config(Settings.from_env(env_file=None)).cpu_budget
    assert budget == (pytest.approx(cores) if cores is not None else None)


@pytest.mark.parametrize("raw", ["0", "101", "most"])
def test_a_cpu_budget_out_of_bounds_is_refused(monkeypatch: pytest.MonkeyPatch,
                                               raw: str) -> None:
    monkeypatch.setenv("CPU_BUDGET", raw)
    with pytest.raises(ConfigError, match="CPU_BUDGET"):
        Settings.from_env(env_file=None)
