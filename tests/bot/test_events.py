"""Events and priority through the host layer: who may, what changes, what a DM takes
from its event (the chooser, the reward)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import select

from bot.core.messages import Actor, Post, Response, Role
from bot.core.requests import Asker
from bot.services.economy import Economy
from bot.services.matches import DMSetup
from bot.store.models import Event, EventPlayer, Match
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOST_ROLE, HOSTY, Harness
from tests.bot.economy_helpers import (
    dm,
    eco,
    entries,
    make_event,
    private,
    public,
    refused,
    win_dm,
)

MEMBER = Actor("mallory", "Mallory", roles=frozenset({"Players"}))
MANAGER = Actor("owner", "Owner", manage_guild=True)


async def priorities(h: Harness, event_id: int) -> list[str]:
    async with h.db.session() as s:
        rows = await s.scalars(select(EventPlayer).where(EventPlayer.event_id == event_id)
                               .order_by(EventPlayer.priority))
        found = [(r.priority, r.user_id) for r in rows]
    assert [p for p, _ in found] == list(range(1, len(found) + 1))  # 1..n, no gaps
    return [u for _, u in found]


# ---- permissions -------------------------------------------------------------------------

HostCall = Callable[[Economy, Actor], Awaitable[Response]]
HOST_ONLY: dict[str, HostCall] = {
    "event create": lambda e, a: e.event_create(GUILD, a, "Season 9"),
    "event add": lambda e, a: e.event_add(GUILD, a, [DAVE]),
    "event remove": lambda e, a: e.event_remove(GUILD, a, ALICE),
    "event close": lambda e, a: e.event_close(GUILD, a),
    "priority set": lambda e, a: e.priority_set(GUILD, a, BOB, 1),
    "grant": lambda e, a: e.grant(GUILD, a, ALICE, 5, "bonus"),
    "fine": lambda e, a: e.fine(GUILD, a, ALICE, 5, "late"),
    "export": lambda e, a: e.export(GUILD, a),
}


@pytest.mark.parametrize("command", sorted(HOST_ONLY))
async def test_every_host_only_command_refuses_a_member(h: Harness, command: str) -> None:
    event_id = await make_event(h, "Season 1", [ALICE, BOB])
    before = (await priorities(h, event_id), len(await entries(h)))
    text = refused(await HOST_ONLY[command](eco(h), MEMBER))
    assert text == "Only hosts can do that (the 'Host' role or Manage Server)."
    assert (await priorities(h, event_id), len(await entries(h))) == before
    async with h.db.session() as s:
        assert [(e.name, e.open) for e in (await s.scalars(select(Event))).all()] == [
            ("Season 1", True)]
    # The host role and Manage Server may.
    for allowed in (HOSTY, MANAGER):
        response = await HOST_ONLY[command](eco(h), allowed)
        assert response.reply is not None
        assert "Only hosts" not in response.reply.text


async def test_the_servers_own_host_role_counts(h: Harness) -> None:
    await h.host.roles.set_host_role(GUILD, MANAGER, Role("gm-role", "Game Master"))
    gm = Actor("gm", "GM", roles=frozenset({"gm-role"}))
    public(await eco(h).event_create(GUILD, gm, "Season 1"))
    assert "'Game Master' role" in refused(await eco(h).event_create(GUILD, HOSTY, "S2"))


async def test_the_host_role_is_its_id_not_its_name(h: Harness) -> None:
    await h.host.roles.set_host_role(GUILD, MANAGER, Role("gm-role", "Game Master"))
    # Another role given the same name does not make its members hosts...
    impostor = Actor("imp", "Imp", roles=frozenset({"other-role"}))
    assert "'Game Master' role" in refused(await eco(h).event_create(GUILD, impostor, "S"))
    # ...and a rename keeps the role: the server shows it under its new name.
    await h.host.roles.adopt(GUILD, [Role("gm-role", "Arbiter"), Role("other-role", "Game Master")])
    gm = Actor("gm", "GM", roles=frozenset({"gm-role"}))
    public(await eco(h).event_create(GUILD, gm, "Season 1"))
    assert "'Arbiter' role" in refused(await eco(h).event_create(GUILD, impostor, "S2"))


async def test_a_host_role_named_in_the_settings_is_resolved_once(h: Harness) -> None:
    roles = h.host.roles
    # g2 has two roles called Host: which is meant cannot be known, so none is.
    await roles.adopt("g2", [Role("r1", "Host"), Role("r2", "host")])
    assert not await roles.is_host("g2", Actor("x", "X", roles=frozenset({"r1"})))
    # g3 has one: its id is kept, and a role later given the name does not count.
    await roles.adopt("g3", [Role("r3", "Host")])
    await roles.adopt("g3", [Role("r3", "Host"), Role("r4", "Host")])
    assert await roles.is_host("g3", Actor("x", "X", roles=frozenset({"r3"})))
    assert not await roles.is_host("g3", Actor("y", "Y", roles=frozenset({"r4"})))


# ---- creating, adding, removing, closing ---------------------------------------------------


async def test_create_announces_the_rules(h: Harness) -> None:
    text = public(await eco(h).event_create(GUILD, HOSTY, "  Season   1 ", reward=5,
                                            transfers=True, confiscate="winner"))
    assert text.startswith("🏁 Event **Season 1** (#1) is open: 5 garnets per DM win · "
                           "transfers allowed · the loser's garnets go to the winner · "
                           "a DM's loser is eliminated.")
    async with h.db.session() as s:
        event = await s.get(Event, 1)
        assert event is not None
        assert (event.name, event.reward, event.transfers, event.confiscate, event.open,
                event.created_by) == ("Season 1", 5, True, "winner", True, "hosty")


async def test_default_reward_is_the_servers_dm_reward(h: Harness) -> None:
    await make_event(h, "Season 1")
    async with h.db.session() as s:
        event = await s.get(Event, 1)
        assert event is not None and event.reward == h.host.config.dm_reward == 3
        assert (event.transfers, event.confiscate) == (False, "no")


@pytest.mark.parametrize(("name", "why"), [
    ("", "Name the event"),
    ("12", "cannot be a number"),
    ("#7", "cannot be a number"),
    ("all", "means something else"),
    ("None", "means something else"),
    ("x" * 51, "at most 50 characters"),
])
async def test_bad_names_are_refused(h: Harness, name: str, why: str) -> None:
    assert why in refused(await eco(h).event_create(GUILD, HOSTY, name))


async def test_names_are_unique_per_server_in_any_case(h: Harness) -> None:
    await make_event(h, "Season 1")
    assert "already an event called season 1 (#1)" in refused(
        await eco(h).event_create(GUILD, HOSTY, "season 1"))
    # Another server may use the name; its numbers start at #1 too.
    await h.host.roles.adopt("g2", [HOST_ROLE])
    assert "(#1)" in public(await eco(h).event_create("g2", HOSTY, "Season 1"))


@pytest.mark.parametrize(("confiscate", "stored"), [
    (None, "no"), ("yes", "winner"), ("winner", "winner"), ("remove", "remove"), ("no", "no")])
async def test_confiscate_option(h: Harness, confiscate: str | None, stored: str) -> None:
    await eco(h).event_create(GUILD, HOSTY, "S", confiscate=confiscate)
    async with h.db.session() as s:
        event = await s.get(Event, 1)
        assert event is not None and event.confiscate == stored
    assert "is no, winner or remove" in refused(
        await eco(h).event_create(GUILD, HOSTY, "T", confiscate="maybe"))


async def test_added_players_queue_at_the_lowest_priority(h: Harness) -> None:
    event_id = await make_event(h, "Season 1")
    text = public(await eco(h).event_add(GUILD, HOSTY, [ALICE, BOB]))
    assert text.startswith("<@alice>, <@bob> join **Season 1** with priorities 1–2 — "
                           "2 players.")
    assert public(await eco(h).event_add(GUILD, HOSTY, [CAROL], "season 1")).startswith(
        "<@carol> joins **Season 1** with priority 3 — 3 players.")
    assert await priorities(h, event_id) == ["alice", "bob", "carol"]
    assert refused(await eco(h).event_add(GUILD, HOSTY, [BOB])) == (
        "Bob (priority 2) is already playing in Season 1: nobody was added.")
    assert await priorities(h, event_id) == ["alice", "bob", "carol"]


async def test_adding_several_adds_the_new_ones_and_says_who_was_in(h: Harness) -> None:
    event_id = await make_event(h, "Season 1", [ALICE, BOB])
    erin = Actor("erin", "Erin")
    text = public(await eco(h).event_add(GUILD, HOSTY, [BOB, CAROL, DAVE, erin, CAROL]))
    assert text == ("<@carol>, <@dave>, <@erin> join **Season 1** with priorities 3–5 — "
                    "5 players. Already playing: Bob (2). Hosts reorder priority with "
                    "`/host priority set`.")
    assert await priorities(h, event_id) == ["alice", "bob", "carol", "dave", "erin"]
    # Those already in are named, not pinged again.
    assert Post(text).pinged() == ("carol", "dave", "erin")
    assert refused(await eco(h).event_add(GUILD, HOSTY, [ALICE, erin])) == (
        "Alice (priority 1), Erin (priority 5) are all already playing in Season 1: "
        "nobody was added.")


async def test_removing_a_player_moves_the_others_up_and_keeps_the_ledger(h: Harness) -> None:
    event_id = await make_event(h, "Season 1", [ALICE, BOB, CAROL, DAVE])
    public(await eco(h).grant(GUILD, HOSTY, BOB, 4, "bonus"))
    text = public(await eco(h).event_remove(GUILD, HOSTY, BOB))
    assert "<@bob> leaves **Season 1**" in text
    assert await priorities(h, event_id) == ["alice", "carol", "dave"]
    assert [e.amount for e in await entries(h, user_id="bob")] == [4]
    assert "not playing in Season 1" in refused(await eco(h).event_remove(GUILD, HOSTY, BOB))


async def test_close_then_no_more_players_or_dms(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    assert "**Season 1** is closed" in public(await eco(h).event_close(GUILD, HOSTY))
    # Closed: no open event is the default any more, so it must be named.
    assert "No event is open" in refused(await eco(h).event_info(GUILD, ALICE))
    info = private(await eco(h).event_info(GUILD, ALICE, "Season 1"))
    assert "— closed" in info
    assert "is closed" in refused(await eco(h).event_add(GUILD, HOSTY, [CAROL], "1"))
    assert "already closed" in refused(await eco(h).event_close(GUILD, HOSTY, "1"))
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], event="Season 1"))
    assert refused(r) == "The event Season 1 is closed."


async def test_info_lists_rules_and_players_by_priority_with_garnets(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], reward=4, transfers=True)
    public(await eco(h).grant(GUILD, HOSTY, BOB, 2, "bonus"))
    lines = private(await eco(h).event_info(GUILD, CAROL)).splitlines()
    assert lines[0].startswith("**Season 1** (#1) — open · created by Hosty on ")
    assert lines[1:] == [
        "4 garnets per DM win · transfers allowed · the loser keeps their garnets",
        "Players by priority (2):",
        "1. Alice — 0 garnets",
        "2. Bob — 2 garnets",
    ]


async def test_events_are_named_by_number_or_name_and_default_to_the_one_open(
        h: Harness) -> None:
    assert "No event is open on this server" in refused(await eco(h).event_info(GUILD, ALICE))
    await make_event(h, "Spring Cup")
    assert "**Spring Cup** (#1)" in private(await eco(h).event_info(GUILD, ALICE))
    await make_event(h, "Summer Cup")
    assert refused(await eco(h).event_info(GUILD, ALICE)) == (
        "Several events are open (Spring Cup, Summer Cup); add `event:` with one of them.")
    assert "**Summer Cup** (#2)" in private(await eco(h).event_info(GUILD, ALICE, "#2"))
    assert "**Summer Cup** (#2)" in private(await eco(h).event_info(GUILD, ALICE, "summer cup"))
    assert "no event called 'Autumn'" in refused(await eco(h).event_info(GUILD, ALICE,
                                                                         "Autumn"))
    assert "no event #9" in refused(await eco(h).event_info(GUILD, ALICE, "9"))
    # Another server's event is not found here.
    await eco(h).event_create("g2", HOSTY, "Elsewhere")
    assert "no event #3 on this server" in refused(await eco(h).event_info(GUILD, ALICE, "3"))


# ---- priority ---------------------------------------------------------------------------


async def test_priority_set_reorders_the_others(h: Harness) -> None:
    event_id = await make_event(h, "Season 1", [ALICE, BOB, CAROL, DAVE])
    text = public(await eco(h).priority_set(GUILD, HOSTY, DAVE, 1))
    # Said without the whole order: who moved, and how many others shifted.
    assert text == ("↕ <@dave> now has priority 1 of 4 in **Season 1** (was 4); 3 players "
                    "move down one place. `/priority show` lists the order.")
    assert await priorities(h, event_id) == ["dave", "alice", "bob", "carol"]
    public(await eco(h).priority_set(GUILD, HOSTY, DAVE, 3))
    assert await priorities(h, event_id) == ["alice", "bob", "dave", "carol"]
    # Beyond the last place means the last place.
    assert "priority 4" in public(await eco(h).priority_set(GUILD, HOSTY, ALICE, 99))
    assert await priorities(h, event_id) == ["bob", "dave", "carol", "alice"]
    assert "from 1 up" in refused(await eco(h).priority_set(GUILD, HOSTY, ALICE, 0))
    assert "not playing in Season 1" in refused(
        await eco(h).priority_set(GUILD, HOSTY, Actor("erin", "Erin"), 1))


async def test_players_see_the_priority(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL])
    lines = private(await eco(h).priority_show(GUILD, BOB)).splitlines()
    assert lines[1:] == ["1. Alice", "2. Bob ← you", "3. Carol"]
    garnets = private(await eco(h).garnets(GUILD, BOB))
    assert garnets == "Bob has **0 garnets** in **Season 1** · priority 2 of 3."


# ---- Death Matches of an event ---------------------------------------------------------------


async def test_the_higher_priority_player_chooses_the_first_player(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL])
    await eco(h).priority_set(GUILD, HOSTY, CAROL, 1)  # Carol 1, Alice 2, Bob 3
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY), DMSetup("cairo", [ALICE, CAROL]))
    (intro,) = r.posts
    assert ("Event: **Season 1** · <@carol> has the higher priority (1 vs 2) and chooses "
            "the First Player.") in intro.text
    assert "<@carol>, choose the First Player" in intro.text
    async with h.db.session() as s:
        match = await s.get(Match, 1)
        assert match is not None and (match.chooser, match.event_id) == ("carol", 1)
    # The lower-priority player may not choose; the higher may (or a host).
    assert "<@carol> chooses the First Player" in refused(
        await h.host.choosing.choose_first(Asker(GUILD, CHAN, ALICE), 1, "alice"))
    started = await h.host.choosing.choose_first(Asker(GUILD, CHAN, CAROL), 1, "alice")
    assert "<@carol> chose <@alice> as the First Player" in started.posts[0].text


async def test_an_explicit_chooser_overrides_priority(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="host"))
    assert "Hosts, choose the First Player" in r.posts[0].text
    assert "has the higher priority" not in r.posts[0].text


async def test_outside_events_the_host_chooses(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY), DMSetup("cairo", [ALICE, BOB]))
    assert "Hosts, choose the First Player" in r.posts[0].text
    assert "Event:" not in r.posts[0].text


async def test_the_events_reward_replaces_the_default_and_is_paid_in_the_event(
        h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], reward=7)
    match_id = await dm(h, ALICE, BOB)
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert "<@alice> receives 7 garnets." in r.posts[0].text
    (reward,) = await entries(h)
    assert (reward.user_id, reward.amount, reward.kind, reward.event_id, reward.key) == (
        "alice", 7, "match-reward", 1, f"match:{match_id}:reward")
    # An explicit reward replaces the event's.
    match_id = await dm(h, ALICE, BOB, reward=1)
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert "<@alice> receives 1 garnet." in r.posts[0].text


async def test_default_event_only_when_both_play_in_it(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    in_event = await dm(h, ALICE, BOB)
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), in_event)
    # Carol is not in it: the host is asked, and says the DM is outside events.
    assert "<@carol> does not" in refused(
        await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, CAROL], chooser="lots")))
    outside = await dm(h, ALICE, CAROL, event="none")
    await h.host.play.resign(Asker(GUILD, CHAN, CAROL), outside)
    opted_out = await dm(h, ALICE, BOB, event="none")
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), opted_out)
    async with h.db.session() as s:
        found = {m.id: m.event_id for m in (await s.scalars(select(Match))).all()}
    assert found == {in_event: 1, outside: None, opted_out: None}
    rewards = {(e.match_id, e.event_id, e.amount) for e in await entries(h)}
    assert rewards == {(in_event, 1, 3), (outside, None, 3), (opted_out, None, 3)}


async def test_a_named_event_needs_both_players(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE])
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], event="Season 1"))
    assert refused(r).startswith("<@bob> is not playing in Season 1; add them")
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], event="Winter"))
    assert "no event called 'Winter'" in refused(r)
    assert h.host.live == {}


async def test_a_forty_player_priority_change_does_not_post_the_whole_order(
        h: Harness) -> None:
    people = [Actor(f"p{i:02d}", f"Player {i:02d}") for i in range(40)]
    await make_event(h, "Season 1", people)
    text = public(await eco(h).priority_set(GUILD, HOSTY, people[39], 38))
    assert text == ("↕ <@p39> now has priority 38 of 40 in **Season 1** (was 40); 2 players "
                    "move down one place. `/priority show` lists the order.")
    assert "Player 00" not in text
    same = public(await eco(h).priority_set(GUILD, HOSTY, people[0], 1))
    assert same == "<@p00> already has priority 1 in **Season 1**."


async def test_large_numbers_have_thousands_separators(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], reward=1_000)
    granted = public(await eco(h).grant(GUILD, HOSTY, ALICE, 234_567, "prize"))
    assert "granted <@alice> 234,567 garnets" in granted
    assert "Balance: 234,567 garnets." in granted
    assert "**+234,567** host grant" in private(await eco(h).ledger(GUILD, ALICE))
    await win_dm(h, ALICE, BOB)
    assert "**235,567 garnets**" in private(await eco(h).garnets(GUILD, ALICE))
    assert "Alice — 235,567 garnets" in private(await eco(h).leaderboard(GUILD, ALICE))


async def test_the_whole_priority_order_is_set_at_once(h: Harness) -> None:
    people = [Actor(f"p{i:02d}", f"Player {i:02d}") for i in range(40)]
    event_id = await make_event(h, "Season 1", people)
    wanted = list(reversed(people[2:]))  # 38 named, from p39 down to p02
    text = public(await eco(h).priority_order(GUILD, HOSTY, wanted))
    assert text == ("↕ The priority of **Season 1** is set for the 38 players named: "
                    "1. Player 39 … 38. Player 02; the 2 others follow in their order. "
                    "`/priority show` lists it.")
    assert await priorities(h, event_id) == [p.id for p in wanted] + ["p00", "p01"]
    assert "<@erin> is not playing in Season 1." in refused(
        await eco(h).priority_order(GUILD, HOSTY, [people[0], Actor("erin", "Erin")]))
    assert refused(await eco(h).priority_order(GUILD, HOSTY, [people[0], people[0]])) == (
        "Name each player once.")
    assert await priorities(h, event_id) == [p.id for p in wanted] + ["p00", "p01"]


async def test_a_grant_to_several_books_each_once(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL])
    text = public(await eco(h).grant(GUILD, HOSTY, [ALICE, BOB, CAROL], 2, "week 1 bonus"))
    assert text == ("💎 <@hosty> granted <@alice>, <@bob>, <@carol> 2 garnets each in "
                    "**Season 1**: week 1 bonus. `/garnets` shows a balance.")
    assert [(e.user_id, e.amount, e.kind) for e in await entries(h)] == [
        ("alice", 2, "grant"), ("bob", 2, "grant"), ("carol", 2, "grant")]
    # One outside the event: nobody is paid.
    assert refused(await eco(h).grant(GUILD, HOSTY, [ALICE, DAVE], 2, "x")) == (
        "<@dave> is not playing in Season 1.")
    assert len(await entries(h)) == 3
