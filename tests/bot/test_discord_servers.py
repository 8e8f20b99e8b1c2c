"""Two servers through the Discord fake: every command and button that takes a match,
an event or a player reaches only its own server's things, each server numbers from
#1, names are per server, and user text pings nobody and renders as typed."""


from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL2_ID,
    CHANNEL_ID,
    GUILD2_ID,
    HANA,
    OSCAR,
    Call,
    Person,
    settle,
)
from tests.discord_bot import World, sends

NOT_HERE = "Match #1 is not being played now."


@pytest.fixture
async def both(world: World) -> World:
    """The bot also sees a second server (its roles: Oscar hosts there)."""
    before = set(asyncio.all_tasks())
    world.state.parse_guild_create(world.fake.guild_payload(GUILD2_ID))
    await settle(before)
    world.baseline = set(asyncio.all_tasks())
    return world


async def slash_in(world: World, person: Person, channel: int, name: str,
                   **values: Any) -> list[Call]:
    return await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, person, name, channel_id=channel, **values)))


async def sub_in(world: World, person: Person, channel: int, group: str, name: str, /,
                 **values: Any) -> list[Call]:
    return await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.subcommand(world.bot.tree, person, group, name, channel, **values)))


async def press_in(world: World, person: Person, channel: int, custom_id: str) -> list[Call]:
    """A button as it would be on a message of ``channel``."""
    message = world.fake.message_payload(channel, {"content": "x", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                    "custom_id": custom_id}]}]})
    return await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.press(person, message, custom_id)))


def only(calls: list[Call]) -> Call:
    shown = sends(calls)
    assert len(shown) == 1, shown
    return shown[0]


async def a_dm_on_server_one(world: World) -> None:
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB, chooser="lots",
                      event="none")
    assert len(world.bot.services.matches.live) == 1


async def test_server_two_cannot_reach_server_ones_match(both: World) -> None:
    world = both
    await a_dm_on_server_one(world)
    live = world.live()
    before = (live.ply, live.paused, live.extra)
    for name, values in (
        ("pause", {"reason": "mine"}), ("resume", {}), ("extend", {"seconds": 600.0}),
        ("repost", {}), ("time", {}), ("resign", {}),
        ("move", {"move": "D left"}),
    ):
        call = only(await slash_in(world, OSCAR, CHANNEL2_ID, name, match=1, **values))
        assert call.ephemeral and call.content == NOT_HERE, (name, call.content)
    for name, values in (("first", {"player": BOB}), ("accept", {}), ("decline", {}),
                         ("cancel", {}), ("board", {}), ("void", {"reason": "gone"}),
                         ("adjudicate", {"winner": BOB, "reason": "x"})):
        call = only(await slash_in(world, OSCAR, CHANNEL2_ID, name, match=1, **values))
        assert call.ephemeral and call.content == "There is no match #1 on this server."
    for name in ("match", "replay"):
        call = only(await slash_in(world, OSCAR, CHANNEL2_ID, name, id=1))
        assert call.ephemeral and call.content == "There is no match #1 on this server."
    # The buttons of server one, pressed on server two, find nothing either.
    for custom_id in (f"garnet:first:1:{BOB.id}", "garnet:accept:1", "garnet:decline:1"):
        call = only(await press_in(world, OSCAR, CHANNEL2_ID, custom_id))
        assert call.ephemeral and "There is no match #1 on this server." in call.content
    # Autocomplete on server two offers nothing of server one.
    (offer,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, OSCAR, "pause", channel_id=CHANNEL2_ID,
                         focused="match", match="")))  # Discord sends the typed text
    assert offer.body["data"]["choices"] == []
    (home,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, HANA, "pause", focused="match", match="")))
    assert [c["value"] for c in home.body["data"]["choices"]] == [1]
    assert (live.ply, live.paused, live.extra) == before
    # Server one's DM goes on.
    mover = ALICE if live.users[live.to_move] == str(ALICE.id) else BOB
    (board,) = sends((await world.say(mover, "D left"))[0])
    assert board.files and "played **DL**" in board.content


async def test_events_and_garnets_stay_on_their_server(both: World) -> None:
    world = both
    await sub_in(world, HANA, CHANNEL_ID, "host event", "create", name="Season 1")
    await sub_in(world, HANA, CHANNEL_ID, "host event", "add", player=ALICE)
    await world.slash(HANA, "grant", player=ALICE, amount=5, reason="bonus")
    call = only(await sub_in(world, OSCAR, CHANNEL2_ID, "event", "info", event="1"))
    assert call.content == "There is no event #1 on this server."
    call = only(await slash_in(world, OSCAR, CHANNEL2_ID, "grant", player=ALICE, amount=5,
                               reason="x", event="Season 1"))
    assert "There is no event called 'Season 1' on this server" in call.content
    call = only(await slash_in(world, ALICE, CHANNEL2_ID, "garnets", event="all"))
    # Alice is "Queenie" on server two, and has nothing there.
    assert call.content == "Queenie has **0 garnets** across all events."
    call = only(await slash_in(world, OSCAR, CHANNEL2_ID, "ledger", player=ALICE,
                               event="all"))
    assert "No entries yet" in call.content and "Queenie" in call.content
    call = only(await slash_in(world, OSCAR, CHANNEL2_ID, "export", event="1"))
    assert call.content == "There is no event #1 on this server." and not call.files
    # Server two numbers its own events from #1.
    call = only(await sub_in(world, OSCAR, CHANNEL2_ID, "host event", "create", name="B League"))
    assert "(#1)" in call.content and not call.ephemeral


async def test_numbers_and_buttons_per_server(both: World) -> None:
    world = both
    (one,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo")
    (two,) = await slash_in(world, ALICE, CHANNEL2_ID, "challenge", opponent=BOB,
                            game="cairo")
    assert "Match #1" in one.content and "Match #1" in two.content
    assert two.buttons[0]["custom_id"] == "garnet:accept:1"
    # Accepting #1 on server two starts server two's match, not server one's.
    await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.press(BOB, two.sent, "garnet:accept:1")))
    (live,) = world.bot.services.matches.live.values()
    assert live.guild_id == str(GUILD2_ID) and live.channel_id == str(CHANNEL2_ID)


async def test_the_host_role_of_one_server_is_nothing_on_another(both: World) -> None:
    world = both
    # Hana hosts server one only; Oscar server two only.
    call = only(await slash_in(world, HANA, CHANNEL2_ID, "dm", game="cairo", player1=ALICE,
                               player2=BOB))
    assert call.ephemeral and call.content.startswith("Only hosts can do that")
    call = only(await world.slash(OSCAR, "dm", game="cairo", player1=ALICE, player2=BOB))
    assert call.ephemeral and call.content.startswith("Only hosts can do that")


INJECTION = "@everyone <@310000000000000004> **b** [x](https://e.example) # H"


async def test_user_text_pings_nobody_and_renders_plain(both: World) -> None:
    world = both
    event = only(await sub_in(world, HANA, CHANNEL_ID, "host event", "create", name=INJECTION[:50]))
    await sub_in(world, HANA, CHANNEL_ID, "host event", "add", player=ALICE)
    grant = only(await world.slash(HANA, "grant", player=ALICE, amount=2, reason=INJECTION))
    await a_dm_on_server_one(world)
    pause = only(await world.slash(HANA, "pause", reason=INJECTION))
    await world.slash(HANA, "resume")
    void = only(await world.slash(HANA, "void", reason=INJECTION))
    for call in (event, grant, pause, void):
        text = call.content
        assert "@everyone" not in text and f"<@{CAROL.id}>" not in text, text
        assert "**b**" not in text and "[x](" not in text, text
        # Only the people the bot names are pingable; never Carol, roles or everyone.
        mentions = call.message["allowed_mentions"]
        assert mentions["parse"] == [] and CAROL.id not in mentions.get("users", []), text
    assert grant.message["allowed_mentions"]["users"] == [HANA.id, ALICE.id]
    # A typed move that is chat with a mention changes nothing and says nothing.
    calls, _ = await world.say(ALICE, f"<@{CAROL.id}> @everyone look")
    assert sends(calls) == []


async def test_a_player_who_left_can_still_be_named(world: World) -> None:
    await sub_in(world, HANA, CHANNEL_ID, "host event", "create", name="Season 1")
    await sub_in(world, HANA, CHANNEL_ID, "host event", "add", player=BOB)
    world.fake.departed.add(BOB.id)  # Bob leaves the server
    fine = only(await world.slash(HANA, "fine", player=BOB, amount=1, reason="left"))
    assert not fine.ephemeral and f"fined <@{BOB.id}> 1 garnet" in fine.content
    gone = only(await sub_in(world, HANA, CHANNEL_ID, "host event", "remove", player=BOB))
    assert f"<@{BOB.id}> leaves **Season 1**" in gone.content


async def test_no_match_starts_where_the_bot_cannot_post_boards(world: World) -> None:
    perms = discord.Permissions.all()
    perms.attach_files = False
    world.fake.bot_permissions[CHANNEL_ID] = perms
    call = only(await world.slash(ALICE, "challenge", opponent=BOB, game="cairo"))
    assert call.ephemeral and call.content == (
        "garnet cannot play here: it lacks Attach Files in this channel. A server admin "
        "can grant it in the channel's permissions.")
    perms.create_public_threads = False
    call = only(await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB,
                                  thread=True))
    assert "Attach Files, Create Public Threads" in call.content
    assert world.bot.services.matches.live == {}
    assert not [c for c in world.fake.calls if c.path.endswith("/threads")]
