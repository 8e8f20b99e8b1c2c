"""The check that holds the Discord fake and the bot to Discord's API description
(``tests/fake/discord_spec.py``): a payload that diverges fails the test that caused
it, naming route, field and rule. Every other Discord test runs with it on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.discord_fake import CHANNEL_ID, MESSAGES, settle, user_payload
from tests.discord_bot import World
from tests.fake.discord_spec import as_described, check_exchange, check_schema, limits


@pytest.fixture(autouse=True)
def checking(world: World) -> None:
    """These tests are of the check: on even where GARNET_DISCORD_SPEC=off."""
    world.fake.validate = True


def _failing(world: World) -> pytest.RaisesExc[AssertionError]:
    return pytest.raises(AssertionError, match="diverges from Discord's API description")


async def test_a_request_over_a_documented_limit_fails_the_test(world: World) -> None:
    channel: Any = world.bot.get_channel(CHANNEL_ID)
    await channel.send("x" * 2001)
    with _failing(world) as failed:
        await settle(world.baseline)
    assert (f"POST {MESSAGES}: request content: 2001 characters, the documented most "
            "is 2000") in str(failed.value)
    world.fake.unexpected.clear()


async def test_a_request_against_the_schema_fails_the_test(world: World) -> None:
    await world.bot.http.request(_route("POST", MESSAGES, channel_id=CHANNEL_ID),
                                 json={"content": "hi", "allowed_mentions": {"parse": 1}})
    with _failing(world) as failed:
        await settle(world.baseline)
    assert "request allowed_mentions.parse: invalid_type (expected array" in str(failed.value)
    world.fake.unexpected.clear()


async def test_an_answer_of_the_fake_against_the_schema_fails_the_test(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    made = world.fake.message_payload

    def wrong(*args: Any, **kw: Any) -> dict[str, Any]:
        message = made(*args, **kw)
        message.pop("channel_id")  # required
        message["resource"] = {}  # not a field of a message
        return message

    monkeypatch.setattr(world.fake, "message_payload", wrong)
    channel: Any = world.bot.get_channel(CHANNEL_ID)
    await channel.send("hi")
    with _failing(world) as failed:
        await settle(world.baseline)
    text = str(failed.value)
    assert f"POST {MESSAGES}: answer 200  channel_id: invalid_type" in text
    assert "not in the description: resource (schema MessageResponse)" in text
    world.fake.unexpected.clear()


def test_statuses_and_routes_are_checked() -> None:
    thread = {"id": "1", "type": 11}
    found = check_exchange("POST", "/channels/{channel_id}/threads", {"name": "x", "type": 11},
                           200, thread)
    assert any("answer status 200 is not described (Discord answers 201)" in p
               for p in found)
    assert check_exchange("GET", "/nowhere/{id}", None, 200, {}) == [
        "GET /nowhere/{id}: not a route of Discord's API description"]


def test_where_the_documentation_wins() -> None:
    # Snowflakes as integers, an upload's index as its id, permissions as a string.
    body = {"allowed_mentions": {"users": [1]}, "attachments": [{"id": 0}],
            "message_reference": {"message_id": 5}, "default_member_permissions": "32"}
    assert as_described(body) == {
        "allowed_mentions": {"users": ["1"]}, "attachments": [{"id": "0"}],
        "message_reference": {"message_id": "5"}, "default_member_permissions": 32}
    # A timestamp with an offset (as Discord writes them) is a timestamp.
    member = {"roles": [], "joined_at": "2024-05-01T12:00:00.000000+00:00", "deaf": False,
              "mute": False, "flags": 0, "pending": False, "avatar": None, "banner": None,
              "nick": None, "premium_since": None, "communication_disabled_until": None,
              "user": user_payload(1, "Ann")}
    assert check_schema("GuildMemberResponse", member, "member") == []


def test_documented_limits_of_components_and_commands() -> None:
    row = {"type": 1, "components": [{"type": 2, "label": "x" * 81, "custom_id": "y" * 101}]}
    assert limits("POST", MESSAGES, {"components": [row] * 6}) == [
        "components: 6 rows, the documented most is 5",
        *[p for i in range(6) for p in (f"components.{i}.0.custom_id: longer than 100",
                                        f"components.{i}.0.label: longer than 80")]]
    assert limits("PUT", "/applications/{application_id}/commands", [
        {"name": "Move", "description": ""}]) == [
        "Move.name: 1 to 32 lower-case characters", "Move.description: 1 to 100 characters"]


def _route(method: str, path: str, **params: Any) -> Any:
    from discord.http import Route

    return Route(method, path, **params)


async def test_a_gateway_event_against_discord_api_types_fails_the_test(world: World) -> None:
    """The events the fake makes are checked, in one batch, when the test's fixture
    reads ``unexpected`` (here, at once)."""
    world.fake.saw("MESSAGE_DELETE", {"id": "1", "guild_id": "2"})
    world.fake.saw("MESSAGE_DELETE", {"id": "2", "channel_id": "2", "extra": 3})
    found = world.fake.unexpected
    assert any("gateway MESSAGE_DELETE (GatewayMessageDeleteDispatchData): Property "
               "'channel_id' is missing" in p for p in found), found
    assert any("'\"extra\"' does not exist" in p for p in found), found
    found.clear()
    world.fake.divergent.clear()
