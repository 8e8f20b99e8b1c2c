"""Tournament formats: Berger tables, bracket seeding and byes, the simulator's bars,
best-of-N series, first-player rules, and rebuilding a tournament from its events."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import time
from collections import Counter
from typing import Any

import pytest

from bot.services.tournaments import (
    Dropped,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Reported,
    Round,
    Series,
    Tournament,
    TournamentError,
    event_from_json,
    event_to_json,
)
from bot.services.tournaments.bracket import layout, seeding
from bot.services.tournaments.roundrobin import berger, schedule
from bot.services.tournaments.simulate import main as simulate_main
from bot.services.tournaments.simulate import simulate
from bot.texts import brackets


def names(n: int) -> tuple[str, ...]:
    return tuple(f"P{i}" for i in range(1, n + 1))


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert simulate_main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# Round robin


def test_berger_table_of_six_is_fides() -> None:
    assert berger(6) == (
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    )


@pytest.mark.parametrize("n", range(2, 15))
def test_berger_tables_meet_every_pair_once_and_balance_firsts(n: int) -> None:
    met = Counter(frozenset(p) for rnd in berger(n) for p in rnd)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(1, n + n % 2 + 1), 2)}
    assert set(met.values()) == {1}
    firsts = Counter(a for rnd in berger(n) for a, _ in rnd)
    rounds = len(berger(n))
    assert all(abs(2 * firsts[p] - rounds) <= 1 for p in range(1, n + 1))


def test_double_round_robin_reverses_the_colours() -> None:
    table = schedule(4, double=True)
    assert len(table) == 6
    games = Counter(pair for rnd in table for pair in rnd)
    assert all(games[(a, b)] == 1 and games[(b, a)] == 1
               for a, b in itertools.combinations(range(1, 5), 2))


def test_five_player_round_robin_meets_every_pair_exactly_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--format", "roundrobin", "--players", "5", "--seed", "3")
    met = Counter(frozenset(p) for rnd in out["rounds"] for p in rnd["pairings"])
    assert set(met) == {frozenset(p) for p in itertools.combinations(names(5), 2)}
    assert set(met.values()) == {1}
    assert len(out["rounds"]) == 5
    rests = Counter(b for rnd in out["rounds"] for b in rnd["byes"])
    assert rests == dict.fromkeys(names(5), 1)


# Elimination


def test_seeding_order() -> None:
    assert seeding(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seeding(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def test_six_player_single_elimination_gives_the_byes_to_p1_and_p2(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--format", "single", "--players", "6")
    first = out["rounds"][0]
    assert first["byes"] == ["P1", "P2"]
    assert sorted(map(sorted, first["pairings"])) == [["P3", "P6"], ["P4", "P5"]]
    assert len(out["rounds"]) == 3
    second = {frozenset(p) for p in out["rounds"][1]["pairings"]}
    assert any("P1" in p for p in second) and any("P2" in p for p in second)
    assert [r["place"] for r in out["standings"]] == ["1", "2", "3–4", "3–4", "5–6", "5–6"]


def test_double_elimination_schedule_of_eight() -> None:
    specs = layout(8, double=True)
    waves = {s.id: s.wave for s in specs}
    assert [s.id for s in specs if s.section == "W"] == [
        "W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"]
    assert [s.id for s in specs if s.section == "L"] == [
        "L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1"]
    assert (waves["L1-1"], waves["L2-1"], waves["L4-1"], waves["GF"], waves["GF2"]) == (
        2, 3, 5, 6, 7)


def _decide(t: Tournament, winners: dict[str, str]) -> list[Event]:
    """Play a bracket where ``winners`` names each match's winner by match id."""
    events: list[Event] = []
    while not t.finished(events):
        rnd = t.pair_next(events)
        events.append(rnd)
        for p in rnd.pairings:
            events.append(Reported(rnd.number, p.board, p.outcome(winners[p.match or ""])))
    return events


def test_double_elimination_bracket_reset_and_places() -> None:
    t = Tournament(Format.DOUBLE, names(4))
    # W1: P1 beats P4, P2 beats P3; W2: P1 beats P2; L1: P3 beats P4; L2: P2 beats P3;
    # GF: P2 beats P1 (P1's first loss), GF2: P2 again.
    events = _decide(t, {"W1-1": "P1", "W1-2": "P2", "W2-1": "P1", "L1-1": "P3",
                         "L2-1": "P2", "GF": "P2", "GF2": "P2"})
    assert [(s.player, s.place) for s in t.standings(events)] == [
        ("P2", "1"), ("P1", "2"), ("P3", "3"), ("P4", "4")]
    rounds = [e for e in events if isinstance(e, Round)]
    assert [[p.match for p in r.pairings] for r in rounds] == [
        ["W1-1", "W1-2"], ["W2-1", "L1-1"], ["L2-1"], ["GF"], ["GF2"]]


def test_double_elimination_needs_no_reset_when_the_winners_side_wins() -> None:
    t = Tournament(Format.DOUBLE, names(4))
    events = _decide(t, {"W1-1": "P1", "W1-2": "P2", "W2-1": "P1", "L1-1": "P3",
                         "L2-1": "P2", "GF": "P1"})
    assert t.standings(events)[0].player == "P1"
    assert t.finished(events)


def test_a_bracket_result_cannot_change_once_its_winner_played_on() -> None:
    t = Tournament(Format.SINGLE, names(4))
    events: list[Event] = [t.pair_next([])]
    events += [Reported(1, 1, Outcome.FIRST), Reported(1, 2, Outcome.FIRST)]
    events.append(t.pair_next(events))
    winner = events[1]
    with pytest.raises(TournamentError, match="no longer change"):
        t.state([*events, Reported(1, 1, Outcome.SECOND)])
    assert t.state([*events, winner])  # the same result again is fine
    with pytest.raises(TournamentError, match="needs a winner"):
        t.state([*events, Reported(2, 1, Outcome.DRAW)])


def test_third_place_match() -> None:
    t = Tournament(Format.SINGLE, names(4), Options(third_place=True))
    events = _decide(t, {"W1-1": "P1", "W1-2": "P3", "W2-1": "P3", "3P": "P4"})
    assert [(s.player, s.place) for s in t.standings(events)] == [
        ("P3", "1"), ("P1", "2"), ("P4", "3"), ("P2", "4")]


def test_a_withdrawn_player_forfeits_their_next_bracket_match() -> None:
    t = Tournament(Format.SINGLE, names(4))
    first = t.pair_next([])
    winner = first.pairings[1].first
    events: list[Event] = [first, Reported(1, 1, Outcome.FIRST), Reported(1, 2, Outcome.FIRST),
                           Dropped(winner)]
    final = t.pair_next(events).pairings[0]
    assert final.decided is not None and final.decided.forfeit
    events.append(t.pair_next(events))
    assert t.finished(events)
    assert t.standings(events)[0].player == first.pairings[0].first


# Swiss


def test_swiss_64_players_7_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.process_time()
    out = run_json(capsys, "--format", "swiss", "--players", "64", "--rounds", "7")
    elapsed = time.process_time() - started
    assert len(out["rounds"]) == 7
    met: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    for rnd in out["rounds"]:
        placed = [n for p in rnd["pairings"] for n in p] + rnd["byes"]
        assert sorted(placed) == sorted(names(64))  # everybody, once
        for p in rnd["pairings"]:
            assert frozenset(p) not in met
            met.add(frozenset(p))
        byes.update(rnd["byes"])
    assert not byes  # an even field has none
    assert elapsed < 1.0, f"{elapsed:.2f} s of CPU"


def test_swiss_round_one_pairs_top_half_against_bottom_half_alternating_first() -> None:
    t = Tournament(Format.SWISS, names(8), Options(rounds=3))
    rnd = t.pair_next([])
    assert [(p.first, p.second) for p in rnd.pairings] == [
        ("P1", "P5"), ("P6", "P2"), ("P3", "P7"), ("P8", "P4")]


def test_swiss_odd_field_bye_goes_to_the_lowest_ranked_once() -> None:
    t = Tournament(Format.SWISS, names(5), Options(rounds=3))
    events: list[Event] = []
    byes: list[str] = []
    for _ in range(3):
        rnd = t.pair_next(events)
        events.append(rnd)
        byes += rnd.byes
        events += [Reported(rnd.number, p.board, Outcome.FIRST) for p in rnd.pairings]
    assert byes[0] == "P5"
    assert len(set(byes)) == 3


def test_swiss_ends_when_no_round_can_be_paired_without_a_rematch() -> None:
    t = Tournament(Format.SWISS, names(4), Options(rounds=3))
    events = simulate(t, random.Random(1))
    assert len([e for e in events if isinstance(e, Round)]) <= 3
    assert t.finished(events)
    with pytest.raises(TournamentError):
        t.pair_next(events)


def test_too_many_swiss_rounds_are_refused() -> None:
    with pytest.raises(TournamentError, match=r"^6 players can play 1 to 5 Swiss rounds$"):
        Tournament(Format.SWISS, names(6), Options(rounds=6))
    with pytest.raises(TournamentError, match=r"^2 players can play only 1 Swiss round$"):
        Tournament(Format.SWISS, names(2), Options(rounds=2))
    with pytest.raises(TournamentError, match="only a Swiss"):
        Tournament(Format.SINGLE, names(6), Options(rounds=2))


# Series and first players


def test_best_of_three_alternates_the_first_player() -> None:
    s = Series("ann", "ben", best_of=3)
    assert [s.first_of(g) for g in (1, 2, 3)] == ["ann", "ben", "ann"]
    s = s.record("ann")
    assert s.next_first == "ben"
    s = s.record("ben")
    assert s.next_first == "ann" and not s.finished
    s = s.record("ann")
    assert s.finished and s.winner == "ann" and s.text() == "2–1"


def test_a_series_stops_when_it_is_decided_and_a_bracket_series_has_deciders() -> None:
    s = Series("ann", "ben", best_of=3).record("ben").record("ben")
    assert s.finished and s.winner == "ben" and s.next_first is None
    level = Series("ann", "ben", best_of=2).record("ann").record("ben")
    assert level.finished and level.winner is None
    decider = Series("ann", "ben", best_of=2, decider=True).record("ann").record("ben")
    assert not decider.finished and decider.next_first == "ann"
    assert decider.record(None).next_first == "ben"
    assert decider.record("ben").winner == "ben"


def test_higher_seed_chooses_and_lots() -> None:
    t = Tournament(Format.ROUND_ROBIN, names(4), Options(first=FirstRule.CHOOSES))
    for p in t.pair_next([]).pairings:
        assert p.chooser == p.first and t.seed(p.first) < t.seed(p.second)
    lots = Tournament(Format.SWISS, names(16), Options(first=FirstRule.LOTS, seed=7))
    once, again = lots.pair_next([]), lots.pair_next([])
    assert once == again
    tops = [lots.seed(p.first) < lots.seed(p.second) for p in once.pairings]
    assert any(tops) and not all(tops)


def test_chosen_first_player_counts_for_the_balance() -> None:
    t = Tournament(Format.SWISS, names(4), Options(rounds=2, first=FirstRule.CHOOSES))
    rnd = t.pair_next([])
    state = t.state([rnd, Reported(1, 1, Outcome.FIRST, first="P3")])
    assert state.firsts[(1, 1)] == "P3"
    with pytest.raises(TournamentError, match="does not play"):
        t.state([rnd, Reported(1, 1, Outcome.FIRST, first="P2")])


# Rebuilding


@pytest.mark.parametrize("fmt", list(Format))
def test_a_tournament_rebuilds_from_its_stored_events(fmt: Format) -> None:
    t = Tournament(fmt, names(7), Options(best_of=3))
    events = simulate(t, random.Random(5), forfeits=0.1, drops=0.05)
    middle = len(events) // 2
    stored = json.loads(json.dumps([event_to_json(e) for e in events[:middle]]))
    rebuilt = [event_from_json(e) for e in stored]
    assert rebuilt == events[:middle]
    assert t.standings(rebuilt) == t.standings(events[:middle])
    again = Tournament(fmt, names(7), Options.from_json(t.options.to_json()))
    if not t.state(rebuilt).pending() and not again.finished(rebuilt):
        assert again.pair_next(rebuilt) == t.pair_next(events[:middle])


def test_the_simulator_imports_neither_discord_nor_the_database() -> None:
    code = ("import sys; from bot.__main__ import main; "
            "main(['tournament', 'simulate', '--format', 'double', '--players', '5']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'sqlalchemy', 'aiosqlite', 'bot') and m.split('.')[1:2] != "
            "['services'] and m not in ('bot', 'bot.__main__', 'bot.config')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_bracket_image_shows_at_most_three_rounds_a_part() -> None:
    from io import BytesIO

    from PIL import Image

    from bot.services.tournaments.image import tournament_png

    t = Tournament(Format.DOUBLE, names(16), Options(best_of=3))
    events = simulate(t, random.Random(2))
    for cut in (0, len(events) // 2, len(events)):
        image = Image.open(BytesIO(tournament_png(t, events[:cut], "Cup")))
        assert image.format == "PNG"
        assert image.width == 900  # three columns: legible on a phone


def test_the_simulator_reads_as_text_and_refuses_bad_settings(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_main(["simulate", "--format", "swiss", "--players", "5"]) == 0
    out = capsys.readouterr().out
    assert "Round 3" in out and "bye: P5" in out and "Standings" in out
    assert simulate_main(["simulate", "--format", "single", "--players", "4",
                          "--rounds", "2"]) == 2
    assert "only a Swiss" in capsys.readouterr().err


def test_a_series_of_a_pairing_starts_with_whoever_moved_first() -> None:
    t = Tournament(Format.SINGLE, names(2), Options(best_of=3, first=FirstRule.CHOOSES))
    pairing = t.pair_next([]).pairings[0]
    assert pairing.chooser == "P1"
    series = t.series(pairing, first="P2")
    assert [series.first_of(g) for g in (1, 2, 3)] == ["P2", "P1", "P2"]
    with pytest.raises(TournamentError):
        t.series(pairing, first="P9")


def test_semi_final_losers_place_three_to_four_until_the_match_for_third() -> None:
    """A single elimination of eight with a match for third place: after the semi-finals
    their losers are 3–4 (still playing), the quarter-final losers 5–8; then 1, 2, 3, 4."""
    t = Tournament(Format.SINGLE, tuple("abcdefgh"), Options(third_place=True))
    events: list[Event] = []
    places = []
    while not t.finished(events):
        rnd = t.pair_next(events)
        events.append(rnd)
        events += [Reported(rnd.number, p.board, Outcome.FIRST if p.first < p.second
                            else Outcome.SECOND) for p in rnd.pairings]
        places.append([(s.place, s.player, s.active) for s in t.standings(events)])
    assert places[1][:4] == [("1–2", "a", True), ("1–2", "b", True), ("3–4", "c", True),
                             ("3–4", "d", True)]
    assert places[1][4][0] == "5–8" and not places[1][4][2]
    assert [p[:2] for p in places[2][:4]] == [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")]


def test_bracket_labels_are_said_in_words() -> None:
    assert brackets.named(label="W2-1", depth=3, double=False) == "W2-1 (a semi-final)"
    assert brackets.named(label="W3-1", depth=3, double=False) == "W3-1 (the final)"
    assert brackets.named(label="W1-4", depth=4, double=False) == \
        "W1-4 (round 1 of the bracket)"
    assert brackets.legend(labels=["W2-1", "W2-2", "3P"], depth=3, double=False) == \
        "_W2-1, W2-2: the semi-finals · 3P: the match for third place._"
    assert brackets.legend(labels=["W1-1", "W1-2", "W1-3", "L2-1"], depth=3,
                           double=True) == (
        "_W1-1 to W1-3: round 1 of the winners' bracket · L2-1: round 2 of the losers' "
        "bracket (players with one loss)._")
    assert brackets.named(label="GF2", depth=2, double=True).startswith(
        "GF2 (the grand final's replay")
