"""``LOG_FORMAT=json``: one JSON object a line, with the server, shard and match where
there is one; the token never appears (whoever logs it, in a message or a traceback);
a player's text is escaped by JSON."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from bot.config import ConfigError, Settings
from bot.core import logs

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture
def root() -> Iterator[logging.Logger]:
    """The root logger, given back as it was."""
    logger = logging.getLogger()
    handlers, level = list(logger.handlers), logger.level
    yield logger
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    for handler in handlers:
        logger.addHandler(handler)
    logger.setLevel(level)


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    err = capsys.readouterr().err
    assert err.endswith("\n")
    return [json.loads(line) for line in err.splitlines()]


def test_json_lines_carry_their_context_and_escape_user_text(
        root: logging.Logger, capsys: pytest.CaptureFixture[str]) -> None:
    logs.setup("INFO", "json", "east", [TOKEN])
    log = logging.getLogger("bot.test")
    log.info("plain")
    said = 'e4"}\n{"level": "CRITICAL", "message": "forged'
    server = logs.SERVER.set("1000000000000000001")
    shard = logs.SHARD.set(3)
    match = logs.MATCH.set(42)
    try:
        log.warning("typed message %s: %s", 7, said)
    finally:
        logs.MATCH.reset(match)
        logs.SHARD.reset(shard)
        logs.SERVER.reset(server)
    first, second = lines(capsys)
    assert set(first) == {"time", "level", "logger", "message", "instance"}
    assert first["level"] == "INFO" and first["logger"] == "bot.test"
    assert first["instance"] == "east" and str(first["time"]).endswith("Z")
    assert second["message"] == f"typed message 7: {said}"  # one line, the text intact
    assert (second["server"], second["shard"], second["match"]) == (
        "1000000000000000001", 3, 42)


def test_the_token_never_appears(root: logging.Logger,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    logs.setup("DEBUG", "json", "main", [TOKEN])
    logging.getLogger("discord.http").debug("GET /users/@me with headers %s",
                                            {"Authorization": f"Bot {TOKEN}"})
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        logging.getLogger("bot.app").exception("could not start")
    err = capsys.readouterr().err
    assert TOKEN not in err
    got = [json.loads(line) for line in err.splitlines()]
    assert logs.REDACTED in str(got[0]["message"])
    assert got[1]["message"] == "could not start"
    assert logs.REDACTED in str(got[1]["exception"]) and "RuntimeError" in str(
        got[1]["exception"])


def test_text_lines_are_redacted_too(root: logging.Logger,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    logs.setup("INFO", "text", "main", [TOKEN])
    logging.getLogger("x").info("token=%s", TOKEN)
    err = capsys.readouterr().err
    assert TOKEN not in err and "token=[redacted]" in err


def test_log_format_is_text_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert Settings.from_env(env_file=None).log_format == "text"
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    assert Settings.from_env(env_file=None).log_format == "json"
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        Settings.from_env(env_file=None)
