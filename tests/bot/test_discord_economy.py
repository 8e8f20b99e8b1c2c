"""Events, garnets and leaderboards on Discord, through discord.py's real command tree
(command groups included) with Discord faked at the HTTP boundary."""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.core.messages import Actor
from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    HOST_ROLE_ID,
    PLAYER_ROLE_ID,
    Call,
    Person,
)
from tests.bot.economy_helpers import Answering
from tests.discord_bot import World, feed, sends, sub

GUILD = str(GUILD_ID)


async def slash(world: World, person: Person, name: str, **values: Any) -> list[Call]:
    return await feed(world, world.fake.slash(world.bot.tree, person, name, **values))


async def press(world: World, person: Person, message: dict[str, Any],
                custom_id: str) -> list[Call]:
    return await feed(world, world.fake.press(person, message, custom_id))


def economy(world: World) -> Any:
    """The bot's one Economy, answering refusals as the adapters do."""
    return Answering(world.bot.services.economy)


async def test_groups_and_commands_are_synced_with_descriptions(world: World) -> None:
    (sync,) = [c for c in world.fake.calls if c.method == "PUT"]
    commands = {c["name"]: c for c in sync.body}
    hosts = {o["name"]: o for o in commands["host"]["options"]}
    for group, subs in ((commands["event"], {"info"}), (commands["priority"], {"show"}),
                        (hosts["event"], {"create", "add", "remove", "close", "reinstate"}),
                        (hosts["priority"], {"set", "order"})):
        assert "contexts" not in group  # a server's commands: global only
        found = {o["name"]: o for o in group["options"]}
        assert set(found) == subs
        for option in found.values():
            assert option["type"] == 1 and option["description"]
            assert all(o["description"] for o in option.get("options", []))
    board = {o["name"]: o for o in commands["leaderboard"]["options"]}
    assert [c["value"] for c in board["by"]["choices"]] == ["garnets", "wins", "rating"]
    assert board["event"]["autocomplete"] and board["game"]["autocomplete"]
    dm = {o["name"]: o for o in commands["dm"]["options"]}
    assert dm["event"]["autocomplete"] and dm["event"]["description"]


async def test_event_create_is_for_hosts(world: World) -> None:
    (refusal,) = sends(await sub(world, CAROL, "host event", "create", name="Season 1"))
    assert refusal.ephemeral and "Only hosts can do that" in refusal.content
    (made,) = sends(await sub(world, HANA, "host event", "create", name="Season 1", reward=5,
                              transfers=True, confiscate="winner"))
    assert not made.ephemeral
    assert made.content.startswith("🏁 Event **Season 1** (#1) is open: 5 garnets per DM win")


async def test_priority_decides_who_chooses_on_discord(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    await sub(world, HANA, "host event", "add", player=ALICE)
    await sub(world, HANA, "host event", "add", player=BOB)
    (moved,) = sends(await sub(world, HANA, "host priority", "set", player=BOB, rank=1))
    assert f"<@{BOB.id}> now has priority 1 of 2 in **Season 1**" in moved.content
    (shown,) = await sub(world, ALICE, "priority", "show")
    assert shown.ephemeral and shown.content.splitlines()[1:] == ["1. Bob", "2. Alice ← you"]
    _setup, intro = sends(await world.slash(HANA, "dm", game="cairo", player1=ALICE,
                                           player2=BOB))
    assert f"<@{BOB.id}> has the higher priority (1 vs 2)" in intro.content
    (refusal,) = sends(await world.press(ALICE, intro.sent, f"garnet:first:1:{ALICE.id}"))
    assert refusal.ephemeral and f"<@{BOB.id}> chooses the First Player" in refusal.content
    (board,) = sends(await world.press(BOB, intro.sent, f"garnet:first:1:{ALICE.id}"))
    assert f"<@{BOB.id}> chose <@{ALICE.id}> as the First Player" in board.content


async def test_event_autocomplete(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Spring Cup")
    await sub(world, HANA, "host event", "create", name="Summer Cup")
    (call,) = await sub(world, HANA, "event", "info", focused="event", event="sum")
    assert call.callback_type == 8
    assert call.body["data"]["choices"] == [{"name": "Summer Cup (#2, open)", "value": "2"}]
    (call,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, ALICE, "leaderboard", focused="event", event="")))
    values = [c["value"] for c in call.body["data"]["choices"]]
    assert values == ["2", "1", "all", "none"]


async def test_leaderboard_pages_turn_in_place(world: World) -> None:
    eco = economy(world)
    hana = Actor(str(HANA.id), "Hana", roles=frozenset({str(HOST_ROLE_ID)}))
    await eco.event_create(GUILD, hana, "Season 1")
    others = [Actor(str(900 + n), f"Player {n:02d}") for n in range(1, 13)]
    await eco.event_add(GUILD, hana, [Actor(str(ALICE.id), "Alice"), *others])
    for n, person in enumerate(others, start=1):
        await eco.grant(GUILD, hana, person, 50 - n, "start")
    (first,) = await slash(world, ALICE, "leaderboard")
    assert first.callback_type == 4 and first.ephemeral
    assert first.content.splitlines()[-1] == "You: #13 of 13 — 0 garnets"
    assert [(b["label"], b["custom_id"]) for b in first.buttons] == [
        ("Next ▶", "garnet:lb:garnets:-:1:2")]
    (turned,) = await press(world, ALICE, first.sent, "garnet:lb:garnets:-:1:2")
    assert turned.callback_type == 7  # the same message, updated
    text = turned.content.splitlines()
    assert text[0] == "🏆 **Garnets** — **Season 1** (page 2/2, 13 players)"
    assert text[1:4] == ["11. Player 11 — 39 garnets", "12. Player 12 — 38 garnets",
                         "**13. Alice — 0 garnets**"]
    assert [b["custom_id"] for b in turned.buttons] == ["garnet:lb:garnets:-:1:1"]
    # The presser sees their own rank: Hana is not on the board.
    (other,) = await press(world, HANA, first.sent, "garnet:lb:garnets:-:1:2")
    assert other.content.splitlines()[-1] == "You are not on this board."


async def test_transfer_grant_and_garnets(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1", transfers=True)
    await sub(world, HANA, "host event", "add", player=ALICE)
    await sub(world, HANA, "host event", "add", player=BOB)
    (refusal,) = sends(await world.slash(ALICE, "grant", player=ALICE, amount=5, reason="me"))
    assert refusal.ephemeral and "Only hosts" in refusal.content
    (granted,) = sends(await world.slash(HANA, "grant", player=ALICE, amount=5, reason="bonus"))
    assert not granted.ephemeral and "granted" in granted.content
    (gave,) = sends(await world.slash(ALICE, "transfer", to=BOB, amount=2, reason="deal"))
    assert not gave.ephemeral
    assert gave.content.startswith(f"💎 <@{ALICE.id}> gave <@{BOB.id}> 2 garnets")
    (balance,) = await world.slash(CAROL, "garnets", player=BOB)
    assert balance.ephemeral and balance.content == (
        "Bob has **2 garnets** in **Season 1** · priority 2 of 2.")


async def test_export_sends_three_csv_files_to_the_host_only(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    await sub(world, HANA, "host event", "add", player=ALICE)
    await world.slash(HANA, "grant", player=ALICE, amount=5, reason="bonus")
    calls = await world.slash(HANA, "export")
    assert calls[0].callback_type == 5 and calls[0].ephemeral
    (books,) = sends(calls)
    assert books.ephemeral
    names = [name for name, _ in books.files]
    assert names == ["season-1-1-ledger.csv", "season-1-1-standings.csv",
                     "season-1-1-matches.csv"]
    rows = list(csv.reader(io.StringIO(books.files[0][1].decode())))
    assert rows[0][:6] == ["entry", "time_utc", "user_id", "name", "amount", "balance_after"]
    assert rows[1][2:6] == [str(ALICE.id), "Alice", "5", "5"]
    (refusal,) = sends(await world.slash(ALICE, "export"))
    assert refusal.ephemeral and "Only hosts" in refusal.content and not refusal.files


async def test_event_add_takes_several_players(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    (one,) = sends(await sub(world, HANA, "host event", "add", player=BOB))
    assert one.content.startswith(f"<@{BOB.id}> joins **Season 1** with priority 1")
    calls = await sub(world, HANA, "host event", "add", players=f"<@{BOB.id}> <@{CAROL.id}>")
    # Each mention is looked up on the server (from the cache, else Discord's API).
    (several,) = [c for c in sends(calls) if c.method != "GET"]
    assert not several.ephemeral
    assert several.content == (f"<@{CAROL.id}> joins **Season 1** with priority 2 — "
                               "2 players. Already playing: Bob (1). Hosts reorder priority "
                               "with `/host priority set`.")
    # Only Carol is pinged: Bob was in already.
    assert several.message["allowed_mentions"]["users"] == [CAROL.id]
    # A role's members need the Server Members intent, which this bot was not given.
    (by_role,) = sends(await sub(world, HANA, "host event", "add", role=PLAYER_ROLE_ID))
    assert by_role.ephemeral and "MEMBERS_INTENT" in by_role.content
    (bad,) = sends(await sub(world, HANA, "host event", "add", players="bob and carol"))
    assert bad.ephemeral and "`players` takes mentions" in bad.content
    stranger = [c for c in sends(await sub(world, HANA, "host event", "add",
                                           players="<@123456789>"))
                if c.method != "GET"]
    assert stranger[0].ephemeral
    assert stranger[0].content == "<@123456789> is not a member of this server."


async def test_a_transfer_delivered_twice_is_booked_once(world: World) -> None:
    """The same interaction twice (a gateway that replays it after a resume, a retry
    after "unknown interaction"): one booking, and the second try is told so; after a
    restart between the two, the ledger's request key still books it once."""
    await sub(world, HANA, "host event", "create", name="Season 1", transfers=True)
    await sub(world, HANA, "host event", "add", player=ALICE)
    await sub(world, HANA, "host event", "add", player=BOB)
    await world.slash(HANA, "grant", player=ALICE, amount=10, reason="start")
    payload = world.fake.slash(world.bot.tree, ALICE, "transfer", to=BOB, amount=3,
                               reason="deal")
    def again(tag: str) -> dict[str, Any]:
        token = f"{tag}-{payload['token']}"  # a new token to answer, the same interaction
        world.fake._token_channel[token] = CHANNEL_ID
        return dict(payload, token=token)

    (first,) = sends(await feed(world, payload))
    assert first.content.startswith(f"💎 <@{ALICE.id}> gave <@{BOB.id}> 3 garnets")
    (second,) = sends(await feed(world, again("retry")))
    assert second.ephemeral and second.content.startswith("That was already done")
    await world.restart()
    await feed(world, again("after-restart"))
    (balance,) = await world.slash(CAROL, "garnets", player=BOB)
    assert "Bob has **3 garnets**" in balance.content
    (balance,) = await world.slash(CAROL, "garnets", player=ALICE)
    assert "Alice has **7 garnets**" in balance.content
