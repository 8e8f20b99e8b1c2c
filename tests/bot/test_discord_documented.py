"""garnet sends Discord only the documented form: a reply does not fail when the move
message it answers was deleted, every text is capped at 2,000 characters, and the
command sync carries no deprecated or misplaced field."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.adapters.discord.delivery import MAX_TEXT, turn_page
from bot.core.messages import Post, Response
from tests.bot.discord_fake import ALICE, BOB, CHANNEL_ID, MESSAGES, settle
from tests.discord_bot import REPLY, World, challenge_accepted, slowly


async def test_a_reply_to_a_deleted_move_message_is_a_plain_message(world: World) -> None:
    """The author deletes their refused move message before the answer is out: the
    answer is posted all the same, as a plain message (not a 400)."""
    await challenge_accepted(world)
    await world.say(ALICE, "D left")
    payload = world.fake.message_create(ALICE, "A down")  # not her turn: a short reply
    world.fake.delete_message(CHANNEL_ID, payload["id"])  # gone before the answer
    start = len(world.fake.calls)
    world.state.parse_message_create(payload)
    await settle(world.baseline)
    (answer,) = world.fake.calls[start:]
    assert answer.ok and (answer.method, answer.path) == ("POST", MESSAGES)
    assert answer.body["message_reference"]["fail_if_not_exists"] is False
    assert "message_reference" not in answer.sent and answer.sent["type"] == 0
    assert "not yours" in answer.content


async def test_a_reply_keeps_its_reference(world: World) -> None:
    await challenge_accepted(world)
    await world.say(ALICE, "D left")
    calls, message_id = await world.say(BOB, "D left")
    (answer,) = calls
    assert str(answer.body["message_reference"]["message_id"]) == message_id
    assert answer.sent["type"] == 19 and answer.sent["message_reference"]
    assert answer.body["allowed_mentions"]["replied_user"] is False


async def test_the_fake_refuses_a_reply_that_must_find_its_message(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's answer to ``fail_if_not_exists: true`` on a deleted message, and to a
    reply without Read Message History (what the fake now holds the bot to)."""
    await challenge_accepted(world)
    await world.advance(10)
    charged = await slowly(world, monkeypatch, REPLY,
                           lambda: _said(world.say(ALICE, "D left")))
    assert charged == pytest.approx(0.0, abs=0.002)
    gone = world.fake.message_create(ALICE, "x")
    world.fake.delete_message(CHANNEL_ID, gone["id"])
    channel: Any = world.bot.get_channel(CHANNEL_ID)
    reference = discord.MessageReference(message_id=int(gone["id"]), channel_id=CHANNEL_ID)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("hi", reference=reference)
    assert refused.value.status == 400 and refused.value.code == 50035
    world.fake.deny(CHANNEL_ID, "read_message_history")
    here = world.fake.message_create(ALICE, "y")
    with pytest.raises(discord.Forbidden):
        await channel.send("hi", reference=discord.MessageReference(
            message_id=int(here["id"]), channel_id=CHANNEL_ID, fail_if_not_exists=False))


class _Answers:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def edit_message(self, **kw: Any) -> None:
        self.sent.append(kw)

    async def send_message(self, content: str, **kw: Any) -> None:
        self.sent.append({"content": content, **kw})


class _Interaction:
    id = 1

    def __init__(self) -> None:
        self.response = _Answers()


@pytest.mark.parametrize("refused", [False, True])
async def test_a_page_turn_is_capped(refused: bool) -> None:
    interaction = _Interaction()
    long = "x" * (MAX_TEXT + 500)

    async def produce() -> Response:
        if refused:
            return Response(reply=Post(long, ephemeral=True))
        return Response(reply=Post(long))

    await turn_page(interaction, produce, refusal_in_place=False)  # type: ignore[arg-type]
    (sent,) = interaction.response.sent
    assert len(sent["content"]) == MAX_TEXT and sent["content"].endswith("…")


async def _said(said: Any) -> Any:
    return (await said)[0]
