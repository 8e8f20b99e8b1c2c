"""Every way a turn starts on Discord starts the next player's clock when their board
is out: never during its upload, a rate-limit wait, or the deferral before it.

Each path runs through the transport-level fake with a 3 s upload of every message
with a file (``slow_uploads``) and a 429 (``retry_after`` 4 s) on the request that
carries the board; the player to move has used, right after, exactly what they had
used before (nothing, on a new turn): 0 s of the wait is theirs. A deferred command's
board replaces its "thinking…" message by an edit, which Discord may or may not stamp
with ``edited_timestamp``: each such path runs with the fake doing either
(``EITHER_STAMP``), and the clock is the same.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from tests.bot.discord_fake import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    Call,
    select_menu,
)
from tests.discord_bot import EDIT, FOLLOW, REPLY, World, challenge_accepted, sends, slowly, sub

# Whether the edit that replaces "thinking…" sets ``edited_timestamp`` (FakeDiscord's
# ``stamp_deferred_edits``): the next turn starts when the board is out either way.
EITHER_STAMP = pytest.mark.parametrize("stamped", [True, False], ids=["stamped", "unstamped"])


async def test_a_typed_move(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    await challenge_accepted(world)
    await world.advance(10)
    charged = await slowly(world, monkeypatch, REPLY,
                           lambda: _said(world.say(ALICE, "D left")))
    assert charged == pytest.approx(0.0, abs=0.002)
    assert world.live().to_move == 1


@EITHER_STAMP
async def test_slash_move(world: World, monkeypatch: pytest.MonkeyPatch,
                          stamped: bool) -> None:
    """The bar of issue 26: a 3 s upload and a 429 wait, 0 s for the next player."""
    world.fake.stamp_deferred_edits = stamped
    await challenge_accepted(world)
    await world.advance(10)
    charged = await slowly(world, monkeypatch, EDIT,
                           lambda: world.slash(ALICE, "move", move="D left"))
    assert charged == pytest.approx(0.0, abs=0.002)
    assert world.live().to_move == 1 and world.live().time_used[0] == pytest.approx(10.0)


async def test_the_accept_button(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    charged = await slowly(world, monkeypatch, FOLLOW, lambda: world.press(
        BOB, call.sent, call.buttons[0]["custom_id"]))
    assert charged == pytest.approx(0.0, abs=0.002)


async def test_a_menu_pick(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="sigma", first="me")
    calls = await world.press(BOB, call.sent, call.buttons[0]["custom_id"])
    (board,) = [c for c in sends(calls) if c.files]
    (menu,) = [c for c in board.buttons if c.get("type") == 3]
    card = menu["options"][0]["value"]
    (shown,) = sends(await _choose(world, board.sent, menu["custom_id"], card))
    place = next(c for c in shown.buttons if c.get("type") == 3)
    await world.advance(5)
    charged = await slowly(world, monkeypatch, FOLLOW, lambda: _choose(
        world, shown.sent, place["custom_id"], place["options"][0]["value"]))
    assert charged == pytest.approx(0.0, abs=0.002)
    assert world.live().ply == 1


@EITHER_STAMP
async def test_first_by_command(world: World, monkeypatch: pytest.MonkeyPatch,
                                stamped: bool) -> None:
    world.fake.stamp_deferred_edits = stamped
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB)
    charged = await slowly(world, monkeypatch, EDIT,
                           lambda: world.slash(HANA, "first", player=BOB))
    assert charged == pytest.approx(0.0, abs=0.002)
    assert world.live().users[0] == str(BOB.id)


@EITHER_STAMP
async def test_takeback(world: World, monkeypatch: pytest.MonkeyPatch,
                        stamped: bool) -> None:
    world.fake.stamp_deferred_edits = stamped
    await challenge_accepted(world)
    await world.advance(10)
    await world.say(ALICE, "D left")
    await world.advance(5)
    used = await slowly(world, monkeypatch, EDIT,
                        lambda: world.slash(HANA, "takeback", reason="misclick"))
    # Alice is on turn again with her 10 s, and nothing of the wait.
    assert used == pytest.approx(10.0, abs=0.002)
    assert world.live().to_move == 0


@EITHER_STAMP
async def test_resume(world: World, monkeypatch: pytest.MonkeyPatch,
                      stamped: bool) -> None:
    world.fake.stamp_deferred_edits = stamped
    await challenge_accepted(world)
    await world.advance(10)
    await world.slash(HANA, "pause", reason="lunch")
    await world.advance(100)
    used = await slowly(world, monkeypatch, EDIT, lambda: world.slash(HANA, "resume"),
                        files=False)
    assert used == pytest.approx(10.0, abs=0.002)  # what Alice had used at the pause


async def test_a_tournament_pairing(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo", format="swiss",
              rounds=1, prizes="4")
    await sub(world, ALICE, "tournament", "join")
    await sub(world, BOB, "tournament", "join")
    charged = await slowly(world, monkeypatch, FOLLOW,
                           lambda: sub(world, HANA, "host tournament", "start"))
    assert charged == pytest.approx(0.0, abs=0.002)


async def _said(said: Awaitable[tuple[list[Call], str]]) -> list[Call]:
    return (await said)[0]


async def _choose(world: World, message: dict[str, Any], custom_id: str,
                  value: str) -> list[Call]:
    return await world._feed(lambda: world.state.parse_interaction_create(
        select_menu(world.fake, ALICE, message, custom_id, value)))


async def test_resume_of_a_halted_match_in_an_uncached_thread(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/resume of a match garnet paused (its board was refused) in a thread the client
    no longer holds (as an archived one): garnet fetches the thread (GET /channels/{id},
    which the fake answers as Discord), then the board comes with the resume, and the
    next player's clock starts when it is out."""
    from tests.discord_bot import dm_in_thread

    thread, first = await dm_in_thread(world)
    await world.advance(10)
    world.fake.deny(CHANNEL_ID, "send_messages_in_threads")
    await world.say(first, "A down", channel_id=thread)
    assert world.live().paused and world.live().halted is not None
    world.fake.allow(CHANNEL_ID)
    guild: Any = world.bot.get_guild(GUILD_ID)
    guild._remove_thread(guild.get_thread(thread))  # no longer in the client's cache
    assert world.bot.get_channel(thread) is None
    used = await slowly(world, monkeypatch, REPLY, lambda: world.slash(HANA, "resume", match=1))
    fetched = [c for c in world.fake.calls
               if (c.method, c.path) == ("GET", "/channels/{channel_id}")]
    assert [c.status for c in fetched] == [200]
    assert used == pytest.approx(0.0, abs=0.5)  # what the next player used before the halt


async def test_a_practice_reply(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer moves first; its move's board (a channel post once it has thought)
    starts the player's clock when it is out."""
    used = await slowly(world, monkeypatch, REPLY, lambda: world.slash(
        ALICE, "practice", game="cairo", level=1, first="bot", clock=True))
    live = world.live()
    assert live.ply == 1 and live.users[live.to_move] == str(ALICE.id)
    assert used == pytest.approx(0.0, abs=0.002)
