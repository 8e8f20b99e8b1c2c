"""`/extend` gives what it says (issue 36, item 2): extended time belongs to the turn it
is given in, whatever the clock's state (turn time, the reserve, the second of a flag);
after the turn the banks are what they were less what the turn used of them."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.clock import VirtualClock
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.matches.timing import MAX_LAG
from bot.store.db import open_database
from tests.bot.conftest import (
    ALICE,
    BOB,
    CHAN,
    GUILD,
    HOST_ROLE,
    HOSTY,
    Harness,
    asking,
    console_for,
)
from tests.fixtures import bot_process

HOST = Asker(GUILD, CHAN, HOSTY)


# ---- the arithmetic, against a turn lived second by second ---------------------------


@dataclass
class Lived:
    """A turn as a player lives it: turn time first (and any extension: it runs before
    more of the reserve), then the rest of a bank under way, then new banks, each
    spent whole once started."""

    free: float  # turn time and extensions not used yet
    rest: float  # what is left of the bank under way
    left: int  # banks not started
    used: int = 0  # banks started
    over: float = 0.0  # past the flag (its grace: a late move, a host's extension)

    def spend(self, seconds: float, bank: float) -> None:
        take = min(self.free, seconds)
        self.free -= take
        seconds -= take
        while seconds > 0:
            if self.rest > 0:
                take = min(self.rest, seconds)
                self.rest -= take
                seconds -= take
            elif self.left > 0:
                self.left -= 1
                self.used += 1
                self.rest = bank
            else:
                self.over += seconds
                seconds = 0

    @property
    def out(self) -> bool:
        return self.free == 0 and self.rest == 0 and self.left == 0

    def remaining(self, bank: float) -> float:
        return self.free + self.rest + self.left * bank


step = st.tuples(st.integers(0, 90), st.integers(1, 60))


@settings(max_examples=400, deadline=None)
@given(turn=st.integers(5, 90), bank=st.integers(1, 10), banks=st.integers(0, 12),
       steps=st.lists(step, max_size=4), last=st.integers(0, 120),
       grace=st.integers(0, int(MAX_LAG)))
def test_after_the_turn_the_banks_are_less_what_it_used(
        turn: int, bank: int, banks: int, steps: list[tuple[int, int]], last: int,
        grace: int) -> None:
    """Any clock, any extensions at any moment (turn time, reserve, at or just past the
    flag): the clock garnet keeps agrees with the turn lived second by second."""
    tc = TimeControl(turn=float(turn), banks=banks, bank=float(bank))
    lived = Lived(float(turn), 0.0, banks)
    elapsed, extra, banked = 0.0, 0.0, 0
    for wait, seconds in steps:
        if lived.out:  # at the flag: a host may still extend within its grace
            wait = min(wait, grace)
        elapsed += wait
        lived.spend(wait, bank)
        if lived.over > MAX_LAG:
            return
        extra, banked = tc.extend(elapsed, banks, extra, banked, float(seconds))
        lived.over = 0.0  # the host's extension counts from now
        lived.free += seconds
        left, budget = tc.terms(banks, extra, banked)
        assert abs(tc.flag_at(left, budget) - elapsed - lived.remaining(bank)) < 1e-6
        # What every clock text shows: this turn's seconds, then whole banks.
        assert abs(tc.turn + budget - elapsed - lived.free - lived.rest) < 1e-6
        assert left == lived.left
    elapsed += last
    lived.spend(last, bank)
    left, budget = tc.terms(banks, extra, banked)
    flagged = elapsed >= tc.flag_at(left, budget) - 1e-9
    assert flagged == (lived.out or lived.over > 0)
    if not flagged:
        spent = banked + tc.banks_spent(elapsed, budget)
        assert spent == lived.used
        assert banks - spent == lived.left


def test_extended_in_the_reserve_at_ten_seconds_left() -> None:
    tc = TimeControl()
    # 2:50 of the reserve used (34 banks started), 0:10 left; 30 s more, moved 5 s later.
    extra, banked = tc.extend(230.0, 36, 0.0, 0, 30.0)
    assert banked == 34
    assert banked + tc.banks_spent(235.0, tc.terms(36, extra, banked)[1]) == 34


def test_extended_at_the_second_of_the_flag() -> None:
    tc = TimeControl(banks=2)
    extra, banked = tc.extend(70.0, 2, 0.0, 0, 30.0)  # the flag falls at 70 s
    assert (extra, banked) == (30.0, 2)
    extra, banked = tc.extend(71.5, 2, 0.0, 0, 30.0)  # in its grace: 30 s from now
    assert tc.flag_at(*tc.terms(2, extra, banked)) == 101.5


# ---- the match host ---------------------------------------------------------------------


async def _in_the_reserve(h: Harness, banks: int = 36) -> None:
    """Alice moved; Bob is on turn."""
    await h.casual(tc=TimeControl.build(banks=banks))
    await h.play(ALICE, "D left")


async def test_extend_in_the_reserve_gives_no_banks_back(h: Harness) -> None:
    await _in_the_reserve(h)
    await h.clock.advance(230)  # 0:10 of the reserve left
    said = await h.host.controls.extend(HOST, None, 30)
    assert "added 30 s to this turn" in said.reply.text
    assert "0:30 + 2 banks" in said.reply.text, said.reply.text
    await h.clock.advance(5)
    moved = await h.play(BOB, "JU")
    assert "(used 34 banks, 2 banks left)" in moved.posts[0].text
    times = await h.host.viewing.time(Asker(GUILD, CHAN, BOB), None)
    assert "Bob: 2 banks (0:10) of reserve" in times.reply.text


async def test_extend_at_the_second_of_the_flag_gives_no_banks_back(h: Harness) -> None:
    await _in_the_reserve(h, banks=2)
    await h.clock.advance(70)  # the flag falls now (called after its grace)
    said = await h.host.controls.extend(HOST, None, 30)
    assert "0:30, no reserve left" in said.reply.text, said.reply.text
    await h.clock.advance(29)
    moved = await h.play(BOB, "JU")
    assert "(used 2 banks, 0 banks left)" in moved.posts[0].text
    times = await h.host.viewing.time(Asker(GUILD, CHAN, BOB), None)
    assert "Bob: 0 banks (0:00) of reserve" in times.reply.text


async def test_a_takeback_keeps_what_the_extended_turn_had_started(h: Harness) -> None:
    await _in_the_reserve(h)
    await h.clock.advance(100)  # 40 s of the reserve: 8 banks
    await h.host.controls.extend(HOST, None, 30)
    await h.clock.advance(10)
    await h.play(BOB, "JU")
    await h.host.corrections.take_back(HOST, None, "misclick")
    live = h.services.matches.live[1]
    assert live.banks_left[1] == 36 and live.banked == 8
    await h.clock.advance(10)
    moved = await h.play(BOB, "JU")
    assert "(used 8 banks, 28 banks left)" in moved.posts[0].text


async def test_a_restart_keeps_what_the_extended_turn_had_started(database_url: str) -> None:
    db1 = await open_database(database_url)
    clock1 = VirtualClock()
    host1 = asking(bot_process(db1, clock1))
    await host1.start()
    await host1.roles.adopt(GUILD, [HOST_ROLE])
    await host1.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    await host1.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    await host1.play.typed(Asker(GUILD, CHAN, ALICE), "D left")
    await clock1.advance(100)  # 8 banks started
    said = await host1.controls.extend(HOST, None, 30)
    assert "added 30 s" in said.reply.text
    await clock1.advance(5)
    await host1.stop()
    await db1.close()
    db2 = await open_database(database_url)
    clock2 = VirtualClock(start=clock1.now() + 60)
    host2 = asking(bot_process(db2, clock2))
    await host2.start()
    try:
        assert host2.live[1].banked == 8
        await clock2.advance(5)
        moved = await host2.play.typed(Asker(GUILD, CHAN, BOB), "JU")
        assert "(used 8 banks, 28 banks left)" in moved.posts[0].text
    finally:
        await host2.stop()
        await db2.close()


async def test_console_extend_in_the_reserve_and_at_the_flag(h: Harness,
                                                             tmp_path: Path) -> None:
    """The issue's bar as a host types it: `/time` after the next move shows the banks
    the player had before the extension, less what the turn used."""
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("alice: /challenge @bob game:cairo first:me", "bob: /accept", "alice: DL",
                 "~ wait 230s",  # bob: 0:10 of the reserve left, 34 banks started
                 "host: /extend seconds:30", "~ wait 20s", "bob: AD", "bob: /time",
                 "~ wait 240s",  # alice: the second of her flag
                 "host: /extend seconds:30", "~ wait 10s", "alice: BD", "alice: /time"):
        await console.handle_line(line)
    said = out.getvalue()
    assert "played **AD** (used 34 banks, 2 banks left)" in said, said
    assert "played **BD** (used 36 banks, 0 banks left)" in said, said
    answers = [line for line in said.splitlines() if line.endswith("of reserve")]
    assert answers[0].endswith("bob: 2 banks (0:10) of reserve"), said
    assert answers[-1].endswith("alice: 0 banks (0:00) of reserve"), said
    assert "wins" not in said
