"""Quoridor (2 and 4 players) and Pathwayz through the same host and clocks."""

from __future__ import annotations

import re

from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, Harness


async def test_four_player_quoridor_needs_every_acceptance_and_eliminates_on_time(
        h: Harness) -> None:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "quoridor", [BOB, CAROL, DAVE],
                               first="me",
                               tc=TimeControl.build(turn=30, banks=0, reminders="off"))
    assert r.reply is not None and "challenges <@bob>, <@carol>, <@dave>" in r.reply.text
    match_id = int(re.search(r"#(\d+)", r.reply.text).group(1))  # type: ignore[union-attr]
    r = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), match_id, accept=True)
    assert r.reply and "Waiting for <@carol>, <@dave>" in r.reply.text and not r.posts
    r = await h.host.lobby.answer(Asker(GUILD, CHAN, CAROL), match_id, accept=True)
    assert not r.posts
    r = await h.host.lobby.answer(Asker(GUILD, CHAN, DAVE), match_id, accept=True)
    board = r.posts[0]
    assert board.image is not None
    assert "<@alice> (White) vs <@bob> (Red) vs <@carol> (Black) vs <@dave> (Blue)" in board.text
    assert "Turn order: Alice → Bob → Carol → Dave" in board.text

    assert (await h.play(ALICE, "e2")).posts
    assert (await h.play(BOB, "b5")).posts
    r = await h.play(DAVE, "h5")
    assert r.reply and "Carol's turn" in r.reply.text
    # Carol lets her clock run out: she leaves, the others play on.
    await h.clock.advance(32.1)  # the turn, then the lag allowance
    out = h.delivered[-1]
    assert "<@carol> ran out of time. They are out of the game." in out.text
    assert "<@dave> (Blue) to move" in out.text
    assert (await h.play(DAVE, "h5")).posts
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    assert "<@bob> resigned" in r.posts[0].text and "out of the game" in r.posts[0].text
    r = await h.host.play.resign(Asker(GUILD, CHAN, DAVE), None)
    assert "🏆 **<@alice> wins Match #1**" in r.posts[0].text


async def test_quoridor_dm_rejects_an_illegal_wall_precisely(h: Harness) -> None:
    await h.casual(game="quoridor", first="me")
    assert (await h.play(ALICE, "e3h")).posts
    r = await h.play(BOB, "d3h")
    assert r.reply and "overlaps the wall e3h" in r.reply.text


async def test_pathwayz_plays_through_the_host(h: Harness) -> None:
    await h.casual(game="pathwayz", first="me")
    r = await h.play(ALICE, "c5")
    assert "played **c5**" in r.posts[0].text
    r = await h.play(BOB, "perm d5")
    assert "played **d5***" in r.posts[0].text
    r = await h.play(ALICE, "c5")
    assert r.reply and "occupied" in r.reply.text
