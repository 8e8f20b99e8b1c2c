"""``/review``: a finished match judged by the computer, in its worker."""

from __future__ import annotations

import random
import re

import pytest

from bot.core.refusal import Refusal, answered
from bot.core.requests import Asker
from bot.services.history import History
from bot.services.history_queries import match_record
from bot.services.review import review_notations, review_text
from bot.services.workers import Workers
from engine.ai.review import Ply, Review
from engine.cairo.solver import solve
from engine.registry import get_game
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, DAVE, GUILD, Harness
from tests.recording import Recording


async def _finished_cairo(h: Harness, seed: int = 1) -> list[str]:
    await h.casual("cairo")
    live = next(iter(h.host.matches.live.values()))
    rng = random.Random(seed)
    moves = []
    while not live.finished:
        move = live.game.notation(rng.choice(live.game.legal_moves(live.state)))
        moves.append(move)
        await h.play(ALICE if live.to_move == 0 else BOB, move)
    return moves


@pytest.mark.sqlite_only("the review is the engine's work (a solve of every position); "
                         "the match it reads is stored and read on PostgreSQL by the "
                         "other reviews here and test_event_review")
async def test_review_names_the_decisive_move(h: Harness) -> None:
    moves = await _finished_cairo(h)
    workers = Workers(0)
    recording = Recording()
    workers.use(recording)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    r = await history.review(GUILD, 1)
    assert recording.jobs == ["review_job"]
    assert r.reply is not None and r.reply.image is not None
    assert r.reply.image.data.startswith(b"\x89PNG")
    text = r.reply.text
    assert "Review of Match #1" in text and "accuracy" in text
    assert "<@alice> (Black): accuracy" in text and "<@bob> (Red): accuracy" in text
    assert "the result was decided" in text
    found = re.findall(r"Move (\d+) \((\w+)\) turned a (\w+) into a (\w+)", text)
    assert found
    # The solver agrees: before the named move its player kept the result it lost.
    game = get_game("cairo")
    for number, notation, _before, _after in found:
        ply = int(number)
        assert moves[ply - 1] == notation
        state = game.new_state(2)
        for text_move in moves[: ply - 1]:
            state = game.play(state, text_move)
        before = solve(state).margin
        after_state = game.play(state, notation)
        after = (-solve(after_state).margin if game.outcome(after_state) is None
                 else _final(game.outcome(after_state), state.turn))
        assert after < before and notation not in solve(state).best
    workers.close()


def _final(outcome: object, seat: int) -> int:
    scores = outcome.scores  # type: ignore[attr-defined]
    return int(scores[seat] - scores[1 - seat])


async def test_review_is_of_finished_matches_of_this_server(h: Harness) -> None:
    await h.casual("cairo")
    history = History(h.db, h.host.matches.renderer)
    r = await answered(lambda: history.review(GUILD, 1))
    assert r.reply is not None and "not finished" in r.reply.text
    r = await answered(lambda: history.review("another-server", 1))
    assert r.reply is not None and r.reply.ephemeral
    try:
        await history.review("another-server", 1)
    except Refusal as exc:
        assert "#1" in str(exc)


async def test_review_of_a_four_player_quoridor_game(h: Harness) -> None:
    await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "quoridor", [BOB, CAROL, DAVE],
                                 first="me",
                           tc=None)
    for player in (BOB, CAROL, DAVE):
        await h.host.lobby.answer(Asker(GUILD, CHAN, player), 1, accept=True)
    for actor, move in ((ALICE, "e2"), (BOB, "b5"), (CAROL, "e8"), (DAVE, "h5")):
        await h.play(actor, move)
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), 1)  # ply 5: Bob leaves
    for actor, move in ((ALICE, "e3"), (CAROL, "e7"), (DAVE, "g5")):
        r = await h.play(actor, move)
        assert r.posts and r.posts[0].image is not None, r
    await h.host.play.resign(Asker(GUILD, CHAN, DAVE), 1)
    await h.host.play.resign(Asker(GUILD, CHAN, CAROL), 1)
    workers = Workers(0)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    r = await history.review(GUILD, 1)
    assert r.reply is not None and r.reply.image is not None
    text = r.reply.text
    for who, colour in (("alice", "White"), ("bob", "Red"), ("carol", "Black"),
                        ("dave", "Blue")):
        assert f"<@{who}> ({colour}): accuracy" in text
    record = await match_record(h.db, GUILD, 1)
    assert record is not None
    assert review_notations(record) == ["e2", "b5", "e8", "h5", "out 2", "e3", "e7", "g5",
                                        "out 4"]
    # The review numbers moves only; the text gives the match's numbers (Bob's leaving
    # was ply 5, so the review's fifth move, Alice's e3, is move 6).
    plies = [Ply(n, seat, move, 0.3, 0.3, move, 0.0)
             for n, (seat, move) in enumerate([(0, "e2"), (1, "b5"), (2, "e8"), (3, "h5"),
                                               (0, "e3"), (2, "e7"), (3, "g5")], start=1)]
    plies[4] = Ply(5, 0, "e3", 0.5, 0.2, "e4", 1.0, label="blunder")
    data = Review("quoridor", 4, ["White", "Red", "Black", "Blue"], plies, [0.25] * 8,
                  [90.0, 100.0, 100.0, 100.0], unit="tempi", winner=0)
    written = review_text(record, data)
    assert "· move 6 e3?? by <@alice> (blunder" in written
    assert "Move 8 (g5) decided the game" in written  # the review's seventh move
    workers.close()


FLIPS = " ".join(("GD CL KU FU WR VD WD RL JR BU ND AR XD VR JU LL QD UR VU AD SR NR HU WU",
                  "GU SL CU KR BL CD CR AU RR NL NU SD DL PU IR QU RU WL KD ID HD RD HL OU",
                  "KL ER QR VL GL GR SU")).split()


@pytest.mark.sqlite_only("the review is the engine's work (a solve of every position); "
                         "the match it reads is stored and read on PostgreSQL by the "
                         "other reviews here and test_event_review")
async def test_a_result_thrown_away_again_and_again_is_said_once(h: Harness) -> None:
    """Issue 28, item 5: "Move 33 (QR) turned a win into a loss." was said for every
    later move that threw the result away again, under "the result was decided"."""
    await h.casual("cairo")
    live = next(iter(h.host.matches.live.values()))
    for move in FLIPS:
        await h.play(ALICE if live.to_move == 0 else BOB, move)
    assert live.finished
    workers = Workers(0)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    r = await history.review(GUILD, 1)
    workers.close()
    assert r.reply is not None
    text = r.reply.text
    assert text.count("turned a win into a loss") == 1, text
    assert ("Move 39 (IR) turned a win into a loss; the result then changed hands once "
            "more, for the last time with move 40 (QU).") in text
    # A loss said once, in words: no minus sign beside "win chance", a unit that counts.
    assert "−" not in text and "win chance 100% → 0%, a loss of 2 points" in text


def test_a_loss_is_said_in_a_unit_that_counts() -> None:
    """Issue 28, item 5: "−34.0 cells" (a walled-off path, not a count of cells)."""
    from bot.texts.practice import loss_in_unit

    assert loss_in_unit(34.0, "cells") == ""
    assert loss_in_unit(3.0, "cells") == ", a loss of 3 cells of path"
    assert loss_in_unit(1.0, "points") == ", a loss of 1 point"
    assert loss_in_unit(1.46, "tempi") == ", a loss of 1.5 tempi"
    assert loss_in_unit(0.2, "points") == loss_in_unit(2.0, "") == ""
