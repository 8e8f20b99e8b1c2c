"""Fixtures for every test that needs a database; which database is one switch,
``TEST_DATABASE_URL`` (see ``tests/database.py``): SQLite by default, or a PostgreSQL
server on which each test gets a fresh, migrated database of its own.

Tests that use a database are marked ``database`` (``make test`` runs them again on
PostgreSQL); ``@pytest.mark.sqlite_only(reason)`` keeps a test to SQLite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.store.db import Nesting
from tests import database

FIXTURES = {"database_url", "make_database"}


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[database.Databases]:
    made = database.Databases(database.configured(), tmp_path_factory.mktemp("databases"))
    yield made
    made.close()


@pytest.fixture
def make_database(databases: database.Databases,
                  tmp_path: Path) -> Iterator[Callable[..., str]]:
    """``make_database()``: the URL of a new database migrated to the newest schema;
    ``make_database(migrated=False)``: of an empty one. Each is dropped after the test."""
    made: list[str] = []

    def make(migrated: bool = True) -> str:
        made.append(databases.create(tmp_path, migrated))
        return made[-1]

    yield make
    for url in made:
        databases.drop(url)


@pytest.fixture
def database_url(make_database: Callable[..., str]) -> str:
    """The URL of this test's own database, migrated to the newest schema."""
    return make_database()


@pytest.fixture(autouse=True)
def no_nested_sessions() -> Iterator[None]:
    """Every test fails that made a task open a database session while it held another
    (see ``bot.store.db.Nesting``: on SQLite that waits 60 s and stalls every server)."""
    Nesting.check = True
    Nesting.found.clear()
    yield
    found = list(Nesting.found)
    Nesting.found.clear()
    assert not found, (f"{len(found)} database session(s) opened while the same task held "
                       f"another; the first:\n{found[0]}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    on = database.backend()
    for item in items:
        if FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.database)
        only = item.get_closest_marker("sqlite_only")
        if only is not None and on != "sqlite":
            reason = only.args[0] if only.args else only.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


def pytest_report_header(config: pytest.Config) -> str:
    url = database.configured()
    return f"test database: {'SQLite (temporary files)' if url is None else url}"
