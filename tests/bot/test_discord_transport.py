"""Discord's real behaviour through the transport-level fake: rate limits honoured by
discord.py's limiter, server errors retried, refusals mapped to discord.py's
exceptions, interactions that time out, retries that never write twice."""

from __future__ import annotations

import gc
import logging
from typing import Any

import discord
import pytest

from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    MESSAGES,
    ORIGINAL,
    Call,
)
from tests.discord_bot import World, challenge_accepted, feed, sends, sub

BOARD = ("POST", MESSAGES)


def posts(calls: list[Call]) -> list[Call]:
    return [c for c in calls if (c.method, c.path) == BOARD]


# ---- rate limits ------------------------------------------------------------------------


async def test_a_429_on_a_board_post_is_waited_out_and_the_board_arrives_once(
        world: World) -> None:
    await challenge_accepted(world)
    world.fake.fail(*BOARD, 429, retry_after=2.5)
    start = world.clock.now()
    calls, _ = await world.say(ALICE, "A down")
    refused, board = posts(calls)
    assert refused.status == 429 and refused.response["retry_after"] == 2.5
    assert refused.response["global"] is False
    assert board.ok and "played **AD**" in board.content and board.files
    assert len([c for c in calls if c.ok and c.files]) == 1
    # discord.py slept retry_after, on the virtual clock.
    assert 2.5 in world.fake.asyncio.slept
    assert world.clock.now() - start == pytest.approx(2.5)
    assert world.live().ply == 1


async def test_a_global_429_is_waited_out_too(world: World) -> None:
    await challenge_accepted(world)
    world.fake.fail(*BOARD, 429, retry_after=1.0, is_global=True)
    calls, _ = await world.say(ALICE, "A down")
    refused, board = posts(calls)
    assert refused.status == 429 and refused.response["global"] is True
    assert board.ok and "played **AD**" in board.content


async def test_the_channel_bucket_is_five_posts_per_five_seconds(world: World) -> None:
    """discord.py reads the bucket from the headers and waits before the sixth post, so
    Discord never has to refuse one."""
    channel = world.bot.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    start = world.clock.now()
    for n in range(6):
        await channel.send(f"post {n}")
    sent = posts(world.fake.calls)
    assert [c.status for c in sent] == [200] * 6
    assert world.clock.now() - start == pytest.approx(5.0)  # the fifth emptied the bucket
    assert world.fake.asyncio.slept == [5.0]


async def test_a_500_is_retried_by_discord_py(world: World) -> None:
    await challenge_accepted(world)
    world.fake.fail(*BOARD, 500, times=2)
    calls, _ = await world.say(ALICE, "A down")
    assert [c.status for c in posts(calls)] == [500, 500, 200]
    assert world.fake.asyncio.slept[-2:] == [1, 3]  # discord.py's back-off: 1 + 2 * tries


@pytest.mark.parametrize(("status", "code", "error"), [
    (403, 50013, discord.Forbidden), (404, 10003, discord.NotFound),
    (503, 0, discord.DiscordServerError)])
async def test_refusals_surface_as_discord_py_exceptions(
        world: World, status: int, code: int, error: type[Exception]) -> None:
    channel = world.bot.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    world.fake.fail(*BOARD, status, code, times=5)
    with pytest.raises(error) as raised:
        await channel.send("hello")
    assert isinstance(raised.value, discord.HTTPException)
    assert raised.value.status == status and raised.value.code == code


async def test_denied_permissions_locked_and_deleted_channels(world: World) -> None:
    channel = world.bot.get_channel(CHANNEL_ID)
    assert isinstance(channel, discord.TextChannel)
    world.fake.deny(CHANNEL_ID, "attach_files")
    # The overwrite reached the client's cache through CHANNEL_UPDATE.
    me = channel.guild.me
    assert not channel.permissions_for(me).attach_files
    await channel.send("words still go")
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("a board", file=discord.File(b"\x89PNG" and __file__, "b.png"))
    assert raised.value.code == 50013
    world.fake.deny(CHANNEL_ID, "view_channel")
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("hello")
    assert raised.value.code == 50001
    world.fake.allow(CHANNEL_ID)
    thread = await channel.create_thread(name="DM", type=discord.ChannelType.public_thread)
    await thread.send("in the thread")
    world.fake.archive_thread(thread.id)
    await thread.send("unarchives it")
    assert world.fake.channels[thread.id]["thread_metadata"]["archived"] is False
    world.fake.lock_thread(thread.id)
    with pytest.raises(discord.Forbidden) as raised:
        await thread.send("locked")
    assert raised.value.code == 160005
    world.fake.lock_thread(thread.id, archived=True)
    with pytest.raises(discord.Forbidden) as raised:
        await thread.send("locked")
    assert raised.value.code == 50083
    world.fake.delete_channel(thread.id)
    assert world.bot.get_channel(thread.id) is None  # THREAD_DELETE went through
    with pytest.raises(discord.NotFound) as raised:
        await thread.send("gone")
    assert raised.value.code == 10003


async def test_app_permissions_follow_the_overwrites(world: World) -> None:
    world.fake.deny(CHANNEL_ID, "attach_files")
    call = (await world.slash(ALICE, "challenge", opponent=BOB, game="cairo"))[0]
    assert call.ephemeral and "Attach Files" in call.content
    assert world.bot.services.matches.live == {}


# ---- the gateway -------------------------------------------------------------------------


async def test_gateway_disconnect_resume_and_new_session(world: World,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    seen: list[str] = []

    def recorder(name: str) -> Any:
        async def record(*args: Any) -> None:
            seen.append(name)
        return record

    for event in ("disconnect", "resumed", "ready", "guild_available"):
        world.bot.add_listener(recorder(event), f"on_{event}")
    caplog.set_level(logging.INFO)
    world.fake.disconnect()
    await world._feed(lambda: None)
    world.fake.resume()
    await world._feed(lambda: None)
    start = world.clock.now()
    world.fake.new_session()
    await world._feed(lambda: None)
    assert seen == ["disconnect", "resumed", "guild_available", "ready"]
    assert world.clock.now() - start == pytest.approx(2.0)  # discord.py's guild wait
    assert world.bot.get_guild(GUILD_ID) is not None


async def test_every_shard_ready_freezes_the_servers_cache_out_of_the_collectors_walks(
        world: World) -> None:
    def walked(thing: object) -> bool:  # gc.get_objects: every generation but the frozen
        return any(o is thing for o in gc.get_objects())

    try:
        world.fake.new_session()
        await world._feed(lambda: None)
        first = world.bot.get_guild(GUILD_ID)
        assert first is not None and not walked(first)
        world.fake.new_session()  # a new session: its cache built anew, and frozen
        await world._feed(lambda: None)
        second = world.bot.get_guild(GUILD_ID)
        assert second is not None and second is not first and not walked(second)
    finally:
        gc.unfreeze()  # the rest of the tests' objects walked as before


# ---- interactions ------------------------------------------------------------------------


async def test_a_late_interaction_answer_is_unknown_interaction(world: World) -> None:
    calls = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, HANA, "time", ago=3.5)))
    assert calls and all(c.status == 404 for c in calls)
    assert calls[0].response == {"code": 10062, "message": "Unknown interaction"}


# ---- retries never write twice --------------------------------------------------------


async def _season(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1", transfers=True)
    await sub(world, HANA, "host event", "add", player=ALICE)
    await sub(world, HANA, "host event", "add", player=BOB)
    await world.slash(HANA, "grant", player=ALICE, amount=5, reason="bonus")


async def balance(world: World, person: Any) -> str:
    (shown,) = await world.slash(CAROL, "garnets", player=person)
    return shown.content


async def test_transfer_acknowledged_too_late_books_nothing_and_the_retry_once(
        world: World) -> None:
    await _season(world)
    before = await balance(world, BOB)
    # Delivered 3.5 s after Alice sent it: Discord no longer takes the acknowledgement.
    calls = await world._feed(lambda: world.state.parse_interaction_create(world.fake.slash(
        world.bot.tree, ALICE, "transfer", to=BOB, amount=2, reason="deal", ago=3.5)))
    assert calls[0].callback_type == 5 and calls[0].status == 404
    assert calls[0].response["code"] == 10062
    assert await balance(world, BOB) == before  # nothing booked, no crash
    # "The application did not respond": Alice tries again, a new interaction.
    gave = sends(await world.slash(ALICE, "transfer", to=BOB, amount=2, reason="deal"))
    assert [c.content[:40] for c in gave] == [f"💎 <@{ALICE.id}> gave <@{BOB.id}> 2 garnets"[:40]]
    assert "**2 garnets**" in await balance(world, BOB)


async def test_the_same_transfer_delivered_twice_books_once(world: World) -> None:
    await _season(world)
    payload = world.fake.slash(world.bot.tree, ALICE, "transfer", to=BOB, amount=2,
                               reason="deal")
    first = await world._feed(lambda: world.state.parse_interaction_create(payload))
    again = await world._feed(lambda: world.state.parse_interaction_create(payload))
    assert [c.ok for c in first] == [True, True]
    # Discord refuses a second acknowledgement of one interaction; nothing is booked.
    assert again[0].status == 400 and again[0].response["code"] == 40060
    assert "**2 garnets**" in await balance(world, BOB)


async def test_a_500_on_the_transfer_answer_is_retried_and_books_once(world: World) -> None:
    await _season(world)
    world.fake.fail("PATCH", ORIGINAL, 500)  # the answer that replaces "thinking…"
    calls = await world.slash(ALICE, "transfer", to=BOB, amount=2, reason="deal")
    follow = [c for c in calls if c.path == ORIGINAL]
    assert [c.status for c in follow] == [500, 200]
    assert "gave" in follow[1].content
    assert "**2 garnets**" in await balance(world, BOB)


@pytest.mark.parametrize(("group", "name", "values"), [
    (None, "grant", {"player": BOB, "amount": 1, "reason": "r"}),
    (None, "fine", {"player": ALICE, "amount": 1, "reason": "r"}),
    ("host priority", "set", {"player": BOB, "rank": 1}),
    ("host event", "remove", {"player": BOB}),
])
async def test_host_writes_defer_first_and_a_late_one_writes_nothing(
        world: World, group: str | None, name: str, values: dict[str, Any]) -> None:
    await _season(world)
    before = sends(await world.slash(CAROL, "leaderboard"))[0].content

    def late() -> dict[str, Any]:
        if group is None:
            return world.fake.slash(world.bot.tree, HANA, name, ago=4, **values)
        return world.fake.subcommand(world.bot.tree, HANA, group, name, CHANNEL_ID, ago=4,
                                     **values)

    calls = await feed(world, late())
    assert [(c.callback_type, c.status) for c in calls] == [(5, 404)]
    assert sends(await world.slash(CAROL, "leaderboard"))[0].content == before


async def test_pause_and_extend_defer_first_and_a_late_one_writes_nothing(
        world: World) -> None:
    await challenge_accepted(world)
    for name, values in (("pause", {"reason": "lunch"}), ("extend", {"seconds": 30})):
        calls = await world._feed(lambda n=name, v=values: world.state.parse_interaction_create(
            world.fake.slash(world.bot.tree, HANA, n, ago=4, **v)))
        assert [(c.callback_type, c.status) for c in calls] == [(5, 404)], name
    assert not world.live().paused
    (paused,) = sends(await world.slash(HANA, "pause", reason="lunch"))
    assert "is paused by" in paused.content and world.live().paused
