"""At Discord's global limit (``bot.services.pressure``): while boards wait longer than
``BOARD_WAIT_LIMIT``, new matches and practice games are refused with one sentence on
the servers that run their share of the matches or more (every server past
``ALL_AT`` times the limit), running matches go on; the refusal lifts once boards have
waited at most half the limit for ``HOLD`` seconds. The adapter's pressure is faked
here by a signal the test sets; ``tests/bot/test_discord_pacing.py`` drives it from the
real pacer."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest

from bot.core.metrics import AT_LIMIT, LIMIT_REFUSALS
from bot.core.requests import Asker
from bot.services.matches.choosing import DMSetup
from bot.services.pressure import ALL_AT, HOLD, Shares
from bot.texts import refused
from tests.bot.admission import started
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, HOSTY, Harness

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
