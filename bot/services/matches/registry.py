"""The matches being played now, in memory: by server and number, and by seat.

A typed message finds its match by (server, channel, player): one active match per
player per channel is what makes that unambiguous (see ``Lobby.busy``). Every lookup
takes the server, so a match of another server cannot be found by accident: there is
no lookup without one.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.services.matches.live import LiveMatch


class LiveMatches:
    def __init__(self) -> None:
        self._by_id: dict[int, LiveMatch] = {}
        self._by_number: dict[tuple[str, int], LiveMatch] = {}
        self._by_seat: dict[tuple[str, str, str], LiveMatch] = {}
        # By channel (a spectator's /board, a host's decision): no scan of them all.
        self._by_channel: dict[tuple[str, str], dict[int, LiveMatch]] = {}
        # Moves whenever a match is added or removed (the budget keeps a look while it
        # does not: ``Budget.changes``).
        self.version = 0

    def add(self, live: LiveMatch) -> None:
        self.version += 1
        self._by_id[live.id] = live
        self._by_number[(live.guild_id, live.number)] = live
        self._by_channel.setdefault((live.guild_id, live.channel_id), {})[live.id] = live
        for user in live.users:
            self._by_seat[(live.guild_id, live.channel_id, user)] = live

    def remove(self, live: LiveMatch) -> None:
        self.version += 1
        self._by_id.pop(live.id, None)
        self._by_number.pop((live.guild_id, live.number), None)
        here = self._by_channel.get((live.guild_id, live.channel_id))
        if here is not None and here.get(live.id) is live:
            del here[live.id]
            if not here:
                del self._by_channel[(live.guild_id, live.channel_id)]
        for user in live.users:
            if self._by_seat.get((live.guild_id, live.channel_id, user)) is live:
                del self._by_seat[(live.guild_id, live.channel_id, user)]

    def get(self, guild_id: str, number: int) -> LiveMatch | None:
        """The match a server calls #``number``: only ever one of that server's."""
        return self._by_number.get((guild_id, number))

    def for_seat(self, guild_id: str, channel_id: str, user_id: str) -> LiveMatch | None:
        live = self._by_seat.get((guild_id, channel_id, user_id))
        return live if live is not None and not live.finished else None

    def in_channel(self, guild_id: str, channel_id: str) -> list[LiveMatch]:
        return list(self._by_channel.get((guild_id, channel_id), {}).values())

    def by_id(self) -> dict[int, LiveMatch]:
        """Every live match by its internal id (for restarts, benchmarks and tests)."""
        return self._by_id

    def __iter__(self) -> Iterator[LiveMatch]:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)
