"""Id sequences after rows were written with their ids given.

PostgreSQL numbers new rows from a sequence per table that an INSERT naming its own
ids never advances: after a bulk load (``bot bench --queries``) or a copy
(``bot migrate-db``) the next row the bot creates would get id 1 again and fail on the
primary key. ``reset_sequences`` moves every sequence past the largest id in its table.
SQLite needs nothing: it numbers a new row one past the largest id there is.
"""

from __future__ import annotations

from sqlalchemy import MetaData, func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.models import Base


async def reset_sequences(conn: AsyncConnection, metadata: MetaData = Base.metadata
                          ) -> dict[str, int]:
    """Set each table's id sequence so that the next id is one past the largest id in
    the table (never lower than it was). Returns the next id per table (PostgreSQL) or
    nothing (other databases). Run it in the transaction that inserted the rows."""
    if conn.dialect.name != "postgresql":
        return {}
    prepare = conn.dialect.identifier_preparer
    following: dict[str, int] = {}
    for table in metadata.sorted_tables:
        column = table.autoincrement_column
        if column is None:
            continue
        sequence = await conn.scalar(select(func.pg_get_serial_sequence(
            prepare.format_table(table), column.name)))
        if sequence is None:  # an id the application numbers itself
            continue
        largest = int(await conn.scalar(select(func.max(column))) or 0)
        # Never backwards: ids of deleted rows may still be named somewhere (a button).
        last, called = (await conn.execute(text(  # the name comes from the catalog
            f"SELECT last_value, is_called FROM {sequence}"))).one()
        following[table.name] = max(largest + 1, int(last) + (1 if called else 0))
        # setval(seq, n, false): the next nextval() returns n itself.
        await conn.execute(select(func.setval(sequence, following[table.name], False)))
    return following
