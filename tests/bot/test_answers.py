"""Answers that say what the player needs: a move's help once, what a try at a move
lacks, the board after the end, who declined."""

from __future__ import annotations

from engine.cairo.notation import MOVE_HELP
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, HOSTY, Harness


async def test_move_says_how_moves_are_written_once(h: Harness) -> None:
    await h.casual(first="me")
    r = await h.host.move(None, GUILD, CHAN, ALICE, "hello")
    assert r.reply is not None and r.reply.ephemeral
    assert r.reply.text.count("group letter") == 1, r.reply.text
    assert MOVE_HELP in r.reply.text


async def test_a_try_at_a_move_by_the_player_on_turn_says_what_is_missing(h: Harness) -> None:
    await h.casual(first="me")
    r = await h.play(ALICE, "J")
    assert r.reply is not None and r.reply.ephemeral
    assert r.reply.text == "J needs a direction: J has up, down, left, right (e.g. `J up`)"
    r = await h.play(ALICE, "J upward")
    assert r.reply is not None
    assert r.reply.text == ("'upward' is not a direction: say up, down, left or right "
                            "(J has up, down, left, right)")
    # Chat stays unanswered, and so does a try by the player not on turn.
    for text in ("gg", "I like this", "a lot"):
        quiet = await h.play(ALICE, text)
        assert quiet.reply is None and quiet.posts == [], text
    quiet = await h.play(BOB, "J")
    assert quiet.reply is None and quiet.posts == []
    # The clock runs on and the move is still Alice's to make.
    played = await h.play(ALICE, "J up")
    assert played.posts and "played **JU**" in played.posts[0].text


async def test_board_after_the_end_shows_the_final_board(h: Harness) -> None:
    match_id = await h.casual(first="me")
    await h.play(ALICE, "D left")
    await h.host.resign(None, GUILD, CHAN, BOB)
    for number in (match_id, None):
        r = await h.host.board(number, GUILD, CHAN, CAROL)
        assert r.reply is not None and r.reply.ephemeral and r.reply.image is not None
        assert r.reply.image.data.startswith(b"\x89PNG")
        assert "Final board, after 1 move." in r.reply.text
        assert "<@alice> wins Match #1" in r.reply.text and "Bob resigned" in r.reply.text
    # A voided match shows its board and why it was voided.
    second = await h.casual(first="me")
    await h.host.void(second, GUILD, CHAN, HOSTY, "wrong **game**")
    r = await h.host.board(second, GUILD, CHAN, ALICE)
    assert r.reply is not None and r.reply.image is not None
    assert r.reply.text.endswith("Voided by the host\\: wrong \\*\\*game\\*\\*.")
    # A match not started has no board; the host's repost is for running matches.
    r = await h.host.board(99, GUILD, CHAN, ALICE)
    assert r.reply is not None and r.reply.text == "There is no match #99 on this server."
    r = await h.host.board(match_id, GUILD, CHAN, HOSTY, public=True)
    assert r.reply is not None and r.reply.text == "Match #1 is not being played now."
