"""The migrations, on the test database (SQLite, or PostgreSQL in the second run of
``make test``): they build exactly the models' schema, go down and up again, and the
server-numbers revision keeps every number already posted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store.db import alembic_config
from bot.store.models import Base


async def on(url: str, work: Callable[[Connection], Any]) -> Any:
    """``work(connection)`` on the database at ``url``, committed."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            return await conn.run_sync(work)
    finally:
        await engine.dispose()


def differences(connection: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(
        connection, opts={"compare_type": True, "render_as_batch": True}), Base.metadata))


def tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_the_migrations_build_the_models_schema(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "head")
    assert await on(url, differences) == []
    await asyncio.to_thread(command.check, config)  # the models need no new migration
    assert await on(url, tables) == {*Base.metadata.tables, "alembic_version"}


async def test_down_to_nothing_and_up_again(make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "head")
    await asyncio.to_thread(command.downgrade, config, "base")
    assert await on(url, tables) <= {"alembic_version"}
    await asyncio.to_thread(command.upgrade, config, "head")
    assert await on(url, differences) == []


BEFORE_SERVER_NUMBERS = """
    INSERT INTO users (id, name) VALUES ('alice', 'Alice'), ('bob', 'Bob');
    INSERT INTO guild_settings (guild_id, host_role) VALUES ('g1', 'Game Master');
    INSERT INTO events (id, guild_id, name, reward, transfers, confiscate, open,
                        created_by, created_at)
        VALUES (4, 'g2', 'S', 3, FALSE, 'no', TRUE, 'alice', 0);
    INSERT INTO matches (id, guild_id, channel_id, game, kind, status, seats, options,
                         time_control, hints, rated, created_at, turn_elapsed,
                         turn_extra, draw)
        VALUES (7, 'g1', 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE, 0,
                0, 0, FALSE),
               (9, 'g2', 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE, 0,
                0, 0, FALSE);
    INSERT INTO match_players (match_id, user_id, "order", accepted, banks_left,
                               time_used, out)
        VALUES (7, 'alice', 0, TRUE, 0, 0, FALSE), (9, 'bob', 0, TRUE, 0, 0, FALSE)
"""


async def test_numbers_names_and_roles_survive_the_server_revision(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "0002")

    def fill(connection: Connection) -> None:
        for statement in BEFORE_SERVER_NUMBERS.split(";"):
            connection.execute(text(statement))

    await on(url, fill)
    await asyncio.to_thread(command.upgrade, config, "head")

    def rows(query: str) -> Callable[[Connection], list[tuple[Any, ...]]]:
        return lambda connection: [tuple(r) for r in connection.execute(text(query))]

    # "Match #7" and "event #4", once posted, still name the same things.
    assert await on(url, rows("SELECT id, guild_id, number FROM matches ORDER BY id")) == [
        (7, "g1", 7), (9, "g2", 9)]
    assert await on(url, rows("SELECT number FROM events")) == [(4,)]
    # New ones continue after each server's highest.
    assert await on(url, rows(
        "SELECT guild_id, kind, last FROM counters ORDER BY 1, 2")) == [
        ("g1", "match", 7), ("g2", "event", 4), ("g2", "match", 9)]
    # Each name is known on the servers where its person appears.
    assert await on(url, rows(
        "SELECT guild_id, user_id, name FROM member_names ORDER BY 1, 2")) == [
        ("g1", "alice", "Alice"), ("g2", "alice", "Alice"), ("g2", "bob", "Bob")]
    # A role stored by name waits to be resolved to an id.
    assert await on(url, rows("SELECT host_role, host_role_name FROM guild_settings")) == [
        (None, "Game Master")]


SIGMA_MATCHES = """
    INSERT INTO matches (id, guild_id, number, channel_id, game, kind, status, seats, options,
                         time_control, hints, rated, created_at, turn_elapsed,
                         turn_extra, draw)
        VALUES (1, 'g1', 1, 'c', 'sigma', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE,
                0, 0, 0, FALSE),
               (2, 'g1', 2, 'c', 'sigma', 'casual', 'running', 2,
                '{"deck": "reconstructed"}', '{}', FALSE, TRUE, 0, 0, 0, FALSE),
               (3, 'g1', 3, 'c', 'sigma', 'casual', 'finished', 2,
                '{"deck": {"name": "own"}}', '{}', FALSE, TRUE, 0, 0, 0, FALSE),
               (4, 'g1', 4, 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE,
                0, 0, 0, FALSE)
"""


async def test_sigma_matches_stored_before_the_second_deck_keep_the_first(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "0008_event_review")
    await on(url, lambda connection: connection.execute(text(SIGMA_MATCHES)))
    await asyncio.to_thread(command.upgrade, config, "head")

    def options(connection: Connection) -> list[Any]:
        import json

        rows = connection.execute(text("SELECT id, options FROM matches ORDER BY id"))
        return [(i, o if isinstance(o, dict) else json.loads(o)) for i, o in rows]

    # The default and the old key become the first deck; a server's own deck and other
    # games stay as they were.
    assert await on(url, options) == [
        (1, {"deck": "reconstructed-v1"}), (2, {"deck": "reconstructed-v1"}),
        (3, {"deck": {"name": "own"}}), (4, {})]
    await asyncio.to_thread(command.downgrade, config, "0008_event_review")
    assert await on(url, options) == [
        (1, {"deck": "reconstructed"}), (2, {"deck": "reconstructed"}),
        (3, {"deck": {"name": "own"}}), (4, {})]


SIGMA_SET_UP = """
    INSERT INTO users (id, name) VALUES ('u1', 'U');
    INSERT INTO events (id, guild_id, number, name, reward, transfers, confiscate, open,
                        created_by, created_at)
        VALUES (1, 'g1', 1, 'Season', 3, FALSE, 'none', TRUE, 'h', 0);
    INSERT INTO tournaments (id, guild_id, number, name, game, format, options, settings,
                             status, channel_id, created_by, created_at, reminded)
        VALUES (1, 'g1', 1, 'T', 'sigma', 'swiss', '{}', '{"game_options": {}}', 'running',
                'c', 'h', 0, FALSE),
               (2, 'g1', 2, 'T', 'sigma', 'swiss', '{}',
                '{"game_options": {"deck": "reconstructed"}}', 'open', 'c', 'h', 0, FALSE),
               (3, 'g1', 3, 'T', 'sigma', 'swiss', '{}',
                '{"game_options": {"deck": "reconstructed-v2"}}', 'running', 'c', 'h', 0,
                FALSE),
               (4, 'g1', 4, 'T', 'sigma', 'swiss', '{}', '{"game_options": {}}', 'finished',
                'c', 'h', 0, FALSE);
    INSERT INTO nominations (id, guild_id, event_id, nominator_id, host_id, channel_id, game,
                             settings, status, created_at)
        VALUES (1, 'g1', 1, 'u1', 'h', 'c', 'sigma', '{"options": {}, "hints": true}', 'open',
                0),
               (2, 'g1', 1, 'u1', 'h', 'c', 'sigma', '{"options": {}}', 'done', 0),
               (3, 'g1', 1, 'u1', 'h', 'c', 'cairo', '{"options": {}}', 'open', 0)
"""


def read(table: str, column: str) -> Callable[[Connection], list[Any]]:
    """``(id, column)`` of every row of ``table``, the JSON column decoded."""
    import json

    def rows(connection: Connection) -> list[Any]:
        found = connection.execute(text(f"SELECT id, {column} FROM {table} ORDER BY id"))
        return [(i, o if isinstance(o, dict) else json.loads(o)) for i, o in found]
    return rows


# As stored by then: a match pinned to the first deck by name, beside the default's.
PINNED_TO_THE_FIRST = (
    "INSERT INTO matches (id, guild_id, number, channel_id, game, kind, status, seats, "
    "options, time_control, hints, rated, created_at, turn_elapsed, turn_extra, draw) "
    "VALUES (5, 'g1', 5, 'c', 'sigma', 'casual', 'finished', 2, "
    "'{\"deck\": \"reconstructed-v1\"}', '{}', FALSE, TRUE, 0, 0, 0, FALSE)")


@pytest.mark.parametrize(("before", "kept"), [
    ("0010_host_action_ply", "reconstructed-v1"),  # 0011: the default became v3
    ("0015_locale", "reconstructed-v3"),  # 0016: the default became v4 under open-sides
])
async def test_what_was_played_or_set_up_with_an_old_default_deck_keeps_it(
        make_database: Callable[..., str], before: str, kept: str) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, before)

    def fill(connection: Connection) -> None:
        for statement in (SIGMA_MATCHES + ";" + SIGMA_SET_UP + ";"
                          + PINNED_TO_THE_FIRST).split(";"):
            connection.execute(text(statement))

    await on(url, fill)
    await asyncio.to_thread(command.upgrade, config, "head")

    # Matches stored with the default (or its name) keep the deck it was then; one
    # pinned to the first deck, a server's own deck and other games stay as they were.
    assert await on(url, read("matches", "options")) == [
        (1, {"deck": kept}), (2, {"deck": kept}),
        (3, {"deck": {"name": "own"}}), (4, {}), (5, {"deck": "reconstructed-v1"})]
    # A tournament still to play rounds, and an open nomination, keep it too; one that
    # named another deck, and what is over, are left alone.
    assert await on(url, read("tournaments", "settings")) == [
        (1, {"game_options": {"deck": kept}}),
        (2, {"game_options": {"deck": kept}}),
        (3, {"game_options": {"deck": "reconstructed-v2"}}),
        (4, {"game_options": {}})]
    assert await on(url, read("nominations", "settings")) == [
        (1, {"options": {"deck": kept}, "hints": True}),
        (2, {"options": {}}), (3, {"options": {}})]
    # Going back changes nothing: the old default has its own name there too.
    await asyncio.to_thread(command.downgrade, config, before)
    assert (await on(url, read("matches", "options")))[:2] == [
        (1, {"deck": kept}), (2, {"deck": kept})]


HOST_ACTIONS = """
    INSERT INTO matches (id, guild_id, number, channel_id, game, kind, status, seats, options,
                         time_control, hints, rated, created_at, turn_elapsed,
                         turn_extra, draw)
        VALUES (1, 'g1', 1, 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE,
                0, 0, 0, FALSE),
               (2, 'g1', 2, 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', FALSE, TRUE,
                0, 0, 0, FALSE);
    INSERT INTO moves (match_id, ply, seat, kind, notation, elapsed, banks_spent, at)
        VALUES (1, 1, 0, 'move', 'DL', 1, 0, 10), (1, 2, 1, 'move', 'JU', 1, 0, 20),
               (2, 1, 0, 'move', 'DL', 1, 0, 5);
    INSERT INTO host_actions (match_id, actor_id, action, detail, at)
        VALUES (1, 'h', 'extend', '30 s', 1), (1, 'h', 'pause', '', 15),
               (1, 'h', 'resume', '', 20), (2, 'h', 'void', 'x', 50)
"""


async def test_host_actions_stored_before_their_ply_get_it_from_the_moves_before_them(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "0009_sigma_deck_v1")

    def fill(connection: Connection) -> None:
        for statement in HOST_ACTIONS.split(";"):
            connection.execute(text(statement))

    await on(url, fill)
    await asyncio.to_thread(command.upgrade, config, "head")
    assert await on(url, lambda connection: [tuple(r) for r in connection.execute(text(
        "SELECT match_id, action, ply FROM host_actions ORDER BY id"))]) == [
        (1, "extend", 0), (1, "pause", 1), (1, "resume", 2), (2, "void", 1)]


async def test_stored_reviews_go_with_their_match_and_with_the_revision(
        make_database: Callable[..., str]) -> None:
    url = make_database(migrated=False)
    config = alembic_config(url)
    await asyncio.to_thread(command.upgrade, config, "0014_review")

    def fill(connection: Connection) -> None:
        connection.execute(text(SIGMA_MATCHES.replace("'sigma'", "'cairo'")))
        connection.execute(text(
            "INSERT INTO match_reviews (guild_id, match_id, data) VALUES "
            "('g1', 1, '{\"first_win\": [0.5]}'), ('g1', 4, '{\"first_win\": [0.4]}')"))

    await on(url, fill)
    # One review a match of a server: a second is refused by the key.
    twice = "INSERT INTO match_reviews (guild_id, match_id, data) VALUES ('g1', 1, '{}')"
    try:
        await on(url, lambda connection: connection.execute(text(twice)))
    except Exception as exc:  # IntegrityError, as each driver words it
        assert "unique" in str(exc).lower() or "duplicate" in str(exc).lower()
    else:
        raise AssertionError("a second review of one match was stored")

    def reviewed(connection: Connection) -> list[Any]:
        return [r[0] for r in connection.execute(text(
            "SELECT match_id FROM match_reviews ORDER BY match_id"))]

    assert await on(url, reviewed) == [1, 4]
    await on(url, lambda connection: connection.execute(text(
        "DELETE FROM matches WHERE id = 4")))
    if make_url(url).get_backend_name() == "postgresql":  # SQLite enforces keys only when asked
        assert await on(url, reviewed) == [1]
    await asyncio.to_thread(command.downgrade, config, "0013_web")
    assert "match_reviews" not in await on(url, tables)
    assert "matches" in await on(url, tables)
