"""Casual challenges: accept, decline, withdraw, lapse; who may answer."""

from __future__ import annotations

import re

from sqlalchemy import select

from bot.core.requests import Asker
from bot.services.matches import CHALLENGE_TTL
from bot.store.models import Match
from tests.bot.conftest import ALICE, BOB, CAROL, CHAN, GUILD, Harness


async def challenge(h: Harness, **kw: object) -> int:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], **kw)  # type: ignore[arg-type]
    assert r.reply is not None, r
    found = re.search(r"#(\d+)", r.reply.text)
    assert found, r.reply.text
    return int(found.group(1))


async def status(h: Harness, match_id: int) -> str:
    async with h.db.session() as s:
        match = await s.get(Match, match_id)
    assert match is not None
    return match.status


async def test_challenge_has_accept_and_decline_buttons(h: Harness) -> None:
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), "cairo", [BOB], first="me")
    assert r.reply is not None and not r.reply.ephemeral
    assert "<@alice> challenges <@bob>" in r.reply.text
    assert [(b.label, b.custom_id) for b in r.reply.buttons] == [
        ("Accept", "garnet:accept:1"), ("Decline", "garnet:decline:1")]


async def test_only_the_challenged_may_accept(h: Harness) -> None:
    match_id = await challenge(h)
    for who in (ALICE, CAROL):
        r = await h.host.lobby.answer(Asker(GUILD, CHAN, who), match_id, accept=True)
        assert r.reply and r.reply.ephemeral and "Only the challenged" in r.reply.text
    assert await status(h, match_id) == "pending"


async def test_accept_starts_the_game_with_the_challenger_first(h: Harness) -> None:
    match_id = await challenge(h, first="me")
    r = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), None, accept=True)
    assert r.posts[0].image is not None
    assert "<@alice> (Black) vs <@bob> (Red)" in r.posts[0].text
    assert await status(h, match_id) == "running"
    # Accepting twice is refused politely.
    again = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), match_id, accept=True)
    assert again.reply and again.reply.ephemeral


async def test_decline_and_withdraw(h: Harness) -> None:
    first = await challenge(h)
    r = await h.host.lobby.answer(Asker(GUILD, CHAN, BOB), first, accept=False)
    assert r.reply and "declined" in r.reply.text
    assert await status(h, first) == "declined"
    second = await challenge(h)
    r = await h.host.lobby.cancel(Asker(GUILD, CHAN, BOB), second)
    assert r.reply and "Only the challenger" in r.reply.text
    r = await h.host.lobby.cancel(Asker(GUILD, CHAN, ALICE), second)
    assert r.reply and "withdrew" in r.reply.text
    assert await status(h, second) == "cancelled"


async def test_an_unanswered_challenge_lapses(h: Harness) -> None:
    match_id = await challenge(h)
    await h.clock.advance(CHALLENGE_TTL - 1)
    assert await status(h, match_id) == "pending"
    await h.clock.advance(2)
    assert await status(h, match_id) == "expired"
    assert "lapsed" in h.texts()[-1]


async def test_one_active_match_per_player_and_channel(h: Harness) -> None:
    await challenge(h)
    r = await h.host.lobby.challenge(Asker(GUILD, CHAN, CAROL), "cairo", [BOB])
    assert r.reply and r.reply.ephemeral and "already in match #1" in r.reply.text
    # Elsewhere Bob may play.
    r = await h.host.lobby.challenge(Asker(GUILD, "other", CAROL), "cairo", [BOB])
    assert r.reply and not r.reply.ephemeral


async def test_bad_challenges_are_explained(h: Harness) -> None:
    cases = [
        (dict(game_name="chess", opponents=[BOB]), "Unknown game 'chess'"),
        (dict(game_name="cairo", opponents=[ALICE]), "cannot challenge yourself"),
        (dict(game_name="cairo", opponents=[BOB, CAROL]), "played by 2 players, not 3"),
        (dict(game_name="cairo", opponents=[BOB], options={"tie": "coin"}),
         "Option 'tie' is one of"),
        (dict(game_name="cairo", opponents=[BOB], first="second"), "`first` is"),
    ]
    for kwargs, message in cases:
        r = await h.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), **kwargs)  # type: ignore[arg-type]
        assert r.reply and r.reply.ephemeral and message in r.reply.text, (kwargs, r.reply)
    async with h.db.session() as s:
        assert (await s.scalars(select(Match))).all() == []


async def test_moves_of_others_never_change_the_game(h: Harness) -> None:
    await h.casual(first="me")
    live = next(iter(h.host.live.values()))
    assert (await h.play(CAROL, "D left")).reply is None  # a spectator: ignored
    r = await h.play(BOB, "D left")  # not on turn
    assert r.reply and "Alice's turn" in r.reply.text
    assert (await h.play(ALICE, "good luck!")).reply is None  # chat: ignored
    r = await h.play(ALICE, "A left")
    assert r.reply and "A has no left pentagon" in r.reply.text
    assert live.ply == 0
    r = await h.play(ALICE, "D left")
    assert live.ply == 1 and r.posts
    r = await h.play(BOB, "dl")
    assert r.reply and "already taken by Black" in r.reply.text and live.ply == 1


async def test_resign(h: Harness) -> None:
    match_id = await h.casual(first="me")
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    assert "🏆 **<@alice> wins Match #1** — Bob resigned." in r.posts[0].text
    assert await status(h, match_id) == "finished"
    r = await h.host.play.resign(Asker(GUILD, CHAN, BOB), None)
    assert r.reply and r.reply.ephemeral
