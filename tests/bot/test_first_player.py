"""A Death Match waiting for its First Player: a host may void or decide it, it has a
deadline (with a reminder, then the host's rule, announced), it survives a restart,
and it blocks nobody."""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import select

from bot.core.clock import VirtualClock
from bot.core.escape import unescape
from bot.core.messages import Post
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup
from bot.store.db import open_database
from bot.store.models import HostAction, LedgerEntry, Match, RatingChange
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOST_ROLE, HOSTY, Harness
from tests.fixtures import bot_process


async def waiting_dm(h: Harness, players: tuple = (ALICE, BOB), channel: str = CHAN,
                     **kw: object) -> int:
    r = await h.host.choosing.start_dm(Asker(GUILD, channel, HOSTY),
                              DMSetup("cairo", list(players), chooser="host",
                              **kw))  # type: ignore[arg-type]
    assert r.posts and "choose the First Player" in r.posts[0].text, r
    async with h.db.session() as s:
        return int(await s.scalar(select(Match.number).order_by(Match.id.desc()).limit(1)))


async def stored(h: Harness, number: int) -> Match:
    async with h.db.session() as s:
        match = await s.scalar(select(Match).where(Match.number == number))
        assert match is not None
        return match


async def test_a_waiting_dm_can_be_voided(h: Harness) -> None:
    number = await waiting_dm(h)
    r = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), None, "players unavailable")
    assert r.reply is not None and not r.reply.ephemeral
    assert r.reply.text == "🚫 DM #1 is void (players unavailable). No result is recorded."
    match = await stored(h, number)
    assert (match.status, match.end_reason) == ("voided", "void")
    async with h.db.session() as s:
        log = (await s.scalars(select(HostAction))).all()
    assert [(a.action, a.detail) for a in log] == [("void", "players unavailable")]
    # Its deadline passes without a word, and its players are free.
    await h.clock.advance(3 * 3600)
    assert h.delivered == []
    assert (await h.host.choosing.choose_first(Asker(GUILD, CHAN, HOSTY), number,
                                               "alice")).reply.ephemeral


async def test_a_waiting_dm_can_be_decided_without_a_rating(h: Harness) -> None:
    number = await waiting_dm(h)
    r = await h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), number, "bob",
                                         "alice never came")
    (post,) = r.posts
    assert unescape(post.text).startswith("🏆 **<@bob> wins DM #1** — adjudicated by the "
                                          "host: alice never came. <@bob> receives 3 garnets.")
    assert "Ratings" not in post.text
    match = await stored(h, number)
    assert (match.status, match.end_reason, match.winner_seat) == ("finished", "adjudicated", 1)
    assert sorted((p.user_id, p.seat) for p in match.players) == [("alice", 0), ("bob", 1)]
    async with h.db.session() as s:
        paid = [(e.user_id, e.amount) for e in (await s.scalars(select(LedgerEntry))).all()]
        rated = (await s.scalars(select(RatingChange))).all()
    assert paid == [("bob", 3)] and rated == []
    refused = await h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), number, "alice", "again")
    assert refused.reply is not None and refused.reply.ephemeral


async def test_void_asks_which_when_a_running_and_a_waiting_dm_share_the_channel(
        h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [CAROL, DAVE], chooser="lots"))
    assert r.posts
    await waiting_dm(h)
    refused = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), None, "which?")
    assert refused.reply is not None and refused.reply.ephemeral
    assert refused.reply.text == (
        "Several matches could be meant here: #1 Cairo Corridor, Dave vs Carol (running); "
        "#2 Cairo Corridor, Alice vs Bob (waiting for its First Player). Add `match:` with "
        "its number.")
    assert (await stored(h, 1)).status == "running" and (await stored(h, 2)).status == "choosing"
    voided = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), 2, "this one")
    assert "DM #2 is void" in voided.reply.text
    assert (await stored(h, 1)).status == "running"


async def test_a_waiting_dm_blocks_nobody_and_starts_once_they_are_free(h: Harness) -> None:
    number = await waiting_dm(h)
    casual = await h.casual(first="me")  # the same two, in the same channel
    assert casual == number + 1
    refused = await h.host.choosing.choose_first(Asker(GUILD, CHAN, HOSTY), number, "alice")
    assert refused.reply is not None and refused.reply.ephemeral
    assert refused.reply.text == ("<@alice> is playing match #2 in this channel; this one "
                                  "can start once it ends.")
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), casual)
    started = await h.host.choosing.choose_first(Asker(GUILD, CHAN, HOSTY), number, "alice")
    assert started.posts and "**DM #1 begins" in started.posts[0].text
    # Typed moves go to the DM now.
    moved = await h.play(ALICE, "D left")
    assert moved.posts and moved.posts[0].text.startswith("DM #1 · move 1")


async def test_the_deadline_reminds_then_draws_lots_and_says_so(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="alice",
                              within=600.0))
    # Issue 28, item 12: once, in a sentence: "within 1 hour (the choice closes in 1 h):
    # … (then lots are drawn)" said the time twice and the rule after the buttons.
    assert ("<@alice>, choose the First Player with a button below or `/first "
            f"player:@name`. The choice closes <t:{int(h.clock.now()) + 600}:R>; if no one "
            "has chosen by then, lots are drawn.") in r.posts[0].text
    await h.clock.advance(299)
    assert h.delivered == []
    await h.clock.advance(1)  # half the time, at most 10 minutes before the end
    assert h.texts() == ["⏳ <@alice>: choose the First Player of DM #1 — 5 minutes left (a "
                         "button above, or `/first player:@name`); then lots are drawn."]
    await h.clock.advance(300)
    announced = h.delivered[-1]
    assert announced.text.startswith("⌛ <@alice> did not choose the First Player of DM #1 "
                                     "within 10 minutes: lots were drawn, and <@")
    assert "**DM #1 begins: Cairo Corridor**" in announced.text and announced.image is not None
    assert (await stored(h, 1)).status == "running"


async def test_the_host_may_rule_that_a_missed_deadline_voids_the_dm(h: Harness) -> None:
    await waiting_dm(h, within=3600.0, missed="void")
    await h.clock.advance(3000)  # the reminder, 10 minutes before
    assert "then the DM is void" in h.texts()[-1]
    await h.clock.advance(600)
    assert h.texts()[-1] == ("⌛ <@hosty> did not choose the First Player of DM #1 within "
                             "1 hour: DM #1 is void, as the host set. No result is recorded.")
    match = await stored(h, 1)
    assert (match.status, match.result_text) == (
        "voided", "void: the First Player was not chosen within 1 hour")


async def test_a_deadline_passed_while_a_player_plays_here_waits_for_the_end(
        h: Harness) -> None:
    await waiting_dm(h, within=600.0)
    casual = await h.casual(first="me", tc=TimeControl.off())
    await h.clock.advance(600)
    assert not any("lots were drawn" in t for t in h.texts())
    await h.host.play.resign(Asker(GUILD, CHAN, ALICE), casual)
    await h.clock.advance(60)
    assert "lots were drawn" in h.texts()[-1]


async def test_a_deadline_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'g.db'}"
    db1 = await open_database(url)
    clock1 = VirtualClock()
    host1 = bot_process(db1, clock1, rng=random.Random(1))
    await host1.start()
    await host1.roles.adopt(GUILD, [HOST_ROLE])
    r = await host1.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                             DMSetup("cairo", [ALICE, BOB], chooser="alice",
                             within=1200.0))
    assert r.posts
    await host1.stop()
    await db1.close()
    db2 = await open_database(url)
    clock2 = VirtualClock(start=clock1.now() + 1000)  # down across the reminder
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    host2 = bot_process(db2, clock2, deliver=deliver, rng=random.Random(1))
    await host2.start()
    await clock2.advance(199)
    assert posts == []
    await clock2.advance(1)
    assert posts and "did not choose the First Player of DM #1 within 20 minutes" in \
        posts[0].text
    await host2.stop()
    await db2.close()

