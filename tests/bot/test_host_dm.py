"""A Death Match from start to end through the host, on virtual time."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image as PILImage
from sqlalchemy import func, select

from bot.core.options import time_control
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup
from bot.store.models import HostAction, LedgerEntry, Match, Move
from engine import get_game
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, HOSTY, Harness


def match_id_of(text: str) -> int:
    found = re.search(r"#(\d+)", text)
    assert found, text
    return int(found.group(1))


async def start_dm(h: Harness, chooser: str = "alice", **kw: object) -> int:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser=chooser,
                              **kw))  # type: ignore[arg-type]
    assert r.posts, r.reply
    return match_id_of(r.posts[-1].text)


async def test_whole_dm_with_reminders_reserve_banks_and_loss_on_time(h: Harness) -> None:
    match_id = await start_dm(h)
    # The chooser (higher priority) sees buttons for either player going first.
    # Bob is not the chooser and cannot choose.
    refused = await h.host.choosing.choose_first(Asker(GUILD, CHAN, BOB), None, "bob")
    assert refused.reply and refused.reply.ephemeral and "chooses the First Player" in \
        refused.reply.text
    started = await h.host.choosing.choose_first(Asker(GUILD, CHAN, ALICE), None, "bob")
    board = started.posts[0]
    assert board.image is not None and board.image.data.startswith(b"\x89PNG")
    assert "<@alice> chose <@bob> as the First Player" in board.text
    assert "<@bob> (Black) to move — 1:00 + 36 banks" in board.text

    await h.clock.advance(10)
    r = await h.play(BOB, "D left")
    assert "move 1: <@bob> (Black) played **DL**" in r.posts[0].text
    assert h.delivered == []  # no reminder within the first 30 s

    # Alice thinks 62 s: three turn reminders, the reserve, and one bank is spent.
    await h.clock.advance(62)
    assert h.texts() == [
        "⏰ <@alice>: 30 s left of your turn time.",
        "⏰ <@alice>: 15 s left of your turn time.",
        "⏰ <@alice>: 5 s left of your turn time.",
        "⏰ <@alice>: turn time is up, you are on your reserve now: 36 banks (3:00).",
    ]
    r = await h.play(ALICE, "j up")
    assert "played **JU** (used 1 bank, 35 banks left)" in r.posts[0].text

    # Bob now lets his whole reserve run out.
    h.delivered.clear()
    await h.clock.advance(239.9)
    texts = h.texts()
    assert texts[-1] == "⏰ <@bob>: 2:30 of reserve used, 6 banks (0:30) left."
    assert not any("wins" in t for t in texts)
    # The flag waits out the lag allowance (a move sent in time may still arrive).
    await h.clock.advance(0.2)
    assert not any("wins" in t for t in h.texts())
    await h.clock.advance(2.0)
    final = h.delivered[-1]
    assert "🏆 **<@alice> wins DM #1** — Bob ran out of time." in final.text
    assert "<@alice> receives 3 garnets." in final.text
    assert final.image is not None
    # The rules cannot see a time-out: the final board says it where it said whose turn
    # it was (tests/engine/test_verdict.py), at the board's own size.
    board_size = PILImage.open(io.BytesIO(board.image.data)).size
    final_size = PILImage.open(io.BytesIO(final.image.data)).size
    assert final_size == board_size

    # A move after the flag changes nothing.
    late = await h.play(BOB, "WU")
    assert late.posts == [] and late.reply is None

    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        assert match is not None
        assert (match.status, match.winner_seat, match.end_reason) == ("finished", 1, "timeout")
        bob, alice = sorted(match.players, key=lambda p: p.seat or 0)
        # Bob ran out: his whole reserve is gone; Alice spent one bank.
        assert (bob.banks_left, alice.banks_left) == (0, 35)
        assert abs(bob.time_used - 250) < 1e-6 and abs(alice.time_used - 62) < 1e-6
        rewards = (await s.scalars(select(LedgerEntry))).all()
        assert [(e.user_id, e.amount, e.kind) for e in rewards] == [("alice", 3, "match-reward")]


async def test_dm_by_lots_starts_at_once(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="lots"))
    assert "Lots were drawn" in r.posts[1].text and r.posts[1].image is not None


async def test_an_identical_second_dm_in_the_channel_is_refused(h: Harness) -> None:
    """Issue 28, item 11: a second identical `/dm` was set up beside the first in silence."""
    match_id = await start_dm(h)
    again = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                                  DMSetup("cairo", [BOB, ALICE], chooser="alice"))
    assert again.posts == [] and again.reply is not None and again.reply.ephemeral
    assert again.reply.text == (
        f"DM #{match_id} between <@alice> and <@bob> is already set up in this channel and "
        "waits for its First Player; nothing new was set up. "
        f"`/void match:{match_id}` cancels it, to set it up again.")
    async with h.db.session() as s:
        assert await s.scalar(select(func.count()).select_from(Match)) == 1
    # Another game, or another channel, is another DM.
    other = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                                  DMSetup("quoridor", [ALICE, BOB], chooser="alice"))
    assert other.posts, other.reply
    elsewhere = await h.host.choosing.start_dm(Asker(GUILD, "c2", HOSTY),
                                      DMSetup("cairo", [ALICE, BOB], chooser="alice"))
    assert elsewhere.posts, elsewhere.reply


async def test_only_hosts_start_dms(h: Harness) -> None:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, CAROL), DMSetup("cairo", [ALICE, BOB]))
    assert r.reply and r.reply.ephemeral and "Only hosts" in r.reply.text
    assert r.posts == []


async def test_a_game_played_to_its_end_pays_the_reward_once(h: Harness) -> None:
    await start_dm(h, chooser="lots", reward=5)
    live = next(iter(h.host.live.values()))
    game = get_game("cairo")
    rng = random.Random(3)
    last = None
    while live.id in h.host.live:
        seat = live.to_move
        moves = game.legal_moves(live.state)
        text = game.notation(rng.choice(moves))
        last = await h.play(ALICE if live.users[seat] == "alice" else BOB, text)
        assert last.posts, last.reply
    assert last is not None
    result = last.posts[0].text
    outcome = game.outcome(live.state)
    assert outcome is not None and outcome.scores is not None
    assert "Corridor" in result
    winner = live.users[outcome.winner] if outcome.winner is not None else None
    async with h.db.session() as s:
        entries = (await s.scalars(select(LedgerEntry))).all()
        moves = await s.scalar(select(func.count()).select_from(Move))
        match = await s.get(Match, live.id)
    assert moves == live.ply
    assert match is not None and match.scores == list(outcome.scores)
    assert [(e.user_id, e.amount) for e in entries] == [(winner, 5)]


async def test_pause_stops_the_clock_and_resume_restarts_it(h: Harness) -> None:
    await start_dm(h, chooser="lots", tc=TimeControl.build(turn=20, banks=0))
    await h.clock.advance(10)
    refused = await h.host.controls.pause(Asker(GUILD, CHAN, ALICE), None)
    assert refused.reply and "Only hosts" in refused.reply.text
    paused = await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), None, "connection trouble")
    assert paused.reply and "paused" in paused.reply.text and "connection trouble" in \
        paused.reply.text
    await h.clock.advance(3600)
    assert not any("wins" in t for t in h.texts())
    live = next(iter(h.host.live.values()))
    mover = ALICE if live.users[live.to_move or 0] == "alice" else BOB
    blocked = await h.play(mover, "DL")
    assert blocked.reply and "paused" in blocked.reply.text
    await h.host.controls.resume(Asker(GUILD, CHAN, HOSTY), None)
    await h.clock.advance(9.9)
    assert not any("wins" in t for t in h.texts())
    await h.clock.advance(2.2)  # the flag waits MAX_LAG
    assert "ran out of time" in h.texts()[-1]
    async with h.db.session() as s:
        actions = (await s.scalars(select(HostAction.action))).all()
    assert list(actions) == ["pause", "resume"]


async def test_extend_adds_to_the_current_turn_only(h: Harness) -> None:
    await start_dm(h, chooser="lots", tc=TimeControl.build(turn=20, banks=0))
    await h.clock.advance(15)
    r = await h.host.controls.extend(Asker(GUILD, CHAN, HOSTY), None, 30)
    assert r.reply and "added 30 s" in r.reply.text
    await h.clock.advance(30)
    assert not any("wins" in t for t in h.texts())
    await h.clock.advance(7.1)  # the flag waits MAX_LAG
    assert "ran out of time" in h.texts()[-1]


async def test_extensions_of_one_turn_add_up_to_a_day_at_most(h: Harness) -> None:
    await start_dm(h, chooser="lots", tc=TimeControl.build(turn=20, banks=0))
    r = await h.host.controls.extend(Asker(GUILD, CHAN, HOSTY), None, 86_000)
    assert r.reply and not r.reply.ephemeral
    r = await h.host.controls.extend(Asker(GUILD, CHAN, HOSTY), None, 401)
    assert r.reply and r.reply.ephemeral
    assert r.reply.text == ("A turn can be extended by 24 h in all; this one has "
                            "23 h 53 min 20 s added already.")
    r = await h.host.controls.extend(Asker(GUILD, CHAN, HOSTY), None, 400)
    assert r.reply and "added 6 min 40 s" in r.reply.text


async def test_void_and_adjudicate_need_reasons_and_are_logged(h: Harness) -> None:
    match_id = await start_dm(h, chooser="lots")
    r = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), None, "  ")
    assert r.reply and "reason" in r.reply.text
    r = await h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), None, "bob",
                                         "alice left the server")
    assert "🏆 **<@bob> wins DM" in r.posts[0].text and "adjudicated" in r.posts[0].text
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        log = (await s.scalars(select(HostAction))).all()
        ledger = (await s.scalars(select(LedgerEntry))).all()
    assert match is not None and match.end_reason == "adjudicated"
    assert [(a.action, a.detail) for a in log] == [
        ("adjudicate", "winner bob: alice left the server")]
    assert [(e.user_id, e.amount) for e in ledger] == [("bob", 3)]
    # A second DM, voided: no result, no reward.
    h2 = await start_dm(h, chooser="lots")
    r = await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), h2, "wrong players")
    assert r.reply and "void" in r.reply.text
    async with h.db.session() as s:
        voided = await s.get(Match, h2)
        count = await s.scalar(select(func.count()).select_from(LedgerEntry))
    assert voided is not None and voided.status == "voided" and count == 1


async def test_a_move_counts_when_it_was_sent_within_the_lag_allowance(h: Harness) -> None:
    """lichess-like lag compensation, bounded: a move sent 1 s before the flag and
    delivered 1 s after it is in time; a message replayed long after an outage counts
    at most MAX_LAG before it arrived."""
    match_id = await h.casual(first="me", tc=time_control(turn=10.0, banks=0,
                                                          reminders="off"))
    await h.clock.advance(11.0)  # Alice sent at 9 s; it arrives at 11 s
    r = await h.host.play.typed(Asker(GUILD, CHAN, ALICE), "D left", sent_at=h.clock.now() - 2.0)
    assert r.posts and "played **DL**" in r.posts[0].text
    live = h.host.matches.live[match_id]
    assert live.time_used[0] == pytest.approx(9.0)
    # Bob's message claims to be from long ago: it counts only 2 s before arrival.
    await h.clock.advance(5.0)
    await h.host.play.typed(Asker(GUILD, CHAN, BOB), "J up", sent_at=h.clock.now() - 600.0)
    assert live.time_used[1] == pytest.approx(3.0)
    # Sent after the flag and the allowance: the loss stands.
    await h.clock.advance(12.5)
    assert any("Alice ran out of time" in t for t in h.texts())
