"""Rows inserted with their ids given (a bulk load, a copy) leave PostgreSQL's id
sequences behind; ``reset_sequences`` moves them on, and the bot numbers new matches,
moves and ledger entries after the given ids."""

from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from bot.core.clock import VirtualClock
from bot.core.requests import Asker
from bot.store.db import open_database
from bot.store.models import Event, LedgerEntry, Match, MatchPlayer, Move, User
from bot.store.sequences import reset_sequences
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOST_ROLE, HOSTY
from tests.bot.economy_helpers import economy_of
from tests.fixtures import bot_process

T0 = 1_700_000_000.0


def finished_match(match_id: int, number: int) -> dict[str, object]:
    return dict(id=match_id, number=number, guild_id=GUILD, channel_id=CHAN, game="cairo",
                kind="casual", status="finished", seats=2, options={}, time_control={"turn": 60.0},
                hints=False, rated=False, host_id=None, chooser=None, created_at=T0,
                started_at=T0, finished_at=T0 + 60, turn_elapsed=0.0, turn_resumed_at=None,
                turn_extra=0.0, winner_seat=0, draw=False, scores=None, end_reason="resign",
                result_text="done", event_id=None)


async def test_after_explicit_ids_the_next_match_gets_a_new_id(database_url: str) -> None:
    db = await open_database(database_url)
    async with db.engine.begin() as conn:
        await conn.execute(insert(User), [dict(id="alice", name="Alice"),
                                          dict(id="bob", name="Bob")])
        await conn.execute(insert(Event).values(id=3, number=1, guild_id=GUILD, name="Old",
                                                reward=3, created_by="alice", created_at=T0))
        await conn.execute(insert(Match), [finished_match(n, i)
                                           for i, n in enumerate((1, 2, 40), start=1)])
        await conn.execute(insert(MatchPlayer), [
            dict(id=n, match_id=40, user_id=u, order=n - 1, seat=n - 1, accepted=True)
            for n, u in ((1, "alice"), (2, "bob"))])
        await conn.execute(insert(Move).values(id=7, match_id=40, ply=1, seat=0,
                                               notation="DL", elapsed=1.0, at=T0))
        await conn.execute(insert(LedgerEntry).values(id=90, guild_id=GUILD,
                                                      user_id="alice", amount=5,
                                                      kind="grant", at=T0))
    if db.engine.dialect.name == "postgresql":
        # Without the reset the sequence still stands at 1: a new match collides.
        with pytest.raises(IntegrityError):
            async with db.engine.begin() as conn:
                await conn.execute(insert(Match).values(
                    {k: v for k, v in finished_match(0, 9).items() if k != "id"}))
    async with db.engine.begin() as conn:
        following = await reset_sequences(conn)
    if db.engine.dialect.name == "postgresql":
        assert following["matches"] == 41 and following["ledger_entries"] == 91
        assert following["events"] == 4 and following["ratings"] == 1
    host = bot_process(db, VirtualClock(start=T0 + 3600))
    await host.start()
    await host.roles.adopt(GUILD, [HOST_ROLE])
    try:
        r = await host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
        assert r.reply is not None and "#4" in r.reply.text, r.reply  # the server's 4th
        await host.lobby.answer(Asker(GUILD, CHAN, BOB), 4, accept=True)
        assert list(host.live) == [41]  # its row: the 41st
        played = await host.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
        assert played.posts, played
        await economy_of(host).event_create(GUILD, HOSTY, "New", transfers=True)
        async with db.session() as s:
            assert await s.scalar(select(func.max(Move.id))) == 8
            assert await s.scalar(select(func.max(Event.id))) == 4
            assert await s.scalar(select(func.max(Match.id))) == 41
    finally:
        await host.stop()
        await db.close()
