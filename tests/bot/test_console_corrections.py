"""A director's Swiss of 16 in the console (``golden/corrections.txt``): a result of
round 1 corrected during round 2 and again during round 3, one of round 2 after the
end. After each, ``/tournament standings`` shows what the same tournament replayed
with the corrected results shows, and the prizes are booked again exactly once. The
transcript is pinned as ``golden/corrections.out`` (``UPDATE_SNAPSHOTS=1`` rewrites it)."""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from bot.services.tournaments.host import views
from bot.services.tournaments.host.records import load
from bot.store.db import Database
from bot.store.models import LedgerEntry
from tests import snapshots
from tests.replays import replayed
from tests.transcripts import GOLDEN, console_session, transcript

SCRIPT = GOLDEN / "corrections.txt"


def shown(out: str) -> str:
    """A console answer as its text: the speaker and the indentation taken off, the
    image lines left out."""
    lines = []
    for line in out.splitlines():
        line = re.sub(r"^bot \(to host only\): |^     ", "", line)
        if not line.startswith(("[image:", "[alt text:")):
            lines.append(line)
    return "\n".join(lines)


async def expected_standings(db: Database) -> str:
    """The standings of the tournament replayed with its corrected results."""
    async with db.session() as s:
        loaded = await load(s, 1)
    return views.standings_text(replace(loaded, events=replayed(loaded.events)), limit=40)


async def test_a_director_corrects_a_swiss_of_sixteen(tmp_path: Path, database_url: str) -> None:
    checked = 0
    async with console_session(tmp_path, database_url) as session:
        db = session.db
        for line in SCRIPT.read_text(encoding="utf-8").splitlines():
            answer = await session.play(line)
            if line.strip() == "host: /tournament standings":
                assert shown(answer.split("\n", 1)[1]) == await expected_standings(db)
                checked += 1
        async with db.session() as s:
            prizes = (await s.scalars(select(LedgerEntry).where(
                LedgerEntry.key.like("tournament:1:%")).order_by(LedgerEntry.id))).all()
            loaded = await load(s, 1)
    actual = session.printed(tmp_path)
    assert "something went wrong" not in actual
    assert checked == 3  # during round 2, during round 3, after the end
    # The prizes as the replayed tournament pays them, each correction's lines once:
    # p02's 3 garnets reversed, p11's booked.
    final = loaded.core.standings(replayed(loaded.events))
    owed = {user: amount for user, amount, _ in views.prize_shares(final, (10, 6, 3))}
    net: dict[str, int] = {}
    for entry in prizes:
        net[entry.user_id] = net.get(entry.user_id, 0) + entry.amount
    assert {u: n for u, n in net.items() if n} == owed == {"p03": 10, "p06": 6, "p11": 3}
    again = [(e.user_id, e.amount, e.kind) for e in prizes if ":correction:" in (e.key or "")]
    assert again == [("p02", -3, "correction"), ("p11", 3, "prize")]
    assert all("round 2 board 2" in e.note for e in prizes if ":correction:" in (e.key or ""))
    snapshots.compare(GOLDEN / "corrections.out", actual, "the console transcript",
                      "console now")
    exported(tmp_path / "exports")


def exported(folder: Path) -> None:
    """The CSV export as a spreadsheet reads it (Python's own reader): the forfeit in
    words, and no cell that starts like a formula or carries the guard against one."""
    tables = {}
    for name in ("standings", "games"):
        with (folder / f"tournament-1-autumn-swiss-{name}.csv").open(newline="",
                                                                   encoding="utf-8") as f:
            tables[name] = list(csv.DictReader(f))
    cells = [v for rows in tables.values() for row in rows for v in row.values()]
    assert cells and not [v for v in cells if v.startswith(("=", "+", "-", "@", "'"))]
    results = {(r["round"], r["board"]): r["pairing_result"] for r in tables["games"]}
    assert results[("4", "8")] == "1-0 forfeit"
    assert results[("2", "2")] == "0-1" and results[("1", "1")] == "½-½"
    assert [r["name"] for r in tables["standings"]][:3] == ["p03", "p06", "p11"]


BRACKET = """\
host: /host tournament create name:Cup game:cairo format:single clock:off event:none
alice: /tournament join
bob: /tournament join
carol: /tournament join
dave: /tournament join
host: /host tournament start
dave: /resign
bob: /resign
host: /host tournament adjudicate board:1 result:0-1 round:1
host: /host tournament adjudicate board:1 result:+/- round:1 reason:dave never came
host: /tournament standings
"""


async def test_a_bracket_correction_that_would_unplay_a_match_is_refused_by_name(
        tmp_path: Path, database_url: str) -> None:
    """Single elimination of four: W1-1's winner is in the final (W2-1). Another winner
    is refused, naming the final; the same winner by forfeit is taken; the semi-final
    losers stand 3–4."""
    script = tmp_path / "bracket.txt"
    script.write_text(BRACKET, encoding="utf-8")
    out = await transcript(script, tmp_path, database_url)
    assert "something went wrong" not in out
    assert ("bot (to host only): Round 1's W1-1 cannot get another winner: W2-1 (round 2) "
            "was paired with its result") in out
    assert "⚖ @host corrected **Cup** round 1, board 1: @alice +/- @dave, not 1-0" in out
    assert ("     1–2. alice\n     1–2. carol\n     3–4. bob (out)\n     3–4. dave (out)\n"
            "     [image: ") in out
