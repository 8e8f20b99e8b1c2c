"""The registry of live matches: found by number, seat and channel without a scan."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.services.matches.registry import LiveMatches


def live(id_: int, number: int, channel: str, guild: str = "g") -> Any:
    return SimpleNamespace(id=id_, number=number, guild_id=guild, channel_id=channel,
                           users=[f"a{id_}", f"b{id_}"], finished=False)


def test_matches_in_a_channel_follow_adds_and_removes() -> None:
    registry = LiveMatches()
    one, two, other = live(1, 1, "c"), live(2, 2, "c"), live(3, 3, "d")
    elsewhere = live(4, 1, "c", guild="h")  # the same channel id on another server
    for match in (one, two, other, elsewhere):
        registry.add(match)
    assert registry.in_channel("g", "c") == [one, two]
    assert registry.in_channel("g", "d") == [other]
    assert registry.in_channel("h", "c") == [elsewhere]
    registry.remove(one)
    assert registry.in_channel("g", "c") == [two]
    registry.remove(two)
    registry.remove(two)  # twice: nothing more
    assert registry.in_channel("g", "c") == []
    assert registry.for_seat("g", "d", "a3") is other
    assert set(registry.by_id()) == {3, 4}
