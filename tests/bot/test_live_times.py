"""Deadlines as Discord's live timestamps (``<t:EPOCH:R>``): the texts carry the
instant, Discord shows it in each reader's terms, the console against its clock; and
a console board reports itself out at once, so the turn starts as it is shown."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.console.console import relative
from bot.core.messages import Post
from tests.bot.conftest import Harness, console_for


def test_relative_reads_as_discord_shows_it() -> None:
    assert relative(1045, 1000) == "in 45 s"
    assert relative(1240, 1000) == "in 4 min"
    assert relative(1000 + 7200, 1000) == "in 2 h"
    assert relative(1000 + 3 * 86_400, 1000) == "in 3 days"
    assert relative(880, 1000) == "2 min ago"


async def test_the_turn_line_says_when_time_runs_out(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line("alice: /challenge opponent:@bob game:cairo first:me")
    assert "(lapses in 15 min)" in out.getvalue()
    await console.handle_line("bob: /accept")
    # 60 s a turn and 36 banks of 5 s: 4 minutes from the board.
    assert "@alice (Black) to move — 1:00 + 36 banks; time runs out in 4 min." in out.getvalue()
    live = next(iter(h.host.live.values()))
    assert live.waiting is None  # the console's board was out at once
    await h.clock.advance(200)
    await console.handle_line("alice: /time")
    assert "<t:" not in out.getvalue()
    start = h.clock.now()
    text = f"ends <t:{int(start) + 40}:R>"
    await console.show(Post(text, "console"))
    assert out.getvalue().endswith("bot: ends in 40 s\n")
