"""A turn starts when its board is out, through the transport-level fake: the wait for
a 429 on the board post is the bot's, not the next player's."""

from __future__ import annotations

import pytest

from tests.bot.discord_fake import ALICE, MESSAGES, ORIGINAL
from tests.discord_bot import World, challenge_accepted

BOARD = ("POST", MESSAGES)


@pytest.mark.parametrize("how", ["typed", "slash"])
async def test_a_429_on_the_board_post_is_honoured_and_not_charged_to_the_player(
        world: World, how: str) -> None:
    await challenge_accepted(world)
    await world.advance(10)
    if how == "typed":
        world.fake.fail(*BOARD, 429, retry_after=4.0)
        start = world.clock.now()
        calls, _ = await world.say(ALICE, "A down")
    else:
        world.fake.fail("PATCH", ORIGINAL, 429, retry_after=4.0)
        start = world.clock.now()
        calls = await world.slash(ALICE, "move", move="A down")
    refused = [c for c in calls if c.status == 429]
    boards = [c for c in calls if c.ok and c.files]
    assert len(refused) == 1 and len(boards) == 1  # discord.py waited, then posted once
    assert 4.0 in world.fake.asyncio.slept
    assert world.clock.now() - start == pytest.approx(4.0)
    live = world.live()
    assert live.ply == 1 and live.to_move == 1 and live.waiting is None
    # Bob's clock started when his board was out, 4 s after Alice's move.
    assert live.elapsed(world.clock.now()) == pytest.approx(0.0, abs=0.002)
    await world.advance(30)
    assert live.elapsed(world.clock.now()) == pytest.approx(30.0, abs=0.002)
    assert live.time_used[0] == pytest.approx(10.0, abs=0.002)
