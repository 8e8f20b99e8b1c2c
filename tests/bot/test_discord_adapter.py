"""The Discord adapter end to end: real discord.py parsing and command tree, real Host
on the test database, Discord faked only at the HTTP boundary (see discord_fake)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.discord.delivery import SOMETHING_WRONG
from bot.commands import COMMANDS
from tests.bot.discord_fake import (
    ALICE,
    BOB,
    BOT_ID,
    CAROL,
    CHANNEL_ID,
    GUILD_ID,
    HANA,
    HOST_ROLE_ID,
    Person,
)
from tests.discord_bot import World, challenge_accepted, sends, slow_uploads

PNG = b"\x89PNG\r\n\x1a\n"
CHANNEL_MESSAGES = f"/channels/{CHANNEL_ID}/messages"


# ---- registration ----------------------------------------------------------------------


async def test_login_syncs_every_console_command_to_the_test_server(world: World) -> None:
    (sync,) = [c for c in world.fake.calls if c.method == "PUT"]
    assert sync.url.endswith(f"/guilds/{GUILD_ID}/commands")
    commands = {c["name"]: c for c in sync.body}
    assert set(commands) == {c.name.split()[0] for c in COMMANDS}
    for command in commands.values():
        assert command["description"]
        # A server's commands work in that server only: ``contexts`` is for global
        # commands (the snapshot holds it: [0], servers only).
        assert "contexts" not in command and "dm_permission" not in command
        assert all(o["description"] for o in command.get("options", []))
    options = {o["name"]: o for o in commands["challenge"]["options"]}
    assert options["opponent"]["type"] == 6 and options["opponent"]["required"]
    assert options["game"]["autocomplete"]
    # The game's own options, one text completed from the chosen game's declarations.
    assert options["options"]["type"] == 3 and options["options"]["autocomplete"]
    assert options["options"]["max_length"] == 100 and "tie" not in options
    assert int(commands["hostrole"]["default_member_permissions"]) == 1 << 5  # Manage Server


async def test_game_autocomplete_offers_the_games_by_title(world: World) -> None:
    (call,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, ALICE, "challenge", focused="game", game="cai")))
    assert call.callback_type == 8
    assert call.body["data"]["choices"] == [{"name": "Cairo Corridor", "value": "cairo"}]


# ---- a casual match -------------------------------------------------------------------


async def test_challenge_posts_accept_and_decline_buttons(world: World) -> None:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo")
    assert call.callback_type == 4 and not call.ephemeral
    assert f"<@{ALICE.id}> challenges <@{BOB.id}>" in call.content
    assert [(b["label"], b["custom_id"], b["style"]) for b in call.buttons] == [
        ("Accept", "garnet:accept:1", 3), ("Decline", "garnet:decline:1", 4)]
    # Exactly the two players, by id: never roles, @everyone or anyone else.
    assert call.message["allowed_mentions"] == {
        "parse": [], "users": [ALICE.id, BOB.id]}


async def test_bad_option_is_an_ephemeral_answer(world: World) -> None:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", turn=1.0)
    # Discord checks the declared bounds in its client; the bot checks them again.
    assert call.ephemeral and call.content == "`turn` is from 5 s to 24 h, not 1 s."
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="chess")
    assert call.ephemeral and "Unknown game 'chess'" in call.content
    assert world.bot.services.matches.live == {}


async def test_accept_button_starts_the_match_with_the_board_image(world: World) -> None:
    (challenge,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    calls = await world.press(BOB, challenge.sent, "garnet:accept:1")
    assert calls[0].callback_type == 6  # acknowledged silently, then followed up
    accepted, board = sends(calls)
    assert accepted.content == f"<@{BOB.id}> accepted Match #1."
    assert board.files and board.files[0][0] == "cairo.png"
    assert board.files[0][1].startswith(PNG)
    assert f"<@{ALICE.id}> (Black) to move" in board.content
    assert not board.ephemeral
    (strip,) = [c for c in calls if c.method == "PATCH"]
    assert strip.url.endswith("/messages/@original") and strip.body["components"] == []
    assert world.live().users == [str(ALICE.id), str(BOB.id)]


async def test_buttons_work_after_a_restart(world: World) -> None:
    (challenge,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo")
    await world.restart()
    calls = await world.press(BOB, challenge.sent, "garnet:accept:1")
    assert [c.files[0][0] for c in sends(calls) if c.files] == ["cairo.png"]
    assert world.live().id == 1


async def test_move_autocomplete_with_hints_lists_legal_moves_on_turn(world: World) -> None:
    (challenge,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo",
                                     first="me", hints=True)
    await world.press(BOB, challenge.sent, "garnet:accept:1")

    async def suggest(person: Person, typed: str) -> list[str]:
        (call,) = await world._feed(lambda: world.state.parse_interaction_create(
            world.fake.slash(world.bot.tree, person, "move", focused="move", move=typed)))
        assert call.callback_type == 8
        return [c["value"] for c in call.body["data"]["choices"]]

    assert await suggest(ALICE, "a") == ["AD", "AR", "AU"]
    assert await suggest(BOB, "a") == []
    # What is no move is offered as typed, named with the game's move help.
    (call,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, ALICE, "move", focused="move", move="zz")))
    (choice,) = call.body["data"]["choices"]
    assert choice["value"] == "zz"
    assert choice["name"].startswith("zz — type the group letter and a direction from it")
    assert len(choice["name"]) == 100


async def test_a_stranger_cannot_accept(world: World) -> None:
    (challenge,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo")
    calls = await world.press(CAROL, challenge.sent, "garnet:accept:1")
    (refusal,) = sends(calls)
    assert refusal.ephemeral and "Only the challenged players" in refusal.content
    assert not [c for c in calls if c.method == "PATCH"]  # the buttons stay
    assert world.bot.services.matches.live == {}


async def test_typed_move_posts_exactly_one_board(world: World) -> None:
    await challenge_accepted(world)
    calls, _ = await world.say(ALICE, "A down")
    (board,) = calls
    assert (board.method, board.url.split("/api/v10")[1]) == ("POST", CHANNEL_MESSAGES)
    assert "played **AD**" in board.content
    assert board.files[0][1].startswith(PNG)
    assert world.live().ply == 1
    # Read once, as it arrived: no message is kept for later (nothing for the garbage
    # collector to walk again and again).
    assert not world.bot.cached_messages


async def test_rejected_typed_move_gets_a_short_reply_and_changes_nothing(world: World) -> None:
    await challenge_accepted(world)
    await world.say(ALICE, "A down")
    calls, message_id = await world.say(BOB, "A down")
    (reply,) = calls
    assert reply.url.endswith(CHANNEL_MESSAGES)
    assert str(reply.body["message_reference"]["message_id"]) == message_id
    assert reply.content == "AD is already taken by Black."
    assert not reply.files
    assert reply.body["allowed_mentions"]["replied_user"] is False
    calls, _ = await world.say(BOB, "A left")
    assert calls[0].content.startswith("A has no left pentagon")
    assert world.live().ply == 1


async def test_chatter_bystanders_and_bots_cause_no_request(world: World) -> None:
    await challenge_accepted(world)
    calls, _ = await world.say(CAROL, "D left")
    assert calls == []
    calls, _ = await world.say(ALICE, "good luck, have fun")
    assert calls == []
    calls, _ = await world.say(Person(BOT_ID, "garnet"), "D left", bot=True)
    assert calls == []
    assert world.live().ply == 0


async def test_slash_move_answers_with_the_board_and_errors_privately(world: World) -> None:
    await challenge_accepted(world)
    calls = await world.slash(ALICE, "move", move="D left")
    assert calls[0].callback_type == 5 and not calls[0].ephemeral
    (board,) = sends(calls)  # the deferred answer becomes the board: one message
    # It edits the "thinking…" message (the deferral's original response).
    assert board.path == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert "played **DL**" in board.content and board.files
    calls = await world.slash(BOB, "move", move="D left")
    assert calls[1].method == "DELETE"  # the public "thinking…" goes away
    (error,) = sends(calls)
    assert error.ephemeral and error.content == "DL is already taken by Black."
    assert world.live().ply == 1


async def test_unexpected_failure_is_logged_and_answered(world: World,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    await challenge_accepted(world)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.bot.services.matches.viewing, "time", broken)
    (call,) = await world.slash(ALICE, "time")
    assert call.ephemeral and call.content == SOMETHING_WRONG
    assert "disk on fire" in caplog.text


# ---- hosts ------------------------------------------------------------------------------


async def test_host_commands_need_the_host_role(world: World) -> None:
    await challenge_accepted(world)
    (refusal,) = sends(await world.slash(CAROL, "pause", reason="lunch"))
    assert refusal.ephemeral and "Only hosts can do that" in refusal.content
    assert not world.live().paused
    (paused,) = sends(await world.slash(HANA, "pause", reason="lunch"))
    assert not paused.ephemeral and "is paused by" in paused.content
    assert world.live().paused


async def test_adjudicate_takes_a_winner_or_a_draw(world: World) -> None:
    await challenge_accepted(world)
    (refusal,) = sends(await world.slash(HANA, "adjudicate", reason="disconnected"))
    assert refusal.ephemeral and "Name the `winner`" in refusal.content
    (result,) = sends(await world.slash(HANA, "adjudicate", reason="disconnected", winner=BOB))
    assert f"<@{BOB.id}> wins Match #1" in result.content
    assert not result.ephemeral and result.files
    assert world.bot.services.matches.live == {}


async def test_hostrole_by_id_and_repost(world: World) -> None:
    await challenge_accepted(world)
    (refusal,) = sends(await world.slash(HANA, "hostrole", role=HOST_ROLE_ID))
    assert refusal.ephemeral and "Manage Server" in refusal.content
    calls = await world.slash(HANA, "repost")
    assert calls[0].callback_type == 5 and calls[0].ephemeral
    note, board = sends(calls)
    assert note.ephemeral and note.content == "Board posted."
    assert not board.ephemeral and board.files[0][1].startswith(PNG)


async def test_dm_with_first_player_buttons(world: World) -> None:
    calls = await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB)
    assert calls[0].callback_type == 5 and calls[0].ephemeral
    setup, intro = sends(calls)
    assert setup.ephemeral and setup.content == "DM #1 is set up."
    assert not intro.ephemeral and "Hosts, choose the First Player" in intro.content
    assert [(b["label"], b["custom_id"]) for b in intro.buttons] == [
        ("Alice goes first", f"garnet:first:1:{ALICE.id}"),
        ("Bob goes first", f"garnet:first:1:{BOB.id}")]
    # Only the chooser (the host here) may press.
    (refusal,) = sends(await world.press(ALICE, intro.sent, f"garnet:first:1:{ALICE.id}"))
    assert refusal.ephemeral and "The host chooses" in refusal.content
    calls = await world.press(HANA, intro.sent, f"garnet:first:1:{BOB.id}")
    (board,) = sends(calls)
    assert f"<@{HANA.id}> chose <@{BOB.id}> as the First Player" in board.content
    assert board.files[0][1].startswith(PNG)
    assert next(c for c in calls if c.method == "PATCH").body["components"] == []
    assert world.live().users == [str(BOB.id), str(ALICE.id)]
    assert world.live().kind == "dm"


async def test_dm_in_a_new_thread(world: World) -> None:
    calls = await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB,
                              chooser="lots", thread=True)
    (thread,) = [c for c in calls if c.path == "/channels/{channel_id}/threads"]
    assert thread.body["name"] == "DM: Cairo Corridor — Alice vs Bob"
    assert thread.body["type"] == 11
    thread_id = thread.response["id"]
    posts = [c for c in calls if c.path == "/channels/{channel_id}/messages"]
    assert [p.url.split("/")[-2] for p in posts] == [thread_id, thread_id]
    assert "Lots were drawn" in posts[1].content and posts[1].files
    assert world.live().channel_id == thread_id
    # The players move by typing in the thread.
    first = Person(int(world.live().users[0]), "first")
    calls, _ = await world.say(first, "A down", channel_id=int(thread_id))
    (board,) = calls
    assert board.url.endswith(f"/channels/{thread_id}/messages") and board.files


async def test_refused_dm_makes_no_thread(world: World) -> None:
    calls = await world.slash(CAROL, "dm", game="cairo", player1=ALICE, player2=BOB,
                              thread=True)
    assert not [c for c in calls if c.path.endswith("/threads")]
    (refusal,) = sends(calls)
    assert refusal.ephemeral and "Only hosts" in refusal.content


# ---- the clock --------------------------------------------------------------------------


async def test_reminder_is_posted_by_deliver(world: World) -> None:
    await challenge_accepted(world)
    assert await world.advance(29) == []
    (reminder,) = await world.advance(1)
    assert reminder.url.endswith(CHANNEL_MESSAGES)
    assert reminder.content == f"⏰ <@{ALICE.id}>: 30 s left of your turn time."
    assert reminder.body["allowed_mentions"] == {
        "parse": [], "users": [ALICE.id]}


async def test_a_typed_move_delivered_late_counts_when_it_was_sent(world: World) -> None:
    """The message's snowflake timestamp is when the player sent it: sent at 59 s of a
    60 s turn and delivered at 60.5 s, it is in time."""
    await challenge_accepted(world)
    await world.advance(60.5)
    (board,) = sends((await world.say(ALICE, "D left", sent_ago=1.5))[0])
    assert "played **DL**" in board.content
    assert world.live().time_used[0] == pytest.approx(59.0)


# ---- a turn starts when its board is out -------------------------------------------------


@pytest.mark.parametrize("how", ["typed", "slash", "accept"])
async def test_a_slow_board_upload_is_charged_to_no_one(
        world: World, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The next turn starts at the board message's own timestamp: a typed move (a
    reply), ``/move`` (a follow-up), and the Accept button that starts the match."""
    if how == "accept":
        (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo",
                                    first="me")
        slow_uploads(world, monkeypatch, 3)
        await world.press(BOB, call.sent, call.buttons[0]["custom_id"])
        seat = 0
    else:
        await challenge_accepted(world)
        await world.advance(10)
        slow_uploads(world, monkeypatch, 3)
        if how == "typed":
            (board,) = sends((await world.say(ALICE, "D left"))[0])
        else:
            (board,) = sends(await world.slash(ALICE, "move", move="D left"))
        assert "played **DL**" in board.content
        seat = 1
    live = world.live()
    assert live.to_move == seat and live.waiting is None
    assert live.elapsed(world.clock.now()) == 0.0  # 3 s of upload: not the player's
    await world.advance(20)
    assert live.elapsed(world.clock.now()) == pytest.approx(20.0, abs=0.002)


async def test_a_board_goes_out_with_its_description_for_screen_readers(
        world: World) -> None:
    (challenge,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    calls = await world.press(BOB, challenge.sent, "garnet:accept:1")
    _, board = sends(calls)
    (attachment,) = board.body["attachments"]
    described = attachment["description"]
    assert described.startswith("Cairo Corridor, before the first move. Black (")
    assert "Black pieces (0): none. Red pieces (0): none." in described
    assert len(described) <= 1024
    # Discord keeps it on the message, where a screen reader finds it (the fake too).
    (kept,) = board.sent["attachments"]
    assert kept["description"] == described
