"""Exports are safe to open in a spreadsheet: no cell of user text becomes a formula."""

from __future__ import annotations

import csv
import io
import json

from bot.core.messages import Actor
from bot.core.requests import Asker
from bot.services.exports import export_matches, export_text, safe_cell
from bot.services.matches import DMSetup
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import eco, make_event, win_dm

EVIL = Actor("mallory", "=HYPERLINK(\"http://x\",\"y\")")


def test_cells_that_start_a_formula_are_kept_as_text() -> None:
    for text in ("=1+2", "+1", "-1+A1", "@SUM(A1)", "\tx", "\rx"):
        assert safe_cell(text) == "'" + text
    assert safe_cell("Season 1") == "Season 1"
    assert safe_cell(-5) == -5  # numbers stay numbers (a fine is negative)
    assert safe_cell("") == ""


async def test_an_exported_ledger_neutralises_names_and_reasons(h: Harness) -> None:
    await make_event(h, "Season 1", [ALICE, EVIL])
    await eco(h).grant(GUILD, HOSTY, EVIL, 5, "=cmd|' /C calc'!A0")
    await eco(h).fine(GUILD, HOSTY, ALICE, 2, "@late")
    response = await eco(h).export(GUILD, HOSTY)
    assert response.reply is not None
    books = {f.filename: f.data.decode("utf-8") for f in response.reply.attachments}
    ledger = next(text for name, text in books.items() if "ledger" in name)
    rows = list(csv.DictReader(io.StringIO(ledger)))
    notes = {row["note"] for row in rows}
    assert "'=cmd|' /C calc'!A0" in notes and "'@late" in notes
    assert {row["name"] for row in rows if row["user_id"] == "mallory"} == {
        "'=HYPERLINK(\"http://x\",\"y\")"}
    assert "-2" in {row["amount"] for row in rows}  # the fine, still a number
    for text in books.values():
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell


async def test_ratings_in_the_standings_are_numbers(h: Harness) -> None:
    event = await make_event(h, "Season 1", [ALICE, BOB])
    await win_dm(h, ALICE, BOB, str(event))
    response = await eco(h).export(GUILD, HOSTY)
    assert response.reply is not None
    standings = next(f.data.decode("utf-8") for f in response.reply.attachments
                     if "standings" in f.filename)
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(standings))}
    # The loser's rating is below zero: still a number, not text behind a quote.
    assert float(rows["Bob"]["cairo_rating"]) < 0 < float(rows["Alice"]["cairo_rating"])
    assert rows["Bob"]["cairo_rating"].startswith("-")
    for row in rows.values():
        float(row["cairo_mu"]), float(row["cairo_sigma"])


async def test_export_of_every_match_reads_plainly_and_keeps_iso_times(h: Harness) -> None:
    match_id = await h.casual(first="me")
    await h.clock.advance(3)
    await h.play(ALICE, "D left")
    await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), match_id, "a **break**")
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    dm = await h.host.choosing.start_dm(Asker(GUILD, CHAN, HOSTY),
                               DMSetup("cairo", [ALICE, BOB], chooser="lots",
                               reward=1500))
    assert dm.posts
    records = await export_matches(h.db)
    casual, duel = records
    assert casual["created_at"] == "2023-11-14T22:13:20Z"
    assert casual["finished_at"] == "2023-11-14T22:13:23Z"
    assert casual["moves"][0]["at"] == "2023-11-14T22:13:23Z"
    assert casual["reward"] is None and "reward" not in casual["time_control"]
    assert duel["reward"] == 1500 and "reward" not in duel["time_control"]
    assert duel["time_control"]["banks"] == 36 and duel["finished_at"] is None
    assert casual["host_actions"] == [{
        "at": "2023-11-14T22:13:23Z", "after_ply": 1, "actor_id": "hosty", "actor": "Hosty",
        "action": "pause", "detail": "a **break**"}]
    json.dumps(records)  # plain data throughout
    # The result in words, as in the text export: no bold, no raw mention.
    assert casual["result"]["text"].startswith("🏆 @Alice wins Match #1 — Bob resigned.")
    lines = export_text(records)
    assert lines[0] == ("Match #1 (Cairo Corridor, server g1): Alice vs Bob — 1 move — "
                        "🏆 @Alice wins Match #1 — Bob resigned. Ratings (Cairo Corridor): "
                        "Alice 27.6 ± 24.2 (+2.6), Bob 22.4 ± 24.2 (−2.6).")
    assert lines[1] == "DM #2 (Cairo Corridor, server g1): Bob vs Alice — 0 moves — running"
