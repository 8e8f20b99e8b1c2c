"""Two servers on one bot: nothing of one can be seen or changed from the other, each
counts its matches and events from #1, and one user's abuse is bounded."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.core.escape import plain
from bot.core.messages import Actor, Post, Role
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.services.history import History
from bot.services.limits import ServerBusy, ServerQueues
from bot.services.matches import DMSetup
from bot.store.models import LedgerEntry, Match
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import eco, make_event, private, public, refused

OTHER = "g2"
OTHER_HOST = Actor("oscar", "Oscar", roles=frozenset({"g2-host"}))
OWNER_B = Actor("owner-b", "Owner B", manage_guild=True)  # owns server B


@pytest.fixture
async def two(h: Harness) -> Harness:
    await h.host.roles.adopt(OTHER, [Role("g2-host", "Host")])
    return h


async def running_dm_on_a(h: Harness) -> int:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots",
                              event="none"))
    assert r.reply is not None and "DM #1" in r.reply.text
    assert h.host.matches.live
    return 1


async def test_a_host_of_server_b_cannot_touch_a_match_of_server_a(two: Harness) -> None:
    h = two
    number = await running_dm_on_a(h)
    live = next(iter(h.host.matches.live.values()))
    before = (live.ply, live.paused, live.extra, live.finished)
    for asker in (OTHER_HOST, OWNER_B):
        for attempt in (
            h.host.controls.pause(Asker(OTHER, "x", asker), number, "mine now"),
            h.host.controls.resume(Asker(OTHER, "x", asker), number),
            h.host.controls.extend(Asker(OTHER, "x", asker), number, 600),
            h.host.viewing.board(Asker(OTHER, "x", asker), number, public=True),
            h.host.viewing.time(Asker(OTHER, "x", asker), number),
            h.host.play.move(Asker(OTHER, "x", asker), number, "D left"),
            h.host.play.resign(Asker(OTHER, "x", asker), number),
        ):
            r = await attempt
            assert r.reply is not None and r.reply.ephemeral and not r.posts
            assert r.reply.text == "Match #1 is not being played now."
        # Finished and stored matches are not found either.
        for attempt in (h.host.choosing.choose_first(Asker(OTHER, "x", asker), number, ALICE.id),
                        h.host.controls.void(Asker(OTHER, "x", asker), number, "gone"),
                        h.host.controls.adjudicate(Asker(OTHER, "x", asker), number, BOB.id,
                                                   "bob wins")):
            r = await attempt
            assert r.reply is not None and r.reply.text == ("There is no match #1 on this "
                                                            "server.")
    assert (live.ply, live.paused, live.extra, live.finished) == before
    # Server A's match goes on: its players still move.
    mover = ALICE if live.users[live.to_move] == ALICE.id else BOB
    moved = await h.play(mover, "D left" if live.ply == 0 else "J up")
    assert moved.posts and moved.posts[0].image is not None
    # Nothing was paid into server A's ledger from server B.
    async with h.db.session() as s:
        assert (await s.scalars(select(LedgerEntry))).all() == []


async def test_history_and_replays_stay_on_their_server(two: Harness) -> None:
    h = two
    await running_dm_on_a(h)
    live = next(iter(h.host.matches.live.values()))
    await h.host.play.resign(Asker(GUILD, CHAN, Actor(live.users[0], "x")), 1)
    history = History(h.db, h.host.matches.renderer)
    shown = await answered(lambda: history.show(OTHER, 1))
    assert shown.reply is not None and shown.reply.text == "There is no match #1 on this server."
    replay = await answered(lambda: history.replay(OTHER, 1))
    assert replay.reply is not None and replay.reply.text == "There is no match #1 on this server."
    assert await history.recent(OTHER, "", done_only=False) == []
    assert [n for n, _ in await history.recent(GUILD, "", done_only=False)] == [1]


async def test_numbers_count_from_one_on_every_server(two: Harness) -> None:
    h = two
    a1 = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    a2 = await h.host.lobby.challenge(Asker(GUILD, "c2", CAROL), "cairo", [DAVE])
    b1 = await h.host.lobby.challenge(Asker(OTHER, "b-chan", ALICE), "cairo", [BOB])
    assert [r.reply.text.split(":")[0] for r in (a1, a2, b1)] == [  # type: ignore[union-attr]
        "**Match #1", "**Match #2", "**Match #1"]
    assert [b.custom_id for b in b1.reply.buttons] == [  # type: ignore[union-attr]
        "garnet:accept:1", "garnet:decline:1"]
    # Server B's #1 is accepted on server B; server A's #1 stays pending.
    started = await h.host.lobby.answer(Asker(OTHER, "b-chan", BOB), 1, accept=True)
    assert started.posts and started.posts[0].channel_id == "b-chan"
    async with h.db.session() as s:
        rows = (await s.execute(select(Match.guild_id, Match.number, Match.status)
                                .order_by(Match.id))).all()
    assert [tuple(r) for r in rows] == [(GUILD, 1, "pending"), (GUILD, 2, "pending"),
                                        (OTHER, 1, "running")]
    # Events too.
    assert "(#1)" in public(await eco(h).event_create(OTHER, OTHER_HOST, "B League"))
    assert "(#1)" in public(await eco(h).event_create(GUILD, HOSTY, "A League"))
    assert "There is no event #2 on this server." in refused(
        await eco(h).event_info(OTHER, OTHER_HOST, "2"))


async def test_events_ledgers_and_standings_of_another_server_are_unseen(two: Harness) -> None:
    h = two
    await make_event(h, "Season 1", [ALICE, BOB])
    await eco(h).grant(GUILD, HOSTY, ALICE, 7, "bonus")
    # Named by number or by name from server B: not there.
    assert refused(await eco(h).event_info(OTHER, OTHER_HOST, "1")) == (
        "There is no event #1 on this server.")
    assert "There is no event called 'Season 1' on this server" in refused(
        await eco(h).event_info(OTHER, OTHER_HOST, "Season 1"))
    assert "There is no event called" in refused(
        await eco(h).grant(OTHER, OTHER_HOST, ALICE, 5, "x", "Season 1"))
    # Alice's garnets on server B: none; server A's board does not show there.
    assert "0 garnets" in private(await eco(h).garnets(OTHER, ALICE, event="all"))
    assert "Nobody is on this board yet." in private(
        await eco(h).leaderboard(OTHER, ALICE, event="all"))
    assert "No event is open on this server" in refused(
        await eco(h).export(OTHER, OTHER_HOST))


async def test_names_are_kept_per_server(two: Harness) -> None:
    h = two
    await make_event(h, "Season 1", [ALICE])
    other_alice = Actor(ALICE.id, "Queen of B")
    public(await eco(h).event_create(OTHER, OTHER_HOST, "B League"))
    public(await eco(h).event_add(OTHER, OTHER_HOST, [other_alice]))
    a_info = private(await eco(h).event_info(GUILD, BOB))
    b_info = private(await eco(h).event_info(OTHER, BOB))
    assert "Alice" in a_info and "Queen" not in a_info
    assert "Queen of B" in b_info


# ---- what user text can do in a post ------------------------------------------------

NASTY = ("@everyone <@123456789012345678> <@&987654321098765432> **bold** "
         "[click](https://evil.example) # HEADING\nnext line")


def _harmless(post: Post, meant: set[str]) -> None:
    text = post.text
    assert "@everyone" not in text.replace("@\u200beveryone", "")
    assert "<@123456789012345678>" not in text and "<@&987654321098765432>" not in text
    assert "[click](" not in text and "**bold**" not in text
    assert "\\# HEADING" in text or "# HEADING" not in text  # a heading only escaped
    assert "\nnext line" not in text  # user text stays on one line
    assert set(post.pinged()) <= meant


async def test_user_text_in_every_kind_pings_nobody_and_renders_plain(two: Harness) -> None:
    h = two
    nasty_name = Actor("eve", NASTY)
    r = await eco(h).event_create(GUILD, HOSTY, "Season **1** @here")
    assert r.reply is not None
    _harmless(r.reply, set())
    assert "Season \\*\\*1\\*\\* @\u200bhere" in r.reply.text
    await eco(h).event_add(GUILD, HOSTY, [nasty_name, BOB], "1")
    info = await eco(h).event_info(GUILD, BOB, "1")
    assert info.reply is not None
    _harmless(info.reply, set())
    assert plain(NASTY[:100]) in info.reply.text  # names are kept to 100 characters
    # A reason on a grant, a pause and a void.
    granted = await eco(h).grant(GUILD, HOSTY, BOB, 3, NASTY, "1")
    assert granted.reply is not None
    _harmless(granted.reply, {HOSTY.id, BOB.id})
    ledger = await eco(h).ledger(GUILD, BOB, BOB, "1")
    assert ledger.reply is not None
    _harmless(ledger.reply, set())
    await running_dm_on_a(h)
    paused = await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), 1, NASTY)
    assert paused.reply is not None
    _harmless(paused.reply, {HOSTY.id})
    await h.host.controls.resume(Asker(GUILD, CHAN, HOSTY), 1)
    voided = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), 1, NASTY)
    assert voided.reply is not None
    _harmless(voided.reply, set())
    # Chat quoted in a refusal of /move: escaped, and a refusal pings nobody.
    await h.host.lobby.challenge(Asker(GUILD, "c9", ALICE), "quoridor", [BOB], first="me")
    await h.host.lobby.answer(Asker(GUILD, "c9", BOB), None, accept=True)
    refusal = await h.host.play.move(Asker(GUILD, "c9", ALICE), None, "@everyone [x](y)")
    assert refusal.reply is not None and refusal.reply.pings == ()
    assert "@everyone" not in refusal.reply.text and "[x](y)" not in refusal.reply.text


# ---- one user's abuse -------------------------------------------------------------------


async def test_open_challenges_and_challenge_loops_are_bounded(two: Harness) -> None:
    h = two
    for n in range(5):
        r = await h.host.lobby.challenge(Asker(GUILD, f"c{n}", ALICE), "cairo", [BOB])
        assert r.reply is not None and not r.reply.ephemeral
    r = await h.host.lobby.challenge(Asker(GUILD, "c9", ALICE), "cairo", [CAROL])
    assert r.reply is not None and r.reply.text == (
        "You have 5 open challenges on this server already; wait for answers or `/cancel` "
        "one first.")
    # Withdrawing and challenging again in a loop soon meets the rate limit.
    said = []
    for n in range(10):
        said.append((await h.host.lobby.cancel(Asker(GUILD, f"c{n % 5}", ALICE),
                                         n + 1 if n < 5 else None)).reply.text)  # type: ignore[union-attr]
        said.append((await h.host.lobby.challenge(Asker(GUILD, f"c{n % 5}", ALICE), "cairo",
                                            [BOB])).reply.text)  # type: ignore[union-attr]
    assert any(s.startswith("Too many requests in a short time; try again in") for s in said)
    # After the window, Alice may challenge again.
    await h.clock.advance(601)
    r = await h.host.lobby.challenge(Asker(GUILD, "c20", ALICE), "cairo", [CAROL])
    assert r.reply is not None and "challenges" in r.reply.text, r.reply.text


async def test_reminders_take_a_handful_of_points(h: Harness) -> None:
    from bot.core import options

    async def make() -> object:
        return options.time_control(reminders="50,40,30,20,10,5,1")
    r = await answered(make)  # type: ignore[arg-type]
    assert r.reply is not None and r.reply.text == "At most 6 reminder points, like '30,15,5'."


async def test_heavy_work_is_queued_per_server() -> None:
    queues = ServerQueues(per_server=1, waiting=1, overall=2)
    gate = asyncio.Event()
    order: list[str] = []

    async def job(guild: str, name: str) -> None:
        async with queues.slot(guild):
            order.append(name)
            await gate.wait()

    a1 = asyncio.create_task(job("a", "a1"))
    a2 = asyncio.create_task(job("a", "a2"))
    await asyncio.sleep(0)
    with pytest.raises(ServerBusy):  # server a: one running, one waiting; a third is refused
        async with queues.slot("a"):
            pass
    b1 = asyncio.create_task(job("b", "b1"))  # server b is not held up by a
    await asyncio.sleep(0)
    assert order == ["a1", "b1"]
    gate.set()
    await asyncio.gather(a1, a2, b1)
    assert order == ["a1", "b1", "a2"]


async def test_match_autocomplete_searches_by_number_and_name_open_first(h: Harness) -> None:
    # 30 finished matches, one a minute (within the challenge rate limit)...
    for n in range(30):
        await h.clock.advance(60)
        channel = f"old{n}"
        await h.host.lobby.challenge(Asker(GUILD, channel, CAROL), "cairo", [DAVE])
        await h.host.lobby.answer(Asker(GUILD, channel, DAVE), None, accept=True)
        await h.host.play.resign(Asker(GUILD, channel, DAVE), None)
    await h.host.lobby.challenge(Asker(GUILD, "open", ALICE), "cairo", [BOB])  # #31, pending
    lookup = h.host.matches.lookup.open_matches
    found = await lookup(GUILD)
    assert found[0][0] == 31 and len(found) == 25  # the open one first
    # By number: the oldest are found too, not only the newest 25.
    assert [n for n, _ in await lookup(GUILD, typed="#2")] == [29, 28, 27, 26, 25, 24, 23, 22,
                                                                21, 20, 2]
    assert [n for n, _ in await lookup(GUILD, typed="3")] == [31, 30, 3]
    # By a player's name, as this server calls them.
    assert [n for n, _ in await lookup(GUILD, typed="ali")] == [31]
    assert [n for n, _ in await lookup(GUILD, typed="zed")] == []
