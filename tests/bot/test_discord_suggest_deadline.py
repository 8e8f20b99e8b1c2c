"""Every autocomplete answers within Discord's 3 s, however slow the database: a read
not ready ``ANSWER_WITHIN`` seconds after the interaction was made gives way to an
answer from memory (the running matches, what earlier answers offered), and while it
is under way the next suggestions of that kind answer from memory at once. Held here
with SQLite's one connection taken (on PostgreSQL, the matches table locked), on the
virtual clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import text

from bot.adapters.discord.suggest import ANSWER_WITHIN
from tests.bot.discord_fake import ALICE, CALLBACK, CAROL, HANA, Call, settle
from tests.bot.faults import GONE, Faults
from tests.discord_bot import World, challenge_accepted, sub


@asynccontextmanager
async def database_held(world: World, release: asyncio.Event) -> AsyncIterator[None]:
    """The database busy until ``release``: SQLite's one connection taken, or on
    PostgreSQL the matches table locked, by a task of its own."""
    held = asyncio.Event()

    async def hold() -> None:
        async with world.db.session() as s, s.begin():
            if world.db.engine.dialect.name == "postgresql":
                await s.execute(text("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE"))
            else:
                await s.execute(text("SELECT 1"))
            held.set()
            await release.wait()

    task = asyncio.create_task(hold())
    await held.wait()
    try:
        yield
    finally:
        release.set()
        await task


def _answers(world: World) -> list[tuple[Call, float]]:
    """Each autocomplete answer from now on, with the virtual moment it came in."""
    seen: list[tuple[Call, float]] = []

    def observe(call: Call, arrived: float) -> None:
        if call.path == CALLBACK and (call.body or {}).get("type") == 8:
            seen.append((call, world.clock.now()))

    world.fake.observe = observe
    return seen


async def _idle() -> None:
    """Let every ready task run (until each waits for the database or the clock)."""
    for _ in range(500):
        await asyncio.sleep(0)


async def _until(condition: Any) -> None:
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


async def test_match_suggestions_answer_from_memory_while_the_database_is_held(
        world: World) -> None:
    await challenge_accepted(world)
    answers = _answers(world)
    release = asyncio.Event()
    async with database_held(world, release):
        first = world.fake.slash(world.bot.tree, CAROL, "board", focused="match", match="")
        made = world.clock.now()
        world.state.parse_interaction_create(first)
        await _idle()
        assert answers == []  # waiting for the database ...
        await world.clock.advance(ANSWER_WITHIN)  # ... until its time is up
        await _until(lambda: len(answers) == 1)
        # Then a second while the first read still waits: from memory at once.
        second = world.fake.slash(world.bot.tree, CAROL, "board", focused="match", match="1")
        asked = world.clock.now()
        world.state.parse_interaction_create(second)
        await _until(lambda: len(answers) == 2)
        assert world.bot.suggestions.reading  # the first read is still under way
    await settle(world.baseline)
    (call, at), (again, again_at) = answers
    assert call.status == 200 and again.status == 200
    assert at - made <= ANSWER_WITHIN + 0.01 and again_at - asked < 0.01
    offered = [c["name"] for c in call.body["data"]["choices"]]
    assert offered == ["#1 Cairo Corridor: Alice vs Bob (running)"]
    assert [c["value"] for c in again.body["data"]["choices"]] == [1]
    # Once free, the database answers again, as it did before.
    assert world.bot.suggestions.reading == {}
    third = world.fake.slash(world.bot.tree, ALICE, "board", focused="match", match="")
    made = world.clock.now()
    world.state.parse_interaction_create(third)
    await settle(world.baseline)
    (_, _), (_, _), (call, at) = answers
    assert at == made and [c["name"] for c in call.body["data"]["choices"]] == offered


async def test_other_suggestions_offer_what_they_last_read(world: World) -> None:
    """Events (as decks, tournaments, recorded matches) are not held in memory: a
    slow read gives what that server's earlier answers of the kind offered."""
    await sub(world, HANA, "host event", "create", name="Spring Cup")
    answers = _answers(world)
    await sub(world, ALICE, "event", "info", focused="event", event="")
    release = asyncio.Event()
    async with database_held(world, release):
        typed = world.fake.subcommand(world.bot.tree, ALICE, "event", "info",
                                      focused="event", event="spr")
        made = world.clock.now()
        world.state.parse_interaction_create(typed)
        await _idle()
        await world.clock.advance(ANSWER_WITHIN)
        await _until(lambda: len(answers) == 2)
    await settle(world.baseline)
    (read, _), (remembered, at) = answers
    assert at - made <= ANSWER_WITHIN + 0.01 and remembered.status == 200
    assert remembered.body["data"]["choices"] == read.body["data"]["choices"] != []


async def test_a_failing_database_still_gets_an_answer(world: World) -> None:
    """A read that fails (the connection gone) answers from memory too, at once."""
    await challenge_accepted(world)
    answers = _answers(world)
    Faults(world.db, world.clock).fail(GONE, world.clock.now(), 60, "matches")
    await world._feed(lambda: world.state.parse_interaction_create(world.fake.slash(
        world.bot.tree, CAROL, "board", focused="match", match="")))
    ((call, _),) = answers
    assert call.status == 200
    assert [c["value"] for c in call.body["data"]["choices"]] == [1]
