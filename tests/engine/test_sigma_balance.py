"""The balance meter of Sigma Escape decks (``python -m engine deck balance``)."""

from __future__ import annotations

import json

import pytest

from engine.balance import (
    Balance,
    Pairing,
    measure,
    overall_verdict,
    pairings_for,
    parse_levels,
    solve,
    verdict_of,
    wilson,
)
from engine.cli import main
from engine.game import EngineError
from engine.sigma import SigmaEscape
from engine.sigma.deck import WHITE, shipped_deck
from tests.engine.sigma_cards import perfect, random_line

GAME = SigmaEscape()
V1 = shipped_deck("reconstructed-v1")


def test_the_verdict_of_a_share_and_of_the_levels() -> None:
    assert verdict_of(0.34) == "favours Black" and verdict_of(0.35) == "fair"
    assert verdict_of(0.65) == "fair" and verdict_of(0.66) == "favours White"
    assert overall_verdict([0.5, 0.4, 0.6]) == "fair"
    assert overall_verdict([0.5, 0.1]) == "favours Black"
    assert overall_verdict([0.9, 0.5]) == "favours White"
    assert overall_verdict([0.9, 0.1]) == "unsettled"
    # The verdict comes from the pairings of equal players only.
    games = (Pairing("ai:2", "ai:2", 10, 5, 0), Pairing("ai:2", "ai:1", 10, 10, 6))
    assert Balance("d", 10, 2, 1, games).verdict == "fair"
    assert Balance("d", 10, 2, 1, games).imbalance == 0.0
    games = (Pairing("ai:2", "ai:2", 10, 2, 0), Pairing("greedy", "greedy", 10, 6, 0))
    assert Balance("d", 10, 2, 1, games).verdict == "favours Black"
    assert Balance("d", 10, 2, 1, games).imbalance == pytest.approx(0.3)


def test_the_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson(0, 100)
    assert low == 0.0 and high == pytest.approx(0.037, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_levels_and_pairings() -> None:
    assert parse_levels("4, 5") == ["ai:4", "ai:5"]
    assert parse_levels("greedy,ai:1") == ["greedy", "ai:1"]
    assert pairings_for(["greedy", "ai:1", "ai:3"]) == [
        ("greedy", "greedy"), ("ai:1", "ai:1"), ("ai:3", "ai:3"), ("ai:3", "ai:2")]
    assert pairings_for(["ai:3"], below=False) == [("ai:3", "ai:3")]
    for bad in ("6", "0", "uct:10", ""):
        with pytest.raises(EngineError):
            parse_levels(bad)


def test_the_meter_is_deterministic_for_a_seed() -> None:
    first = measure(V1, ["greedy", "ai:2"], games=6, plies=2, seed=5, solve_nodes=2_000)
    again = measure(V1, ["greedy", "ai:2"], games=6, plies=2, seed=5, solve_nodes=2_000)
    assert first.to_json() == again.to_json()
    assert [(p.a, p.b) for p in first.pairings] == [
        ("greedy", "greedy"), ("ai:2", "ai:2"), ("ai:2", "ai:1")]
    assert all(p.games == 6 and 0 <= p.white_wins <= 6 for p in first.pairings)
    assert first.solved is not None and first.solved.openings == 3
    with pytest.raises(EngineError):
        measure(V1, ["greedy"], games=5)


@pytest.mark.parametrize("seed", range(4))
def test_the_solve_agrees_with_the_rules_near_the_end(seed: int) -> None:
    line = random_line(seed, V1)
    # The positions with two cards or fewer left: the rules can search them whole.
    near = [s for s in line if GAME.outcome(s) is None and sum(map(sum, s.board.hands)) <= 2]
    assert near
    for position in near:
        assert solve(position, 1_000_000) == perfect(position)
    assert solve(line[-1], 10) == GAME.outcome(line[-1]).winner  # type: ignore[union-attr]
    # Out of nodes at the start: undecided.
    assert solve(line[0], 50) is None


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["deck", "balance", "reconstructed-v1", "--levels", "greedy,1", "--games", "4",
            "--seed", "2", "--solve-nodes", "1000"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deck"] == "reconstructed-v1" and data["games"] == 4
    assert [(p["white"], p["black"]) for p in data["pairings"]] == [
        ("greedy", "greedy"), ("ai:1", "ai:1")]
    assert data["verdict"] in ("fair", "favours White", "favours Black", "unsettled")
    assert data["solved"]["openings"] == 2
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "greedy v greedy" in text and f"verdict: {data['verdict']}" in text
    assert main(["deck", "balance", "reconstructed-v1", "--games", "3"]) == 2
    assert "even" in capsys.readouterr().err


def test_between_equal_players_the_second_game_of_a_pair_is_the_first_again() -> None:
    # The meter counts it twice instead of playing it again: the same players, opening
    # and seeds (levels 1 to 3 draw their chances from the seed, as `random` does).
    from engine.ai import player_from_spec
    from engine.ai.duel import play_game
    from engine.balance import openings

    starts = openings(V1, 3, 2, 4)
    for spec in ("random", "ai:2"):
        one, other = player_from_spec(GAME, spec, True), player_from_spec(GAME, spec, True)
        for pair, start in enumerate(starts):
            options = {"deck": V1}
            assert play_game(GAME, [one, other], 4, options, pair, start) == \
                play_game(GAME, [other, one], 4, options, pair, start)
    measured = measure(V1, ["random"], games=6, plies=2, seed=4, solve_nodes=0)
    white = sum(play_game(GAME, [player_from_spec(GAME, "random", True)] * 2, 4,
                          {"deck": V1}, pair, start) == WHITE
                for pair, start in enumerate(starts))
    assert measured.pairings[0].white_wins == 2 * white


def test_the_interval_of_equal_players_counts_each_distinct_game_once() -> None:
    assert Pairing("ai:5", "ai:5", 100, 56, 0).interval == wilson(28, 50)
    assert Pairing("ai:5", "ai:4", 100, 56, 50).interval == wilson(56, 100)
