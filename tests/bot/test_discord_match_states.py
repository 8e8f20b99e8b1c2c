"""Issue 36 on Discord, through the transport-level fake: a host's control says what
state the match is in, a start that fails is told and tried again (a typed move
meanwhile is answered), `/void` of a DM whose thread was deleted answers the host."""

from __future__ import annotations

from bot.services.matches.kit import START_RETRIES
from bot.store.models import Match
from tests.bot.discord_fake import ALICE, BOB, CHANNEL_ID, HANA, MESSAGES, Call
from tests.discord_bot import World, bot_may_do_all, sends
from tests.render_faults import overloaded


def posts(calls: list[Call], channel: int | str) -> list[Call]:
    return [c for c in calls if c.method == "POST" and c.path == MESSAGES
            and c.url.endswith(f"/channels/{channel}/messages")]


def told(calls: list[Call]) -> Call:
    (answer,) = [c for c in sends(calls) if c.ok and c.content]
    return answer


async def test_controls_during_the_first_player_prompt(world: World) -> None:
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB, chooser="host")
    for name, values in (("pause", {}), ("extend", {"seconds": 30}),
                         ("takeback", {"reason": "misclick"})):
        answer = told(await world.slash(HANA, name, **values))
        assert answer.ephemeral, answer
        assert answer.content.startswith(
            "DM #1 has not begun: it waits for a host to choose the First Player (the "
            "choice closes <t:"), answer.content
        assert "`/first player:@name match:1`" in answer.content
        assert "`/void match:1 reason:…`" in answer.content


async def test_a_start_that_fails_is_told_and_tried_again(world: World) -> None:
    overloaded(world.bot.services.matches, 1)
    calls = await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB,
                              chooser="lots")
    (notice,) = [c for c in sends(calls) if "could not begin" in (c.content or "")]
    assert not notice.ephemeral
    assert "its first board could not be drawn in time" in notice.content
    assert "try 2 of 4" in notice.content
    # A move typed meanwhile is answered, in the channel, pinging nobody.
    calls, _ = await world.say(ALICE, "D left")
    (answer,) = posts(calls, CHANNEL_ID)
    assert answer.content.startswith("DM #1 has not begun: its first board could not be "
                                     "drawn in time. garnet tries again <t:")
    assert answer.body["allowed_mentions"]["users"] == []
    calls = await world.advance(START_RETRIES[0])
    (board,) = posts(calls, CHANNEL_ID)
    assert "**DM #1 begins: Cairo Corridor**" in board.content and board.files
    assert world.live().number == 1


async def test_void_of_a_waiting_dm_whose_thread_was_deleted_answers_the_host(
        world: World) -> None:
    bot_may_do_all(world)
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB, chooser="host",
                      thread=True)
    async with world.db.session() as s:
        match = await s.get(Match, 1)
        assert match is not None and match.channel_id != str(CHANNEL_ID)
        thread = match.channel_id
    await world._feed(lambda: world.fake.delete_channel(int(thread)))
    answer = told(await world.slash(HANA, "void", match=1, reason="thread deleted"))
    assert answer.ephemeral
    assert answer.content.startswith(f"garnet could not post in <#{thread}>"), answer.content
    assert "DM #1 is void (thread deleted)" in answer.content
