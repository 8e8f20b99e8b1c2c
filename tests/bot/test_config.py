"""Settings that the bot cannot use are refused at start with a sentence naming them."""

from __future__ import annotations

import pytest

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
