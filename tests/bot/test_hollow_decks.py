"""A Sigma Escape deck that cannot be played: refused with a precise reason when it is
added or named; a game its rules end before the first move is refused where a match is
set up, and should one start all the same (a match restored, a deck of old) it ends
through the one ending (result, history, ratings), and nobody resigns a game over."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.store.models import Match, MatchResult, RatingChange
from tests.bot.conftest import Harness, console_for

NOTHING_N = {"name": "Nothing", "colour": "white", "cells": ["#"], "arrows": ["0,0,N"],
             "at": [0, 0]}
SPECIAL = {"name": "Special", "colour": "black", "cells": ["#"], "arrows": ["0,0,N"],
           "at": [-1, 0]}
DOT = {"name": "Dot", "cells": ["#"], "arrows": ["0,0,S"]}


def _deck(folder: Path, name: str, white: list[Any], black: list[Any]) -> Path:
    """Nothing's one side points into the black Special card: no white card fits."""
    data = {"name": name, "source": "test", "presets": [NOTHING_N, SPECIAL],
            "white": white, "black": black}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _said(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


async def test_a_deck_with_empty_hands_is_refused_precisely(h: Harness,
                                                            tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"host: /deck add file:{_deck(tmp_path, 'hollow', [], [])}")
    assert "both hands are empty" in _said(out)[-1], _said(out)[-1]


async def test_a_game_over_before_its_first_move_is_refused_at_the_challenge(
        h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"host: /deck add file:{_deck(tmp_path, 'stuck', [DOT], [])}")
    assert "Deck `stuck` added" in _said(out)[-1], _said(out)[-1]
    await console.handle_line("alice: /challenge @bob game:sigma deck:stuck clock:off")
    assert "would be over before its first move (both players passed" in _said(out)[-1]
    async with h.db.session() as s:
        assert (await s.scalars(select(Match))).all() == []


async def test_a_match_over_at_its_start_ends_through_the_ending(
        h: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    await console.handle_line(f"host: /deck add file:{_deck(tmp_path, 'stuck', [DOT], [])}")
    # A match set up before the check existed: the lobby lets it through.
    monkeypatch.setattr("bot.services.matches.lobby.startable", lambda *_: None)
    await console.handle_line("alice: /challenge @bob game:sigma deck:stuck clock:off")
    await console.handle_line("bob: /accept")
    said = out.getvalue()
    assert "White wins" in said or "wins" in said, said
    assert h.services.matches.live == {}
    async with h.db.session() as s:
        match = (await s.scalars(select(Match))).one()
        results = (await s.scalars(select(MatchResult))).all()
        rated = (await s.scalars(select(RatingChange))).all()
    assert match.status == "finished" and match.end_reason == "rules"
    assert sorted(r.outcome for r in results) == ["lost", "won"]
    assert len(rated) == 2
    await console.handle_line("alice: /resign")
    await console.handle_line("bob: /resign")
    async with h.db.session() as s:
        again = (await s.scalars(select(Match))).one()
    assert again.winner_seat == match.winner_seat and again.end_reason == "rules"
    assert _said(out)[-2:] == [
        "bot (to alice only): There is no match of yours running in this channel.",
        "bot (to bob only): There is no match of yours running in this channel."]
