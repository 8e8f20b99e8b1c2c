"""SQLite's one connection is never held long by one request: a statement past
``STATEMENT_SECONDS`` is interrupted, and the next request runs at once."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from bot.store import db as db_module
from bot.store.db import open_database

FOREVER = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
           "SELECT count(*) FROM c")


async def test_a_runaway_statement_is_interrupted(database_url: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if make_url(database_url).get_backend_name() != "sqlite":
        pytest.skip("SQLite's own statement deadline")
    monkeypatch.setattr(db_module, "STATEMENT_SECONDS", 0.3)
    db = await open_database(database_url)
    try:
        async with db.session() as s:
            with pytest.raises(OperationalError, match="interrupted"):
                await s.execute(text(FOREVER))
        # The connection is free again, and a quick statement is not interrupted
        # by the deadline of the one before.
        async with db.session() as s, s.begin():
            assert await s.scalar(text("SELECT 1")) == 1
        assert db.engine.pool.timeout() == db_module.POOL_WAIT  # type: ignore[attr-defined]
    finally:
        await db.close()
