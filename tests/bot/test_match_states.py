"""A match that is not being played says what it is doing (issue 36, items 3 and 5): a
start whose first board could not be drawn is told, tried again by itself (bounded,
across a restart) and then handed to its host; every move and command meanwhile hears
what the match waits for; a host's control names the state it met."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import VirtualClock
from bot.core.enums import MatchStatus
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.services.matches import DMSetup
from bot.services.matches.kit import START_RETRIES
from bot.services.tournaments.host import TournamentSettings
from bot.store.db import open_database
from bot.store.models import Match
from tests.bot.conftest import (
    ALICE,
    BOB,
    CHAN,
    GUILD,
    HOST_ROLE,
    HOSTY,
    Harness,
    asking,
    console_for,
)
from tests.fixtures import bot_process
from tests.render_faults import overloaded
from tests.tournament_world import HOST as T_HOST
from tests.tournament_world import PEOPLE, TournamentWorld

HOST = Asker(GUILD, CHAN, HOSTY)


async def _dm_by_lots(h: Harness) -> list[str]:
    """A DM whose First Player is drawn at once: what it posted."""
    made = await h.host.choosing.start_dm(HOST, DMSetup("cairo", [ALICE, BOB], chooser="lots"))
    return [p.text for p in made.posts]


async def test_a_start_that_fails_says_so_and_is_tried_again(h: Harness) -> None:
    overloaded(h.services.matches, 1)
    (told,) = [t for t in await _dm_by_lots(h) if "could not begin" in t]
    assert told.startswith("Lots were drawn: <@")  # how the First Player was chosen
    assert "its first board could not be drawn in time" in told
    assert "try 2 of 4" in told
    # Meanwhile a move, a resignation and a host's control hear what the DM waits for.
    for said in (await h.play(ALICE, "D left"), await h.play(BOB, "D left"),
                 await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None),
                 await h.host.controls.pause(HOST, None, "")):
        assert said.reply is not None and said.reply.ephemeral
        assert said.reply.text.startswith("DM #1 has not begun: its first board could not "
                                          "be drawn in time. garnet tries again"), said
    assert (await h.play(ALICE, "good luck")).reply is None  # chat stays chat
    await h.clock.advance(START_RETRIES[0])
    assert "**DM #1 begins: Cairo Corridor**" in h.texts()[-1]
    live = h.services.matches.live[1]
    moved = await h.play(ALICE if live.users[0] == "alice" else BOB, "D left")
    assert "move 1" in moved.posts[0].text


async def test_a_start_given_up_hands_the_dm_to_its_host(h: Harness) -> None:
    refused = overloaded(h.services.matches, 99)
    await _dm_by_lots(h)
    for wait in START_RETRIES:
        await h.clock.advance(wait)
    assert refused[0] == 4
    last = h.delivered[-1]
    assert last.text.startswith("⚠ <@hosty>: DM #1 could not begin: its first board could "
                                "not be drawn in 4 tries."), last.text
    assert "`/first player:@name match:1`" in last.text and "`/void match:1" in last.text
    assert last.pinged() == ("hosty",)
    await h.clock.advance(3600)  # nothing more by itself
    assert h.delivered[-1] is last and refused[0] == 4
    said = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    assert "could not be drawn in 4 tries. A host can start it again" in said.reply.text
    # A player may not choose anew; a host may, and starts it.
    mine = await h.host.choosing.choose_first(Asker(GUILD, CHAN, ALICE), 1, "alice")
    assert mine.reply.ephemeral and "has not begun" in mine.reply.text
    refused[0] = 99  # the renderer keeps up again
    started = await h.host.choosing.choose_first(HOST, 1, "bob")
    assert "**DM #1 begins" in started.posts[0].text
    assert h.services.matches.live[1].users == ["bob", "alice"]


async def test_a_challenge_whose_start_is_given_up_is_void(h: Harness) -> None:
    overloaded(h.services.matches, 99)
    challenge = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    number = int(re.search(r"#(\d+)", challenge.reply.text).group(1))  # type: ignore[union-attr]
    accepted = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), number, accept=True)
    assert any("could not begin" in p.text for p in accepted.posts)
    for wait in START_RETRIES:
        await h.clock.advance(wait)
    assert h.texts()[-1].startswith("⚠ Match #1 could not begin: its first board could not "
                                    "be drawn in 4 tries, so it is void.")
    async with h.db.session() as s:
        match = await s.get(Match, 1)
        assert match is not None and match.status == MatchStatus.VOIDED
    # The players are free to play again.
    again = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    assert "challenges" in again.reply.text


async def test_a_start_tried_again_survives_a_restart(database_url: str) -> None:
    db1 = await open_database(database_url)
    clock1 = VirtualClock()
    host1 = asking(bot_process(db1, clock1))
    await host1.start()
    await host1.roles.adopt(GUILD, [HOST_ROLE])
    overloaded(host1.matches, 1)
    await host1.choosing.start_dm(HOST, DMSetup("cairo", [ALICE, BOB], chooser="lots"))
    await host1.stop()
    await db1.close()
    db2 = await open_database(database_url)
    clock2 = VirtualClock(start=clock1.now() + 5)
    said: list[str] = []

    async def deliver(post: Any) -> None:
        said.append(post.text)

    host2 = asking(bot_process(db2, clock2, deliver=deliver))
    await host2.start()
    try:
        moved = await host2.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
        assert moved.reply.text.startswith("DM #1 has not begun: its first board")
        await clock2.advance(START_RETRIES[0])
        assert any("**DM #1 begins" in t for t in said), said
        assert 1 in host2.live
    finally:
        await host2.stop()
        await db2.close()


# ---- item 5: every state a host's control can meet --------------------------------------


@pytest.mark.parametrize("control", ["pause", "extend", "takeback", "resume", "time"])
async def test_controls_during_the_first_player_prompt(h: Harness, control: str) -> None:
    await h.host.choosing.start_dm(HOST, DMSetup("cairo", [ALICE, BOB], chooser="alice"))
    asked = {"pause": lambda: h.host.controls.pause(HOST, None, ""),
             "extend": lambda: h.host.controls.extend(HOST, None, 30),
             "takeback": lambda: h.host.corrections.take_back(HOST, None, "oops"),
             "resume": lambda: h.host.controls.resume(HOST, None),
             "time": lambda: h.host.viewing.time(HOST, None)}[control]
    said = (await asked()).reply.text
    assert said.startswith("DM #1 has not begun: it waits for Alice to choose the First "
                           "Player (the choice closes <t:"), said
    assert said.endswith("Choose with `/first player:@name match:1`, or cancel it with "
                         "`/void match:1 reason:…`."), said
    by_number = (await h.host.controls.pause(HOST, 1, "")).reply.text
    assert by_number == said


async def test_controls_of_a_paused_a_running_and_a_finished_match(h: Harness) -> None:
    await h.casual()
    await h.host.controls.pause(HOST, None, "tea")
    assert (await h.host.controls.pause(HOST, None, "")).reply.text == (
        "Match #1 is paused already; `/resume` starts its clock again.")
    await h.host.controls.resume(HOST, None)
    assert (await h.host.controls.resume(HOST, None)).reply.text == (
        "Match #1 is being played, not paused; `/pause` stops its clock.")
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    for said in ((await h.host.controls.pause(HOST, 1, "")).reply.text,
                 (await h.host.controls.extend(HOST, 1, 30)).reply.text,
                 (await h.host.corrections.take_back(HOST, 1, "late")).reply.text):
        assert said == ("Match #1 is over: `/match id:1` shows how it ended. A host "
                        "changes its result with `/correct match:1`."), said
    player = (await h.host.play.resign(Asker(GUILD, CHAN, ALICE), 1)).reply.text
    assert player == "Match #1 is over: `/match id:1` shows how it ended."


async def test_a_challenge_not_yet_accepted(h: Harness) -> None:
    await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    said = (await h.host.controls.pause(HOST, 1, "")).reply.text
    assert said == "Match #1 has not begun: it waits for Bob to accept the challenge."


# ---- item 11: `/void` of a match whose channel was deleted, in the console ---------------


async def test_console_void_of_a_match_whose_channel_was_deleted(h: Harness,
                                                                 tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("~ channel dm1", "host: /dm game:cairo player1:@alice player2:@bob "
                 "chooser:lots", "~ channel dm2", "host: /dm game:cairo player1:@carol "
                 "player2:@dave chooser:host", "~ channel general", "~ delete #dm1",
                 "~ delete #dm2"):
        await console.handle_line(line)
    start = len(out.getvalue())
    for line in ("host: /void match:1 reason:gone", "host: /void match:2 reason:gone",
                 "host: /first player:@carol match:2"):
        await console.handle_line(line)
    assert out.getvalue()[start:].splitlines() == [
        "console: garnet cannot post in #dm1",
        "bot (to host only): garnet could not post in #dm1 (deleted, or garnet may not "
        "post there). It would have said:",
        "     🚫 DM #1 is void (gone). No result is recorded.",
        "console: garnet cannot post in #dm2",
        "bot (to host only): garnet could not post in #dm2 (deleted, or garnet may not "
        "post there). It would have said:",
        "     🚫 DM #2 is void (gone). No result is recorded.",
        "bot (to host only): DM #2 is over: it was voided."]


async def test_controls_of_a_tournament_board_waiting_for_its_first_player(
        tournament_world: TournamentWorld) -> None:
    w = tournament_world
    texts = await w.ask("create", Asker(GUILD, CHAN, T_HOST),
                        TournamentSettings("Weekly", "cairo", "swiss", rounds=1,
                                           first="chooses"))
    assert "opened" in texts[0], texts
    await w.ask("add", Asker(GUILD, CHAN, T_HOST), PEOPLE)
    await w.ask("start", Asker(GUILD, CHAN, T_HOST))
    matches = w.services.matches
    said = (await answered(lambda: matches.controls.pause(Asker(GUILD, CHAN, T_HOST), 1, ""))).reply
    assert said is not None and said.text.startswith("Match #1 has not begun: it waits for ")
    assert "to choose the First Player." in said.text
    assert "Choose with `/first player:@name match:1`" in said.text


async def test_a_player_asking_for_the_board_before_the_dm_begins(h: Harness) -> None:
    await h.host.choosing.start_dm(HOST, DMSetup("cairo", [ALICE, BOB], chooser="alice"))
    for number in (None, 1):
        said = (await h.host.viewing.board(Asker(GUILD, CHAN, BOB), number)).reply.text
        assert said.startswith("DM #1 has not begun: it waits for Alice to choose the First "
                               "Player"), said
        assert "/void" not in said  # what hosts do is said to hosts
    moved = await h.play(BOB, "D left")
    assert moved.reply.text.startswith("DM #1 has not begun: it waits for Alice")
    assert (await h.play(BOB, "hi all")).reply is None


async def test_console_a_start_that_fails(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    overloaded(h.services.matches, 1)
    for line in ("host: /dm game:cairo player1:@alice player2:@bob chooser:host",
                 "host: /first player:@alice", "alice: D left", "bob: /resign"):
        await console.handle_line(line)
    said = out.getvalue().splitlines()
    assert "bot: @host chose @alice as the First Player." in said
    (failed,) = [line for line in said if "could not begin" in line]
    assert failed.startswith("     ⚠ DM #1 could not begin: its first board could not be "
                             "drawn in time (garnet is busy). It tries again in 30 s (try 2 of 4)")
    assert said[-2].startswith("bot (to alice only): DM #1 has not begun: its first board")
    assert said[-1].startswith("bot (to bob only): DM #1 has not begun: its first board")
    await console.handle_line("~ wait 30s")
    assert "**DM #1 begins: Cairo Corridor**" in out.getvalue().splitlines()[-4]


# ---- item 4: a tournament's board waits while its player plays elsewhere, in the console --


async def test_console_a_board_waits_for_a_player_in_a_dm_elsewhere(h: Harness,
                                                                    tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("~ channel dm",
                 "host: /dm game:cairo player1:@ann player2:@erin chooser:lots turn:3600",
                 "~ channel general",
                 "host: /host tournament create name:Weekly game:cairo format:swiss rounds:1",
                 "ann: /tournament join", "ben: /tournament join", "cat: /tournament join",
                 "dan: /tournament join", "host: /host tournament start"):
        await console.handle_line(line)
    assert ("bot: Board 1 waits: @ann is still playing match #1 in #dm; it starts as soon "
            "as that match ends.") in out.getvalue().splitlines()
    await console.handle_line("~ wait 700s")  # past the window: ann's board has none yet
    await console.handle_line("~ channel dm")
    start = len(out.getvalue())
    await console.handle_line("ann: /resign")
    after = out.getvalue()[start:]
    assert "bot [#general]: 🏆 Weekly · round 1 · board 1" in after
    assert "Each player has 10 minutes from now to make their first move" in after
    assert "**Match #3 begins: Cairo Corridor** — @ann (Black) vs @cat (Red)" in after
