"""Tournaments and events as docs/hosting.md says: ``event:`` left out means the
server's open event (several open: the host names one), ``event:none`` none; an
eliminated player cannot enter the event's tournament, and a host who adds one is
told (in the console, as a host runs it)."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts import transcript

SCRIPT = """\
host: /host event create name:Season reward:3
host: /host event add players:@alice @bob @carol
host: /dm game:cairo player1:@alice player2:@bob chooser:lots clock:off
bob: /resign
host: /host tournament create name:Open game:cairo format:swiss
host: /host tournament create name:Casual game:cairo format:swiss event:none
bob: /tournament join tournament:Open
carol: /tournament join tournament:Open
host: /host tournament add players:@bob @dave tournament:Open
bob: /tournament join tournament:Casual
host: /host event create name:Winter reward:3
host: /host tournament create name:Which game:cairo format:swiss
"""


async def test_the_open_event_by_default_and_its_eliminated_players(tmp_path: Path,
                                                                   database_url: str) -> None:
    script = tmp_path / "events.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    out = await transcript(script, tmp_path, database_url)
    answers = out.split("\nhost: /host tournament create name:")
    assert "something went wrong" not in out
    opened, casual, which = answers[1], answers[2], answers[3]
    assert "Its matches count for **Season**." in opened
    assert "Its matches count for" not in casual.split("\nbob:")[0]
    assert "Several events are open (Season, Winter); add `event:`" in which
    assert ("bot (to bob only): You were eliminated from **Season**, which this tournament "
            "counts for: only a host can enter you") in casual
    assert "✅ @carol joined **Open** (1 entered)." in casual
    assert ("✅ @bob, @dave joined **Open** (3 entered).\n     ⚠ @bob was eliminated from "
            "**Season**: they play this tournament because a host added them") in casual
    assert "✅ @bob joined **Casual** (1 entered)." in casual
