"""How much each seat's play counts on a Sigma Escape deck (``deck balance --agency``)."""

from __future__ import annotations

import json

import pytest

from engine.agency import Agency, Choices, choice
from engine.balance import openings, strongest
from engine.cli import main
from engine.sigma import SigmaEscape
from engine.sigma.deck import BLACK, WHITE, shipped_deck
from tests.engine.sigma_cards import perfect, random_line

GAME = SigmaEscape()
V1 = shipped_deck("reconstructed-v1")


def test_the_gap_between_a_strong_and_a_random_player_and_its_interval() -> None:
    seat = Agency(WHITE, "ai:5", 100, 40, 33)
    assert seat.gap == pytest.approx(0.07)
    low, high = seat.interval
    # Newcombe's hybrid interval: the two Wilson intervals' distances, combined.
    # By hand: Wilson 40/100 is 0.3094-0.4980, 33/100 0.2455-0.4268.
    assert low == pytest.approx(0.07 - ((0.4 - 0.3094) ** 2 + (0.4268 - 0.33) ** 2) ** 0.5,
                                abs=1e-3)
    assert high == pytest.approx(0.07 + ((0.4980 - 0.4) ** 2 + (0.33 - 0.2455) ** 2) ** 0.5,
                                 abs=1e-3)
    assert Agency(BLACK, "ai:5", 50, 50, 0).interval[0] > 0.8  # a sure gap stays sure
    low, high = Agency(BLACK, "ai:5", 50, 20, 20).interval
    assert low == pytest.approx(-high) and 0.15 < high < 0.25
    assert Agency(WHITE, "ai:5", 0, 0, 0).interval == (-1.0, 1.0)
    data = seat.to_json()
    assert data["seat"] == "white" and data["gap"] == 0.07
    assert "+7 points" in seat.line()


def test_the_share_of_the_decisions_that_matter() -> None:
    found = Choices(BLACK, 1000, wins=3, loses=5, mixed=2, unknown=9)
    assert found.decided == 10 and found.share == 0.2
    assert found.to_json()["share"] == 0.2 and "2 of 10" in found.line()
    assert Choices(WHITE, 10).share == 0.0


def test_strongest_level() -> None:
    assert strongest(["greedy", "ai:5", "ai:4"]) == "ai:5"
    assert strongest(["greedy"]) == "greedy"


@pytest.mark.parametrize("seed", range(2))
def test_a_decision_s_kind_is_what_the_rules_say(seed: int) -> None:
    # Near the end the rules can search a position whole (``perfect``): a decision
    # matters when one placement wins and another loses.
    line = random_line(seed, V1)
    kinds = set()
    for position in line:
        if GAME.outcome(position) is not None or sum(map(sum, position.board.hands)) > 2:
            continue
        seat = GAME.to_move(position)
        results = {perfect(GAME.apply(position, m)) == seat
                   for m in GAME.legal_moves(position)}
        kind = choice(position, 1_000_000)
        if len(GAME.legal_moves(position)) > 1 and kind is not None:
            assert kind == ("mixed" if len(results) == 2 else
                            "wins" if results == {True} else "loses")
            kinds.add(kind)
        # Out of nodes before a win and a loss are both found: unknown.
        assert choice(position, 1) in (None, "unknown")
    assert kinds


def test_the_command_line_measures_both_seats(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["deck", "balance", "reconstructed-v1", "--levels", "greedy,1", "--games", "4",
            "--seed", "2", "--solve-nodes", "0", "--agency", "--choice-nodes", "2000"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(a["seat"], a["strong"], a["games"]) for a in data["agency"]] == [
        ("white", "ai:1", 2), ("black", "ai:1", 2)]
    # The strong players' games are the meter's: ai:1 against itself, the first game
    # of each pair (the seats swapped gives the same game again).
    pairing = next(p for p in data["pairings"] if p["white"] == p["black"] == "ai:1")
    assert 2 * data["agency"][0]["strong_wins"] == pairing["white_wins"]
    assert data["agency"][0]["strong_wins"] + data["agency"][1]["strong_wins"] == 2
    assert [c["seat"] for c in data["choices"]] == ["white", "black"]
    assert all(c["wins"] + c["loses"] + c["mixed"] + c["unknown"] > 0
               for c in data["choices"])
    assert main(args) == 0
    assert "agency of Black: ai:1" in capsys.readouterr().out
    assert len(openings(V1, 2, 2, 2)) == 2
