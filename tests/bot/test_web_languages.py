"""The web pages in the server's language (``/host language``), or in each visitor's
browser language where the host allows it (``browser:yes``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.commands.spec import Services
from bot.services.languages import from_browser
from tests.catalogs import compiled
from tests.web_pages import ADDRESS, Site, web_console

KANA = re.compile(r"[\u3040-\u30ff]")


async def _fetch(site: Site, url: str, accept: str | None = None) -> tuple[str, str, str]:
    headers = {"Accept-Language": accept} if accept else {}
    async with site.http.get(url, headers=headers) as r:
        assert r.status == 200, url
        return (r.headers["Content-Language"], r.headers.get("Vary", ""),
                await r.text())


async def test_pages_speak_the_servers_language_or_the_browsers(
        services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with compiled(tmp_path / "locale", monkeypatch):
        async with web_console(services, tmp_path / "images") as site:
            found = ADDRESS.search(await site.say("host: /host web on"))
            assert found
            home = found.group(1)
            await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:lots")
            assert (await _fetch(site, home, "ja"))[:2] == ("en", "")  # not allowed
            await site.say("host: /host language lang:ja")
            lang, vary, page = await _fetch(site, f"{home}/m/1")
            assert lang == "ja" and vary == "" and KANA.search(page)
            await site.say("host: /host language lang:ko browser:yes")
            assert (await _fetch(site, home))[0] == "ko"
            lang, vary, page = await _fetch(site, f"{home}/m/1", "ja-JP,ja;q=0.9,en;q=0.5")
            assert (lang, vary) == ("ja", "Accept-Language") and KANA.search(page)
            assert (await _fetch(site, home, "fr-FR,fr"))[0] == "ko"  # none spoken


def test_the_browsers_language() -> None:
    assert from_browser("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7") == "ko"
    assert from_browser("fr, en;q=0.5, ja;q=0.8") == "ja"
    assert from_browser("fr, de") is None
    assert from_browser("ja;q=0, en") == "en"
    assert from_browser("") is None
    assert from_browser("ja;q=abc") is None
