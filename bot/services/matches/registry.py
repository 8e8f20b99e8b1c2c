"""The matches being played now, in memory: by server and number, and by seat.

A typed message finds its match by (channel, player): one active match per player
per channel is what makes that unambiguous (see ``Lobby.busy``). Lookups by number
take the server, so a match of another server is never found.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.services.matches.live import LiveMatch


class LiveMatches:
    def __init__(self) -> None:
        self._by_id: dict[int, LiveMatch] = {}
        self._by_seat: dict[tuple[str, str], LiveMatch] = {}

    def add(self, live: LiveMatch) -> None:
        self._by_id[live.id] = live
        for user in live.users:
            self._by_seat[(live.channel_id, user)] = live

    def remove(self, live: LiveMatch) -> None:
        self._by_id.pop(live.id, None)
        for user in live.users:
            if self._by_seat.get((live.channel_id, user)) is live:
                del self._by_seat[(live.channel_id, user)]

    def get(self, guild_id: str, match_id: int) -> LiveMatch | None:
        live = self._by_id.get(match_id)
        return live if live is not None and live.guild_id == guild_id else None

    def for_seat(self, channel_id: str, user_id: str) -> LiveMatch | None:
        live = self._by_seat.get((channel_id, user_id))
        return live if live is not None and not live.finished else None

    def in_channel(self, channel_id: str) -> list[LiveMatch]:
        return [m for m in self._by_id.values() if m.channel_id == channel_id]

    def by_id(self) -> dict[int, LiveMatch]:
        """Every live match by its number (for restarts, benchmarks and tests)."""
        return self._by_id

    def __iter__(self) -> Iterator[LiveMatch]:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)
