"""Which servers a bot process runs: Discord's shards, and the lease key of each.

Discord puts server ``g`` on shard ``(g >> 22) % shard_count``. A process runs the
shards in ``ids`` and, through a lease per shard (``bot.services.leases``), exactly
those servers' matches. One process running everything is shard 0 of 1.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

MAX_SHARDS = 4096  # far beyond any bot: Discord wants a shard per ~1,000 servers


def shard_of(guild_id: str, count: int) -> int:
    """Discord's shard of a server. Servers that are not Discord ids (the console's
    names, tests) are spread by a stable hash; with one shard everything is shard 0."""
    if count <= 1:
        return 0
    if guild_id.isdigit():
        return (int(guild_id) >> 22) % count
    return zlib.crc32(guild_id.encode("utf-8")) % count


@dataclass(frozen=True)
class Shards:
    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"bad shards {self.ids} of {self.count}")

    def owns(self, guild_id: str) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def key_of(self, guild_id: str) -> str:
        """The lease (and heartbeat) key of the shard a server is on."""
        return lease_key(shard_of(guild_id, self.count), self.count)

    def keys(self) -> list[str]:
        return [lease_key(i, self.count) for i in self.ids]

    @property
    def all(self) -> bool:
        return len(self.ids) == self.count

    def __str__(self) -> str:
        return ",".join(str(i) for i in self.ids) + f" of {self.count}"


def lease_key(shard: int, count: int) -> str:
    return f"shard:{shard}/{count}"


def parse_ids(raw: str, count: int) -> tuple[int, ...]:
    """``"0,1,2"``, ``"0-3"`` or a mix (``"0-2,5"``) into sorted shard ids below
    ``count``. Raises ValueError with the sentence that says what is wrong."""
    ids: set[int] = set()
    for part in (p.strip() for p in raw.split(",")):
        if not part:
            raise ValueError(f"an empty entry in '{raw}'")
        low_s, dash, high_s = part.partition("-")
        if not low_s.strip().isdigit() or (dash and not high_s.strip().isdigit()):
            raise ValueError(f"'{part}' is not a shard id or a range such as 0-3")
        low = int(low_s)
        high = int(high_s) if dash else low
        if high < low:
            raise ValueError(f"the range '{part}' runs backwards")
        if high >= count:
            raise ValueError(f"shard {high} does not exist: with SHARD_COUNT={count} "
                             f"the shards are 0-{count - 1}")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))
