"""The migrations: they build exactly the models' schema, go down and up again, and the
server-numbers revision keeps every number already posted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from bot.store.db import alembic_config, upgrade
from bot.store.models import Base


def _url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def test_the_migrations_build_the_models_schema(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    upgrade(_url(db))
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(
            connection, opts={"compare_type": True, "render_as_batch": True}), Base.metadata)
    engine.dispose()
    assert diff == []


def test_down_to_nothing_and_up_again(tmp_path: Path) -> None:
    url = _url(tmp_path / "g.db")
    config = alembic_config(url)
    command.upgrade(config, "head")
    command.downgrade(config, "base")
    command.upgrade(config, "head")


def test_numbers_names_and_roles_survive_the_server_revision(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    config = alembic_config(_url(db))
    command.upgrade(config, "0002")
    raw = sqlite3.connect(db)
    raw.executescript("""
        INSERT INTO users (id, name) VALUES ('alice', 'Alice'), ('bob', 'Bob');
        INSERT INTO guild_settings (guild_id, host_role) VALUES ('g1', 'Game Master');
        INSERT INTO events (id, guild_id, name, reward, transfers, confiscate, open,
                            created_by, created_at)
            VALUES (4, 'g2', 'S', 3, 0, 'no', 1, 'alice', 0);
        INSERT INTO matches (id, guild_id, channel_id, game, kind, status, seats, options,
                             time_control, hints, rated, created_at, turn_elapsed,
                             turn_extra, draw)
            VALUES (7, 'g1', 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', 0, 1, 0, 0,
                    0, 0),
                   (9, 'g2', 'c', 'cairo', 'casual', 'finished', 2, '{}', '{}', 0, 1, 0, 0,
                    0, 0);
        INSERT INTO match_players (match_id, user_id, "order", accepted, banks_left,
                                   time_used, out)
            VALUES (7, 'alice', 0, 1, 0, 0, 0), (9, 'bob', 0, 1, 0, 0, 0);
    """)
    raw.commit()
    raw.close()
    command.upgrade(config, "head")
    raw = sqlite3.connect(db)
    # "Match #7" and "event #4", once posted, still name the same things.
    assert raw.execute("SELECT id, guild_id, number FROM matches ORDER BY id").fetchall() == [
        (7, "g1", 7), (9, "g2", 9)]
    assert raw.execute("SELECT number FROM events").fetchall() == [(4,)]
    # New ones continue after each server's highest.
    assert raw.execute("SELECT guild_id, kind, last FROM counters ORDER BY 1, 2").fetchall() == [
        ("g1", "match", 7), ("g2", "event", 4), ("g2", "match", 9)]
    # Each name is known on the servers where its person appears.
    assert raw.execute("SELECT guild_id, user_id, name FROM member_names ORDER BY 1").fetchall() \
        == [("g1", "alice", "Alice"), ("g2", "alice", "Alice"), ("g2", "bob", "Bob")]
    # A role stored by name waits to be resolved to an id.
    assert raw.execute("SELECT host_role, host_role_name FROM guild_settings").fetchall() == [
        (None, "Game Master")]
    raw.close()
