"""The suite's setup: its fixtures (``tests/fixtures.py``, one plugin for every test) and
which database they stand on, one switch, ``TEST_DATABASE_URL`` (see
``tests/database.py``): SQLite by default, or a PostgreSQL server on which each test
gets a fresh, migrated database of its own.

Tests that use a database are marked ``database`` (``make test`` runs them again on
PostgreSQL); ``@pytest.mark.sqlite_only(reason)`` keeps a test to SQLite."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator

import pytest

from tests import database

# The CPU budget (``bot.services.budget.Busy``) reads this process's CPU in real time;
# the suite's clocks are virtual and its work CPU-bound, so every bot it builds (and
# the benches it starts) leaves it off. ``test_budget.py`` tests it on its own clock.
os.environ["CPU_BUDGET"] = "off"

pytest_plugins = ["tests.fixtures"]

FIXTURES = {"database_url", "make_database"}


@pytest.fixture(autouse=True)
def _interpreter_as_it_was() -> Iterator[None]:
    """The console and the bot set the interpreter's lock switch interval for their
    process (``bot.app.tune_interpreter``: 0.5 ms, for the event loop's sake); a test
    that runs them in the suite's own process leaves it as it found it, so that every
    test after it does not pay the switches (15-20 % of the suite's time). What it froze
    for the garbage collector goes back to it (the suite's objects come and go)."""
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)
    if gc.get_freeze_count():
        gc.unfreeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on = database.backend()
    for item in items:
        if FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.database)
        only = item.get_closest_marker("sqlite_only")
        if only is not None and on != "sqlite":
            reason = only.args[0] if only.args else only.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))
    # ``make test`` runs the realtime tests apart from the others: those that mostly wait
    # (``waits``) in a pytest of their own, the rest two at a time on two workers, the
    # longest first (``realtime(seconds=N)``: about how long one takes; the rest after
    # them, as collected). Each worker holds the next test or two while it runs one, so
    # a long test handed out last kept one worker going alone for its whole length.
    items.sort(key=_realtime_seconds, reverse=True)


def _realtime_seconds(item: pytest.Item) -> float:
    mark = item.get_closest_marker("realtime")
    return float(mark.kwargs.get("seconds", 0)) if mark is not None else 0.0


def pytest_report_header(config: pytest.Config) -> str:
    url = database.configured()
    return f"test database: {'SQLite (temporary files)' if url is None else url}"
