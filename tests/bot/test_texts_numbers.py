"""Numbers in refusals read as they are typed: `seconds` is from 1 to 86400, not 1e+08."""

from __future__ import annotations

import pytest

from bot.texts.input import number, number_bound, out_of_bounds


@pytest.mark.parametrize(("value", "shown"), [
    (1, "1"), (86400, "86400"), (1e8, "100000000"), (2.5, "2.5"), (0.25, "0.25"),
    (12345.678, "12345.678"), (1e-7, "1e-07"), (-3, "-3"), (1e30, "1e+30"),
])
def test_a_number_as_typed(value: float, shown: str) -> None:
    assert number(value) == shown


def test_an_out_of_bounds_refusal_says_the_number_typed() -> None:
    assert out_of_bounds("seconds", number_bound(1, 86400), number(1e8)) == (
        "`seconds` is from 1 to 86400, not 100000000.")
