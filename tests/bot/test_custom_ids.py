"""Every button custom_id the bot has ever posted keeps working.

Buttons stay on messages in Discord's channels for months; a press sends back only
the custom_id string written when the message was posted. These tests press buttons
carrying the literal strings of each format (on a message the bot did not just send,
as an old one) and check the effect a player sees; and they check the command the
console shows for each such button. The strings are written out by hand on purpose:
a change of format must fail here, not be followed silently.

Formats:
    garnet:accept:MATCH              garnet:decline:MATCH
    garnet:first:MATCH:USER
    garnet:lb:BY:GAME|-:SCOPE:PAGE   (BY garnets|wins|rating; SCOPE an event number|all|none)
    garnet:ledger:USER:SCOPE:PAGE
    garnet:hist:USER:PAGE            garnet:hist:USER:PAGE:GAME
    garnet:tjoin:TOURNAMENT          garnet:tcheck:TOURNAMENT
    garnet:nominate:EVENT:USER
    garnet:sn:EVENT:ROW              (a select menu of players to nominate; value: USER)
    garnet:draw:MATCH                garnet:rematch:MATCH
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.commands import PRESSABLE
from bot.core import options
from bot.core.buttons import decode
from bot.core.messages import Actor, Button, Choice, Post, Select
from bot.core.requests import Asker
from bot.services.season import DmSettings
from bot.services.tournaments.host import Setup, TournamentSettings
from tests.bot.conftest import Harness, console_for
from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    HOST_ROLE_ID,
)
from tests.discord_bot import World, challenge_accepted, finished_matches, sends
from tests.discord_bot import press_old as press

GUILD = str(GUILD_ID)


def test_the_people_have_the_ids_written_in_the_custom_ids() -> None:
    assert (ALICE.id, BOB.id) == (310000000000000002, 310000000000000003)


# ---- Discord: a press of each format has its effect -----------------------------------


async def test_accept_button(world: World) -> None:
    await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    await world.restart()  # the bot that posted the button is gone
    calls = await press(world, BOB, "garnet:accept:1")
    accepted, board = sends(calls)
    assert accepted.content == f"<@{BOB.id}> accepted Match #1."
    assert board.files and f"<@{ALICE.id}> (Black) to move" in board.content
    assert world.live().id == 1


async def test_decline_button(world: World) -> None:
    await world.slash(ALICE, "challenge", opponent=BOB, game="cairo")
    (declined,) = sends(await press(world, BOB, "garnet:decline:1"))
    assert declined.content == f"<@{BOB.id}> declined Match #1."
    assert world.bot.services.matches.live == {}


async def test_first_player_button(world: World) -> None:
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB)
    (board,) = sends(await press(world, HANA, "garnet:first:1:310000000000000003"))
    assert f"<@{HANA.id}> chose <@{BOB.id}> as the First Player" in board.content
    assert world.live().users == [str(BOB.id), str(ALICE.id)]


async def test_draw_button(world: World) -> None:
    await challenge_accepted(world)
    await world.slash(ALICE, "draw")
    await world.restart()
    (done,) = sends(await press(world, BOB, "garnet:draw:1"))
    assert done.content.startswith("**Match #1 ends in a draw** — the players agreed")
    assert world.bot.services.matches.live == {}


async def test_rematch_button(world: World) -> None:
    await challenge_accepted(world)
    await world.slash(BOB, "resign")
    (challenge,) = sends(await press(world, BOB, "garnet:rematch:1"))
    assert challenge.content.startswith(
        f"**Match #2: Cairo Corridor** — <@{BOB.id}> challenges <@{ALICE.id}>.")
    assert [b["custom_id"] for b in challenge.buttons] == ["garnet:accept:2",
                                                          "garnet:decline:2"]


async def season(world: World, players: int = 12) -> Actor:
    """Event #1 with Alice and ``players - 1`` others, who hold garnets; Alice's
    ledger has 11 entries (two pages)."""
    eco = world.bot.services.economy
    hana = Actor(str(HANA.id), "Hana", roles=frozenset({str(HOST_ROLE_ID)}))
    alice = Actor(str(ALICE.id), "Alice")
    await eco.event_create(GUILD, hana, "Season 1")
    others = [Actor(str(900 + n), f"Player {n:02d}") for n in range(1, players)]
    await eco.event_add(GUILD, hana, [alice, *others])
    for n, person in enumerate(others, start=1):
        await eco.grant(GUILD, hana, person, 50 - n, "start")
    for week in range(1, 12):
        await eco.grant(GUILD, hana, alice, 1, f"week {week}")
    return hana


async def test_leaderboard_button_shows_its_page(world: World) -> None:
    await season(world)
    (page,) = await press(world, ALICE, "garnet:lb:garnets:-:1:2")
    assert page.callback_type == 7  # the message with the button changes
    lines = page.content.splitlines()
    assert lines[0] == "🏆 **Garnets** — **Season 1** (page 2/2, 12 players)"
    # The presser's own line is bold, and their rank is always shown.
    assert lines[1:] == ["11. Player 11 — 39 garnets", "**12. Alice — 11 garnets**",
                         "You: #12 of 12 — 11 garnets"]
    assert [b["custom_id"] for b in page.buttons] == ["garnet:lb:garnets:-:1:1"]


async def test_leaderboard_button_with_a_game_and_a_scope(world: World) -> None:
    await season(world)
    (page,) = await press(world, CAROL, "garnet:lb:wins:cairo:all:1")
    assert page.callback_type == 7
    assert page.content.splitlines()[0].startswith("🏆 **Wins** — overall · Cairo Corridor")
    (page,) = await press(world, CAROL, "garnet:lb:rating:quoridor:none:1")
    assert page.content.splitlines()[0].startswith(
        "🏆 **Rating** — outside events · Quoridor")


async def test_ledger_button_shows_its_page(world: World) -> None:
    await season(world)
    (page,) = await press(world, CAROL, "garnet:ledger:310000000000000002:1:2")
    assert page.callback_type == 7
    lines = page.content.splitlines()
    assert lines[0] == ("**Ledger of Alice** in **Season 1** — balance 11 garnets "
                        "(page 2/2, 11 entries)")
    assert len(lines) == 2 and lines[1].endswith(
        "**+1** host grant — week 1 (by Hana) · balance 1")
    assert [b["custom_id"] for b in page.buttons] == ["garnet:ledger:310000000000000002:1:1"]
    (overall,) = await press(world, CAROL, "garnet:ledger:310000000000000002:all:1")
    assert overall.content.startswith(
        "**Ledger of Alice** across all events — balance 11 garnets (page 1/2, 11 entries)")
    (outside,) = await press(world, CAROL, "garnet:ledger:310000000000000002:none:1")
    assert outside.content == ("**Ledger of Alice** outside events — balance 0 garnets. "
                               "No entries yet.")


async def test_history_buttons_show_their_page(world: World) -> None:
    await finished_matches(world, 12)
    (page,) = await press(world, CAROL, "garnet:hist:310000000000000002:2")
    assert page.callback_type == 7
    assert page.content.startswith("**Alice's matches** — 12 · page 2 of 2, newest first")
    assert page.content.count("`#") == 2
    assert [b["custom_id"] for b in page.buttons] == ["garnet:hist:310000000000000002:1"]
    (game,) = await press(world, CAROL, "garnet:hist:310000000000000002:2:cairo")
    assert game.callback_type == 7
    assert game.content.startswith(
        "**Alice's matches of Cairo Corridor** — 12 · page 2 of 2, newest first")
    assert [b["custom_id"] for b in game.buttons] == [
        "garnet:hist:310000000000000002:1:cairo"]


async def test_tournament_join_and_checkin_buttons(world: World) -> None:
    hana = Actor(str(HANA.id), "Hana", roles=frozenset({str(HOST_ROLE_ID)}))
    await world.bot.services.tournaments.create(
        Asker(GUILD, str(CHANNEL_ID), hana),
        TournamentSettings("Cup", "cairo", "swiss", setup=Setup(checkin=True)))
    (joined,) = sends(await press(world, BOB, "garnet:tjoin:1"))
    assert joined.content == f"✅ <@{BOB.id}> joined **Cup** (1 entered)."
    (checked,) = sends(await press(world, BOB, "garnet:tcheck:1"))
    assert checked.content == f"☑ <@{BOB.id}> checked in for **Cup** (1 of 1)."


async def test_nominate_button_posted_before_the_host_commands_moved(world: World) -> None:
    """The hosts' commands moved under ``/host`` (``/host nomination open``); a
    nomination's button posted before stands for ``/nomination pick``, the
    nominator's command, which stayed where players find it: a press still picks."""
    hana = Actor(str(HANA.id), "Hana", roles=frozenset({str(HOST_ROLE_ID)}))
    alice, bob = Actor(str(ALICE.id), "Alice"), Actor(str(BOB.id), "Bob")
    await world.bot.services.economy.event_create(GUILD, hana, "Season 1")
    await world.bot.services.economy.event_add(GUILD, hana, [alice, bob])
    await world.bot.services.season.nominate(
        Asker(GUILD, str(CHANNEL_ID), hana), alice, "cairo",
        DmSettings({}, options.time_control()))
    await world.restart()  # the bot that posted the button is gone
    calls = sends(await press(world, ALICE, "garnet:nominate:1:310000000000000003"))
    intro = next(c for c in calls if "DM #1: Cairo Corridor" in c.content)
    assert f"<@{ALICE.id}>" in intro.content and f"<@{BOB.id}>" in intro.content


def test_every_button_stands_for_a_players_command() -> None:
    """A button is pressed by players: the command it stands for is one a member is
    shown (never one under ``/host``)."""
    for custom_id in ("garnet:accept:1", "garnet:decline:1", "garnet:first:1:2",
                      "garnet:draw:1", "garnet:rematch:1", "garnet:nominate:1:2",
                      "garnet:tjoin:1", "garnet:tcheck:1", "garnet:lb:garnets:-:all:1",
                      "garnet:ledger:2:all:1", "garnet:hist:2:1", "garnet:sc:1:x",
                      "garnet:sp:1:x:I2:0"):
        call = decode(custom_id)
        assert call is not None, custom_id
        assert not PRESSABLE[call.command].for_hosts, custom_id


# ---- the console: each button is shown as the command it stands for ------------------


@pytest.mark.parametrize(("custom_id", "command"), [
    ("garnet:accept:12", "/accept match:12"),
    ("garnet:decline:12", "/decline match:12"),
    ("garnet:first:12:alice", "/first player:@alice match:12"),
    ("garnet:lb:garnets:-:1:2", "/leaderboard by:garnets event:1 page:2"),
    ("garnet:lb:wins:cairo:all:3", "/leaderboard by:wins game:cairo event:all page:3"),
    ("garnet:lb:rating:quoridor:none:1",
     "/leaderboard by:rating game:quoridor event:none page:1"),
    ("garnet:ledger:alice:1:2", "/ledger player:@alice event:1 page:2"),
    ("garnet:ledger:alice:all:1", "/ledger player:@alice event:all page:1"),
    ("garnet:ledger:alice:none:3", "/ledger player:@alice event:none page:3"),
    ("garnet:hist:alice:2", "/history player:@alice page:2"),
    ("garnet:hist:alice:2:cairo", "/history player:@alice page:2 game:cairo"),
    ("garnet:tjoin:3", "/tournament join tournament:3"),
    ("garnet:tcheck:3", "/tournament checkin tournament:3"),
    ("garnet:nominate:2:alice", "/nomination pick opponent:@alice event:2"),
    ("garnet:draw:12", "/draw match:12"),
    ("garnet:rematch:12", "/rematch match:12"),
])
async def test_console_shows_the_command_of_a_button(h: Harness, tmp_path: Path,
                                                     custom_id: str, command: str) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path, out)
    await console.show(Post("A message", buttons=(Button("Press", custom_id),)))
    assert out.getvalue() == f"bot: A message\n     [Press: {command}]\n"


async def test_console_shows_several_buttons_in_one_line(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path, out)
    await console.show(Post("Match #3", buttons=(Button("Accept", "garnet:accept:3", "success"),
                                                 Button("Decline", "garnet:decline:3",
                                                        "danger"))))
    assert out.getvalue().splitlines()[-1] == (
        "     [Accept: /accept match:3] [Decline: /decline match:3]")


async def test_console_shows_the_command_of_a_nomination_menu(h: Harness,
                                                              tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path, out)
    await console.show(Post("Pick", selects=(Select(
        "garnet:sn:2:1", "Pick your opponent (26–27 of 27)",
        (Choice("Alice", "alice"), Choice("Bob", "bob"))),)))
    assert out.getvalue().splitlines()[-1] == (
        "     [Pick your opponent (26–27 of 27): /nomination pick event:2 "
        "opponent:@alice | @bob]")


# ---- A control no version of garnet can read: said so, privately --------------------


async def test_a_button_and_a_menu_no_version_reads_say_they_do_nothing(world: World) -> None:
    """Ids of garnet's shape (matched by the persistent items' templates) that decode to
    no command, such as a control from a version whose format is gone: the one who
    pressed is told, in ``texts.input.control_gone``'s sentence, and nothing else
    happens."""
    from bot.texts.input import control_gone
    from tests.bot.discord_fake import select_menu

    button, menu = "garnet:gone:1", "garnet:sc:not-a-number:x"
    assert decode(button) is None and decode(menu) is None
    (said,) = sends(await press(world, BOB, button))
    assert said.ephemeral and said.content == control_gone("button")
    message = world.fake.message_payload(CHANNEL_ID, {
        "content": "an old board", "components": [{"type": 1, "components": [
            {"type": 3, "custom_id": menu, "options": [{"label": "I2", "value": "I2"}]}]}]})
    calls = await world._feed(lambda: world.state.parse_interaction_create(
        select_menu(world.fake, BOB, message, menu, "I2")))
    (said,) = sends(calls)
    assert said.ephemeral and said.content == control_gone("menu")
    assert world.bot.services.matches.live == {}
