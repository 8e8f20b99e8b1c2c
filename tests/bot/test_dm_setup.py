"""Setting a Death Match up: what the DM format forbids, and the event it counts for."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.store.models import Match
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness


async def test_a_dm_refuses_hints(h: Harness) -> None:
    r = await h.host.start_dm(GUILD, CHAN, HOSTY, "cairo", [ALICE, BOB], chooser="lots",
                              hints=True)
    assert r.reply is not None and r.reply.ephemeral and not r.posts
    assert "without hints" in r.reply.text
    async with h.db.session() as s:
        assert await s.scalar(select(func.count()).select_from(Match)) == 0
    # Casual matches keep them.
    match_id = await h.casual(hints=True)
    assert h.host.live[next(iter(h.host.live))].hints and match_id == 1
