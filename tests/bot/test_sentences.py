"""Issue 28, item 12: what garnet says, verbatim — sentences (a capital, a full stop),
no nested brackets, a countdown that agrees with the clock beside it, and a host told
how to change a finished result."""

from __future__ import annotations

import io
from pathlib import Path

from bot.adapters.console.console import relative
from bot.core.escape import sentence
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.texts import match as texts
from tests.bot.conftest import ALICE, CHAN, GUILD, HOSTY, Harness, console_for


def test_the_engine_s_messages_become_sentences() -> None:
    assert sentence("unknown game 'go' (games: cairo, quoridor)") == (
        "Unknown game 'go' (games: cairo, quoridor).")
    # A move or a cell keeps the game's own spelling.
    assert sentence("e9 is off the board") == "e9 is off the board."
    assert sentence("'x' is not a wall.") == "'x' is not a wall."


async def test_an_unknown_game_is_refused_in_a_sentence(h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    for line in ("alice: /history game:go",
                 "alice: /challenge @bob game:go",
                 "host: /extend",
                 "alice: /challenge @bob game:cairo colour:red",
                 "~ wait soon",
                 "~ dance"):
        await console.handle_line(line)
    said = [line.split(": ", 1)[1] for line in out.getvalue().splitlines()
            if line.startswith(("bot", "console"))]
    assert said[0].startswith("Unknown game 'go' (games: ") and said[0].endswith(").")
    assert said[1].startswith("Unknown game 'go' (games: ") and said[1].endswith(").")
    # Not "(seconds to add to this turn (1 to 86400))".
    assert said[2] == "`/extend` needs `seconds:` — seconds to add to this turn (1 s to 24 h)."
    assert said[3].startswith("There is no option `colour:` here; it takes opponent, game, ")
    assert said[3].endswith(".")
    assert said[4] == "'soon' is not a time; write e.g. `~ wait 65s`."
    assert said[5].startswith("There is no directive '~ dance'; the directives are wait, ")
    for text in said:
        assert text[0].isupper() or text[0] in "`'", text
        assert text.endswith((".", ".)")), text


def test_a_countdown_agrees_with_the_clock_it_stands_beside() -> None:
    """"0:10, no reserve left; time runs out in 9 s" for a 10 s turn: the clock is
    shown up to the whole second, and so is the instant it runs out."""
    tc = TimeControl(turn=10.0, banks=0)
    now, elapsed = 1_000.0, 0.4
    clock = texts.clock_left(tc, elapsed, 0, 0.0)
    line = texts.turn_line("alice", "Black", clock, "", now + 10.0 - elapsed)
    assert line == "<@alice> (Black) to move — 0:10, no reserve left; time runs out <t:1010:R>."
    # The console says it against its clock, at any fraction of a second.
    for start in (1_000.0, 1_000.2, 1_000.5, 1_000.7):
        line = texts.turn_line("alice", "Black", texts.clock_left(tc, 0.0, 0, 0.0), "",
                               start + 10.0)
        epoch = int(line.split("<t:")[1].split(":")[0])
        assert relative(epoch, start) == "in 10 s", start


async def test_a_host_voiding_a_finished_match_is_told_of_correct(h: Harness) -> None:
    match_id = await h.casual("cairo")
    await h.host.play.resign(Asker(GUILD, CHAN, ALICE), match_id)
    for refused in (await h.host.controls.void(Asker(GUILD, CHAN, HOSTY), match_id, "late"),
                    await h.host.controls.adjudicate(Asker(GUILD, CHAN, HOSTY), match_id, None,
                                                     "late")):
        assert refused.reply is not None and refused.reply.ephemeral
        assert refused.reply.text == (
            f"Match #{match_id} has ended, so it can no longer be voided or decided. A host "
            f"changes the result of a finished match with `/correct match:{match_id}` (a "
            "winner, or `draw:true`, and a reason).")
