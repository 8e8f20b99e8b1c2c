"""A database that fails when a test says so, on SQLite and PostgreSQL alike.

``Faults(db, clock)`` listens to the engine's statements (``before_cursor_execute``)
and makes those that fall in a window of the virtual clock raise the driver's error as
SQLAlchemy gives it (``OperationalError``): the database locked (SQLite's busy wait
ran out), the connection gone (a PostgreSQL restart: the connection is invalidated),
the disk full. A window may name the statements it hits (a table, a verb): the failure
then falls at a chosen point of a move, a flag, a reminder, a result, a deadline, a
lease renewal. A lock and a full disk hit writes (readers go on, as under WAL); a lost
connection hits everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from bot.core.clock import VirtualClock
from bot.store.db import Database

LOCKED = "database is locked"
GONE = "connection was closed in the middle of operation"
FULL = "database or disk is full"
WRITES = ("insert", "update", "delete")


class DriverError(Exception):
    """What the driver raised (wrapped by SQLAlchemy, as a real one is)."""


@dataclass
class Window:
    kind: str
    start: float
    end: float
    statement: str | None  # a fragment of the statements it hits; None: all of its kind


class Faults:
    def __init__(self, db: Database, clock: VirtualClock) -> None:
        self.clock = clock
        self.windows: list[Window] = []
        self.hits = 0
        self.engine = db.engine.sync_engine
        event.listen(self.engine, "before_cursor_execute", self._check)

    def fail(self, kind: str, start: float, seconds: float,
             statement: str | None = None) -> Window:
        """From ``start`` (virtual time) for ``seconds``, the statements hit fail."""
        window = Window(kind, start, start + seconds, statement)
        self.windows.append(window)
        return window

    def now(self, kind: str, seconds: float, statement: str | None = None) -> Window:
        return self.fail(kind, self.clock.now(), seconds, statement)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._check)

    def _check(self, _conn: Any, _cursor: Any, statement: str, parameters: Any,
               _context: Any, _many: bool) -> None:
        now = self.clock.now()
        text = statement.lower()
        for w in self.windows:
            if not w.start <= now < w.end:
                continue
            if w.statement is not None and w.statement.lower() not in text:
                continue
            if w.kind != GONE and not text.lstrip().startswith(WRITES):
                continue
            self.hits += 1
            raise OperationalError(statement, parameters, DriverError(w.kind),
                                   connection_invalidated=w.kind == GONE)
