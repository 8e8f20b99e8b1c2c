"""At Discord's global limit (``bot.services.pressure``): while boards wait longer than
``BOARD_WAIT_LIMIT``, new matches and practice games are refused with one sentence on
the servers that run their share of the matches or more (every server past
``ALL_AT`` times the limit), running matches go on; the refusal lifts once boards have
waited at most half the limit for ``HOLD`` seconds. The adapter's pressure is faked
here by a signal the test sets; ``tests/bot/test_discord_pacing.py`` drives it from the
real pacer."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import event

from bot.core.metrics import AT_LIMIT, LIMIT_REFUSALS
from bot.core.requests import Asker
from bot.services.matches.choosing import DMSetup
from bot.services.pressure import ALL_AT, HOLD, WAITING, Shares
from bot.store.db import Database
from bot.texts import refused
from tests.bot.admission import started
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness
from tests.discord_bot import World
from tests.fake.discord_world import ALICE as ALICE_D
from tests.fake.discord_world import BOB as BOB_D
from tests.fake.discord_world import CAROL as CAROL_D
from tests.fake.discord_world import HANA

LIMIT = refused.at_discord_limit()


def refusals(reason: str) -> float:
    return float(LIMIT_REFUSALS.labels(reason)._value.get())


async def new_matches(h: Harness) -> list[str | None]:
    """What a challenge, a DM and a practice game are answered now: None when it was
    made (a public answer or posts), else the refusal."""
    said: list[str | None] = []
    for r in (await h.host.lobby.challenge(Asker(GUILD, "c2", CAROL), "cairo", [DAVE]),
              await h.host.choosing.start_dm(Asker(GUILD, "c3", HOSTY),
                                    DMSetup("cairo", [CAROL, DAVE], chooser="lots")),
              await h.host.practice.start(Asker(GUILD, "c4", ALICE), "cairo", 1)):
        made = bool(r.posts) or (r.reply is not None and not r.reply.ephemeral)
        said.append(None if made else r.reply.text if r.reply else "?")
    return said


async def test_new_matches_wait_while_boards_do_and_running_ones_go_on(
        h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    match_id = await h.casual()  # running before the limit is reached
    pressure = h.services.matches.pressure
    health = h.services.matches.kit.health
    assert pressure.limit == 5.0
    wait = [0.0]
    pressure.signal = lambda: wait[0]

    refused_before = refusals("share")
    wait[0] = 6.0  # a board has waited 6 s: past the limit
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        assert await new_matches(h) == [LIMIT] * 3
    assert "at Discord's limit: boards wait 6.0 s" in caplog.text
    counters = health.counters()
    assert (counters["discord_at_limit"], counters["discord_limit_spells"],
            counters["discord_limit_refusals"], counters["board_wait_ms"]) == (1, 1, 3, 6000)
    # ... and so do the operators' metrics
    assert AT_LIMIT._value.get() == 1 and refusals("share") == refused_before + 3
    moved = await h.play(ALICE, "D left")  # the running match is never refused
    assert moved.posts and moved.posts[0].image is not None
    assert h.host.live[match_id].ply == 1

    wait[0] = 4.0  # below the limit, above half of it: still refused (hysteresis)
    await h.clock.advance(HOLD + 1)
    assert await new_matches(h) == [LIMIT] * 3
    # At most half: lifted once that has held for HOLD seconds (below a fifth, where
    # the servers that run their share are let in again: ``WAITING``).
    wait[0] = 0.5
    await h.clock.advance(HOLD - 1)
    assert await new_matches(h) == [LIMIT] * 3
    caplog.clear()
    with caplog.at_level(logging.WARNING, "bot.services.pressure"):
        await h.clock.advance(2)
        assert await new_matches(h) == [None] * 3
    assert "below Discord's limit again after" in caplog.text
    counters = health.counters()
    assert (counters["discord_at_limit"], counters["discord_limit_spells"],
            counters["discord_limit_refusals"]) == (0, 1, 9)
    assert AT_LIMIT._value.get() == 0 and refusals("share") == refused_before + 9


async def test_each_board_out_is_observed(h: Harness) -> None:
    """The adapter reports each board's wait as it leaves: one long wait turns the
    refusal on before anyone asks; a quiet spell then lifts it at the next request."""
    pressure = h.services.matches.pressure
    pressure.observe(7.5)
    assert pressure.at_limit and h.services.matches.kit.health.limit_spells == 1
    await h.clock.advance(HOLD)
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB])
    assert r.reply is not None and r.reply.text != LIMIT and not pressure.at_limit


async def test_without_a_limit_nothing_is_refused(h: Harness) -> None:
    """The console has no global limit: boards never wait, nothing is refused."""
    assert await new_matches(h) == [None] * 3
    assert not h.services.matches.pressure.at_limit


async def test_a_challenge_made_before_the_limit_is_not_started_at_it(h: Harness) -> None:
    """Accepting a challenge made before the limit would start a match at it (on a
    server that runs its share): refused with the same sentence, the challenge still
    open; accepted once the limit lifts."""
    await h.casual()  # the server runs garnet's one match
    pressure = h.services.matches.pressure
    wait = [0.0]
    pressure.signal = lambda: wait[0]
    made = await h.host.lobby.challenge(Asker(GUILD, "c2", CAROL), "cairo", [DAVE])
    assert made.reply is not None and made.reply.text != LIMIT
    wait[0] = 6.0
    r = await h.host.lobby.answer(Asker(GUILD, "c2", DAVE), None, accept=True)
    assert r.reply is not None and r.reply.text == LIMIT and not r.posts
    assert len(h.host.live) == 1
    wait[0] = 0.0
    await h.clock.advance(HOLD + 1)
    r = await h.host.lobby.answer(Asker(GUILD, "c2", DAVE), None, accept=True)
    assert r.posts and len(h.host.live) == 2  # the same challenge, started now


# ---- fair between servers -----------------------------------------------------------


async def test_one_servers_burst_does_not_lock_out_another(h: Harness) -> None:
    """A server floods garnet with matches until boards wait past the limit: its next
    ones are refused; another server still starts its one match (and more, while it
    runs fewer than the even share), and is refused alike only past ALL_AT times the
    limit."""
    pressure = h.services.matches.pressure
    wait = [0.0]
    pressure.signal = lambda: wait[0]
    for n in range(4):  # the burst
        assert await started(h, "flood", n) is None
    wait[0] = 6.0  # boards wait past the limit now
    share, everyone = refusals("share"), refusals("all")
    assert await started(h, "flood", 4) == LIMIT
    assert await started(h, "quiet", 0) is None  # its one match: it ran none
    assert await started(h, "quiet", 1) is None  # 1 of 5 on 2 servers: below 2.5
    assert await started(h, "quiet", 2) is None  # 2 of 6: below 3
    assert await started(h, "quiet", 3) is None  # 3 of 7: below 3.5
    assert await started(h, "quiet", 4) == LIMIT  # 4 of 8: its share now
    assert await started(h, "flood", 5) == LIMIT
    assert (refusals("share"), refusals("all")) == (share + 3, everyone)
    wait[0] = ALL_AT * pressure.limit + 1  # far past it: every server
    assert await started(h, "other", 0) == LIMIT
    assert (refusals("share"), refusals("all")) == (share + 3, everyone + 1)
    assert h.services.matches.kit.health.counters()["discord_limit_refusals"] == 4


@dataclass
class Running:
    guild_id: str
    finished: bool = False


def test_shares_count_the_running_matches_by_server() -> None:
    shares = Shares.of([Running("a"), Running("a"), Running("a"), Running("b"),
                        Running("b", finished=True)])
    assert shares.running == {"a": 3, "b": 1} and shares.total == 4
    assert shares.fair() == 2.0
    assert shares.at_or_over("a") and not shares.at_or_over("b")
    assert not shares.at_or_over("c")  # a server that runs none
    assert Shares.of([Running("a"), Running("b")]).at_or_over("a")  # even: everyone
    assert Shares.of([]).fair() == 0.0 and not Shares.of([]).at_or_over("a")


# ---- a refusal is cheap --------------------------------------------------------------


@contextmanager
def statements(db: Database) -> Iterator[list[str]]:
    """The statements sent to the database meanwhile."""
    sent: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", seen)
    try:
        yield sent
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", seen)


async def test_a_new_match_refused_at_the_limit_reads_nothing(h: Harness) -> None:
    """At the limit a hundred new matches a second can be asked for: each refusal is
    decided in memory, before the database is read at all (a host's role, the game,
    the players), so that the refusals do not queue the running matches' writes. A
    server garnet has not seen yet (its host role not read) is refused alike."""
    pressure = h.services.matches.pressure
    pressure.signal = lambda: ALL_AT * pressure.limit + 1  # every server refused
    with statements(h.db) as sent:
        for guild in ("fresh", GUILD):
            assert (await h.host.choosing.start_dm(
                Asker(guild, "c3", HOSTY), DMSetup("cairo", [CAROL, DAVE], chooser="lots"))
                    ).reply.text == LIMIT  # type: ignore[union-attr]
            r = await h.host.practice.start(Asker(guild, "c4", ALICE), "cairo", 1)
            assert r.reply is not None and r.reply.text == LIMIT
            r = await h.host.lobby.challenge(Asker(guild, "c2", CAROL), "cairo", [DAVE])
            assert r.reply is not None and r.reply.text == LIMIT
    assert sent == []


async def test_on_discord_a_refused_new_match_is_one_answer(world: World) -> None:
    """On Discord the refusal is the interaction's one answer, private: not a deferral
    ("thinking…") and then its edit, two requests and two turns of the event loop
    for each of the refusals; nothing is read either."""
    budget = world.bot.services.matches.kit.budget
    budget.limit = 0.1  # a budget of 0.085: no new match fits
    await world.slash(HANA, "dm", game="cairo", player1=ALICE_D, player2=BOB_D)  # (warm)
    with statements(world.db) as sent:
        for calls in (
                await world.slash(HANA, "dm", game="cairo", player1=ALICE_D, player2=BOB_D,
                                  thread=True),
                await world.slash(CAROL_D, "practice", game="cairo", level=1),
                await world.slash(CAROL_D, "challenge", opponent=HANA, game="cairo")):
            (call,) = calls
            assert call.callback_type == 4  # a message now, not a deferral (5)
            assert call.message["content"] == LIMIT and call.message["flags"] & 64
    assert sent == []
    assert not world.bot.services.matches.live  # no thread opened, nothing started


async def test_past_a_second_of_waiting_the_servers_at_their_share_are_refused(
        h: Harness) -> None:
    """The budget sees what the running matches sent; while their boards wait, that is
    what the limit let through, not what they need. So while boards wait longer than
    a fifth of ``BOARD_WAIT_LIMIT`` (a second by default), a server that runs its share
    is refused even within the budget; one below it is still let in (reason
    ``waiting``)."""
    h.services.matches.kit.budget.limit = 50.0  # room for many
    pressure = h.services.matches.pressure
    wait = [0.0]
    pressure.signal = lambda: wait[0]
    assert WAITING * pressure.limit == 1.0
    assert await started(h, "busy", 0) is None
    await h.clock.advance(1.0)  # (the starts' bucket)
    waiting = refusals("waiting")
    wait[0] = 1.2  # boards wait past a second: not at the limit (5 s), but blind
    assert not pressure.at_limit
    assert await started(h, "busy", 1) == LIMIT
    assert refusals("waiting") == waiting + 1
    assert await started(h, "quiet", 0) is None  # it runs none: below its share
    wait[0] = 0.9
    await h.clock.advance(1.0)
    assert await started(h, "busy", 1) is None
