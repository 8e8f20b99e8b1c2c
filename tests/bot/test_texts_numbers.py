"""Numbers in refusals read as a player reads them: `seconds` is from 1 to 86,400, not
100,000,000; a number nobody reads back (1e+23) is not shown; every number option
declares bounds that mean something to a player."""

from __future__ import annotations

import pytest

from bot.commands import COMMANDS
from bot.commands.spec import INT_RANGE, Kind
from bot.texts.input import duration, number, number_out_of_bounds


@pytest.mark.parametrize(("value", "shown"), [
    (1, "1"), (1000, "1000"), (86400, "86,400"), (1e8, "100,000,000"), (2.5, "2.5"),
    (0.25, "0.25"), (12345.678, "12,345.678"), (-3, "-3"), (-20000, "-20,000"),
    (1e-7, ""), (1e23, ""), (1e30, ""), (float("inf"), ""), (float("nan"), ""),
])
def test_a_number_as_a_player_reads_it(value: float, shown: str) -> None:
    assert number(value) == shown


@pytest.mark.parametrize(("value", "said"), [
    (1e8, "`rank` is from 1 to 86,400, not 100,000,000."),
    (0, "`rank` is from 1 to 86,400, not 0."),
    (1e23, "`rank` is from 1 to 86,400."),
    (float("nan"), "`rank` is from 1 to 86,400."),
    (0.0000001, "`rank` is from 1 to 86,400."),
])
def test_an_out_of_bounds_refusal_says_the_number_when_it_can_be_read(
        value: float, said: str) -> None:
    assert number_out_of_bounds("rank", 1, 86400, value) == said


@pytest.mark.parametrize(("low", "high", "value", "said"), [
    (1, 86400, 1e8, "`seconds` is from 1 s to 24 h, not 27,777 h 46 min 40 s."),
    (5, 86400, 2, "`seconds` is from 5 s to 24 h, not 2 s."),
    (1, 3600, 7200, "`seconds` is from 1 s to 1 h, not 2 h."),
    (1, 3600, 90, None), (5, 86400, 86401, "`seconds` is from 5 s to 24 h, not 24 h 1 s."),
    (1, 86400, 1e23, "`seconds` is from 1 s to 24 h."),
    (1, 3600, 0.5, "`seconds` is from 1 s to 1 h, not 0.5 s."),
])
def test_bounds_of_seconds_are_said_as_times(low: float, high: float, value: float,
                                             said: str | None) -> None:
    if said is None:  # within: no refusal to say; 90 s is not 1.5 min
        assert (duration(value), duration(86000)) == ("1 min 30 s", "23 h 53 min 20 s")
        return
    assert number_out_of_bounds("seconds", low, high, value, seconds=True) == said


@pytest.mark.parametrize("option", [o for c in COMMANDS for o in c.options
                                    if o.kind in (Kind.INT, Kind.NUMBER)],
                         ids=lambda o: o.name)
def test_every_number_option_declares_bounds_a_player_understands(option: object) -> None:
    """The kind's fallback (±2,000,000,000) means nothing to a player: no option is
    left with them, and none takes a negative number."""
    low, high = option.bounds()  # type: ignore[attr-defined]
    assert option.min is not None and option.max is not None  # type: ignore[attr-defined]
    assert low is not None and low >= 0 and high is not None and high < INT_RANGE[1]
