"""The console's own details: speakers in any script, images that survive a restart,
private answers that stay private."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.core.messages import Actor, Image, Post, Response
from tests.bot.conftest import Harness, console_for


async def test_speakers_may_have_names_in_any_script(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line("host: /dm game:cairo player1:@李小龍 player2:@🐱cat chooser:lots")
    first = re.search(r"Lots were drawn: @(\S+) is the First Player", out.getvalue())
    assert first, out.getvalue()
    await console.handle_line(f"{first.group(1)}: D left")
    assert f"move 1: @{first.group(1)} (Black) played **DL**" in out.getvalue()
    await console.handle_line("no speaker here")
    assert out.getvalue().endswith("console: write `name: message`, e.g. `alice: /help`\n")


async def test_images_are_numbered_after_those_of_an_earlier_run(h: Harness,
                                                                 tmp_path: Path) -> None:
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "0001-cairo.png").write_bytes(b"earlier")
    (folder / "0007-quoridor.png").write_bytes(b"earlier")
    out = io.StringIO()
    console = console_for(h, folder, out)
    await console.show(Post("board", "console", image=Image(b"new", "cairo.png")))
    await console.show(Post("board", "console", image=Image(b"newer", "cairo.png")))
    assert (folder / "0001-cairo.png").read_bytes() == b"earlier"
    assert (folder / "0007-quoridor.png").read_bytes() == b"earlier"
    assert (folder / "0008-cairo.png").read_bytes() == b"new"
    assert (folder / "0009-cairo.png").read_bytes() == b"newer"


async def test_every_part_of_a_private_answer_is_private(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    answer = Response(reply=Post("part one", ephemeral=True),
                      posts=[Post("part two", ephemeral=True), Post("for all", "console")])
    await console.emit(answer, Actor("carol", "carol"))
    assert out.getvalue().splitlines() == ["bot (to carol only): part one",
                                           "bot (to carol only): part two",
                                           "bot: for all"]


async def test_event_add_takes_a_list_and_a_role_in_the_console(h: Harness,
                                                                tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("host: /host event create name:Season 1",
                 "host: /host event add @bob",
                 "host: /host event add @bob @carol @dave @erin",
                 "~ role Players @erin @frank @gina",
                 "host: /host event add role:Players",
                 "host: /host event add role:Nobody",
                 "host: /host event add players:bob"):
        await console.handle_line(line)
    said = out.getvalue().splitlines()[3:]
    assert said[0] == ("bot: @carol, @dave, @erin join **Season 1** with priorities 2–4 — "
                       "4 players. Already playing: bob (1). Hosts reorder priority with "
                       "`/host priority set`.")
    assert said[1] == ("bot: @frank, @gina join **Season 1** with priorities 5–6 — 6 players. "
                       "Already playing: erin (4). Hosts reorder priority with "
                       "`/host priority set`.")
    assert said[2].startswith("bot (to host only): The role Nobody has no members")
    assert said[3] == "bot (to host only): `players` names people: `players:@a @b @c`."


async def test_bulk_priority_and_grants_in_the_console(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("host: /host event create name:Season 1",
                 "host: /host event add @ann @ben @cal",
                 "host: /host priority order @cal @ann",
                 "host: /grant @ann @ben 3 reason:first week"):
        await console.handle_line(line)
    said = out.getvalue().splitlines()
    assert said[-2] == ("bot: ↕ The priority of **Season 1** is set for the 2 players named: "
                        "1. cal … 2. ann; the 1 other follows. `/priority show` lists it.")
    assert said[-1] == ("bot: 💎 @host granted @ann, @ben 3 garnets each in **Season 1**: "
                        "first week. `/garnets` shows a balance.")


async def test_a_repeated_option_is_refused_naming_it(h: Harness, tmp_path: Path) -> None:
    """Issue 28, item 11: `/host event add player:@bob player:@carol` added only carol."""
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("host: /host event create name:Season 1",
                 "host: /host event add player:@bob player:@carol",
                 "host: /void reason:late match:3 reason:early",
                 "host: /event info"):
        await console.handle_line(line)
    said = [line for line in out.getvalue().splitlines() if line.startswith("bot")][1:]
    assert said[0] == ("bot (to host only): `player:` is given more than once; give each "
                       "option once. To name several people, use `players:@a @b`.")
    assert said[1] == ("bot (to host only): `reason:` is given more than once; give each "
                       "option once.")
    assert "carol" not in said[2] and "bob" not in said[2]
