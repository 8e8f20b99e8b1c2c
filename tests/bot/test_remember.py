"""People named in a request are remembered (``bot.services.users.remember``): a row
each, and what each server calls them, in two statements however many are named (each
a round trip with the transaction open: on SQLite, every other request waits)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, select

from bot.core.messages import Actor
from bot.services.users import MAX_NAME, remember
from bot.store.db import open_database
from bot.store.models import MemberName, User


async def test_people_are_remembered_with_their_names_here_in_two_statements(
        database_url: str) -> None:
    db = await open_database(database_url)
    statements: list[str] = []

    def counted(*args: Any) -> None:
        statements.append(args[2])

    event.listen(db.engine.sync_engine, "before_cursor_execute", counted)
    try:
        people = [Actor("3", "Carol"), Actor("1", "Alice"), Actor("2", "Bob"),
                  Actor("1", "Alice")]  # named twice in one request: one row
        async with db.session() as s, s.begin():
            await remember(s, "g1", people)
        assert len(statements) == 2
        async with db.session() as s, s.begin():
            # Bob renamed here, Carol's name the same, Dan new, a name past the bound,
            # and one without a name (its id stands for it); another server's names
            # are its own.
            await remember(s, "g1", [Actor("2", "Bobby"), Actor("3", "Carol"),
                                     Actor("4", "D" * (MAX_NAME + 20)), Actor("5", "")])
            await remember(s, "g2", [Actor("1", "Ali")])
        assert len(statements) == 6
        async with db.session() as s:
            users = {u.id: u.name for u in await s.scalars(select(User))}
            names = {(m.guild_id, m.user_id): m.name
                     for m in await s.scalars(select(MemberName))}
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", counted)
        await db.close()
    assert users == {i: i for i in "12345"}  # not display names: those are per server
    assert names == {("g1", "1"): "Alice", ("g1", "2"): "Bobby", ("g1", "3"): "Carol",
                     ("g1", "4"): "D" * MAX_NAME, ("g1", "5"): "5", ("g2", "1"): "Ali"}
