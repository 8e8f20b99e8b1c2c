"""Simultaneous submissions, duplicate deliveries, and garbage input."""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.adapters.console.parse import split
from bot.core.requests import Asker
from bot.store.models import Move
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, Harness, console_for


async def moves_in_db(h: Harness) -> int:
    async with h.db.session() as s:
        return int(await s.scalar(select(func.count()).select_from(Move)) or 0)


async def test_two_moves_at_the_same_moment_apply_exactly_one(h: Harness) -> None:
    await h.casual(first="me")
    a, b = await asyncio.gather(h.play(ALICE, "D left"), h.play(ALICE, "J up"))
    applied = [r for r in (a, b) if r.posts]
    refused = [r for r in (a, b) if r.reply]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].reply is not None and "Bob's turn" in refused[0].reply.text
    assert await moves_in_db(h) == 1


async def test_both_players_at_the_same_moment(h: Harness) -> None:
    await h.casual(first="me")
    a, b = await asyncio.gather(h.play(ALICE, "D left"), h.play(BOB, "J up"))
    # Alice is on turn; Bob's message arrived before her move was in, so it was not
    # sent on his turn and does not count, though the turn is his when it is read.
    assert a.posts and b.reply is not None and "send your move again" in b.reply.text
    assert await moves_in_db(h) == 1


async def test_a_message_delivered_twice_moves_once(h: Harness) -> None:
    await h.casual(first="me")
    first, second = await asyncio.gather(
        h.host.play.typed(Asker(GUILD, CHAN, ALICE), "D left", message_id="m1"),
        h.host.play.typed(Asker(GUILD, CHAN, ALICE), "D left", message_id="m1"),
    )
    assert first.posts and second.posts == [] and second.reply is None
    assert await moves_in_db(h) == 1


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
async def test_garbage_never_crashes_or_changes_the_game(h: Harness, text: str) -> None:
    if not h.host.live:
        await h.casual(first="me")
    live = next(iter(h.host.live.values()))
    before = live.game.to_json(live.state)
    mover = ALICE if live.to_move == 0 else BOB
    for response in (await h.play(mover, text),
                     await h.host.play.move(Asker("g1", CHAN, mover), None, text or "x")):
        if response.posts:  # it was a legal move after all: exactly that move
            after = live.game.to_json(live.state)
            assert after != before
            return
        assert live.game.to_json(live.state) == before


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.one_of(
    st.text(max_size=60),
    st.builds(lambda c, rest: f"alice: /{c} {rest}",
              st.sampled_from(["challenge", "dm", "move", "first", "extend", "void", "pause",
                               "adjudicate", "accept", "board", "time", "nope"]),
              st.text(max_size=40)),
))
async def test_console_lines_never_break_the_console(h: Harness, line: str) -> None:
    out = io.StringIO()
    console = console_for(h, Path(tempfile.gettempdir()) / "garnet-fuzz", out)
    await console.handle_line(line)
    assert "something went wrong" not in out.getvalue()


def test_command_values_may_contain_spaces() -> None:
    assert split("/void reason:took too long match:3") == (
        ["void"], [], {"reason": "took too long", "match": "3"})
    assert split("/challenge @bob game:cairo") == (
        ["challenge"], ["@bob"], {"game": "cairo"})
