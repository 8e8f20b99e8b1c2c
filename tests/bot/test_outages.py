"""When Discord stands in the way of a match (services, on virtual time): a channel
garnet cannot post to pauses its matches and tells the hosts, a lost gateway charges
nobody, a player who leaves the server is reported."""

from __future__ import annotations

import io
import re
from pathlib import Path

from sqlalchemy import select

from bot.core.failures import Cause, PostFailure
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches import DMSetup
from bot.services.matches.outages import OUTAGE_NOTICE
from bot.store.models import HostAction, Match
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness, console_for

LOG = "log-1"


async def running(h: Harness, turn: float = 60) -> int:
    r = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                              DMSetup("cairo", [ALICE, BOB], chooser="host",
                              tc=TimeControl.build(turn=turn, banks=0)))
    assert r.posts, r.reply
    first = await h.host.choosing.choose_first(Asker(GUILD, CHAN, HOSTY), None, "alice")
    assert first.posts and first.posts[0].image is not None
    return next(iter(h.host.live))


async def actions(h: Harness) -> list[tuple[str, str, str]]:
    async with h.db.session() as s:
        rows = (await s.scalars(select(HostAction).order_by(HostAction.id))).all()
    return [(a.actor_id, a.action, a.detail) for a in rows]


async def test_a_denied_channel_pauses_the_match_then_resume_once_garnet_can_post(
        h: Harness) -> None:
    match_id = await running(h)
    live = h.host.live[match_id]
    await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), LOG, False)
    await h.clock.advance(12)
    denied = PostFailure(CHAN, Cause.DENIED, ("Send Messages",))
    notices = await h.host.outages.post_failed(denied)
    # The clock stands still from the failure: 12 s used, however long the fix takes.
    assert live.paused and live.elapsed(h.clock.now()) == 12
    assert [n.channel_id for n in notices] == [LOG]
    assert notices[0].text == (
        f"⚠ DM #1 is paused: garnet cannot post in <#{CHAN}>: it lacks Send Messages there. "
        f"Nobody's clock runs. Give garnet Send Messages in <#{CHAN}>, then "
        "`/resume match:1`.")
    assert notices[0].pinged() == ()
    # The reminder that fails next is not told twice.
    assert await h.host.outages.post_failed(denied) == []
    await h.clock.advance(3600)
    assert not any("ran out" in t for t in h.texts())
    assert ("garnet", "pause", f"garnet cannot post in <#{CHAN}>: it lacks Send Messages "
            "there") in await actions(h)
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
        assert match is not None and match.status == "paused" and match.turn_elapsed == 12

    # /resume checks first: while garnet still cannot post, the match stays paused.
    blocked: list[PostFailure | None] = [denied]

    async def reach(channel_id: str) -> PostFailure | None:
        assert channel_id == CHAN
        return blocked[0]

    h.host.matches.reach = reach
    refused = await h.host.controls.resume(Asker(GUILD, LOG, HOSTY), 1)
    assert refused.reply is not None and refused.reply.ephemeral
    assert "stays paused" in refused.reply.text and "Send Messages" in refused.reply.text
    assert live.paused
    blocked[0] = None
    resumed = await h.host.controls.resume(Asker(GUILD, LOG, HOSTY), 1)
    assert resumed.reply is not None and resumed.reply.channel_id == CHAN
    assert resumed.reply.image is not None  # the board the players may have missed
    assert "DM #1 resumes" in resumed.reply.text and "<@alice>" in resumed.reply.text
    assert not live.paused and live.halted is None
    await h.clock.advance(47.9)
    assert not any("ran out" in t for t in h.texts())
    await h.clock.advance(2.2)  # 12 + 48 = the 60 s turn, and the flag's lag allowance
    assert "ran out of time" in h.texts()[-1]


async def test_without_a_log_channel_the_hosts_are_told_where_the_match_started(
        h: Harness) -> None:
    await running(h)
    gone = PostFailure(CHAN, Cause.GONE, fallback="parent-1")
    notices = await h.host.outages.post_failed(gone)
    assert [n.channel_id for n in notices] == ["parent-1"]
    assert notices[0].text.startswith(f"⚠ DM #1 is paused: <#{CHAN}> was deleted.")
    assert "`/adjudicate match:1`" in notices[0].text and "`/void match:1`" in notices[0].text


async def test_with_nowhere_to_tell_the_match_is_still_paused(h: Harness) -> None:
    match_id = await running(h)
    notices = await h.host.outages.post_failed(PostFailure(CHAN, Cause.LOCKED))
    assert notices == [] and h.host.live[match_id].paused


async def test_a_failure_elsewhere_touches_no_match(h: Harness) -> None:
    match_id = await running(h)
    assert await h.host.outages.post_failed(PostFailure("other", Cause.GONE, fallback="x")) == []
    assert not h.host.live[match_id].paused


async def test_a_host_paused_match_is_told_but_keeps_the_hosts_pause(h: Harness) -> None:
    match_id = await running(h)
    await h.clock.advance(5)
    await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), None, "tea")
    notices = await h.host.outages.post_failed(PostFailure(CHAN, Cause.LOCKED, fallback="p"))
    assert len(notices) == 1 and "Unlock (and unarchive)" in notices[0].text
    assert [a[1] for a in await actions(h)] == ["pause"]
    assert h.host.live[match_id].elapsed(h.clock.now()) == 5


async def test_removed_from_the_server_pauses_and_logs(h: Harness) -> None:
    match_id = await running(h)
    await h.clock.advance(7)
    await h.host.outages.server_left(GUILD)
    await h.clock.advance(3600)
    live = h.host.live[match_id]
    assert live.paused and live.elapsed(h.clock.now()) == 7
    assert ("garnet", "pause", "DM #1 paused: garnet was removed from the server") in \
        await actions(h)
    assert h.delivered == []


async def test_a_gateway_outage_of_30_s_charges_nobody_and_is_told(h: Harness) -> None:
    match_id = await running(h)
    live = h.host.live[match_id]
    await h.clock.advance(10)
    outages = h.host.outages
    outages.disconnected()
    await h.clock.advance(20)
    outages.disconnected()  # a second disconnect in a row does not move the start
    await h.clock.advance(10)
    assert not any("ran out" in t for t in h.texts())
    assert h.delivered == []  # not even a reminder while the gateway is down
    told = await outages.reconnected()
    assert [p.text for p in told] == [
        "📡 garnet lost its connection to Discord for 30 s; nobody was charged. "
        "<@alice> (Black) to move — 0:50, no reserve left; time runs out <t:1700000090:R>."]
    assert told[0].channel_id == CHAN and told[0].pinged() == ()
    assert await outages.reconnected() == []  # RESUMED then READY: resumed once
    assert live.elapsed(h.clock.now()) == 10 and not live.paused
    async with h.db.session() as s:  # a restart later would not count the outage either
        match = await s.get(Match, match_id)
        assert match is not None and match.status == "running"
        assert match.turn_elapsed == 10 and match.turn_resumed_at == h.clock.now()
    await h.clock.advance(49.9)
    assert not any("ran out" in t for t in h.texts())
    await h.clock.advance(2.2)
    assert "ran out of time" in h.texts()[-1]
    assert await actions(h) == []  # no host action: nothing for the log


async def test_a_short_outage_passes_without_a_word(h: Harness) -> None:
    match_id = await running(h)
    h.host.outages.disconnected()
    await h.clock.advance(OUTAGE_NOTICE - 1)
    assert await h.host.outages.reconnected() == []
    assert not h.host.live[match_id].paused


async def test_a_move_replayed_before_the_reconnect_counts_and_starts_the_next_turn(
        h: Harness) -> None:
    match_id = await running(h)
    live = h.host.live[match_id]
    await h.clock.advance(10)
    h.host.outages.disconnected()
    await h.clock.advance(100)  # longer than the turn
    # Discord replays the missed messages before it says RESUMED.
    r = await h.host.play.typed(Asker(GUILD, CHAN, ALICE), "D left", sent_at=h.clock.now() - 95)
    assert r.posts and "played **DL**" in r.posts[0].text
    assert live.ply == 1 and not live.paused and live.elapsed(h.clock.now()) == 0
    async with h.db.session() as s:
        rows = (await s.scalars(select(HostAction))).all()
    assert rows == []
    told = await h.host.outages.reconnected()
    assert told == []  # Bob's turn began with the replayed move, after the outage


async def test_a_host_pause_during_an_outage_stays_after_it(h: Harness) -> None:
    match_id = await running(h)
    await h.clock.advance(4)
    h.host.outages.disconnected()
    await h.clock.advance(10)
    paused = await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), None, "")
    assert paused.reply is not None and "paused" in paused.reply.text
    assert await h.host.outages.reconnected() == []
    live = h.host.live[match_id]
    assert live.paused and live.elapsed(h.clock.now()) == 4


async def test_a_player_who_leaves_is_reported_to_the_hosts(h: Harness) -> None:
    match_id = await running(h)
    told = await h.host.outages.member_left(GUILD, "bob")
    assert [p.channel_id for p in told] == [CHAN]
    assert told[0].text == (
        f"👋 <@bob> (Bob) left the server during DM #1 in <#{CHAN}>. The match goes on "
        "and the clock runs; a host decides: `/pause`, `/adjudicate` or `/void` (match:1).")
    assert told[0].pinged() == ()
    assert not h.host.live[match_id].paused
    await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), LOG, False)
    assert [p.channel_id for p in await h.host.outages.member_left(GUILD, "bob")] == [LOG]
    assert await h.host.outages.member_left(GUILD, "carol") == []
    assert await h.host.outages.member_left("g2", "bob") == []


async def test_the_log_channel_is_set_shown_and_cleared_by_hosts(h: Harness) -> None:
    refused = await h.host.outages.set_log_channel(Asker(GUILD, CHAN, ALICE), LOG, False)
    assert refused.reply is not None and "Only hosts" in refused.reply.text
    shown = await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), None, False)
    assert shown.reply is not None and shown.reply.text.startswith("No log channel")
    set_ = await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), LOG, False)
    assert set_.reply is not None and f"<#{LOG}>" in set_.reply.text
    assert not set_.reply.ephemeral
    both = await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), LOG, True)
    assert both.reply is not None and "not both" in both.reply.text
    assert await h.host.outages.log_channel(GUILD) == LOG
    assert await h.host.outages.log_channel("g2") is None
    await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), None, True)
    assert await h.host.outages.log_channel(GUILD) is None


async def test_the_console_denies_deletes_disconnects_and_leaves(h: Harness,
                                                                 tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("~ channel log", "host: /logchannel channel:#log", "~ channel dm",
                 "host: /dm game:cairo player1:@alice player2:@bob chooser:lots turn:60 "
                 "banks:0", "~ deny #dm"):
        await console.handle_line(line)
    assert "bot: garnet tells the hosts here in #log" in out.getvalue()
    first = re.search(r"Lots were drawn: @(\S+) is the First Player", out.getvalue())
    assert first, out.getvalue()
    mover = first.group(1)
    mark = len(out.getvalue())
    await console.handle_line("~ wait 40s")  # the 30 s reminder is refused: paused then
    assert out.getvalue()[mark:].splitlines() == [
        "console: garnet cannot post in #dm",
        "bot [#log]: ⚠ DM #1 is paused: garnet cannot post in #dm: it lacks Send Messages "
        "there. Nobody's clock runs. Give garnet Send Messages in #dm, then "
        "`/resume match:1`."]
    live = h.host.live[next(iter(h.host.live))]
    assert live.paused and live.elapsed(h.clock.now()) == 30
    await console.handle_line("~ wait 2h")
    await console.handle_line("host: /resume match:1")
    assert "stays paused" in out.getvalue().splitlines()[-1]
    await console.handle_line("~ allow #dm")
    mark = len(out.getvalue())
    await console.handle_line("host: /resume match:1")
    resumed = out.getvalue()[mark:].splitlines()
    assert resumed[0].startswith("bot: ▶ DM #1 resumes.") and f"@{mover}" in resumed[0]
    assert any("[image:" in line for line in resumed)
    assert live.elapsed(h.clock.now()) == 30 and not live.paused

    mark = len(out.getvalue())
    for line in ("~ disconnect", "~ wait 25s", "~ disconnect", "~ reconnect", "~ reconnect",
                 "~ leave bob"):
        await console.handle_line(line)
    assert out.getvalue()[mark:].splitlines() == [
        "console: garnet lost its connection",
        "console: garnet lost its connection",
        "bot: 📡 garnet lost its connection to Discord for 25 s; nobody was charged. "
        f"@{mover} (Black) to move — 0:30, no reserve left; time runs out in 30 s.",
        "bot [#log]: 👋 @bob (bob) left the server during DM #1 in #dm. The match goes on "
        "and the clock runs; a host decides: `/pause`, `/adjudicate` or `/void` (match:1).",
    ]
    assert live.elapsed(h.clock.now()) == 30

    mark = len(out.getvalue())
    await console.handle_line("~ delete #dm")
    assert out.getvalue()[mark:].splitlines() == [
        "bot [#log]: ⚠ DM #1 is paused: #dm was deleted. Nobody's clock runs. The match "
        "cannot go on there: decide it with `/adjudicate match:1` or `/void match:1`."]
    assert live.paused


async def test_a_log_channel_that_fails_itself_gives_way_to_the_fallback(h: Harness) -> None:
    await running(h)
    await h.host.outages.set_log_channel(Asker(GUILD, CHAN, HOSTY), CHAN,
                                         False)  # the match's own channel
    notices = await h.host.outages.post_failed(PostFailure(CHAN, Cause.DENIED, (), "home"))
    assert [n.channel_id for n in notices] == ["home"]
    assert "View Channel, Send Messages and Attach Files" in notices[0].text
