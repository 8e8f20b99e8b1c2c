"""Setting a Death Match up: what the DM format forbids, and the event it counts for."""

from __future__ import annotations

import io
from pathlib import Path

from sqlalchemy import func, select

from bot.core.requests import Asker
from bot.services.matches import DMSetup
from bot.store.models import Match
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness, console_for
from tests.bot.economy_helpers import make_event


async def test_a_dm_refuses_hints(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots",
                              hints=True))
    assert r.reply is not None and r.reply.ephemeral and not r.posts
    assert "without hints" in r.reply.text
    async with h.db.session() as s:
        assert await s.scalar(select(func.count()).select_from(Match)) == 0
    # Casual matches keep them.
    match_id = await h.casual(hints=True)
    assert h.host.live[next(iter(h.host.live))].hints and match_id == 1


async def test_a_dm_between_an_event_player_and_an_outsider_asks_which(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, CAROL], chooser="lots"))
    assert r.reply is not None and r.reply.ephemeral and not r.posts
    assert r.reply.text == ("<@alice> plays in Season 1 but <@carol> does not: add <@carol> "
                            "with `/host event add` and start the DM again, or start it with "
                            "`event:none` to play it outside the event.")
    # Outside the event, on purpose: no reward of the event's, no word of it.
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, CAROL], chooser="lots",
                              event="none"))
    assert r.posts and "Event:" not in r.posts[0].text
    # Two outsiders play outside events without a word.
    r = await h.host.choosing.start_dm(Asker(GUILD, "c2", HOSTY),
                              DMSetup("cairo", [CAROL, DAVE], chooser="lots"))
    assert r.posts and "Event:" not in r.posts[0].text


async def test_players_of_several_open_events_name_one(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    await make_event(h, "Cup", [ALICE, BOB])
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots"))
    assert r.reply is not None and r.reply.text == (
        "These players are in several open events (Season 1, Cup): say which this DM "
        "counts for with `event:`, or `event:none` for none.")
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots",
                              event="Cup"))
    assert r.posts and "Event: **Cup**" in r.posts[0].text


async def test_a_nomination_refuses_hints_when_it_is_opened(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("host: /host event create name:Season 1",
                 "host: /host event add @alice @bob",
                 "host: /host nomination open nominator:@alice game:cairo hints:yes"):
        await console.handle_line(line)
    assert out.getvalue().splitlines()[-1].startswith(
        "bot (to host only): A Death Match is played without hints")
