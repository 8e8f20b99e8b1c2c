"""``LOG_FORMAT=json``: one JSON object a line, with the server, shard and match where
there is one; the token never appears (whoever logs it, in a message or a traceback);
a player's text is escaped by JSON."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator

import pytest
from discord.gateway import DiscordWebSocket

from bot.config import ConfigError, Settings
from bot.core import logs
from tests.bot.discord_fake import ALICE, APP_ID, settle
from tests.discord_bot import World, challenge_accepted

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


async def _through_the_gateway(world: World, payload: dict[str, object]) -> None:
    """An interaction as discord.py's gateway receives it: its own DEBUG line of the
    event, then its own parsing (the bot's requests follow, each logged by discord.py)."""
    ws = DiscordWebSocket(None, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
    ws._discord_parsers = world.state.parsers  # type: ignore[attr-defined]
    ws._dispatch = world.bot.dispatch
    ws.shard_id = 0  # type: ignore[attr-defined]
    await ws.received_message(json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": 1,
                                          "d": payload}))
    await settle(world.baseline)


async def test_debug_logs_no_interaction_token_of_discord_py_s_requests(
        world: World, root: logging.Logger, capsys: pytest.CaptureFixture[str]) -> None:
    await challenge_accepted(world)
    logs.setup("DEBUG", "text", "main", [world.settings.discord_token])
    capsys.readouterr()
    payload = world.fake.slash(world.bot.tree, ALICE, "move", move="D left")
    await _through_the_gateway(world, payload)
    assert world.live().to_move == 1  # the move was played: the requests were made
    err = capsys.readouterr().err
    token, interaction = str(payload["token"]), payload["id"]
    assert token not in err
    # Each line still says which request it was, the token's place redacted.
    assert f"'token': '{logs.REDACTED}'" in err  # the gateway's event
    assert f"/interactions/{interaction}/{logs.REDACTED}/callback" in err  # the deferral
    assert f"/webhooks/{APP_ID}/{logs.REDACTED}/messages/@original" in err  # its answer
    # What DEBUG keeps, as docs/operating.md says: ids, names and what was typed.
    assert str(ALICE.id) in err and ALICE.name in err and "D left" in err


@pytest.mark.parametrize("line", [
    "POST https://discord.com/api/v10/webhooks/900/aW50ZXJhY3Rpb246MTIz.x-Y_z with {}",
    "PATCH /webhooks/900/aW50ZXJhY3Rpb246MTIz.x-Y_z/messages/@original has returned 404",
    "We are being rate limited. POST /interactions/7/aW50ZXJhY3Rpb246MTIz.x-Y_z/callback",
    "{'type': 2, 'token': 'aW50ZXJhY3Rpb246MTIz.x-Y_z', 'id': '7'}",
    '{"token": "aW50ZXJhY3Rpb246MTIz.x-Y_z"}',
])
def test_tokens_in_urls_and_events_are_redacted_at_every_level(
        root: logging.Logger, capsys: pytest.CaptureFixture[str], line: str) -> None:
    logs.setup("WARNING", "json", "main", [])  # no bot token known: the patterns still hold
    logging.getLogger("discord.webhook.async_").warning("%s", line)
    (got,) = lines(capsys)
    assert "aW50ZXJhY3Rpb246MTIz" not in str(got["message"])
    assert logs.REDACTED in str(got["message"])
