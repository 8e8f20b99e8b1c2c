"""Tournaments and the season's Death Match flow on Discord: discord.py's real command
tree and buttons, Discord faked at the HTTP boundary (see discord_fake)."""

from __future__ import annotations

from typing import Any

from bot.core.messages import Actor
from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CAROL,
    GUILD_ID,
    HANA,
    HOST_ROLE_ID,
    Call,
    Person,
    select_menu,
)
from tests.discord_bot import World, press_old, sends, sub

PNG = b"\x89PNG\r\n\x1a\n"


async def choose(world: World, person: Person, message: dict[str, Any], custom_id: str,
                 value: str) -> list[Call]:
    return await world._feed(lambda: world.state.parse_interaction_create(
        select_menu(world.fake, person, message, custom_id, value)))


async def test_a_tournament_from_the_join_button_to_the_final_image(world: World) -> None:
    (made,) = sends(await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo",
                        format="swiss", rounds=1, prizes="4"))
    assert not made.ephemeral and "opened **Cup** (tournament #1)" in made.content
    assert [(b["label"], b["custom_id"]) for b in made.buttons] == [
        ("Join", "garnet:tjoin:1")]
    (joined,) = sends(await world.press(ALICE, made.sent, "garnet:tjoin:1"))
    assert f"<@{ALICE.id}> joined **Cup** (1 entered)" in joined.content
    # The Join button stays for the others; a second press is refused privately.
    assert not [c for c in world.fake.calls[-3:]
                if c.method == "PATCH" and c.body.get("components") == []]
    (again,) = sends(await world.press(ALICE, made.sent, "garnet:tjoin:1"))
    assert again.ephemeral and "has already entered Cup" in again.content
    await sub(world, BOB, "tournament", "join")
    (refused,) = sends(await sub(world, ALICE, "host tournament", "start"))
    assert refused.ephemeral and "Only hosts" in refused.content
    calls = sends(await sub(world, HANA, "host tournament", "start"))
    begins, pairings, board = calls[-3:]
    assert "**Cup** (tournament #1) begins with 2 players" in begins.content
    assert pairings.content.startswith("**Cup — round 1 of 1**")
    # The pairings ping nobody; the match's own post pings its two players.
    assert pairings.message["allowed_mentions"]["users"] == []
    assert sorted(board.message["allowed_mentions"]["users"]) == sorted([ALICE.id, BOB.id])
    assert board.files and board.files[0][1].startswith(PNG)
    first = world.live().users[0]
    loser = ALICE if first == str(ALICE.id) else BOB
    winner = BOB if loser is ALICE else ALICE
    posts = sends(await world.slash(loser, "resign"))
    texts = [c.content for c in posts]
    assert any("wins Match #1" in t for t in texts)
    final = next(c for c in posts if "**Cup is over" in c.content)
    assert f"<@{winner.id}> wins!" in final.content
    assert f"<@{winner.id}> 4 garnets" in final.content
    assert final.files and final.files[0][0] == "tournament-1-round-1.png"
    assert final.files[0][1].startswith(PNG)
    (standings,) = sends(await sub(world, CAROL, "tournament", "standings"))
    assert standings.ephemeral and standings.files
    assert "final standings" in standings.content


async def test_a_nomination_by_button(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    for person in (ALICE, BOB, CAROL):
        await sub(world, HANA, "host event", "add", player=person)
    (token,) = sends(await sub(world, HANA, "host token", "grant", player=BOB,
                               reason="won the main match"))
    assert f"gave <@{BOB.id}> a Token of Life" in token.content
    assert token.message["allowed_mentions"]["users"] == [BOB.id]
    (asked,) = sends(await sub(world, HANA, "host nomination", "open", nominator=ALICE,
                               game="cairo"))
    assert f"Protected by a Token of Life: <@{BOB.id}>" in asked.content
    assert [b["custom_id"] for b in asked.buttons] == [f"garnet:nominate:1:{CAROL.id}"]
    # A button of an older post naming Bob: he holds a token now.
    (refused,) = sends(await press_old(world, ALICE, f"garnet:nominate:1:{BOB.id}"))
    assert refused.ephemeral and "holds a Token of Life" in refused.content
    (other,) = sends(await world.press(CAROL, asked.sent, f"garnet:nominate:1:{CAROL.id}"))
    assert other.ephemeral and f"Only <@{ALICE.id}> (or a host)" in other.content
    calls = sends(await world.press(ALICE, asked.sent, f"garnet:nominate:1:{CAROL.id}"))
    intro = next(c for c in calls if "DM #1: Cairo Corridor" in c.content)
    # Priority (Alice 1, Carol 3) chooses, as /dm does; the names are kept, not the ids.
    assert f"<@{ALICE.id}> has the higher priority (1 vs 3)" in intro.content
    assert [b["label"] for b in intro.buttons] == ["Alice goes first", "Carol goes first"]
    (board,) = sends(await world.press(ALICE, intro.sent, f"garnet:first:1:{CAROL.id}"))
    assert f"<@{CAROL.id}> (Black)" in board.content
    result = sends(await world.slash(CAROL, "resign"))
    assert f"<@{CAROL.id}> is eliminated from **Season 1**" in result[0].content
    (info,) = sends(await sub(world, BOB, "event", "info"))
    assert "3. Carol — 0 garnets · 💀 eliminated (DM #1)" in info.content
    assert "Bob — 0 garnets · 🛡 1 Token of Life" in info.content


async def test_a_nomination_among_38_players_by_menu(world: World) -> None:
    """More players than a message's buttons hold: the nominator picks in select menus
    of 25 (in priority order), and a name chosen starts the Death Match."""
    await sub(world, HANA, "host event", "create", name="Season 1")
    others = [Actor(str(320_000_000_000_000_000 + i), f"P{i:02}") for i in range(1, 39)]
    host = Actor(str(HANA.id), "Hana", roles=frozenset({str(HOST_ROLE_ID)}))
    await world.bot.services.economy.event_add(str(GUILD_ID), host,
                                               [Actor(str(ALICE.id), "Alice"), *others])
    (asked,) = sends(await sub(world, HANA, "host nomination", "open", nominator=ALICE,
                               game="cairo"))
    assert "choose a name in the menu or use `/nomination pick" in asked.content
    menus = [c for c in asked.buttons if c.get("type") == 3]
    assert [m["custom_id"] for m in menus] == ["garnet:sn:1:0", "garnet:sn:1:1"]
    assert [m["placeholder"] for m in menus] == [
        "Pick your opponent (1–25 of 38, by priority)",
        "Pick your opponent (26–38 of 38, by priority)"]
    offered = [(o["label"], o["value"]) for m in menus for o in m["options"]]
    assert offered == [(p.name, p.id) for p in others]
    # Only the nominator (or a host) may choose.
    (refused,) = sends(await choose(world, CAROL, asked.sent, "garnet:sn:1:1", others[29].id))
    assert refused.ephemeral and f"Only <@{ALICE.id}> (or a host)" in refused.content
    calls = sends(await choose(world, ALICE, asked.sent, "garnet:sn:1:1", others[29].id))
    intro = next(c for c in calls if "DM #1: Cairo Corridor" in c.content)
    assert f"<@{others[29].id}>" in intro.content
async def test_a_no_show_on_discord_is_forfeited_and_announced(world: World) -> None:
    await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo",
              format="swiss", rounds=1, settings="showup=1")
    await sub(world, HANA, "host tournament", "add", player=ALICE)
    await sub(world, HANA, "host tournament", "add", player=BOB)
    started = [c.content for c in sends(await sub(world, HANA, "host tournament", "start"))]
    assert any("Each player has 1 minute from now to make their first move" in t
               for t in started)
    absent = world.live().users[0]
    assert [c for c in sends(await world.advance(59)) if "did not make" in c.content] == []
    texts = [c.content for c in sends(await world.advance(2))]
    assert any(f"<@{absent}> did not make their first move within 1 minute" in t
               for t in texts), texts
    assert any("**Cup is over" in t for t in texts)
    assert world.bot.services.matches.live == {}


async def test_a_second_player_who_never_answers_on_discord_is_forfeited(
        world: World) -> None:
    """The window counts from the pairing's start for both players: the second player's
    clock does not run in it, and at its end they forfeit, withdrawn, never rated."""
    await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo",
              format="swiss", rounds=1, settings="showup=1", turn=10, banks=0)
    await sub(world, HANA, "host tournament", "add", player=ALICE)
    await sub(world, HANA, "host tournament", "add", player=BOB)
    await sub(world, HANA, "host tournament", "start")
    first, absent = world.live().users
    mover = ALICE if first == str(ALICE.id) else BOB
    await world.advance(20)
    calls, _ = await world.say(mover, "D left")
    assert any("played **DL**" in c.content for c in sends(calls))
    # 10 s a turn: the second player's clock would have run out long before.
    assert [c for c in sends(await world.advance(39)) if "did not make" in c.content
            or "ran out of time" in c.content] == []
    texts = [c.content for c in sends(await world.advance(2))]
    assert any(f"<@{absent}> did not make their first move within 1 minute" in t
               and f"<@{first}> wins by forfeit; <@{absent}> is withdrawn" in t
               for t in texts), texts
    assert not any("ran out of time" in t or "Ratings" in t for t in texts)
    assert any("**Cup is over" in t for t in texts)
    assert world.bot.services.matches.live == {}


async def test_a_finished_tournament_corrected_on_discord(world: World) -> None:
    """After the end a host corrects the result: the final standings again (with their
    image), the prizes reversed and booked again, pinging whose garnets changed; the same
    correction again is refused privately."""
    await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo",
              format="swiss", rounds=1, prizes="4")
    await sub(world, ALICE, "tournament", "join")
    await sub(world, BOB, "tournament", "join")
    await sub(world, HANA, "host tournament", "start")
    first = world.live().users[0]
    loser, winner = (ALICE, BOB) if first == str(ALICE.id) else (BOB, ALICE)
    await world.slash(loser, "resign")
    # Board 1 lists the First Player first: the winner won 0-1; corrected to 1-0.
    (fixed,) = sends(await sub(world, HANA, "host tournament", "adjudicate", board=1,
                               result="1-0", reason="the other way round"))
    assert not fixed.ephemeral
    assert "corrected **Cup** after its end: round 1, board 1 is now" in fixed.content
    assert (f"Prizes booked again: <@{winner.id}> 4 → 0 garnets, <@{loser.id}> 0 → 4 "
            "garnets.") in fixed.content
    assert sorted(fixed.message["allowed_mentions"]["users"]) == sorted([ALICE.id, BOB.id])
    assert fixed.files and fixed.files[0][1].startswith(PNG)
    (again,) = sends(await sub(world, HANA, "host tournament", "adjudicate", board=1,
                               result="1-0"))
    assert again.ephemeral and "is already 1-0: nothing to correct" in again.content


async def test_rarely_used_settings_are_typed_in_one_option(world: World) -> None:
    """``/host tournament create`` keeps within a tenth of Discord's 25 options by
    folding what few tournaments set into ``settings:`` (name=value pairs), each read
    and bounded by its own declaration."""
    (refused,) = sends(await sub(world, HANA, "host tournament", "create", name="Cup",
                                 game="cairo", format="swiss", settings="deadline=3"))
    assert refused.ephemeral and "`deadline` is" in refused.content and "3" in refused.content
    (refused,) = sends(await sub(world, HANA, "host tournament", "create", name="Cup",
                                 game="cairo", format="swiss", settings="colour=red"))
    assert refused.ephemeral and "`settings:` takes name=value pairs of deadline, noshow, " \
        "showup, checkin, auto, double, thirdplace" in refused.content
    (made,) = sends(await sub(world, HANA, "host tournament", "create", name="Cup",
                              game="cairo", format="roundrobin",
                              settings="deadline=30, noshow=double checkin=yes double=yes"))
    assert not made.ephemeral
    assert "Round robin (twice)" in made.content
    assert "each round has 30 minutes; then an unplayed pairing is lost by both" in made.content
    assert "players check in before the start" in made.content
