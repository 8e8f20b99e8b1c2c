"""A match's lock (``MatchKit.lock``) lives only while a request holds or waits for it."""

from __future__ import annotations

import asyncio

from tests.bot.conftest import Harness


async def test_a_match_lock_is_dropped_when_nobody_holds_it(h: Harness) -> None:
    kit = h.host.matches.kit
    order: list[str] = []

    async def hold(name: str, gate: asyncio.Event | None) -> None:
        async with kit.lock(7):
            order.append(name)
            if gate is not None:
                await gate.wait()

    gate = asyncio.Event()
    first = asyncio.create_task(hold("first", gate))
    await asyncio.sleep(0)
    second = asyncio.create_task(hold("second", None))
    await asyncio.sleep(0)
    assert order == ["first"] and kit._locks[7][1] == 2  # one holds, one waits
    gate.set()
    await asyncio.gather(first, second)
    assert order == ["first", "second"] and 7 not in kit._locks


async def test_a_challenge_answered_leaves_no_lock(h: Harness) -> None:
    await h.casual()
    assert h.host.matches.kit._locks == {}
