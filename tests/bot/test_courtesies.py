"""Casual courtesies: a draw by agreement, an abort in the first two moves, a rematch
with colours swapped, and a game without a clock that lapses when nobody plays."""

from __future__ import annotations

from sqlalchemy import select

from bot.core import buttons
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.history import history_post
from bot.services.matches import DMSetup, HostedMatch
from bot.store.models import Match, RatingChange
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, HOSTY, Harness


async def test_a_draw_offered_and_accepted(h: Harness) -> None:
    number = await h.casual(first="me")
    offer = await h.host.courtesy.draw(Asker(GUILD, CHAN, ALICE), None)
    assert offer.reply is not None and not offer.reply.ephemeral
    assert offer.reply.text == ("🤝 <@alice> offers a draw in Match #1. <@bob>: press the "
                                "button or use `/draw` to accept; a move declines it.")
    assert [b.custom_id for b in offer.reply.buttons] == [buttons.draw(number)]
    again = await h.host.courtesy.draw(Asker(GUILD, CHAN, ALICE), None)
    assert again.reply is not None and again.reply.ephemeral
    done = await h.host.courtesy.draw(Asker(GUILD, CHAN, BOB), number)
    (post,) = done.posts
    assert post.text.startswith("**Match #1 ends in a draw** — the players agreed to a draw.")
    assert [b.custom_id for b in post.buttons] == [buttons.rematch(number)]
    page = await history_post(h.db, GUILD, "alice")
    assert "**draw** by agreement" in page.text


async def test_a_move_declines_a_draw_offer(h: Harness) -> None:
    await h.casual(first="me")
    await h.host.courtesy.draw(Asker(GUILD, CHAN, BOB), None)
    await h.play(ALICE, "D left")
    offer = await h.host.courtesy.draw(Asker(GUILD, CHAN, ALICE),
                                       None)  # a new offer, not an acceptance
    assert offer.reply is not None and "offers a draw" in offer.reply.text
    assert h.host.live[1].draw_offer == 0


async def test_no_draws_or_aborts_by_players_in_a_dm(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots"))
    assert r.posts
    for ask in (h.host.courtesy.draw, h.host.courtesy.abort):
        refused = await ask(Asker(GUILD, CHAN, ALICE), None)
        assert refused.reply is not None and refused.reply.ephemeral
        assert "Death Match" in refused.reply.text


async def test_abort_in_the_first_two_moves_leaves_no_result(h: Harness) -> None:
    number = await h.casual(first="me")
    await h.play(ALICE, "D left")
    r = await h.host.courtesy.abort(Asker(GUILD, CHAN, BOB), None)
    assert r.reply is not None and r.reply.text == (
        "✋ <@bob> aborted Match #1 before its second move: no result, no rating.")
    async with h.db.session() as s:
        match = await s.scalar(select(Match).where(Match.number == number))
        rated = (await s.scalars(select(RatingChange))).all()
    assert match is not None and (match.status, match.end_reason) == ("voided", "aborted")
    assert rated == []
    assert "**aborted**" in (await history_post(h.db, GUILD, "bob")).text
    # Too late after the second move.
    await h.casual(first="me")
    await h.play(ALICE, "D left")
    await h.play(BOB, "J up")
    late = await h.host.courtesy.abort(Asker(GUILD, CHAN, ALICE), None)
    assert late.reply is not None and late.reply.ephemeral
    assert "only before its second move" in late.reply.text


async def test_rematch_swaps_the_colours(h: Harness) -> None:
    number = await h.casual(first="me", tc=TimeControl.build(turn=30), rated=False)
    done = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    assert [b.custom_id for b in done.posts[0].buttons] == [buttons.rematch(number)]
    r = await h.host.courtesy.rematch(Asker(GUILD, CHAN, ALICE), number)
    assert r.reply is not None and "**Match #2: Cairo Corridor** — <@alice> challenges <@bob>" \
        in r.reply.text
    assert "30 s a turn" in r.reply.text and "unrated" in r.reply.text
    started = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    # Bob was second in #1: he moves first in #2.
    assert "**Match #2 begins: Cairo Corridor** — <@bob> (Black) vs <@alice> (Red)" in \
        started.posts[0].text
    refused = await h.host.courtesy.rematch(Asker(GUILD, CHAN, CAROL), number)
    assert refused.reply is not None and "Only the players" in refused.reply.text


async def test_a_casual_game_without_a_clock_lapses_when_left(h: Harness) -> None:
    number = await h.casual(first="me", tc=TimeControl.off())
    await h.clock.advance(20 * 3600)
    await h.play(ALICE, "D left")  # a move: the idle time starts again
    await h.clock.advance(23 * 3600)
    assert h.delivered == []
    await h.clock.advance(3600)
    assert h.texts() == ["💤 Match #1 lapsed: no move for 1 day. No result is recorded."]
    async with h.db.session() as s:
        match = await s.scalar(select(Match).where(Match.number == number))
    assert match is not None and (match.status, match.end_reason) == ("voided", "lapsed")
    assert not h.host.live


async def test_a_game_a_tournament_set_up_has_no_courtesies(h: Harness) -> None:
    """A game made for its players by a service (a tournament's pairing), not by a
    challenge: no draw by agreement, no abort, no idle lapse, no rematch; its result
    is the rules' or a host's."""
    _, started = await h.host.lobby.host_match(Asker(GUILD, CHAN, HOSTY), HostedMatch(
        "cairo", [ALICE, BOB], first=ALICE.id, tc=TimeControl.off()))
    assert started.posts
    for ask in (h.host.courtesy.draw, h.host.courtesy.abort):
        refused = await ask(Asker(GUILD, CHAN, ALICE), None)
        assert refused.reply is not None and refused.reply.ephemeral
        assert "A game a host set up" in refused.reply.text
    (live,) = h.host.live.values()
    assert live.hosted and live.timer is None  # no idle lapse armed
    ended = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    (post,) = ended.posts
    assert "wins" in post.text and post.buttons == ()  # no rematch button
    rematch = await h.host.courtesy.rematch(Asker(GUILD, CHAN, ALICE), live.number)
    assert rematch.reply is not None and rematch.reply.ephemeral
