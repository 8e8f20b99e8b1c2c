"""The web pages' commands on Discord, through discord.py's real command tree: the
hosts' pair under /host, the players' own; with PUBLIC_URL the answer is the address,
and a match's start post carries its page's link; no Discord id in any address."""

from __future__ import annotations

import re

from tests.bot.discord_fake import ALICE, BOB, CAROL, GUILD_ID, HANA
from tests.discord_bot import World, sends, sub


async def test_host_web_on_answers_with_the_address_and_posts_link_their_pages(
        world: World) -> None:
    pages = world.bot.services.web
    assert pages is not None
    (refused,) = sends(await sub(world, CAROL, "host web", "on"))
    assert refused.ephemeral and "Only hosts can do that" in refused.content
    (unknown,) = sends(await sub(world, HANA, "host web", "on"))
    assert "no public address set (PUBLIC_URL)" in unknown.content
    pages.base = "https://garnet.example"  # PUBLIC_URL, as bot.app sets it
    (on,) = sends(await sub(world, HANA, "host web", "on"))
    address = re.search(r"<(https://garnet\.example/s/[\w-]{16})>", on.content)
    assert address and not on.ephemeral, on.content
    assert str(GUILD_ID) not in address.group(1)
    calls = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    await world.press(BOB, calls[0].sent, calls[0].buttons[0]["custom_id"])
    starts = [c.content for c in world.fake.calls if "begins" in (c.content or "")]
    assert starts and f"On the web: <{address.group(1)}/m/1>" in starts[-1]
    (hidden,) = sends(await sub(world, ALICE, "web", "hide"))
    assert hidden.ephemeral and "hidden" in hidden.content
    (off,) = sends(await sub(world, HANA, "host web", "off"))
    assert "every page is gone" in off.content
    assert await pages.link(str(GUILD_ID), "/m/1") is None


async def test_a_tournament_s_rounds_and_standings_link_its_page(world: World) -> None:
    pages = world.bot.services.web
    assert pages is not None
    pages.base = "https://garnet.example"
    (on,) = sends(await sub(world, HANA, "host web", "on"))
    found = re.search(r"<(https://garnet\.example/s/[\w-]{16})>", on.content)
    assert found
    page = f"On the web: <{found.group(1)}/t/1>"
    sends(await sub(world, HANA, "host tournament", "create", name="Cup", game="cairo",
                    format="swiss", rounds=1))
    await sub(world, ALICE, "tournament", "join")
    await sub(world, BOB, "tournament", "join")
    calls = sends(await sub(world, HANA, "host tournament", "start"))
    pairings = next(c for c in calls if c.content.startswith("**Cup — round 1 of 1**"))
    assert pairings.content.endswith(page)  # under the round's pairings
    for command in ("standings", "pairings", "info"):
        (shown,) = sends(await sub(world, ALICE, "tournament", command))
        assert page in shown.content, command
    loser = ALICE if world.live().users[0] == str(ALICE.id) else BOB
    texts = [c.content for c in sends(await world.slash(loser, "resign"))]
    final = next(t for t in texts if "**Cup — final standings**" in t)
    assert final.endswith(page), texts
