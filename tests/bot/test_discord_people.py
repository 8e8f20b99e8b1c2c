"""Members named in a ``players:`` option are looked up on Discord only for a request
its asker may make, at most the option's bound at once, and within a budget per
server per minute (``bot.adapters.discord.people``)."""

from __future__ import annotations

from bot.adapters.discord.people import MemberFetches
from tests.bot.discord_fake import ALICE, BOB, CAROL, HANA
from tests.discord_bot import World, sends, sub

STRANGERS = " ".join(f"<@{800000000000000000 + i}>" for i in range(61))


def gets(calls: list) -> list:  # type: ignore[type-arg]
    return [c for c in calls if c.method == "GET"]


async def test_a_non_host_names_people_and_nobody_is_looked_up(world: World) -> None:
    calls = await world.slash(ALICE, "grant", players=STRANGERS[:200], amount=5,
                              reason="prizes")
    assert not gets(calls)
    (refusal,) = sends(calls)
    assert refusal.ephemeral and "Only hosts" in refusal.content


async def test_more_than_the_bound_is_refused_before_any_lookup(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    calls = await sub(world, HANA, "host event", "add", players=STRANGERS)
    assert not gets(calls)
    (refusal,) = sends(calls)
    assert refusal.ephemeral and "at most 60 people" in refusal.content


async def test_lookups_are_bounded_per_server_per_minute(world: World) -> None:
    await sub(world, HANA, "host event", "create", name="Season 1")
    world.bot.fetches = MemberFetches(most=2, per=60.0, now=lambda: 0.0)
    three = " ".join(STRANGERS.split()[:3])
    calls = await sub(world, HANA, "host event", "add", players=three)
    assert not gets(calls)
    (refusal,) = sends(calls)
    assert refusal.ephemeral and "Too many requests" in refusal.content
    # Within the budget they are looked up; past it, refused again.
    calls = await sub(world, HANA, "host event", "add", players=f"<@{BOB.id}> <@{CAROL.id}>")
    assert len(gets(calls)) == 2
    assert any("join **Season 1**" in c.content for c in sends(calls))
    calls = await sub(world, HANA, "host event", "add", players=STRANGERS.split()[5])
    assert not gets(calls) and "Too many requests" in sends(calls)[0].content
