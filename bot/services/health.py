"""``garnet health``: is this instance's bot process alive and running its matches?

Alive means: the process holds the lease of every shard it runs (``bot.services.leases``)
and renewed each within LEASE_SECONDS (a lease lapses ``seconds`` after its last
renewal, and the bot renews it every third of that, idle or not). The lease row names
its holder: the same INSTANCE_NAME, on this host (a container's own hostname), with its
process still there. Anything else is a one-line reason: not started, stopped (a clean
stop gives its leases back), stuck (its leases lapsed), or waiting while another
instance holds the shards (a standby on PostgreSQL).
"""

from __future__ import annotations

from sqlalchemy import select

from bot.services.leases import _when, holder_of, pid_alive
from bot.store.db import Database
from bot.store.models import Lease


async def unhealthy(db: Database, keys: list[str], instance: str, host: str,
                    now: float) -> str | None:
    """Why instance ``instance`` on ``host`` is not healthy, or None when it is."""
    async with db.session() as s:
        rows = {row.key: row for row in
                (await s.scalars(select(Lease).where(Lease.key.in_(keys)))).all()}
    for key in keys:
        row = rows.get(key)
        if row is None:
            return (f"no lease {key}: instance '{instance}' is not running on this "
                    f"database (not started yet, or stopped)")
        if row.instance != instance or row.host != host:
            return (f"lease {key} is held by {holder_of(row)}, not by instance "
                    f"'{instance}' on host {host}")
        if row.expires_at <= now:
            return (f"lease {key} lapsed at {_when(row.expires_at)}, {now - row.expires_at:.0f} s "
                    f"ago: pid {row.pid} stopped renewing it (stuck, or killed)")
        if not pid_alive(row.pid):
            return f"lease {key}: its process (pid {row.pid}) is gone"
    return None
