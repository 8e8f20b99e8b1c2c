"""The computer players: one interface, deterministic by seed, the duel command."""

from __future__ import annotations

import json
import random
from itertools import pairwise

import pytest

from engine.ai import LEVELS, Budget, Decision, player_for, player_from_spec
from engine.ai.duel import duel
from engine.cairo import CairoCorridor
from engine.cairo.ai import CairoPlayer
from engine.cairo.solver import solve
from engine.cli import main
from engine.game import EngineError
from tests.engine.positions import endgame

GAME = CairoCorridor()
OPENING = "DL, JU, WU, AR, KD, MR, GL, OU"


def test_levels_grow() -> None:
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    budgets = [LEVELS[n] for n in sorted(LEVELS)]
    for weaker, stronger in pairwise(budgets):
        assert weaker.iterations < stronger.iterations
        assert weaker.exact <= stronger.exact and weaker.spread >= stronger.spread


def test_a_decision_is_legal_and_repeatable() -> None:
    state = GAME.replay(OPENING.split(", "))
    player = CairoPlayer(Budget(iterations=60, exact=6, level=2))
    first = player.decide(state, seed=5)
    assert isinstance(first, Decision) and first.move in GAME.legal_moves(state)
    assert 0.0 <= first.win <= 1.0 and first.margin is not None and not first.exact
    assert first.nodes == 60
    again = CairoPlayer(Budget(iterations=60, exact=6, level=2)).decide(state, seed=5)
    assert again == first == player.decide(state, seed=5)


def test_small_positions_are_solved_exactly() -> None:
    state = endgame(random.Random(4), 6, 1)
    decision = CairoPlayer(Budget(iterations=10, exact=8)).decide(state, seed=1)
    solution = solve(state)
    assert decision.exact and decision.margin == solution.margin
    assert decision.move in solution.best
    if solution.margin > 0:
        assert decision.win == 1.0
    elif solution.margin < 0:
        assert decision.win == 0.0


def test_the_search_finds_a_won_ending() -> None:
    # Just above the exact limit, the tree search must still play a best move often.
    for seed in range(3):
        state = endgame(random.Random(100 + seed), 9, 0)
        solution = solve(state)
        player = CairoPlayer(Budget(iterations=300, exact=0))
        decision = player.decide(state, seed=seed)
        assert decision.move in GAME.legal_moves(state)
        after = solve(GAME.play(state, decision.move))
        assert -after.margin >= solution.margin - 2


def test_specs() -> None:
    assert player_from_spec(GAME, "random").name == "random"
    assert player_from_spec(GAME, "greedy").name == "greedy"
    assert player_from_spec(GAME, "uct:10").name == "uct:10"
    assert player_from_spec(GAME, "ai:2").name == "ai:2"
    assert player_for("cc", 1).name == "ai:1"
    for bad in ("ai:9", "uct:0", "best", "ai:x"):
        with pytest.raises(EngineError):
            player_from_spec(GAME, bad)


@pytest.mark.parametrize("spec", ["random", "greedy", "uct:15", "ai:1"])
def test_every_player_plays_legal_moves(spec: str) -> None:
    state = GAME.replay(OPENING.split(", "))
    decision = player_from_spec(GAME, spec).decide(state, seed=3)
    assert decision.move in GAME.legal_moves(state)


def test_greedy_takes_the_best_one_ply_score() -> None:
    state = GAME.replay(OPENING.split(", "))
    move = player_from_spec(GAME, "greedy").decide(state, seed=1).move
    after = GAME.analyze(GAME.play(state, move))["score"]
    scores = [GAME.analyze(GAME.play(state, m))["score"] for m in GAME.legal_moves(state)]
    best = max(black - red for black, red in scores)
    assert after[0] - after[1] == best


def test_duel_counts_and_swaps() -> None:
    greedy = player_from_spec(GAME, "greedy")
    rand = player_from_spec(GAME, "random")
    result = duel(GAME, greedy, rand, games=2, seed=2, swap=True)
    assert result.games == 2 and sum(result.wins) + result.draws == 2
    again = duel(GAME, greedy, rand, games=2, seed=2, swap=True)
    assert again == result


def test_duel_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["duel", "cairo", "--first", "greedy", "--second", "random", "--games", "2",
            "--seed", "3", "--swap", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["games", "wins", "draws"] and data["games"] == 2
    assert sum(data["wins"]) + data["draws"] == 2
    assert main(["duel", "cairo", "--first", "ai:7", "--second", "random", "--games", "1"]) == 2


def test_think_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["think", "cairo", "--moves", OPENING, "--level", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["move", "win", "margin", "exact", "nodes"]


@pytest.mark.parametrize("seed", range(12))
def test_playouts_are_legal_games(seed: int) -> None:
    # The playout's shortcuts (cells known critical, the local connectivity test)
    # against the game itself: every placement legal, the same end and score.
    from engine.cairo.ai import _playout
    from engine.cairo.geometry import ALL, INDEX, NAMES
    from engine.cairo.rules import analyse

    rng = random.Random(seed)
    state = GAME.new_state()
    for _ in range(rng.randrange(0, 30)):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    player = CairoPlayer(Budget(iterations=1))
    a = analyse(state.occupied)
    dead = ALL & ~state.occupied & ~a.region
    node = player._node(0, a.region, a.critical, state.black, state.red, state.turn,
                        dead.bit_count(), root=True)
    moves: list[int] = []
    margin, last = _playout(node, rng, moves)
    for bit in moves:
        if bit == 0:
            bit = ALL & ~state.occupied & ~analyse(state.occupied).region
            bit &= -bit
        mover = state.turn
        state = GAME.apply(state, NAMES[bit.bit_length() - 1])
        assert INDEX[NAMES[bit.bit_length() - 1]] == bit.bit_length() - 1
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores is not None
    assert outcome.scores[0] - outcome.scores[1] == margin
    if moves:
        assert last == mover


@pytest.mark.parametrize("key", ["quoridor", "pathwayz", "sigma", "cairo"])
def test_fixed_levels_search_their_whole_budget(key: str) -> None:
    from engine.ai.duel import opening
    from engine.registry import get_game

    game = get_game(key)
    fixed = player_from_spec(game, "ai:1", fixed=True)
    assert fixed.budget.seconds == 0.0  # type: ignore[attr-defined]
    assert fixed.budget.iterations == LEVELS[1].iterations  # type: ignore[attr-defined]
    assert player_from_spec(game, "ai:1").budget.seconds == LEVELS[1].seconds  # type: ignore[attr-defined]
    state = opening(game, 4, 7)
    assert fixed.decide(state, 3) == fixed.decide(state, 3)


def test_duel_and_ladder_take_fixed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "quoridor", "--first", "ai:1", "--second", "random", "--games",
                 "2", "--swap", "--fixed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert main(["ladder", "quoridor", "--players", "random,ai:1", "--games", "2",
                 "--fixed", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["ratings"]) == {"random", "ai:1"}
