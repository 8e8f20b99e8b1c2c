"""Hosts' corrections, logged: the last move taken back with its clocks, and a finished
result corrected with its garnets, confiscations, standings and ratings, once."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.core.escape import unescape
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services import history_view
from bot.services.history_queries import match_record, player_history
from bot.store.models import HostAction, LedgerEntry, MatchResult, Rating, RatingChange
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import eco, entries, make_event, refused, win_dm


async def test_take_back_restores_the_board_and_the_clocks(h: Harness) -> None:
    await h.casual(first="me")
    await h.clock.advance(10)
    await h.play(ALICE, "D left")
    await h.clock.advance(40)
    await h.host.controls.extend(Asker(GUILD, CHAN, HOSTY), None, 30)
    await h.clock.advance(45)  # Bob: 85 s of a 60+30 s turn, no bank spent
    await h.play(BOB, "J up")
    await h.clock.advance(70)  # Alice: 70 s, two banks
    await h.play(ALICE, "W up")
    live = next(iter(h.host.live.values()))
    assert (live.ply, live.banks_left, live.time_used) == (3, [34, 36], [80.0, 85.0])
    r = await h.host.corrections.take_back(Asker(GUILD, CHAN, HOSTY), None, "misclick")
    assert r.reply is not None and not r.reply.ephemeral and r.reply.image is not None
    said = unescape(r.reply.text)
    assert said.startswith("↩ <@hosty> took back move 3 of Match #1 (WU by <@alice>): "
                           "misclick. The clock is as it stood before the move.")
    # Alice is on turn again, 70 s into it, her two banks back.
    runs_out = int(h.clock.now() + 170)  # 2:50 from now, live on Discord
    assert f"<@alice> (Black) to move — on reserve, 2:50 left; time runs out <t:{runs_out}:R>." \
        in said
    assert (live.ply, live.banks_left, live.time_used) == (2, [36, 36], [10.0, 85.0])
    # Then Bob's move, whose turn had 30 s added: the extension comes back too.
    await h.host.corrections.take_back(Asker(GUILD, CHAN, HOSTY), None, "both")
    assert (live.ply, live.to_move, live.extra) == (1, 1, 30.0)
    assert abs(live.elapsed(h.clock.now()) - 85) < 1e-6
    await h.clock.advance(184.9)  # 60 + 30 + 180 of reserve = 270
    assert not any("wins" in t for t in h.texts())
    await h.clock.advance(2.2)  # the flag waits out the 2 s a message may take
    assert "ran out of time" in h.texts()[-1]
    async with h.db.session() as s:
        log = [(a.action, a.detail) for a in (await s.scalars(select(HostAction))).all()]
    assert log == [("extend", "30 s"), ("takeback", "move 3, WU by Alice: misclick"),
                   ("takeback", "move 2, JU by Bob: both")]


async def test_take_back_of_the_first_move_and_who_may(h: Harness) -> None:
    await h.casual(first="me", tc=TimeControl.off())
    await h.play(ALICE, "D left")
    await h.host.corrections.take_back(Asker(GUILD, CHAN, HOSTY), None, "oops")
    live = next(iter(h.host.live.values()))
    assert live.ply == 0 and live.to_move == 0
    moved = await h.play(ALICE, "J up")
    assert moved.posts and "move 1: <@alice> (Black) played **JU**" in moved.posts[0].text
    await h.host.corrections.take_back(Asker(GUILD, CHAN, HOSTY), None, "again")
    nothing = await h.host.corrections.take_back(Asker(GUILD, CHAN, HOSTY), None, "once more")
    assert nothing.reply is not None and "nothing to take back" in nothing.reply.text
    refusal = await h.host.corrections.take_back(Asker(GUILD, CHAN, ALICE), None, "me")
    assert refusal.reply is not None and "Only hosts" in refusal.reply.text


async def test_a_corrected_result_rebooks_garnets_and_ratings_once(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL], confiscate="winner", reward=5)
    await eco(h).grant(GUILD, HOSTY, BOB, 7, "start")
    number = await win_dm(h, ALICE, BOB)  # Alice +5, and Bob's 7 go to her
    async with h.db.session() as s:
        before = {r.user_id: (r.mu, r.sigma) for r in (await s.scalars(select(Rating))).all()}
        first = {c.user_id: (c.mu_before, c.sigma_before)
                 for c in (await s.scalars(select(RatingChange))).all()}
    r = await h.host.corrections.correct(Asker(GUILD, CHAN, HOSTY), number, "bob",
                                         "alice's move was illegal")
    text = unescape(r.reply.text)
    assert text.startswith("✏️ <@hosty> corrected the result of DM #1: <@bob> wins (before: "
                           "Alice won) — alice's move was illegal. Reversed: <@alice> −12, "
                           "<@bob> +7.")
    assert "<@bob> receives 5 garnets." in text and "<@alice>'s 0" not in text
    assert {p: await _balance(h, p) for p in ("alice", "bob")} == {"alice": 0, "bob": 12}
    # Append-only: the old entries stand, reversed by new ones.
    kinds = [(e.user_id, e.amount, e.kind) for e in await entries(h)]
    assert kinds == [("bob", 7, "grant"), ("alice", 5, "match-reward"),
                     ("bob", -7, "confiscation"), ("alice", 7, "confiscation"),
                     ("alice", -12, "correction"), ("bob", 7, "correction"),
                     ("bob", 5, "match-reward")]
    async with h.db.session() as s:
        outcomes = {(m.user_id, m.outcome) for m in (await s.scalars(select(MatchResult)))}
        rated = {c.user_id: c for c in (await s.scalars(select(RatingChange))).all()}
        now = {r.user_id: r for r in (await s.scalars(select(Rating))).all()}
    assert outcomes == {("alice", "lost"), ("bob", "won")}
    # Rated again from where they stood before the match: Bob up, Alice down.
    for user in ("alice", "bob"):
        assert (rated[user].mu_before, rated[user].sigma_before) == pytest.approx(first[user])
        assert (now[user].mu, now[user].sigma) == pytest.approx(
            (rated[user].mu_after, rated[user].sigma_after))
        assert now[user].games == 1
    assert now["bob"].mu > 25 > now["alice"].mu and before["alice"][0] > 25
    # The same result again is refused; a draw is a second correction, booked once more.
    assert "already has that result" in refused(
        await h.host.corrections.correct(Asker(GUILD, CHAN, HOSTY), number, "bob", "again"))
    await h.host.corrections.correct(Asker(GUILD, CHAN, HOSTY), number, None, "a draw after all")
    # A draw: no reward, no confiscation; Bob has his own 7 back.
    assert {p: await _balance(h, p) for p in ("alice", "bob")} == {"alice": 0, "bob": 7}
    async with h.db.session() as s:
        log = [(a.action, a.detail) for a in (await s.scalars(select(HostAction))).all()]
    assert log == [("correct", "from Alice won to Bob won: alice's move was illegal"),
                   ("correct", "from Bob won to a draw: a draw after all")]
    # Its history says what happened: a correction, not a decision of the match itself.
    record = await match_record(h.db, GUILD, number)
    assert record is not None and record.result_text is not None
    assert unescape(record.result_text) == ("**DM #1 ends in a draw** — result corrected "
                                            "by the host: a draw after all.")
    (line,) = history_view.history_text(await player_history(h.db, GUILD, "bob"))\
        .splitlines()[1:-1]
    assert "**draw** after the host's correction vs Alice" in line


async def test_two_corrections_at_once_book_one(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    number = await win_dm(h, ALICE, BOB)
    a, b = await asyncio.gather(h.host.corrections.correct(Asker(GUILD, CHAN, HOSTY), number,
                                                           "bob", "x"),
                                h.host.corrections.correct(Asker(GUILD, CHAN, HOSTY), number,
                                                           "bob", "x"))
    assert sorted(bool(r.reply.ephemeral) for r in (a, b)) == [False, True]
    assert {p: await _balance(h, p) for p in ("alice", "bob")} == {"alice": 0, "bob": 3}


async def test_corrections_refuse_what_they_cannot_correct(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    number = await win_dm(h, ALICE, BOB)
    host, player = Asker(GUILD, CHAN, HOSTY), Asker(GUILD, CHAN, ALICE)
    assert "must be a player" in refused(await h.host.corrections.correct(host, number, "carol",
                                                                          "x"))
    assert "Only hosts" in refused(await h.host.corrections.correct(player, number, "alice", "x"))
    assert "no match #9" in refused(await h.host.corrections.correct(host, 9, "alice", "x"))
    await eco(h).event_close(GUILD, HOSTY)
    assert "which is closed" in refused(await h.host.corrections.correct(host, number, "bob", "x"))


async def _balance(h: Harness, user: str) -> int:
    async with h.db.session() as s:
        rows = (await s.scalars(select(LedgerEntry.amount).where(
            LedgerEntry.user_id == user, LedgerEntry.event_id.is_not(None)))).all()
    return sum(rows)
