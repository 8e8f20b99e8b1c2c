"""Stored reviews: a match's review is stored when it is first computed, a second
``/review`` reads it instead of analysing again, and the page of a finished match shows
its plot and notes beside the moves (the note of the shown move under the board) —
without ever starting an analysis, naming no hidden player, escaping every name."""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import select

from bot.commands.spec import Services
from bot.core.requests import Asker
from bot.services.history import History
from bot.services.review import stored
from bot.services.workers import Workers
from bot.store.models import MatchReview
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, Harness
from tests.recording import Judged
from tests.web_pages import ADDRESS, Site, web_console


async def _resigned_cairo(h: Harness, moves: tuple[str, ...] = ("D left", "B left")) -> None:
    await h.casual("cairo")
    live = next(iter(h.host.matches.live.values()))
    for move in moves:
        await h.play(ALICE if live.to_move == 0 else BOB, move)
    await h.host.play.resign(Asker(GUILD, CHAN, ALICE), 1)


async def test_a_review_is_stored_once_and_read_again(h: Harness) -> None:
    await _resigned_cairo(h)
    workers = Workers(0)
    recording = Judged()  # the engine's own review is tested in tests/engine
    workers.use(recording)
    history = History(h.db, h.host.matches.renderer, workers=workers)
    told: list[tuple[str, int]] = []
    history.reviews.reviewed = lambda guild, number: told.append((guild, number))
    first = await history.review(GUILD, 1, ALICE.id)
    assert recording.jobs == ["review_job"] and told == [(GUILD, 1)]
    async with h.db.session() as s:
        rows = (await s.scalars(select(MatchReview))).all()
    assert [(r.guild_id, len(r.data["first_win"])) for r in rows] == [(GUILD, 3)]
    second = await history.review(GUILD, 1, BOB.id)
    assert recording.jobs == ["review_job"]  # read, not analysed again
    assert told == [(GUILD, 1)]
    assert first.reply is not None and second.reply is not None
    assert second.reply.text == first.reply.text
    assert second.reply.image is not None and second.reply.image.data.startswith(b"\x89PNG")
    assert first.reply.image is not None
    assert second.reply.image.description == first.reply.image.description
    # Scoped by server: another server's match #1 is not this review.
    assert await stored(h.db, "another-server", rows[0].match_id) is None
    review = await stored(h.db, GUILD, rows[0].match_id)
    assert review is not None and review.to_data() == rows[0].data
    workers.close()


async def _on(site: Site) -> str:
    found = ADDRESS.search(await site.say("host: /host web on"))
    assert found
    return found.group(1)


def _judged(services: Services) -> Judged:
    judged = Judged()
    services.history.reviews.workers.use(judged)
    return judged


async def test_a_page_shows_the_stored_review_and_never_starts_one(
        services: Services, tmp_path: Path) -> None:
    judged = _judged(services)
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        await site.say("host: /dm game:cairo player1:@ann player2:@ben chooser:player1",
                       "ann: /first player:@ann", "ann: D left", "ben: B left", "ann: /resign")
        for url in (f"{home}/m/1", f"{home}/m/1?ply=1", f"{home}/m/1?ply=0"):
            status, page = await site.get(url)
            assert status == 200
            assert "has not been reviewed" in page and "/review match:1" in page
            assert "<svg" not in page
        assert judged.jobs == []  # a page view computes nothing
        async with services.matches.kit.db.session() as s:
            assert (await s.scalars(select(MatchReview))).all() == []

        said = await site.say("bob: /review match:1")
        assert "Review of DM #1" in said and judged.jobs == ["review_job"]
        assert f"On the web: <{home}/m/1>" in said
        status, page = await site.get(f"{home}/m/1")  # at once: the kept page went
        assert status == 200 and "has not been reviewed" not in page
        plot = re.search(r'<svg viewBox="0 0 480 180" role="img" '
                         r'aria-labelledby="plot-title"[^>]*>\s*<title id="plot-title">'
                         r"([^<]+)</title>", page)
        assert plot, page
        assert "ann (Black) below the line, ben (Red) above it" in plot.group(1)
        assert "1 judged move is marked with a dot" in plot.group(1)
        assert "ann (Black): accuracy 41% · 1 blunder" in page
        assert "ben (Red): accuracy 96%" in page
        # The note beside its move, and no note under the board at the end.
        note = "Blunder (??): win chance 60% → 20%, a loss of 3 points; better: BL."
        assert re.search(r'<a href="\?ply=1">DL</a> <span class="quiet">Black</span> '
                         r'<span class="note label-blunder">' + re.escape(note), page)
        assert "note shown" not in page
        status, page = await site.get(f"{home}/m/1?ply=1")
        shown = re.search(r'<figcaption class="note shown label-blunder">([^<]+)<', page)
        assert shown and shown.group(1) == f"Move 1 (DL): {note}"
        assert re.search(r'<li aria-current="step"><a href="\?ply=1">DL</a>', page)
        assert 'class="marker" x1="240.0"' in page  # the upright line at move 1 of 2
        assert "The upright line is at move 1" in page
        status, page = await site.get(f"{home}/m/1?ply=2")
        assert "note shown" not in page  # move 2 has no note
        # The text equivalent: every position's chance, by seat.
        table = page.split("The win chance, move by move", 1)[1].split("</table>", 1)[0]
        assert re.findall(r"<tr><td>(\d+)</td><td>(\w*)</td><td>(\d+%)</td><td>(\d+%)</td>",
                          table) == [("0", "", "60%", "40%"), ("1", "DL", "20%", "80%"),
                                     ("2", "BL", "20%", "80%")]

        said = await site.say("ann: /review match:1")  # read again: nothing analysed
        assert "Review of DM #1" in said and judged.jobs == ["review_job"]
        await site.say("ann: /web hide")
        status, page = await site.get(f"{home}/m/1?ply=1")
        assert not re.search(r"\bann\b", page) and "Hidden player (Black): accuracy 41%" in page
        assert "Hidden player (Black) below the line" in page


async def test_a_review_on_a_page_escapes_every_name(services: Services,
                                                     tmp_path: Path) -> None:
    _judged(services)
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        hostile = ['<script>alert(1)</script>', '"><img/src=x/onerror=alert(1)>']
        said = await site.say(
            "host: /host tournament create name:Cup game:cairo format:single",
            *(f"{name}: /tournament join" for name in hostile), "host: /host tournament start")
        mover = next(name for name in hostile if f"Black ({name}) to move" in said)
        await site.say(f"{mover}: D left", f"{mover}: /resign")
        said = await site.say("host: /review match:1")
        assert "Review of" in said, said
        status, page = await site.get(f"{home}/m/1?ply=1")
        assert status == 200 and "<title id=\"plot-title\">" in page
        assert "<script>alert" not in page and "<img/src" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt; (" in page  # in the legend, escaped


async def test_an_event_s_automatic_review_links_the_page_that_shows_it(
        services: Services, tmp_path: Path) -> None:
    judged = _judged(services)
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        await site.say("host: /host event create name:Spring review:yes eliminate:no",
                       "host: /host event add players:@ann @ben",
                       "host: /dm game:cairo player1:@ann player2:@ben chooser:player1 "
                       "event:Spring", "ann: /first player:@ann", "ann: D left",
                       "ann: /resign")
        assert services.event_reviews is not None
        await services.event_reviews.idle()
        said = site.out.getvalue()
        assert judged.jobs == ["review_job"]
        review = said[said.index("**Review of DM #1"):]
        assert f"On the web: <{home}/m/1>" in review, said
        status, page = await site.get(f"{home}/m/1?ply=1")
        assert status == 200 and "Blunder (??)" in page


async def test_a_four_player_review_draws_a_line_for_each_player(
        services: Services, tmp_path: Path) -> None:
    _judged(services)
    async with web_console(services, tmp_path) as site:
        home = await _on(site)
        said = await site.say(
            "ann: /challenge opponent:@ben opponent2:@cat opponent3:@dan game:quoridor "
            "first:me clock:off", "ben: /accept", "cat: /accept", "dan: /accept",
            "ann: e2", "ben: /resign", "cat: /resign", "dan: /resign")
        assert "wins Match #1" in said, said
        assert "Review of Match #1" in await site.say("ann: /review match:1")
        status, page = await site.get(f"{home}/m/1?ply=1")
        assert status == 200
        assert page.count("<polyline ") == 4 and "<polygon" not in page
        assert "one line each: ann (White), ben (Red), cat (Black), dan (Blue)" in page
        assert re.search(r'<figcaption class="note shown label-blunder">Move 1 \(e2\): '
                         r"Blunder \(\?\?\)", page)
