"""The garnet ledger: balances are sums of entries; a match pays once whatever happens;
no transfer makes a balance negative, not even two at once from two processes."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text

from bot.core.clock import VirtualClock
from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.services import results
from bot.services.matches import MatchConfig
from bot.store.db import open_database
from bot.store.models import Match, Rating, RatingChange
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOST_ROLE, HOSTY, Harness
from tests.bot.economy_helpers import (
    Answering,
    dm,
    eco,
    economy_of,
    entries,
    make_event,
    private,
    public,
    refused,
    win_dm,
)
from tests.fixtures import bot_process

PLAYERS = (ALICE, BOB, CAROL)
_names = itertools.count(1)


async def raw_sum(h: Harness, event_id: int | None, user: str) -> int:
    """A balance by hand, in plain SQL: what ``ledger.balance`` must agree with."""
    clause = "event_id = :e" if event_id is not None else "event_id IS NULL"
    async with h.db.engine.connect() as conn:
        total = await conn.scalar(text(
            f"SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE guild_id = :g "
            f"AND user_id = :u AND {clause}"), {"g": GUILD, "u": user, "e": event_id})
    return int(total or 0)


async def shown_balance(h: Harness, user: Actor, event: str) -> int:
    line = private(await eco(h).garnets(GUILD, HOSTY, user, event))
    return int(line.split("**")[1].split()[0])


# ---- invariants, by random sequences ----------------------------------------------------

OPS = st.lists(st.one_of(
    st.tuples(st.just("grant"), st.integers(0, 2), st.integers(1, 9)),
    st.tuples(st.just("fine"), st.integers(0, 2), st.integers(1, 9)),
    st.tuples(st.just("transfer"), st.integers(0, 2), st.integers(0, 2), st.integers(1, 12)),
    st.tuples(st.just("dm"), st.integers(0, 2), st.integers(0, 2)),
), min_size=1, max_size=12)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, confiscate=st.sampled_from(["no", "winner", "remove"]))
async def test_balances_are_sums_of_entries_and_transfers_never_overdraw(
        h: Harness, ops: list[tuple[object, ...]], confiscate: str) -> None:
    # Each example plays in an event of its own, so balances start at zero.
    event_id = await make_event(h, f"Run {next(_names)}", PLAYERS, transfers=True,
                                confiscate=confiscate, reward=3)
    event = str(event_id)
    model = {p.id: 0 for p in PLAYERS}
    for op in ops:
        kind = op[0]
        if kind == "grant":
            who, n = PLAYERS[int(op[1])], int(op[2])  # type: ignore[call-overload]
            public(await eco(h).grant(GUILD, HOSTY, who, n, "bonus", event))
            model[who.id] += n
        elif kind == "fine":
            who, n = PLAYERS[int(op[1])], int(op[2])  # type: ignore[call-overload]
            public(await eco(h).fine(GUILD, HOSTY, who, n, "late", event))
            model[who.id] -= n  # a host's fine may make a debt
        elif kind == "transfer":
            a, b, n = (PLAYERS[int(op[1])], PLAYERS[int(op[2])],  # type: ignore[call-overload]
                       int(op[3]))  # type: ignore[call-overload]
            response = await eco(h).transfer(GUILD, a, b, n, "deal", event)
            if a is b:
                assert "yourself" in refused(response)
            elif model[a.id] < n:
                assert "you cannot give" in refused(response)
            else:
                public(response)
                model[a.id] -= n
                model[b.id] += n
                assert await raw_sum(h, event_id, a.id) >= 0
        else:
            winner, loser = PLAYERS[int(op[1])], PLAYERS[int(op[2])]  # type: ignore[call-overload]
            if winner is loser:
                continue
            await win_dm(h, winner, loser, event)
            model[winner.id] += 3
            taken = max(0, model[loser.id]) if confiscate != "no" else 0
            model[loser.id] -= taken
            if confiscate == "winner":
                model[winner.id] += taken
        for player in PLAYERS:
            by_hand = await raw_sum(h, event_id, player.id)
            assert by_hand == model[player.id], (op, player.id)
            assert await shown_balance(h, player, event) == by_hand
    # Every match paid its winner exactly once.
    rewards = [e for e in await entries(h, event_id=event_id) if e.kind == "match-reward"]
    assert len({e.match_id for e in rewards}) == len(rewards)


# ---- grants, fines and transfers ------------------------------------------------------------


async def test_grants_and_fines_need_a_reason_and_a_positive_amount(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE])
    assert "Give a reason" in refused(await eco(h).grant(GUILD, HOSTY, ALICE, 5, "  "))
    assert "Give a reason" in refused(await eco(h).fine(GUILD, HOSTY, ALICE, 5, ""))
    assert "from 1 to" in refused(await eco(h).grant(GUILD, HOSTY, ALICE, 0, "x"))
    assert "from 1 to" in refused(await eco(h).fine(GUILD, HOSTY, ALICE, -3, "x"))
    assert "not playing in Season 1" in refused(await eco(h).grant(GUILD, HOSTY, BOB, 1, "x"))
    assert await entries(h) == []
    public(await eco(h).grant(GUILD, HOSTY, ALICE, 5, "won the main match"))
    public(await eco(h).fine(GUILD, HOSTY, ALICE, 2, "late"))
    found = [(e.amount, e.kind, e.note, e.author_id, e.event_id) for e in await entries(h)]
    assert found == [(5, "grant", "won the main match", "hosty", 1),
                     (-2, "fine", "late", "hosty", 1)]


async def test_a_fine_may_make_a_debt_but_a_transfer_never(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], transfers=True)
    text = public(await eco(h).fine(GUILD, HOSTY, ALICE, 2, "cheating"))
    assert text.endswith("cheating. Balance: -2 garnets.")
    assert "You have -2 garnets there; you cannot give 1." in refused(
        await eco(h).transfer(GUILD, ALICE, BOB, 1))


async def test_transfer_moves_garnets_within_the_event(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL], transfers=True)
    await eco(h).grant(GUILD, HOSTY, ALICE, 10, "start")
    text = public(await eco(h).transfer(GUILD, ALICE, BOB, 4, "alliance"))
    assert text == ("💎 <@alice> gave <@bob> 4 garnets in **Season 1** (alliance). "
                    "Alice: 6 garnets, Bob: 4 garnets.")
    assert "cannot give 7" in refused(await eco(h).transfer(GUILD, ALICE, BOB, 7))
    assert "yourself" in refused(await eco(h).transfer(GUILD, ALICE, ALICE, 1))
    assert "<@dave> is not playing in Season 1" in refused(
        await eco(h).transfer(GUILD, ALICE, DAVE, 1))
    assert "You are not playing in that event" in refused(
        await eco(h).transfer(GUILD, DAVE, ALICE, 1))
    out, into = [e for e in await entries(h) if e.kind == "transfer"]
    assert (out.user_id, out.amount, out.note, out.author_id) == ("alice", -4,
                                                                 "to Bob: alliance", "alice")
    assert (into.user_id, into.amount, into.note) == ("bob", 4, "from Alice: alliance")


async def test_transfers_only_where_the_event_allows(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    await eco(h).grant(GUILD, HOSTY, ALICE, 10, "start")
    assert refused(await eco(h).transfer(GUILD, ALICE, BOB, 1)) == (
        "Season 1 does not allow transfers.")
    assert "within an event" in refused(await eco(h).transfer(GUILD, ALICE, BOB, 1, "",
                                                              "none"))
    await make_event(h, "Trading Cup", [ALICE, BOB], transfers=True)
    await eco(h).event_close(GUILD, HOSTY, "Trading Cup")
    assert "Trading Cup is closed" in refused(
        await eco(h).transfer(GUILD, ALICE, BOB, 1, "", "Trading Cup"))


async def test_two_transfers_at_once_from_one_player(h: Harness) -> None:
    await make_event(h, "Season 1", PLAYERS, transfers=True)
    await eco(h).grant(GUILD, HOSTY, ALICE, 10, "start")
    first, second = await asyncio.gather(eco(h).transfer(GUILD, ALICE, BOB, 7),
                                         eco(h).transfer(GUILD, ALICE, CAROL, 7))
    outcomes = sorted([first.reply.ephemeral, second.reply.ephemeral])  # type: ignore[union-attr]
    assert outcomes == [False, True]
    assert await raw_sum(h, 1, "alice") == 3


async def test_two_processes_transferring_at_once_never_overdraw(database_url: str) -> None:
    """Two bots on one database (two engines, two connections; on SQLite real threads,
    on PostgreSQL row locks): the balance check and the spending must not interleave."""
    url = database_url
    dbs = [await open_database(url), await open_database(url)]
    clock = VirtualClock()
    hosts = [bot_process(db, clock, MatchConfig(instance=f"i{i}")) for i, db in enumerate(dbs)]
    one, two = (Answering(economy_of(m)) for m in hosts)
    try:
        for m in hosts:
            await m.roles.adopt(GUILD, [HOST_ROLE])
        await one.event_create(GUILD, HOSTY, "Season 1", transfers=True)
        await one.event_add(GUILD, HOSTY, list(PLAYERS))
        for round_ in range(12):
            await one.grant(GUILD, HOSTY, ALICE, 10, "round")
            done = await asyncio.gather(one.transfer(GUILD, ALICE, BOB, 7 + round_ % 3),
                                        two.transfer(GUILD, ALICE, CAROL, 7))
            assert sorted(r.reply.ephemeral for r in done) == [False, True]  # type: ignore[union-attr]
            async with dbs[0].session() as s:
                left = int(await s.scalar(text(
                    "SELECT SUM(amount) FROM ledger_entries WHERE user_id = 'alice'")) or 0)
            assert left >= 0
            if left:
                await one.fine(GUILD, HOSTY, ALICE, left, "reset")
    finally:
        for db in dbs:
            await db.close()


async def test_ledger_pages_newest_first_with_buttons(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE])
    for n in range(1, 24):
        await eco(h).grant(GUILD, HOSTY, ALICE, n, f"grant {n}")
    r = await eco(h).ledger(GUILD, BOB, ALICE)
    assert r.reply is not None and r.reply.ephemeral
    lines = r.reply.text.splitlines()
    assert lines[0] == ("**Ledger of Alice** in **Season 1** — balance 276 garnets "
                        "(page 1/3, 23 entries)")
    assert lines[1].endswith("**+23** host grant — grant 23 (by Hosty) · balance 276")
    assert len(lines) == 11
    assert [(b.label, b.custom_id) for b in r.reply.buttons] == [
        ("Next ▶", "garnet:ledger:alice:1:2")]
    last = await eco(h).ledger(GUILD, BOB, ALICE, "1", page=3)
    assert last.reply is not None
    assert [line.split("— ")[-1] for line in last.reply.text.splitlines()[1:]] == [
        "grant 3 (by Hosty) · balance 6", "grant 2 (by Hosty) · balance 3",
        "grant 1 (by Hosty) · balance 1"]
    # Each line shows the balance it left, and the pages agree where they meet: the
    # balance after grant 13 (page 2's first line) is 91, grant 14's is 105 (page 1's last).
    middle = await eco(h).ledger(GUILD, BOB, ALICE, "1", page=2)
    assert middle.reply is not None
    assert lines[-1].endswith("grant 14 (by Hosty) · balance 105")
    assert middle.reply.text.splitlines()[1].endswith("grant 13 (by Hosty) · balance 91")
    assert middle.reply.text.splitlines()[-1].endswith("grant 4 (by Hosty) · balance 10")
    assert [b.custom_id for b in last.reply.buttons] == ["garnet:ledger:alice:1:2"]
    # Past the end: the last page.
    beyond = await eco(h).ledger(GUILD, BOB, ALICE, "1", page=9)
    assert beyond.reply is not None and "(page 3/3" in beyond.reply.text


async def test_balances_per_event_outside_events_and_overall(h: Harness) -> None:
    await make_event(h, "Spring", [ALICE])
    await eco(h).grant(GUILD, HOSTY, ALICE, 5, "x", "Spring")
    await eco(h).event_close(GUILD, HOSTY, "Spring")
    await eco(h).grant(GUILD, HOSTY, ALICE, 2, "outside")  # no open event: outside events
    assert private(await eco(h).garnets(GUILD, ALICE, event="Spring")).startswith(
        "Alice has **5 garnets** in **Spring**")
    assert private(await eco(h).garnets(GUILD, ALICE, event="none")) == (
        "Alice has **2 garnets** outside events.")
    assert private(await eco(h).garnets(GUILD, ALICE)) == (
        "Alice has **7 garnets** across all events.")
    overall = await eco(h).ledger(GUILD, ALICE, event="all")
    assert overall.reply is not None and "[Spring]" in overall.reply.text


# ---- a match's reward: exactly once ------------------------------------------------------------


async def booked(h: Harness, match_id: int) -> list[tuple[str, int, str | None]]:
    return [(e.user_id, e.amount, e.key) for e in await entries(h, match_id=match_id)]


async def rebook(h: Harness, match_id: int) -> str:
    """Book a finished match's result again, as a retry after a failure would."""
    async with h.db.session() as s, s.begin():
        match = await s.get(Match, match_id)
        assert match is not None
        users = [p.user_id for p in sorted(match.players, key=lambda p: p.seat or 0)]
        return await results.settle(s, match, users, match.winner_seat, 3, h.clock.now())


async def ratings_of(h: Harness) -> dict[str, tuple[float, float, int]]:
    async with h.db.session() as s:
        return {r.user_id: (r.mu, r.sigma, r.games)
                for r in (await s.scalars(select(Rating))).all()}


async def test_retried_booking_pays_and_rates_once(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], confiscate="winner")
    await eco(h).grant(GUILD, HOSTY, BOB, 4, "start")
    match_id = await win_dm(h, ALICE, BOB)
    paid = await booked(h, match_id)
    assert sorted(paid) == sorted([
        ("alice", 3, f"match:{match_id}:reward"),
        ("bob", -4, f"match:{match_id}:confiscation:from"),
        ("alice", 4, f"match:{match_id}:confiscation:to")])
    rated = await ratings_of(h)
    for _ in range(2):
        await rebook(h, match_id)
    assert await booked(h, match_id) == paid
    assert await ratings_of(h) == rated
    async with h.db.session() as s:
        assert await s.scalar(select(func.count()).select_from(RatingChange)) == 2


async def test_a_restart_pays_nothing_again(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    match_id = await dm(h, ALICE, BOB)
    await h.host.stop()
    # A new process on the same database finishes the match...
    second = bot_process(h.db, h.clock, MatchConfig(), rng=random.Random(1))
    await second.start()
    h.host = second
    r = await second.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert "<@alice> receives 3 garnets." in r.posts[0].text
    await second.stop()
    # ...and a third one books it again: nothing changes.
    third = bot_process(h.db, h.clock, MatchConfig())
    await third.start()
    h.host = third
    await rebook(h, match_id)
    assert await booked(h, match_id) == [("alice", 3, f"match:{match_id}:reward")]
    assert private(await eco(h).garnets(GUILD, ALICE)).startswith("Alice has **3 garnets**")


async def test_adjudication_racing_the_flag_pays_once(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    match_id = await dm(h, ALICE, BOB)
    live = h.host.live[match_id]
    loser = live.users[live.to_move or 0]
    winner = next(u for u in live.users if u != loser)
    # The player to move is 0.05 s from losing on time as the host adjudicates for them.
    await h.clock.advance(live.flag_at() - 0.05)
    verdict, _ = await asyncio.gather(
        h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), match_id, loser, "disconnect"),
        h.clock.advance(0.1))
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        assert match is not None and match.status == "finished"
        won = next(p.user_id for p in match.players if p.seat == match.winner_seat)
    paid = await booked(h, match_id)
    assert paid == [(won, 3, f"match:{match_id}:reward")]
    assert won in (winner, loser)
    assert len([t for t in h.texts() + [p.text for p in verdict.posts] if "wins DM" in t]) == 1
    assert {games for _, _, games in (await ratings_of(h)).values()} == {1}


async def test_two_processes_finishing_one_match_pay_once(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB])
    match_id = await dm(h, ALICE, BOB)
    # A second bot process on the same file has the same match running.
    other_db = await open_database(h.url)
    other = bot_process(other_db, h.clock, MatchConfig(instance="other"))
    await other.start()
    try:
        assert match_id in other.live
        await asyncio.gather(
            h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), match_id, "alice", "host one"),
            other.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), match_id, "alice", "host two"))
    finally:
        await other.stop()
        await other_db.close()
    assert await booked(h, match_id) == [("alice", 3, f"match:{match_id}:reward")]
    assert {games for _, _, games in (await ratings_of(h)).values()} == {1}


# ---- confiscation --------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "winner_gets", "text"), [
    ("winner", 3 + 6, "<@bob>'s 6 garnets are confiscated and go to <@alice>."),
    ("remove", 3, "<@bob>'s 6 garnets are confiscated."),
])
async def test_confiscation_takes_the_losers_whole_balance(h: Harness, mode: str,
                                                            winner_gets: int,
                                                            text: str) -> None:
    await make_event(h, "Season 1", [ALICE, BOB, CAROL], confiscate=mode)
    await eco(h).grant(GUILD, HOSTY, BOB, 6, "start")
    await eco(h).grant(GUILD, HOSTY, CAROL, 2, "start")
    match_id = await dm(h, ALICE, BOB)
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    assert text in r.posts[0].text
    assert await raw_sum(h, 1, "alice") == winner_gets
    assert await raw_sum(h, 1, "bob") == 0
    assert await raw_sum(h, 1, "carol") == 2  # a bystander keeps theirs
    kinds = {e.kind for e in await entries(h, match_id=match_id)}
    assert kinds == {"match-reward", "confiscation"}


async def test_no_confiscation_of_nothing_or_a_debt_or_outside_events(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], confiscate="winner")
    await eco(h).fine(GUILD, HOSTY, BOB, 2, "debt")
    match_id = await win_dm(h, ALICE, BOB)
    assert [e.kind for e in await entries(h, match_id=match_id)] == ["match-reward"]
    assert await raw_sum(h, 1, "bob") == -2
    outside = await win_dm(h, ALICE, BOB, event="none")
    assert [e.kind for e in await entries(h, match_id=outside)] == ["match-reward"]


async def test_a_voided_match_pays_and_rates_nothing(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, BOB], confiscate="winner")
    await eco(h).grant(GUILD, HOSTY, BOB, 6, "start")
    match_id = await dm(h, ALICE, BOB)
    await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), match_id, "wrong players")
    assert await entries(h, match_id=match_id) == []
    assert await ratings_of(h) == {}
