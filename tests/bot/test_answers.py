"""Answers that say what the player needs: a move's help once, what a try at a move
lacks, the board after the end, who declined."""

from __future__ import annotations

from bot.core.escape import unescape
from bot.core.requests import Asker
from bot.services.history import history_post
from engine.cairo.notation import MOVE_HELP
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness
from tests.engine.positions import tie_game


async def test_move_says_how_moves_are_written_once(h: Harness) -> None:
    await h.casual(first="me")
    r = await h.host.play.move(Asker(GUILD, CHAN, ALICE), None, "hello")
    assert r.reply is not None and r.reply.ephemeral
    assert r.reply.text.count("group letter") == 1, r.reply.text
    assert MOVE_HELP in r.reply.text


async def test_a_try_at_a_move_by_the_player_on_turn_says_what_is_missing(h: Harness) -> None:
    await h.casual(first="me")
    r = await h.play(ALICE, "J")
    assert r.reply is not None and r.reply.ephemeral
    assert r.reply.text == "J needs a direction: J has up, down, left, right (e.g. `J up`)."
    r = await h.play(ALICE, "J upward")
    assert r.reply is not None
    assert r.reply.text == ("'upward' is not a direction: say up, down, left or right "
                            "(J has up, down, left, right).")
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
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    for number in (match_id, None):
        r = await h.host.viewing.board(Asker(GUILD, CHAN, CAROL), number)
        assert r.reply is not None and r.reply.ephemeral and r.reply.image is not None
        assert r.reply.image.data.startswith(b"\x89PNG")
        assert "Final board, after 1 move." in r.reply.text
        assert "<@alice> wins Match #1" in r.reply.text and "Bob resigned" in r.reply.text
    # A voided match shows its board and why it was voided.
    second = await h.casual(first="me")
    await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), second, "wrong **game**")
    r = await h.host.viewing.board(Asker(GUILD, CHAN, ALICE), second)
    assert r.reply is not None and r.reply.image is not None
    assert r.reply.text.endswith("Voided by the host\\: wrong \\*\\*game\\*\\*.")
    # A match not started has no board; the host's repost is for running matches.
    r = await h.host.viewing.board(Asker(GUILD, CHAN, ALICE), 99)
    assert r.reply is not None and r.reply.text == "There is no match #99 on this server."
    r = await h.host.viewing.board(Asker(GUILD, CHAN, HOSTY), match_id, public=True)
    assert r.reply is not None and r.reply.text == (
        "Match #1 is over: `/match id:1` shows how it ended. A host changes its result with "
        "`/correct match:1`.")


async def test_a_tie_decided_by_the_tie_rule_says_so(h: Harness) -> None:
    match_id = await h.casual(first="me")
    last = None
    for ply, move in enumerate(tie_game()):
        last = await h.play(ALICE if ply % 2 == 0 else BOB, move)
        assert last.posts, (move, last.reply)
    assert last is not None
    result = unescape(last.posts[0].text)
    assert ("🏆 **<@bob> wins Match #1** — 11–11: a tie, and Alice, the First Player, "
            "loses.") in result
    page = await history_post(h.db, GUILD, "bob")
    assert f"`#{match_id}`" in page.text and "**won** 11–11 by the tie rule" in page.text
    page = await history_post(h.db, GUILD, "alice")
    assert "**lost** 11–11 by the tie rule" in page.text


async def test_accept_after_a_decline_says_who_declined(h: Harness) -> None:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "quoridor", [BOB, CAROL, DAVE])
    assert r.reply is not None and "Match #1" in r.reply.text
    await h.host.lobby.answer(Asker(GUILD, CHAN, CAROL), None, accept=False)
    for number in (None, 1):
        late = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), number, accept=True)
        assert late.reply is not None and late.reply.ephemeral
        assert late.reply.text == ("Match #1 was declined by Carol; challenge again with "
                                   "`/challenge`."), late.reply.text
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    await h.host.lobby.cancel(Asker(GUILD, CHAN, ALICE), None)
    late = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), 2, accept=True)
    assert late.reply is not None and late.reply.text == "Match #2 was withdrawn by Alice."
