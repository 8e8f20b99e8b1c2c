"""Loads on the Discord bot's global pacer (``bot.adapters.discord.pacing``), for the
tests that drive it through the transport-level fake on virtual time."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.core.messages import Pace, Post
from tests.discord_bot import World
from tests.fake.discord_world import Call

BUSY = [940_000_000_000_000_000 + n for n in range(1000)]


def arrivals(world: World) -> list[tuple[float, Call]]:
    """Every request from now on, with the virtual moment it reached Discord."""
    seen: list[tuple[float, Call]] = []
    world.fake.observe = lambda call, _: seen.append((world.clock.now(), call))
    return seen


async def queue_posts(world: World, count: int, pace: Pace) -> asyncio.Future[Any]:
    """``count`` posts of ``pace`` asked for at once, each in a channel of its own on
    another server; returns once they all reached the pacer (the first 50 went out)."""
    if 930_000_000_000_000_000 not in world.fake.servers:
        world.fake.add_server(930_000_000_000_000_000, "Busier", BUSY, 1, {})
    pacer = world.bot.pacer
    before = pacer.queued()
    sent = sum(f.sent for f in pacer.figures.values())
    running = asyncio.gather(*(
        world.bot.deliver(Post(f"{pace.name} {n}", channel_id=str(BUSY[n]),
                               pace=pace))
        for n in range(count)))
    for _ in range(1000):
        await asyncio.sleep(0)
        if pacer.queued() - before + sum(f.sent for f in pacer.figures.values()) - sent \
                >= count:
            break
    return running
