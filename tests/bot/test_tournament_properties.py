"""Properties of every format over many seeds and field sizes, odd and even, with
forfeits and withdrawals: what a careful arbiter would check on every round."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.services.tournaments import (
    Event,
    Format,
    Options,
    Outcome,
    Reported,
    Round,
    Tournament,
    event_from_json,
    event_to_json,
)
from bot.services.tournaments.bracket import depth
from bot.services.tournaments.simulate import simulate

SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 21)
CHAOS = ((0.0, 0.0), (0.1, 0.0), (0.05, 0.05))  # (forfeits, drops)


def names(n: int) -> tuple[str, ...]:
    return tuple(f"P{i}" for i in range(1, n + 1))


def played(fmt: Format, n: int, seed: int, forfeits: float, drops: float,
           **options: object) -> tuple[Tournament, list[Event]]:
    t = Tournament(fmt, names(n), Options(**options))
    events = simulate(t, random.Random(seed * 7919 + n), draws=0.15, forfeits=forfeits,
                      drops=drops)
    assert t.finished(events)
    stored = [event_from_json(event_to_json(e)) for e in events]
    assert stored == events
    return t, events


def rounds_with_field(t: Tournament, events: list[Event]) -> list[tuple[Round, frozenset[str]]]:
    """Each round with the players still in when it was paired."""
    out = []
    for i, e in enumerate(events):
        if isinstance(e, Round):
            gone = t.state(events[:i]).withdrawn
            out.append((e, frozenset(p for p in t.players if p not in gone)))
    return out


def check_standings(t: Tournament, events: list[Event]) -> None:
    table = t.standings(events)
    assert sorted(s.player for s in table) == sorted(t.players)
    ranks = [s.rank for s in table]
    assert ranks == sorted(ranks) and ranks[0] == 1
    if not t.format.elimination:
        points = [s.points for s in table]
        assert points == sorted(points, reverse=True)
        state = t.state(events)
        total = sum(sum(o.points) for o in state.outcomes.values())
        byes = sum(len(r.byes) for r in state.rounds) if t.format is Format.SWISS else 0
        assert sum(points) == total + byes * t.options.bye_points


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("chaos", CHAOS)
def test_swiss(n: int, chaos: tuple[float, float]) -> None:
    for seed in range(4):
        rounds = min(depth(n) + 1, n - 1 if n % 2 == 0 else n)
        t, events = played(Format.SWISS, n, seed, *chaos, rounds=rounds)
        met: set[frozenset[str]] = set()
        byes: Counter[str] = Counter()
        paired = rounds_with_field(t, events)
        assert len(paired) <= rounds
        for rnd, field in paired:
            placed = [p for pairing in rnd.pairings for p in pairing.players] + list(rnd.byes)
            assert sorted(placed) == sorted(field), "everybody still in, once"
            assert len(rnd.byes) == len(field) % 2
            for pairing in rnd.pairings:
                assert frozenset(pairing.players) not in met, "a rematch"
                met.add(frozenset(pairing.players))
            byes.update(rnd.byes)
        assert all(count == 1 for count in byes.values()), "a second bye"
        if chaos == (0.0, 0.0):
            assert len(paired) == rounds
        check_standings(t, events)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_round_robin(n: int, double: bool) -> None:
    for seed, chaos in enumerate(CHAOS):
        t, events = played(Format.ROUND_ROBIN, n, seed, *chaos, double=double)
        met: Counter[frozenset[str]] = Counter()
        firsts: Counter[tuple[str, str]] = Counter()
        for rnd in (e for e in events if isinstance(e, Round)):
            placed = [p for pairing in rnd.pairings for p in pairing.players] + list(rnd.byes)
            assert sorted(placed) == sorted(t.players)
            met.update(frozenset(p.players) for p in rnd.pairings)
            firsts.update(p.players for p in rnd.pairings)
        assert len(met) == n * (n - 1) // 2
        assert set(met.values()) == {2 if double else 1}
        if double:  # each moves first once against each
            assert set(firsts.values()) == {1}
        check_standings(t, events)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 11])
def test_swiss_as_long_as_a_round_robin_still_completes(n: int) -> None:
    # Without looking a round ahead, the last rounds of such a Swiss often find
    # everybody's remaining opponents already met.
    for seed in range(3):
        rounds = n - 1 if n % 2 == 0 else n
        _, events = played(Format.SWISS, n, seed, 0.0, 0.0, rounds=rounds)
        paired = [e for e in events if isinstance(e, Round)]
        assert len(paired) == rounds
        met = Counter(frozenset(p.players) for r in paired for p in r.pairings)
        assert set(met.values()) == {1} and len(met) == n * (n - 1) // 2


def _losses(t: Tournament, events: list[Event]) -> list[tuple[int, str, list[str]]]:
    """(round, match, losers) for every decided bracket match, in order."""
    state = t.state(events)
    out = []
    for rnd in state.rounds:
        for p in rnd.pairings:
            outcome = state.outcomes[(rnd.number, p.board)]
            losers = [name for name, pts in zip(p.players, outcome.points, strict=True)
                      if pts == 0]
            out.append((rnd.number, p.match or "", losers))
    return out


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("chaos", CHAOS)
def test_single_elimination(n: int, chaos: tuple[float, float]) -> None:
    for seed in range(3):
        t, events = played(Format.SINGLE, n, seed, *chaos, best_of=3)
        out: set[str] = set()
        for _, _, losers in _losses(t, events):
            assert not out & set(losers), "played after losing"
            out.update(losers)
        rounds = [e for e in events if isinstance(e, Round)]
        assert len(rounds) <= depth(n)
        if chaos == (0.0, 0.0):
            assert len(rounds) == depth(n)
            top = 1 << (depth(n) - 1)
            byes = (1 << depth(n)) - n
            assert set(rounds[0].byes) == {f"P{i}" for i in range(1, byes + 1)}
            assert len(rounds[0].pairings) == top - byes
            assert len(out) == n - 1
        check_standings(t, events)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("chaos", CHAOS)
def test_double_elimination(n: int, chaos: tuple[float, float]) -> None:
    for seed in range(3):
        t, events = played(Format.DOUBLE, n, seed, *chaos)
        losses: Counter[str] = Counter()
        for _, match, losers in _losses(t, events):
            for p in losers:
                assert losses[p] < 2, f"{p} played {match} after two losses"
            losses.update(losers)
        table = t.standings(events)
        if chaos == (0.0, 0.0):
            champion = table[0].player
            assert [s.rank for s in table].count(1) == 1
            assert losses[champion] <= 1
            assert all(losses[p] == 2 for p in t.players if p != champion)
        check_standings(t, events)


def test_results_can_be_corrected_until_the_next_round() -> None:
    t = Tournament(Format.SWISS, names(6), Options(rounds=3))
    events: list[Event] = [t.pair_next([])]
    rnd = events[0]
    assert isinstance(rnd, Round)
    events += [Reported(1, p.board, Outcome.FIRST) for p in rnd.pairings]
    corrected = [*events, Reported(1, 1, Outcome.SECOND)]
    table = {s.player: s.points for s in t.standings(corrected)}
    assert table[rnd.pairings[0].second] == 1 and table[rnd.pairings[0].first] == 0
    second = t.pair_next(corrected)
    top = second.pairings[0].players
    assert rnd.pairings[0].second in {p for pairing in second.pairings[:2]
                                      for p in pairing.players} or top


def _sides(t: Tournament, events: list[Event]) -> tuple[int, list[str], float]:
    """Of a Swiss played: rematches, breaches of the first-player rules (the same
    side three rounds running, except topscorers in the last round; more than two
    firsts, or seconds, ahead) and the sum of every pairing's score difference."""
    state = t.state(events)
    points = dict.fromkeys(t.players, 0.0)
    sides: dict[str, list[bool]] = {p: [] for p in t.players}
    met: set[frozenset[str]] = set()
    rematches, spread, breaches = 0, 0.0, []
    for rnd in state.rounds:
        last = rnd.number == len(state.rounds)
        top = {p for p in t.players if points[p] > (rnd.number - 1) / 2}
        for p in rnd.pairings:
            rematches += frozenset(p.players) in met
            met.add(frozenset(p.players))
            spread += abs(points[p.first] - points[p.second])
            outcome = state.outcomes[(rnd.number, p.board)]
            for name, first, got in zip(p.players, (True, False), outcome.points, strict=True):
                points[name] += got
                seq = sides[name]
                seq.append(first)
                if seq[-3:] in ([True] * 3, [False] * 3) and not (last and name in top):
                    breaches.append(f"{name}: the same side three rounds to round {rnd.number}")
                if abs(2 * sum(seq) - len(seq)) > 2:
                    breaches.append(f"{name}: {seq} in round {rnd.number}")
        for name in rnd.byes:
            points[name] += t.options.bye_points
    return rematches, breaches, spread


# Tournaments of each size in parts of 25 (they spread over the test workers), with
# the sum of the pairings' score differences each part had before the rule (ranked
# below them then, the same side three times running came in 10 of the 100 of 64).
# The rule was measured on all four parts (100 tournaments a size); the suite runs the
# first two (50 a size, about 40 s of CPU less).
SPREAD = {(64, 0): 198.0, (64, 1): 201.0, (64, 2): 198.0, (64, 3): 188.0,
          (63, 0): 186.0, (63, 1): 176.5, (63, 2): 175.0, (63, 3): 175.5}
IN_THE_SUITE = sorted(key for key in SPREAD if key[1] < 2)


@pytest.mark.parametrize(("n", "part"), IN_THE_SUITE)
def test_swiss_first_players_keep_fides_absolute_rules(n: int, part: int) -> None:
    """FIDE's Dutch rules (C.04.3 C3): nobody moves first (or second) three rounds
    running, except topscorers in the last round, nor gets a difference of three;
    without a rematch, and with the score differences as small as before the rule."""
    total = 0.0
    for seed in range(25 * part, 25 * part + 25):
        t = Tournament(Format.SWISS, names(n), Options())
        events = simulate(t, random.Random(seed))
        rematches, breaches, spread = _sides(t, events)
        assert rematches == 0 and breaches == [], (seed, breaches)
        total += spread
    assert total <= 1.03 * SPREAD[(n, part)], total  # 2% more at most today
