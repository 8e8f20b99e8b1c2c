"""Autocomplete answers any input, however long or odd, from the whole server's records:
what a member types is bounded before it reaches the database."""

from __future__ import annotations

import pytest

from bot.commands.spec import Services
from bot.store.models import Tournament

GUILD = "g1"


async def _tournaments(services: Services, count: int) -> None:
    async with services.matches.kit.db.session() as s, s.begin():
        for n in range(1, count + 1):
            s.add(Tournament(guild_id=GUILD, number=n, name=f"Cup {n:03d}", game="cairo",
                             format="swiss", options={}, settings={}, status="finished",
                             channel_id="c1", created_by="host", created_at=float(n)))


@pytest.mark.parametrize("typed", ["9" * 100_000, "#" + "1" * 5000, "²³", "%_\\", " " * 50])
async def test_odd_input_is_answered_not_failed(services: Services, typed: str) -> None:
    await _tournaments(services, 3)
    assert await services.history.recent(GUILD, typed, False) == []
    assert await services.history.recent(GUILD, typed, True) == []
    found = await services.tournaments.choices(GUILD, typed)
    assert found == [] or typed.strip() == ""


async def test_an_old_tournament_is_found_by_name_and_by_number(services: Services) -> None:
    await _tournaments(services, 130)
    assert [v for _, v in await services.tournaments.choices(GUILD, "cup 007")] == ["7"]
    assert "7" in [v for _, v in await services.tournaments.choices(GUILD, "7")]
    newest = await services.tournaments.choices(GUILD, "")
    assert [v for _, v in newest] == [str(n) for n in range(130, 105, -1)]
