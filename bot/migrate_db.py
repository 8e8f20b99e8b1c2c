"""``python -m bot migrate-db --to URL``: move a deployment to another database.

Copies everything from the current database (DATABASE_URL, or ``--database``) into the
target: an empty database is migrated to the newest schema first; one already at the
newest schema must hold no rows unless ``--force`` (its rows are then replaced). Then
the id sequences are reset and every table's row count and every balance are compared
between the two. Stop every bot process on the source first: what it writes during
the copy is not copied.

Exit status: 0 copied and checked, 1 the check found a difference, 2 bad input (the
message says what to do).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import TextIO

from sqlalchemy import func, select
from sqlalchemy.engine import URL

from bot.store.copydb import (
    Check,
    CopyError,
    check_source,
    check_target,
    copy_tables,
    counts,
    engine_for,
    migrate_target,
    parse_url,
    reach,
    revisions,
    schema_of,
    shown,
    verify,
)
from bot.store.models import Heartbeat

RECENT = 120.0  # seconds: a heartbeat younger than this suggests a bot still running


def _same(a: URL, b: URL) -> bool:
    if a.get_backend_name() == b.get_backend_name() == "sqlite":
        return os.path.abspath(a.database or "") == os.path.abspath(b.database or "")
    return (a.get_backend_name(), a.host, a.port, a.database) == (
        b.get_backend_name(), b.host, b.port, b.database)


def report(check: Check, out: TextIO) -> None:
    differ = {name: n for name, n in check.tables.items() if n[0] != n[1]}
    if differ:
        out.write(f"check: {len(differ)} of {len(check.tables)} tables differ in rows "
                  "(source → target):\n")
        for name, (before, after) in differ.items():
            out.write(f"  {name}: {before:,} → {after:,}\n")
    else:
        rows = sum(before for before, _ in check.tables.values())
        out.write(f"check: the same rows in all {len(check.tables)} tables ({rows:,} in "
                  "all)\n")
    if check.differing_balances:
        out.write(f"check: {len(check.differing_balances)} of {check.balances:,} balances "
                  "differ (server, event, player: source → target):\n")
        for (guild, event, user), owed, held in check.differing_balances[:20]:
            out.write(f"  {guild}, {event if event is not None else 'no event'}, {user}: "
                      f"{owed} → {held}\n")
    else:
        out.write(f"check: all {check.balances:,} balances (per server, event and player) "
                  "equal\n")


async def run(source_url: str, target_url: str, force: bool, batch: int,
              out: TextIO) -> int:
    source, target = parse_url(source_url, "source"), parse_url(target_url, "target")
    if _same(source, target):
        raise CopyError("the target is the source itself: --to names the new database")
    if source.get_backend_name() == "sqlite" and not os.path.isfile(source.database or ""):
        raise CopyError(f"there is no database at {source.database}: is DATABASE_URL (or "
                        "--database) right?")
    if batch < 1:
        raise CopyError("--batch must be at least 1")
    head, known = revisions(source)
    from_db, to_db = engine_for(source), engine_for(target)
    try:
        await reach(from_db, "source")
        check_source(await schema_of(from_db), head, known, source)
        await reach(to_db, "target")
        fresh = check_target(await schema_of(to_db), head, known, target)
        out.write(f"copying {shown(source)}\n     to {shown(target)}\n")
        replacing = False
        if fresh:
            out.write(f"target: empty, migrated to revision {head}\n")
            await migrate_target(target)
        else:
            async with to_db.connect() as conn:
                held = {name: n for name, n in (await counts(conn)).items() if n}
            if held and not force:
                listed = ", ".join(f"{name}: {n:,}" for name, n in held.items())
                raise CopyError(f"the target {shown(target)} already holds rows ({listed}): "
                                "give an empty database, or --force to replace its rows")
            replacing = bool(held)
            out.write(f"target: at revision {head}"
                      f"{', its rows replaced (--force)' if replacing else ', no rows'}\n")
        async with from_db.connect() as conn:
            latest = await conn.scalar(select(func.max(Heartbeat.at)))
        if latest is not None and 0 <= time.time() - latest < RECENT:
            out.write(f"warning: a bot wrote to the source {time.time() - latest:.0f} s ago; "
                      "whatever it writes during the copy is not copied: stop it first\n")
        out.flush()
        started = time.perf_counter()
        def progress(table: str, rows: int) -> None:
            out.write(f"  {table}: {rows:,} rows ({time.perf_counter() - started:.1f} s)\n")
            out.flush()

        async with from_db.connect() as reading, to_db.begin() as writing:
            copied = await copy_tables(reading, writing, batch, replacing, progress)
        took = time.perf_counter() - started
        total = sum(copied.rows.values())
        out.write(f"copied {total:,} rows of {len(copied.rows)} tables in {took:.1f} s "
                  f"(batches of {batch:,})\n")
        if copied.next_ids:
            out.write("sequences: each table's next id follows its largest copied id\n")
        check = await verify(from_db, to_db)
    finally:
        await from_db.dispose()
        await to_db.dispose()
    report(check, out)
    if not check.ok:
        out.write("FAILED: the target differs from the source (see above)\n")
        return 1
    out.write("done: point DATABASE_URL at the target and start the bot\n")
    return 0


def main(source_url: str, target_url: str, force: bool = False, batch: int = 1000,
         out: TextIO | None = None) -> int:
    try:
        return asyncio.run(run(source_url, target_url, force, batch, out or sys.stdout))
    except CopyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
