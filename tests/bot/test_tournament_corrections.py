"""Corrections of any round, at any time, in every format: the standings equal those of
the same tournament played with the corrected results from the start (the pairings
made stand, as arbiters keep them). In a bracket a correction that would change who
plays in a match already paired is refused (``PlayedOn``); every other is taken."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.services.tournaments import (
    Event,
    Format,
    Options,
    Outcome,
    PlayedOn,
    Reported,
    Round,
    Tournament,
)
from tests.replays import replayed

DECISIVE = [o for o in Outcome if o is not Outcome.DRAW]


def shown(t: Tournament, events: list[Event]) -> list[tuple[Any, ...]]:
    """Everything of the standings but ``active``: a forfeit that a correction of an
    earlier round brings withdraws nobody (the player has played on since)."""
    return [(s.rank, s.player, s.points, s.place, sorted(s.tiebreaks.items()))
            for s in t.standings(events)]


def correction(data: st.DataObject, t: Tournament, events: list[Event]) -> Reported:
    rounds = t.state(events).rounds
    number = data.draw(st.integers(1, len(rounds)), label="round")
    board = data.draw(st.sampled_from([p.board for p in rounds[number - 1].pairings]),
                      label="board")
    outcomes = DECISIVE if t.format.elimination else list(Outcome)
    return Reported(number, board, data.draw(st.sampled_from(outcomes), label="outcome"))


def offer(t: Tournament, events: list[Event], report: Reported, *, over: bool) -> bool:
    """Take a correction as the host would: refused in a bracket only where a later
    match already paired would change (or, after the end, a reset never played)."""
    try:
        t.state([*events, report])
    except PlayedOn:
        assert t.format.elimination
        return False
    if over and t.format.elimination and not t.finished([*events, report]):
        return False
    events.append(report)
    return True


@pytest.mark.parametrize("fmt", list(Format))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_corrections_equal_playing_the_corrected_results(fmt: Format,
                                                            data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 9), label="players")
    options = Options(third_place=data.draw(st.booleans()) if fmt is Format.SINGLE else False)
    t = Tournament(fmt, tuple(f"P{i}" for i in range(1, n + 1)), options)
    outcomes = DECISIVE if fmt.elimination else list(Outcome)
    events: list[Event] = []
    taken = 0
    while not t.finished(events):
        rnd = t.pair_next(events)
        events.append(rnd)
        for p in rnd.pairings:
            if p.decided is None:
                events.append(Reported(rnd.number, p.board,
                                       data.draw(st.sampled_from(outcomes), label="result")))
            for _ in range(data.draw(st.integers(0, 2), label="corrections")):
                taken += offer(t, events, correction(data, t, events), over=False)
        assert t.standings(events)  # never fails, whatever was corrected
    for _ in range(data.draw(st.integers(0, 3), label="after the end")):
        taken += offer(t, events, correction(data, t, events), over=True)
    assert shown(t, events) == shown(t, replayed(events))


def test_a_bracket_correction_that_changes_no_advancement_is_taken() -> None:
    t = Tournament(Format.SINGLE, ("a", "b", "c", "d"))
    events: list[Event] = [first := t.pair_next([])]
    assert isinstance(first, Round)
    events += [Reported(1, p.board, Outcome.FIRST) for p in first.pairings]
    events.append(t.pair_next(events))
    # The same winner by forfeit: taken. The other winner: W2-1 was paired without them.
    events.append(Reported(1, 1, Outcome.FIRST_BY_FORFEIT))
    assert t.standings(events)
    with pytest.raises(PlayedOn) as refused:
        t.state([*events, Reported(1, 1, Outcome.SECOND)])
    assert (refused.value.later, refused.value.round) == ("W2-1", 2)


def test_a_forfeit_corrected_into_an_earlier_round_withdraws_nobody() -> None:
    t = Tournament(Format.SWISS, tuple("abcdef"), Options(rounds=3))
    events: list[Event] = [first := t.pair_next([])]
    assert isinstance(first, Round)
    events += [Reported(1, p.board, Outcome.FIRST) for p in first.pairings]
    loser = first.pairings[0].second
    # Between rounds, the last round's forfeit withdraws its loser (not paired next).
    assert loser in t.state([*events, Reported(1, 1, Outcome.FIRST_BY_FORFEIT)]).withdrawn
    events.append(t.pair_next(events))
    # Once round 2 is paired, the same correction withdraws nobody: they play on.
    assert t.state([*events, Reported(1, 1, Outcome.FIRST_BY_FORFEIT)]).withdrawn == set()
