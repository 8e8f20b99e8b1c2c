"""Leases in one process, on virtual time: a process that lost its lease writes
nothing; a process restores only its shards' servers; a lapsed lease is taken over."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import func, select, update

from bot.core.clock import VirtualClock
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.core.shards import Shards, shard_of
from bot.core.timecontrol import TimeControl
from bot.services.leases import SQLITE_KEY, LeaseLost
from bot.services.matches import MatchConfig
from bot.store.db import open_database
from bot.store.models import Lease, LedgerEntry, Match
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, Harness
from tests.bot.economy_helpers import dm
from tests.fixtures import bot_process


async def test_a_process_that_lost_its_lease_writes_nothing(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id = await dm(h, ALICE, BOB)
    live = h.host.live[match_id]
    assert live.timer is not None
    async with h.db.session() as s, s.begin():  # another process took the shard over
        await s.execute(update(Lease).values(owner="b/1@elsewhere#x"))
    with caplog.at_level(logging.ERROR):
        r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert r.reply is not None and r.reply.ephemeral
    assert "restarting for this server; nothing was changed" in r.reply.text
    assert "LEASE LOST" in caplog.text
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        assert match is not None and match.status == "running"
        assert await s.scalar(select(func.count()).select_from(LedgerEntry)) == 0
    # Its matches are forgotten and their timers stopped; no new match starts here.
    assert h.host.live == {} and live.finished and live.timer is None
    await h.clock.advance(24 * 3600)
    assert h.delivered == []
    refused = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    assert refused.reply is not None and "not running this server's matches here" in \
        refused.reply.text


async def test_a_lost_lease_refuses_a_move_too(h: Harness) -> None:
    await h.casual(tc=TimeControl.off())
    async with h.db.session() as s, s.begin():
        await s.execute(update(Lease).values(owner="b/1@elsewhere#x"))
    r = await h.play(ALICE, "D left")
    assert r.reply is not None and "restarting for this server" in r.reply.text
    with pytest.raises(LeaseLost):
        async with h.db.engine.begin() as conn:
            await h.host.kit.leases.guard_all(conn)


async def test_each_process_restores_only_its_shards(database_url: str) -> None:
    guilds = [str(n << 22) for n in (10, 11)]  # on shards 0 and 1 of 2
    assert [shard_of(g, 2) for g in guilds] == [0, 1]
    db = await open_database(database_url)
    clock = VirtualClock()
    one = bot_process(db, clock, MatchConfig(lease_wait=True))
    await one.start()
    for n, guild in enumerate(guilds):
        await one.lobby.challenge(Asker(guild, CHAN, ALICE), "cairo", [BOB], first="me")
        await one.lobby.answer(Asker(guild, CHAN, BOB), None, accept=True)
        assert len(one.live) == n + 1
    await one.stop()
    halves = [bot_process(db, clock, MatchConfig(instance=f"i{i}", shards=Shards(2, (i,))))
              for i in (0, 1)]
    for half in halves:
        if SQLITE_KEY in half.kit.leases.keys:  # SQLite's own lease would refuse one
            half.kit.leases.keys.remove(SQLITE_KEY)
        await half.start()
    assert [[live.guild_id for live in half.live.values()] for half in halves] == [
        [guilds[0]], [guilds[1]]]
    with pytest.raises(Refusal, match="not running this server's matches here"):
        await halves[0].lobby.challenge(Asker(guilds[1], "c2", ALICE), "cairo", [BOB])
    for half in halves:
        await half.stop()
    await db.close()


async def test_a_lapsed_lease_is_taken_over_and_the_old_owner_is_fenced(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    db1, db2 = await open_database(database_url), await open_database(database_url)
    clock = VirtualClock()
    old = bot_process(db1, clock, MatchConfig(instance="old", lease_seconds=30.0))
    await old.start()
    await old.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me",
                        tc=TimeControl.off())
    await old.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    # The old owner stalls (on another host, so its pid says nothing) past its lease.
    async with db1.session() as s, s.begin():
        await s.execute(update(Lease).values(host="elsewhere",
                                             expires_at=clock.now() - 1))
    new = bot_process(db2, clock, MatchConfig(instance="new", lease_wait=True))
    with caplog.at_level(logging.WARNING):
        await new.start()
    assert "TAKING OVER shard:0/1 from instance 'old'" in caplog.text
    assert list(new.live) == list(old.live)
    with pytest.raises(LeaseLost):  # the stalled process wakes up: fenced
        await old.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    r = await new.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    assert "move 1" in r.posts[0].text
    await new.stop()
    await old.stop()
    await db1.close()
    await db2.close()
