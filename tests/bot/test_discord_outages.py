"""Discord standing in the way of a match, through the transport-level fake: a 403 on a
board pauses the match and tells the hosts until ``/resume``, a deleted thread is
settled, a gateway outage charges nobody, a player who leaves is reported."""

from __future__ import annotations

from sqlalchemy import select

from bot.store.models import HostAction
from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    MESSAGES,
    Call,
)
from tests.discord_bot import World, challenge_accepted, dm_in_thread, sends


def posts(calls: list[Call], channel: int | str) -> list[Call]:
    return [c for c in calls if c.method == "POST" and c.path == MESSAGES
            and c.url.endswith(f"/channels/{channel}/messages")]


async def test_a_403_on_a_board_pauses_the_match_tells_the_hosts_then_resume(
        world: World) -> None:
    thread, first = await dm_in_thread(world)
    live = world.live()
    await world.advance(10)
    world.fake.deny(CHANNEL_ID, "send_messages_in_threads")
    calls, _ = await world.say(first, "A down", channel_id=thread)
    (refused,) = posts(calls, thread)
    assert refused.status == 403 and refused.response["code"] == 50013
    # The move is in; the next turn's clock stood still from the refused board.
    assert live.ply == 1 and live.paused and live.elapsed(world.clock.now()) < 0.5
    (notice,) = posts(calls, CHANNEL_ID)  # the thread's parent: no log channel is set
    assert notice.ok and notice.content == (
        f"⚠ DM #1 is paused: garnet cannot post in <#{thread}>: it lacks Send Messages in "
        f"Threads there. Nobody's clock runs. Give garnet Send Messages in Threads in "
        f"<#{thread}>, then `/resume match:1`.")
    assert notice.body["allowed_mentions"]["users"] == []
    calls = await world.advance(3600)
    assert calls == [] and not live.finished  # no reminder, no loss on time
    async with world.db.session() as s:
        logged = (await s.scalars(select(HostAction))).all()
    assert [(a.actor_id, a.action) for a in logged] == [("garnet", "pause")]

    # /resume checks first: still refused while garnet cannot post in the thread.
    (answer,) = [c for c in sends(await world.slash(HANA, "resume", match=1))
                 if c.content]
    assert answer.ephemeral and "stays paused" in answer.content
    assert live.paused
    world.fake.allow(CHANNEL_ID)
    calls = await world.slash(HANA, "resume", match=1)
    (board,) = posts(calls, thread)
    assert board.ok and board.files and "DM #1 resumes" in board.content
    assert not live.paused and live.halted is None


async def test_a_deleted_thread_is_settled(world: World) -> None:
    thread, _ = await dm_in_thread(world)
    live = world.live()
    await world.advance(5)
    calls = await world._feed(lambda: world.fake.delete_channel(thread))
    (notice,) = posts(calls, CHANNEL_ID)
    assert notice.content.startswith(f"⚠ DM #1 is paused: <#{thread}> was deleted.")
    assert "`/adjudicate match:1`" in notice.content
    assert live.paused and live.elapsed(world.clock.now()) == 5
    assert await world.advance(3600) == []
    # The host decides, from the parent channel.
    calls = await world.slash(HANA, "void", match=1, reason="thread deleted")
    assert live.finished and calls
    assert world.bot.services.matches.live == {}


async def test_a_host_ending_a_match_whose_channel_was_deleted_is_answered(
        world: World) -> None:
    """/void (and /adjudicate) of a match whose thread was deleted: the match ends and
    the host hears what could not be posted there, never a false "Posted in"."""
    for command, values in (("void", {"reason": "thread deleted"}),
                            ("adjudicate", {"winner": ALICE, "reason": "thread deleted"})):
        thread, _ = await dm_in_thread(world)
        live = world.live()
        await world._feed(lambda: world.fake.delete_channel(thread))  # noqa: B023
        calls = await world.slash(HANA, command, match=live.number, **values)
        assert live.finished and world.bot.services.matches.live == {}
        (told,) = [c for c in sends(calls) if c.ok and c.content
                   and not c.url.endswith(f"/channels/{thread}/messages")]
        assert told.ephemeral, told
        assert told.content.startswith(f"garnet could not post in <#{thread}>"), told.content
        assert f"DM #{live.number} is void" in told.content or "wins" in told.content
        assert "Posted in" not in told.content


async def test_a_gateway_outage_of_30_s_charges_nobody(world: World) -> None:
    await challenge_accepted(world)
    live = world.live()
    await world.advance(10)
    await world._feed(world.fake.disconnect)
    await world._feed(world.fake.disconnect)  # twice in a row: counted once
    assert await world.advance(30) == []  # no reminder while the gateway is down
    calls = await world._feed(world.fake.resume)
    (notice,) = posts(calls, CHANNEL_ID)
    assert notice.content.startswith(
        "📡 garnet lost its connection to Discord for 30 s; nobody was charged. "
        f"<@{ALICE.id}> (Black) to move — 0:50 + 36 banks; time runs out <t:")
    assert notice.body["allowed_mentions"]["users"] == []
    assert live.elapsed(world.clock.now()) == 10
    # READY after a RESUMED (a new session) resumes nothing twice.
    assert posts(await world._feed(world.fake.new_session), CHANNEL_ID) == []
    assert live.elapsed(world.clock.now()) == 10 + 2.0  # discord.py's wait for guilds


async def test_a_player_who_leaves_is_reported_to_the_hosts(world: World) -> None:
    await challenge_accepted(world)
    calls = await world._feed(lambda: world.state.parse_guild_member_remove(
        {"guild_id": str(GUILD_ID), "user": {"id": str(BOB.id), "username": "Bob",
                                             "discriminator": "0", "avatar": None}}))
    (notice,) = posts(calls, CHANNEL_ID)
    assert notice.content.startswith(f"👋 <@{BOB.id}> (Bob) left the server during Match #1")
    assert notice.body["allowed_mentions"]["users"] == []
    assert not world.live().paused


async def test_removed_from_a_server_its_matches_are_paused_and_logged(world: World) -> None:
    await challenge_accepted(world)
    live = world.live()
    await world.advance(7)
    calls = await world._feed(lambda: world.state.parse_guild_delete({"id": str(GUILD_ID)}))
    assert calls == []  # nothing can be posted there
    assert live.paused and live.elapsed(world.clock.now()) == 7
    assert await world.advance(3600) == []
    async with world.db.session() as s:
        logged = (await s.scalars(select(HostAction))).all()
    assert [(a.actor_id, a.action, a.detail) for a in logged] == [
        ("garnet", "pause", "Match #1 paused: garnet was removed from the server")]
