"""A Sigma Escape deck that cannot be played: refused with a precise reason when it is
added or named; a game its rules end before the first move is refused where a match is
set up, and should one start all the same (a match restored, a deck of old) it ends
through the one ending (result, history, ratings), and nobody resigns a game over."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.store.models import Match, MatchResult, RatingChange
from tests.bot.conftest import Harness, console_for
from tests.decks import DOT, NOTHING_N, SPECIAL, hollow_deck


def _said(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


async def test_a_deck_with_empty_hands_is_refused_precisely(h: Harness,
                                                            tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    path = hollow_deck(tmp_path, "hollow", [], [])
    await console.handle_line(f"host: /host deck add file:{path}")
    assert "both hands are empty" in _said(out)[-1], _said(out)[-1]


async def test_a_game_over_before_its_first_move_is_refused_at_the_challenge(
        h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    path = hollow_deck(tmp_path, "stuck", [DOT], [])
    await console.handle_line(f"host: /host deck add file:{path}")
    assert "Deck `stuck` added" in _said(out)[-1], _said(out)[-1]
    await console.handle_line("alice: /challenge @bob game:sigma deck:stuck clock:off")
    assert "would be over before its first move (both players passed" in _said(out)[-1]
    async with h.db.session() as s:
        assert (await s.scalars(select(Match))).all() == []


async def test_a_match_over_at_its_start_ends_through_the_ending(
        h: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out)
    path = hollow_deck(tmp_path, "stuck", [DOT], [])
    await console.handle_line(f"host: /host deck add file:{path}")
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


async def test_a_match_left_running_over_is_ended_when_the_bot_restarts(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match started before these checks, its game over and never ended (what the
    trial saw: "Game over · White wins" running for ever), ends at the next start."""
    from bot.core.clock import VirtualClock
    from bot.core.messages import Post
    from bot.core.requests import Asker
    from bot.store.db import open_database
    from engine.sigma import SigmaEscape
    from tests.bot.conftest import ALICE, BOB, asking
    from tests.fixtures import bot_process

    stuck = {"name": "Stuck", "source": "test", "presets": [NOTHING_N, SPECIAL],
             "white": [DOT], "black": []}
    db1 = await open_database(database_url)
    clock = VirtualClock()
    host1 = asking(bot_process(db1, clock))
    await host1.start()
    # As the code was: nothing looked at a game over before its first move.
    monkeypatch.setattr("bot.services.matches.lobby.startable", lambda *_: None)
    monkeypatch.setattr(SigmaEscape, "outcome", lambda self, state: None)
    await host1.lobby.challenge(Asker("g1", "c1", ALICE), "sigma", [BOB], first="me",
                          options={"deck": stuck})
    await host1.lobby.answer(Asker("g1", "c1", BOB), None, accept=True)
    assert len(host1.live) == 1
    monkeypatch.undo()
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)

    db2 = await open_database(database_url)
    host2 = asking(bot_process(db2, VirtualClock(start=clock.now() + 60), deliver=deliver))
    await host2.start()
    assert host2.live == {}
    assert any("wins Match #1" in p.text and "both players passed" in p.text
               for p in posts), [p.text for p in posts]
    async with db2.session() as s:
        match = (await s.scalars(select(Match))).one()
        results = (await s.scalars(select(MatchResult.outcome))).all()
    assert match.status == "finished" and sorted(results) == ["lost", "won"]
    await host2.stop()
    await db2.close()
    await db1.close()
