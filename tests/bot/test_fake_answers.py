"""The Discord fake's own answers, held to Discord's API description for every route it
answers and every gateway event it makes, whether garnet uses them today or not: a
divergence fails here, not only in the test of a feature that happens to reach it.

The REST routes are driven through discord.py (its HTTP client and its interaction
webhooks), each answer checked as every test's are (``FakeDiscord.validate``); the
events' payloads are checked against discord-api-types (every test does) and their
objects against the description's schemas of those objects (``check_event_objects``).
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from tests.bot.discord_fake import (
    ALICE,
    CHANNEL_ID,
    GUILD_ID,
    LOADING,
    MESSAGES,
    ORIGINAL,
    ROUTES,
    FakeDiscord,
    settle,
)
from tests.discord_bot import World
from tests.fake.discord_spec import EVENT_TYPES, check_event_objects


@pytest.fixture(autouse=True)
def checking(world: World) -> None:
    """These tests are of the fake's answers: checked even where GARNET_DISCORD_SPEC=off."""
    world.fake.validate = True


def _interaction(world: World, payload: dict[str, Any]) -> discord.Interaction[Any]:
    """An interaction as discord.py makes it of the gateway's payload (not dispatched:
    the test answers it itself)."""
    return discord.Interaction(data=payload, state=world.state)  # type: ignore[arg-type]


def _slash(world: World, **kw: Any) -> discord.Interaction[Any]:
    return _interaction(world, world.fake.slash(world.bot.tree, ALICE, "help", **kw))


async def test_every_route_the_fake_answers_is_as_described(world: World) -> None:
    bot = world.bot
    await bot.http.request(discord.http.Route("GET", "/users/@me"))
    await bot.application_info()
    limits = await bot.fetch_session_start_limits()  # GET /gateway/bot
    assert limits.max_concurrency >= 1
    channel = await bot.fetch_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound):
        await bot.fetch_channel(123)
    await bot.tree.sync()
    await bot.tree.sync(guild=discord.Object(GUILD_ID))
    sent = await channel.send("hello", file=discord.File(io.BytesIO(b"png"), "a.png",
                                                         description="a board"))
    await channel.send("a reply", reference=sent.to_reference(fail_if_not_exists=False))
    world.fake.delete_message(CHANNEL_ID, sent.id)
    await channel.send("to a deleted message",
                       reference=sent.to_reference(fail_if_not_exists=False))
    with pytest.raises(discord.HTTPException):
        await channel.send("to a deleted message", reference=sent.to_reference())
    world.fake.fail("POST", MESSAGES, 429, retry_after=1)  # discord.py waits, then again
    await channel.send("after a rate limit")
    world.fake.deny(CHANNEL_ID, "send_messages")
    with pytest.raises(discord.Forbidden):
        await channel.send("refused")
    world.fake.allow(CHANNEL_ID)
    guild = bot.get_guild(GUILD_ID)
    assert guild is not None
    await guild.fetch_member(ALICE.id)
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(1)
    thread = await channel.create_thread(name="DM #1", type=discord.ChannelType.public_thread)
    await thread.edit(archived=True)
    # Interactions: every kind of initial response, follow-ups and the original's edits.
    asked = _slash(world)
    await asked.response.send_message("at once", ephemeral=True)
    asked.response._response_type = None  # discord.py would refuse it before Discord
    with pytest.raises(discord.HTTPException):  # 40060: answered already
        await asked.response.send_message("again")
    await asked.followup.send("and more", ephemeral=True)
    await asked.edit_original_response(content="edited")
    await asked.delete_original_response()
    deferred = _slash(world)
    with pytest.raises(discord.NotFound):  # 10015: a follow-up before any response
        await deferred.followup.send("too soon")
    await deferred.response.defer(thinking=True)
    await deferred.followup.send("the first follow-up")
    suggested = _interaction(world, world.fake.slash(
        world.bot.tree, ALICE, "challenge", focused="game", game="ca"))
    await suggested.response.autocomplete([discord.app_commands.Choice(name="Cairo",
                                                                       value="cairo")])
    late = _slash(world, ago=3.5)
    with pytest.raises(discord.NotFound):  # 10062: past Discord's 3 s
        await late.response.send_message("too late")
    pressed = _interaction(world, world.fake.press(ALICE, world.fake.messages[
        int((await channel.send("a button")).id)], "garnet:x"))
    await pressed.response.defer()
    await pressed.followup.send("after a silent acknowledgement")
    edited = _interaction(world, world.fake.press(ALICE, world.fake.messages[
        int((await channel.send("a page")).id)], "garnet:y"))
    await edited.response.edit_message(content="the next page")
    await settle(world.baseline)  # any answer that diverged fails here
    served = {(c.method, c.path) for c in world.fake.calls}
    assert set(ROUTES) - served == set()
    statuses = {c.status for c in world.fake.calls}
    assert {200, 201, 204, 400, 403, 404, 429} <= statuses


async def test_a_deferrals_first_follow_up_replaces_thinking(world: World) -> None:
    """Discord: after a deferral, the first follow-up edits the "thinking…" message
    (same id), the next ones are messages of their own; an edit of the original does
    the same; the loading flag is gone once answered."""
    for stamped in (True, False):
        world.fake.stamp_deferred_edits = stamped
        asked = _slash(world)
        await asked.response.defer(thinking=True)
        thinking = world.fake.originals[asked.token]
        assert int(thinking["flags"]) & LOADING
        first = await asked.followup.send("the answer", wait=True)
        second = await asked.followup.send("more", wait=True)
        assert first.id == int(thinking["id"]) != second.id
        assert first.content == "the answer" and not int(thinking["flags"]) & LOADING
        assert first.created_at == discord.utils.snowflake_time(int(thinking["id"]))
        assert (first.edited_at is not None) is stamped
        other = _slash(world)
        await other.response.defer(thinking=True)
        answer = await other.edit_original_response(content="by an edit")
        assert answer.id == int(world.fake.originals[other.token]["id"])
        assert (answer.edited_at is not None) is stamped
        later = await other.edit_original_response(content="edited again")
        assert later.edited_at is not None  # a later edit is an edit, on Discord too
    await settle(world.baseline)
    edits = [c for c in world.fake.calls if (c.method, c.path) == ("PATCH", ORIGINAL)]
    assert edits and all(c.ok for c in edits)


async def test_the_fake_forgets_old_messages_and_interactions_and_says_when_asked(
        world: World) -> None:
    """The benchmark's fake forgets what is older than it needs (``forget``): what
    came before goes, what came since stays and is answered as before, and a request
    naming what was forgotten is answered as Discord answers an unknown webhook, and
    counted as unexpected (the benchmark reports it)."""
    old = _slash(world)
    await old.response.defer(thinking=True)
    posted = await world.bot.get_channel(CHANNEL_ID).send("old")  # type: ignore[union-attr]
    await world.clock.advance(40.0)
    new = _slash(world)
    await new.response.defer(thinking=True)
    assert world.fake.forget(30.0) >= 2
    assert posted.id not in world.fake.messages and old.token not in world.fake.originals
    assert not world.fake.unexpected
    await new.followup.send("the answer", wait=True)  # since the cut: as before
    assert not world.fake.unexpected
    with pytest.raises(discord.NotFound):
        await old.followup.send("too late for the fake", wait=True)
    assert [u for u in world.fake.unexpected if "forgotten by the fake" in u]
    world.fake._unexpected.clear()


async def test_every_gateway_event_the_fake_makes_is_as_described(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, Any]] = []
    saw = FakeDiscord.saw

    def seen(fake: FakeDiscord, event: str, data: dict[str, Any]) -> None:
        made.append((event, data))
        saw(fake, event, data)

    monkeypatch.setattr(FakeDiscord, "saw", seen)
    fake = world.fake
    fake.new_session()
    fake.message_create(ALICE, "D left")
    posted = await world.bot.get_partial_messageable(CHANNEL_ID).send("x")
    fake.slash(world.bot.tree, ALICE, "help")
    fake.slash(world.bot.tree, ALICE, "challenge", focused="game", game="ca")
    fake.press(ALICE, fake.messages[posted.id], "garnet:x")
    fake.delete_message(CHANNEL_ID, posted.id)
    fake.deny(CHANNEL_ID, "attach_files")
    channel: Any = world.bot.get_channel(CHANNEL_ID)
    thread = await channel.create_thread(name="DM", type=discord.ChannelType.public_thread)
    fake.archive_thread(thread.id)
    fake.lock_thread(thread.id)
    fake.delete_channel(thread.id)
    fake.delete_channel(CHANNEL_ID)
    await settle(world.baseline)
    assert set(EVENT_TYPES) - {name for name, _ in made} == set()
    problems = [p for name, data in made for p in check_event_objects(name, data)]
    assert problems == []
