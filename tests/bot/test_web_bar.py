"""The web companion's bar, in the console with WEB_ADDRESS set: ``/host web on``
answers with an address; after ``/dm`` and two moves the match's page (linked from
its start post) shows both players, the board with alt text and the moves; a Swiss's
page shows its standings; after ``/web hide`` that player's name is on no page; after
``/host web off`` every page of the server is 404."""

from __future__ import annotations

import re
from pathlib import Path

from bot.commands.spec import Services
from tests.web_pages import ADDRESS, web_console

LINK = re.compile(r"On the web: <(http://[^>\s]+)>")


async def test_the_bar(services: Services, tmp_path: Path) -> None:
    async with web_console(services, tmp_path / "images") as site:
        said = await site.say("host: /host web on")
        found = ADDRESS.search(said)
        assert found, said
        home = found.group(1)
        status, page = await site.get(home)
        assert status == 200 and "Matches and standings" in page

        said = await site.say("host: /dm game:cairo player1:@alice player2:@bob chooser:lots")
        first = re.search(r"Lots were drawn: @(\w+) is the First Player", said)
        link = LINK.search(said)
        assert first and link, said
        second = "bob" if first.group(1) == "alice" else "alice"
        said = await site.say(f"{first.group(1)}: D left", f"{second}: /move move:B left")
        assert said.count("played **") == 2, said

        status, page = await site.get(link.group(1))
        assert status == 200
        assert ">alice</a>" in page and ">bob</a>" in page
        img = re.search(r'<img src="([^"]+/board/2\.png)" alt="([^"]+)"', page)
        assert img and "The board after move 2" in img.group(2), page
        assert "DL</a>" in page and "BL</a>" in page
        status, png, response = await site.raw(home.split("/s/")[0] + img.group(1))
        assert status == 200 and png.startswith(b"\x89PNG")
        assert response.headers["Content-Type"] == "image/png"

        said = await site.say(
            "host: /host tournament create name:Cup game:cairo format:swiss rounds:2",
            "carol: /tournament join", "dave: /tournament join", "erin: /tournament join",
            "frank: /tournament join", "host: /host tournament start")
        numbers = [int(n) for n in re.findall(r"Match #(\d+)", said)]
        tournament = LINK.findall(said)
        assert tournament and tournament[0].endswith("/t/1"), said
        await site.say(*(f"{p}: /resign match:{n}" for p, n in
                         zip(_first_named(said, numbers), numbers, strict=True)))
        status, page = await site.get(tournament[0])
        assert status == 200 and "Standings" in page and "Round 1" in page
        standings = page.split("Standings", 1)[1].split("Round 1", 1)[0]
        for name in ("carol", "dave", "erin", "frank"):
            assert f">{name}</a>" in standings
        assert "<th scope=\"col\">BH</th>" in standings  # the Swiss's tie-breaks

        pages = [home, link.group(1), tournament[0]]
        player = re.search(r'href="(/s/[^"]+/p/[0-9a-f]{16})">alice<', await _text(site, home)
                           + (await site.get(link.group(1)))[1])
        assert player
        pages.append(home.split("/s/")[0] + player.group(1))
        status, page = await site.get(pages[-1])
        assert status == 200 and "<h1>alice</h1>" in page

        said = await site.say("alice: /web hide")
        assert "hidden" in said
        for url in pages[:-1]:
            status, page = await site.get(url)
            assert status == 200 and "alice" not in page, url
        status, page = await site.get(link.group(1))
        assert "Hidden player" in page
        assert (await site.get(pages[-1]))[0] == 404  # their own page is gone

        await site.say("host: /host web off")
        board = home.split("/s/")[0] + img.group(1)
        for url in [*pages, board, link.group(1) + "/events", tournament[0] + "/events",
                    link.group(1) + "?ply=1"]:
            assert (await site.get(url))[0] == 404, url
        said = await site.say("host: /host web on")
        assert (await site.get(home))[0] == 200  # the same address again


def _first_named(said: str, numbers: list[int]) -> list[str]:
    """Who plays first in each of the round's matches (any player may resign)."""
    return [re.search(rf"\*\*Match #{n} begins: [^*]+\*\* — @(\w+)", said).group(1)  # type: ignore[union-attr]
            for n in numbers]


async def _text(site: object, url: str) -> str:
    return (await site.get(url))[1]  # type: ignore[attr-defined]


async def test_the_servers_page_shows_its_open_events_and_the_seasons_table(
        services: Services, tmp_path: Path) -> None:
    async with web_console(services, tmp_path / "images") as site:
        found = ADDRESS.search(await site.say("host: /host web on"))
        assert found
        said = await site.say("host: /host event create name:Spring reward:3")
        assert f"On the web: <{found.group(1)}>" in said  # its table is there
        await site.say("host: /host event add players:@ann @ben",
                       "host: /dm game:cairo player1:@ann player2:@ben chooser:player1 "
                       "event:Spring", "ann: /first player:@ann", "ann: /resign")
        status, page = await site.get(found.group(1))
        assert status == 200 and "<h2>Events</h2>" in page
        season = page.split("<h3>Spring: garnets</h3>", 1)[1].split("</table>", 1)[0]
        assert season.index(">ben</a>") < season.index(">ann</a>")  # ben won the DM
        # Where Discord shows the event's table, the page is linked too.
        for line in ("ann: /event info", "ann: /leaderboard event:Spring"):
            assert f"On the web: <{found.group(1)}>" in await site.say(line), line
