"""An event's DMs reviewed automatically when they end (``/host event create review:yes``)."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from bot.app import build_services
from bot.core.clock import VirtualClock
from bot.core.requests import Asker
from bot.services.event_review import EventReviews
from bot.services.workers import Workers
from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, HOSTY, Harness, console_for
from tests.bot.economy_helpers import dm, eco, make_event
from tests.recording import Recording


def watch(h: Harness) -> tuple[EventReviews, Recording, Workers]:
    """The services' own automatic reviews, their worker recording what it ran."""
    auto = h.services.event_reviews
    assert auto is not None
    workers = auto.reviews.workers
    recording = Recording()
    workers.use(recording)
    return auto, recording, workers


async def played_dm(h: Harness, event: str, moves: int = 6) -> int:
    """A DM of ``event`` with a few random moves, then resigned by whoever is to move."""
    match_id = await dm(h, ALICE, BOB, event)
    live = h.host.matches.live[match_id]
    rng = random.Random(3)
    for _ in range(moves):
        mover = ALICE if live.users[live.to_move] == ALICE.id else BOB
        await h.play(mover, live.game.notation(rng.choice(live.game.legal_moves(live.state))))
    loser = ALICE if live.users[live.to_move] == ALICE.id else BOB
    r = await h.host.play.resign(Asker(GUILD, CHAN, loser), match_id)
    assert r.posts and "wins DM" in r.posts[0].text
    return match_id


async def test_a_reviewed_event_s_dm_gets_its_review_in_its_channel(h: Harness) -> None:
    r = await eco(h).event_create(GUILD, HOSTY, "Reviewed", eliminate=False, review=True)
    assert r.reply is not None
    assert "each DM is reviewed by the computer when it ends" in r.reply.text
    await eco(h).event_add(GUILD, HOSTY, [ALICE, BOB], "Reviewed")
    info = await eco(h).event_info(GUILD, ALICE, "Reviewed")
    assert info.reply is not None and "reviewed by the computer" in info.reply.text
    auto, recording, workers = watch(h)
    await played_dm(h, "Reviewed")
    await auto.idle()
    assert recording.jobs == ["review_job"]  # computed in the worker, not on the loop
    posts = [p for p in h.delivered if p.text.startswith("**Review of")]
    assert len(posts) == 1
    post = posts[0]
    assert post.channel_id == CHAN and post.pings == ()
    assert post.text.startswith("**Review of DM #1: Cairo Corridor**")
    assert "<@alice> (" in post.text and "accuracy" in post.text
    assert post.image is not None and post.image.data.startswith(b"\x89PNG")
    # Stored: a player's /review afterwards reads it, and the worker does nothing more.
    again = await auto.reviews.review(GUILD, 1, BOB.id)
    assert recording.jobs == ["review_job"]
    assert again.reply is not None and again.reply.text == post.text
    workers.close()


async def test_other_events_and_casual_games_are_not_reviewed(h: Harness) -> None:
    await make_event(h, "Plain", [ALICE, BOB])
    auto, recording, workers = watch(h)
    await played_dm(h, "Plain")
    match_id = await h.casual("cairo")
    await h.host.play.resign(Asker(GUILD, CHAN, BOB), match_id)
    await auto.idle()
    assert recording.jobs == []
    assert not any(p.text.startswith("**Review of") for p in h.delivered)
    workers.close()


async def test_the_bot_wires_the_automatic_review(h: Harness) -> None:
    services = build_services(h.db, VirtualClock())
    watchers = services.matches.kit.watchers
    assert any(getattr(w, "__self__", None).__class__ is EventReviews for w in watchers)


async def test_the_console_shows_the_review_after_the_line_that_ended_the_dm(
        h: Harness, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_for(h, tmp_path / "images", out, hosts=("host",))
    auto, recording, workers = watch(h)
    console.services.event_reviews = auto
    for line in ("host: /host event create name:Season review:yes eliminate:no",
                 "host: /host event add players:@alice @bob",
                 "host: /dm game:quoridor player1:@alice player2:@bob chooser:lots"):
        await console.handle_line(line)
    first = re.search(r"Lots were drawn: @(\w+) is the First Player", out.getvalue())
    assert first, out.getvalue()
    other = "bob" if first.group(1) == "alice" else "alice"
    for line in (f"{first.group(1)}: e2", f"{other}: e8", f"{first.group(1)}: /resign"):
        await console.handle_line(line)
    text = out.getvalue()
    won = text.index("wins DM #1")
    review = text.index("**Review of DM #1: Quoridor**")
    assert won < review  # the review follows the result, within the same line
    image, described = text.rstrip().splitlines()[-2:]
    assert image.endswith("-quoridor.png]") and recording.jobs == ["review_job"]
    assert described.startswith("     [alt text: Review of DM #1, Quoridor,")
    workers.close()
