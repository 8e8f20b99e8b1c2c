"""/history, /match and /replay on Discord: real command tree and buttons, HTTP faked."""

from __future__ import annotations

import io

from PIL import Image

from tests.bot.discord_fake import ALICE, BOB, CAROL
from tests.discord_bot import World, challenge_accepted, finished_matches, sends


async def played(world: World) -> int:
    """Alice and Bob play two moves; Bob resigns."""
    match_id = await challenge_accepted(world)
    await world.say(ALICE, "A down")
    await world.say(BOB, "J up")
    await world.slash(BOB, "resign")
    assert world.bot.services.matches.live == {}
    return match_id


def frames(data: bytes) -> int:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return int(getattr(image, "n_frames", 1))


async def test_history_pages_with_buttons_that_edit_the_message(world: World) -> None:
    await finished_matches(world, 12)
    (page,) = await world.slash(CAROL, "history", player=ALICE)
    assert page.callback_type == 4 and page.ephemeral
    assert page.content.startswith("**Alice's matches** — 12 · page 1 of 2")
    assert [(b["label"], b["custom_id"]) for b in page.buttons] == [
        ("Page 2 ▶", f"garnet:hist:{ALICE.id}:2")]
    # Persistent: a press after a restart still pages.
    await world.restart()
    (edit,) = await world.press(CAROL, page.sent, f"garnet:hist:{ALICE.id}:2")
    assert edit.callback_type == 7  # the message itself changes
    assert edit.content.startswith("**Alice's matches** — 12 · page 2 of 2")
    assert edit.content.count("`#") == 2
    assert [b["custom_id"] for b in edit.buttons] == [f"garnet:hist:{ALICE.id}:1"]


async def test_history_defaults_to_the_asker_and_refuses_a_page_past_the_end(
        world: World) -> None:
    await finished_matches(world, 3)
    (mine,) = await world.slash(BOB, "history")
    assert mine.content.startswith("**Bob's matches** — 3 · page 1 of 1")
    assert mine.buttons == []
    (past,) = await world.slash(BOB, "history", page=2)
    assert past.ephemeral
    assert past.content == "There is no page 2: Bob's history has 1 page (3 matches)."


async def test_replay_posts_the_gif_in_the_channel(world: World) -> None:
    match_id = await played(world)
    calls = await world.slash(CAROL, "replay", id=match_id)
    assert calls[0].callback_type == 5 and not calls[0].ephemeral  # public, thinking…
    (post,) = sends(calls)
    assert not post.ephemeral
    assert post.content.startswith(f"**Replay of Match #{match_id}: Cairo Corridor**")
    ((name, data),) = post.files
    assert name == f"match-{match_id}-cairo.gif"
    assert frames(data) == 2 + 1


async def test_match_in_full_privately_with_its_board(world: World) -> None:
    match_id = await played(world)
    (post,) = sends(await world.slash(CAROL, "match", id=match_id))
    assert post.ephemeral
    assert "```\n1. AD 0:00   2. JU 0:00\n```" in post.content
    assert f"<@{ALICE.id}>" not in post.content  # names, never pings
    ((name, data),) = post.files
    assert name == f"match-{match_id}-cairo.png" and data.startswith(b"\x89PNG")


async def test_unknown_match_and_a_running_one_have_no_replay(world: World) -> None:
    (unknown,) = sends(await world.slash(CAROL, "match", id=99))
    assert unknown.ephemeral and unknown.content == "There is no match #99 on this server."
    assert not unknown.files
    match_id = await challenge_accepted(world)
    (running,) = sends(await world.slash(CAROL, "replay", id=match_id))
    assert running.ephemeral and "is still being played" in running.content
    assert not running.files


async def test_replay_autocomplete_offers_finished_matches(world: World) -> None:
    finished = await played(world)
    await challenge_accepted(world)  # a running one: not offered
    (call,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, CAROL, "replay", focused="id", id="1")))
    assert call.callback_type == 8
    assert [c["value"] for c in call.body["data"]["choices"]] == [finished]
    assert call.body["data"]["choices"][0]["name"] == (
        f"#{finished} Cairo Corridor: Alice vs Bob (finished)")
