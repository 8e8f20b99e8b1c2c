"""``/review``: a finished match judged by the computer, in its worker."""

from __future__ import annotations

import random
import re

from bot.core.refusal import Refusal, answered
from bot.services.history import History
from bot.services.workers import Workers
from engine.cairo.solver import solve
from engine.registry import get_game
from tests.bot.conftest import ALICE, BOB, GUILD, Harness
from tests.bot.test_practice import Recording


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


async def test_review_names_the_decisive_move(h: Harness) -> None:
    moves = await _finished_cairo(h)
    workers = Workers(0)
    recording = Recording()
    workers._pool = recording
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
