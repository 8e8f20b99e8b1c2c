"""Exports are safe to open in a spreadsheet: no cell of user text becomes a formula."""

from __future__ import annotations

import csv
import io

from bot.core.messages import Actor
from bot.services.exports import safe_cell
from tests.bot.conftest import ALICE, GUILD, HOSTY, Harness
from tests.bot.economy_helpers import eco, make_event

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
