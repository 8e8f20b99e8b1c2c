"""/matches: the server's matches being played and waiting to start, at a glance."""

from __future__ import annotations

import io
from pathlib import Path

from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup
from tests.bot.conftest import ALICE, CAROL, DAVE, GUILD, HOSTY, Harness, console_for


async def test_matches_lists_running_and_waiting_ones_with_turn_and_clock(h: Harness) -> None:
    empty = await h.host.viewing.overview(GUILD)
    assert empty.reply is not None and empty.reply.text == (
        "No match is being played or waiting to start on this server.")
    await h.casual(first="me")
    await h.clock.advance(20)
    await h.play(ALICE, "D left")
    await h.clock.advance(75)
    r = await h.host.choosing.start_dm(Asker(GUILD, "c2", HOSTY),
                              DMSetup("cairo", [CAROL, DAVE], chooser="carol"))
    assert r.posts
    await h.host.lobby.challenge(Asker(GUILD, "c3", DAVE), "pathwayz", [ALICE],
                                 tc=TimeControl.off())
    await h.clock.advance(60)
    r = await h.host.viewing.overview(GUILD)
    assert r.reply is not None and r.reply.ephemeral
    assert r.reply.text.splitlines() == [
        "**Matches on this server** — 1 being played, 2 waiting to start",
        "`Match #1` Cairo Corridor in <#c1> — Alice vs Bob · after move 1 · Bob to move (on "
        "reserve, 1:45 left)",
        "`DM #2` Cairo Corridor in <#c2> — Carol vs Dave · waiting for Carol to choose the "
        "First Player (59 minutes left)",
        "`Match #3` Pathwayz in <#c3> — Dave challenges Alice · waiting for Alice (lapses "
        "in 14 minutes)",
    ]
    # Another server sees none of them.
    other = await h.host.viewing.overview("g2")
    assert other.reply is not None and other.reply.text.startswith("No match")


async def test_matches_in_the_console_shows_channels_by_name(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line("alice: /challenge @bob game:cairo")
    await console.handle_line("carol: /matches")
    assert out.getvalue().splitlines()[-1] == (
        "     `Match #1` Cairo Corridor in #console — alice challenges bob · waiting for bob "
        "(lapses in 15 minutes)")
