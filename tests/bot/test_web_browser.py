"""The web pages in a real browser (Debian's chromium, driven by Playwright; one browser
for the module): a live match page shows the new board after a move without a reload;
a replay steps with the keyboard; a reviewed match's replay shows the evaluation plot
and the note of the move stepped to; a bracket and a Swiss table render; no page is
wider than a 360 px phone; axe-core finds no serious accessibility violation. With
``GARNET_SCREENSHOTS=DIR`` each page is also saved at a phone's and a desktop's width."""

from __future__ import annotations

import os
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests import browser
from tests.database import Databases
from tests.recording import Judged
from tests.web_pages import Site, built_services, web_console

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.realtime]
if (why := browser.missing()) is not None:
    pytest.skip(why, allow_module_level=True)

PHONE, DESKTOP = 360, 1280


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        launched = await browser.launch(p)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(databases: Databases, tmp_path_factory: pytest.TempPathFactory
               ) -> AsyncIterator[tuple[Site, dict[str, str]]]:
    """One server with every kind of page: a finished DM (reviewed: its first move a
    blunder), a running one, a Swiss with a round played and a single elimination
    under way."""
    folder = tmp_path_factory.mktemp("web")
    async with built_services(databases.create(folder)) as services, \
            web_console(services, folder / "images") as s:
        services.history.reviews.workers.use(Judged())
        said = await s.say("host: /host web on")
        home = re.search(r"<(http://[^>\s]+)>", said).group(1)  # type: ignore[union-attr]
        root = home.split("/s/")[0]
        await s.say("host: /dm game:cairo player1:@Ann player2:@Ben chooser:player1",
                    "Ann: /first player:@Ann", "Ann: D left", "Ben: B left", "Ann: /resign")
        assert "Review of DM #1" in await s.say("Ben: /review match:1")
        await s.say("host: /dm game:cairo player1:@Cat player2:@Dan chooser:player1",
                    "Cat: /first player:@Cat", "Cat: D left")
        swiss = await s.say(
            "host: /host tournament create name:Spring Swiss game:cairo format:swiss rounds:2",
            *(f"{p}: /tournament join" for p in ("Eve", "Fay", "Gus", "Hal")),
            "host: /host tournament start")
        begun = re.findall(r"\*\*Match #(\d+) begins: [^*]+\*\* — @(\w+)", swiss)
        assert len(begun) == 2, swiss
        await s.say(*(f"{who}: /resign match:{number}" for number, who in begun))
        await s.say(
            "host: /host tournament create name:Knockout game:cairo format:single",
            *(f"{p}: /tournament join tournament:2" for p in ("Ivy", "Jon", "Kim", "Lee")),
            "host: /host tournament start tournament:2")
        pages = {"server": home, "replay": f"{home}/m/1", "live": f"{home}/m/2",
                 "swiss": f"{home}/t/1", "bracket": f"{home}/t/2",
                 "note": f"{home}/m/1?ply=1", "resigned": f"{home}/m/3"}
        status, page = await s.get(pages["replay"])
        player = re.search(r'href="(/s/[^"]+/p/[0-9a-f]+)">Ann<', page)
        assert status == 200 and player, page
        pages["player"] = root + player.group(1)
        yield s, pages


async def test_a_live_match_page_shows_the_new_board_without_a_reload(
        chromium: Any, site: tuple[Site, dict[str, str]]) -> None:
    s, pages = site
    page = await chromium.new_page()
    await page.goto(pages["live"])
    board = page.locator("figure.board img")
    assert (await board.get_attribute("src")).endswith("/board/1.png")
    await page.evaluate("window.stayed = true")  # gone if the page reloads
    await page.wait_for_timeout(300)  # the event stream is open
    start = time.monotonic()
    await s.say("Dan: B left")
    await page.wait_for_selector('figure.board img[src$="/board/2.png"]', timeout=5000)
    took = time.monotonic() - start
    assert took < 1.0, f"the new board took {took:.2f} s"
    assert await page.evaluate("window.stayed === true")
    assert "BL" in await page.locator(".moves").inner_text()
    alt = await page.locator("figure.board img").get_attribute("alt")
    assert alt and alt.startswith("The board after move 2")
    assert await page.evaluate(  # the image itself loaded
        "document.querySelector('figure.board img').naturalWidth") > 100
    await page.close()


async def test_a_replay_steps_with_the_keyboard(chromium: Any,
                                                site: tuple[Site, dict[str, str]]) -> None:
    _, pages = site
    page = await chromium.new_page()
    await page.goto(pages["replay"])
    assert (await page.locator(".steps .at").inner_text()).strip() == "2 / 2"
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_url(re.compile(r"\?ply=1$"))
    assert (await page.locator(".steps .at").inner_text()).strip() == "1 / 2"
    assert (await page.locator("figure.board img").get_attribute("src")).endswith("/board/1.png")
    assert await page.locator('.moves li[aria-current="step"] > a').inner_text() == "DL"
    await page.keyboard.press("Home")
    await page.wait_for_url(re.compile(r"\?ply=0$"))
    await page.keyboard.press("ArrowRight")
    await page.wait_for_url(re.compile(r"\?ply=1$"))
    await page.close()


async def test_a_reviewed_replay_shows_the_plot_and_the_note_of_the_move_stepped_to(
        chromium: Any, site: tuple[Site, dict[str, str]]) -> None:
    _, pages = site
    page = await chromium.new_page()
    await page.goto(pages["replay"])
    plot = page.locator('.review svg[role="img"]')
    assert await plot.is_visible()
    box = await plot.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 100
    label = await plot.locator("title").first.text_content()
    assert label and "Ann (Black) below the line, Ben (Red) above it" in label
    assert "The upright line is at move 2" in label
    assert await page.locator(".review .legend li").all_inner_texts() == [
        "Ann (Black): accuracy 41% · 1 blunder", "Ben (Red): accuracy 96%"]
    assert await page.locator(".review circle").count() == 1  # the blunder's dot
    assert await page.locator(".note.shown").count() == 0  # move 2 has no note
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_url(re.compile(r"\?ply=1$"))
    shown = page.locator("figure.board .note.shown")
    assert await shown.is_visible()
    assert (await shown.inner_text()).startswith("Move 1 (DL): Blunder (??): win chance 60%")
    current = page.locator('.moves li[aria-current="step"] .note')
    assert (await current.inner_text()).startswith("Blunder (??)")
    # The note of the shown move stands out from the others.
    weight = await current.evaluate("n => getComputedStyle(n).fontWeight")
    assert int(weight) >= 600
    assert await page.locator(".review line.marker").get_attribute("x1") == "240.0"
    await page.keyboard.press("ArrowRight")
    await page.wait_for_url(re.compile(r"\?ply=2$"))
    assert await page.locator(".note.shown").count() == 0
    await page.close()


async def test_a_bracket_and_a_swiss_table_render(chromium: Any,
                                                  site: tuple[Site, dict[str, str]]) -> None:
    _, pages = site
    page = await chromium.new_page()
    await page.goto(pages["bracket"])
    columns = page.locator(".bracket .column")
    assert await columns.count() == 2  # the semi-finals, then the final
    assert await columns.nth(0).locator(".spot").count() == 2
    text = await page.locator(".bracket").inner_text()
    for name in ("Ivy", "Jon", "Kim", "Lee"):
        assert name in text
    # The labels (W1-1, W2-1) are explained by their columns, as on Discord.
    assert await page.locator(".bracket h3").all_inner_texts() == [
        "Round 1 · the semi-finals", "Round 2 · the final"]
    await page.goto(pages["swiss"])
    table = page.locator("table.standings")
    assert await table.locator("tbody tr").count() == 4
    heads = await table.locator("thead th").all_inner_texts()
    assert heads[:3] == ["#", "Player", "Pts"] and "BH" in heads
    assert (await table.locator("tbody tr").nth(0).locator("td").nth(2).inner_text()) == "1"
    await page.close()


async def test_every_page_fits_a_phone_and_has_no_serious_accessibility_violation(
        chromium: Any, site: tuple[Site, dict[str, str]]) -> None:
    _, pages = site
    axe = browser.axe_source()
    shots = os.environ.get("GARNET_SCREENSHOTS")
    for width in (PHONE, DESKTOP):
        # CSP forbids injected scripts; the scan alone is let past it.
        context = await chromium.new_context(viewport={"width": width, "height": 800},
                                             bypass_csp=True)
        page = await context.new_page()
        for name, url in pages.items():
            await page.goto(url)
            if width == PHONE:
                wide = await page.evaluate("document.documentElement.scrollWidth")
                assert wide <= PHONE, f"the {name} page is {wide} px wide on a phone"
                await page.evaluate(axe)
                found = await page.evaluate(
                    "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
                    ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                    ".map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' ')))")
                assert not found, f"the {name} page: {found}"
            if shots:
                Path(shots).mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=f"{shots}/{name}-{width}.png", full_page=True)
        await context.close()
