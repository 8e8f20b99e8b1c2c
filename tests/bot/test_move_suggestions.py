"""``/move``'s suggestions, what players move by when the bot has no Message Content:
the legal moves in a match with hints, otherwise (a Death Match) every well-formed
move, never filtered by legality (which would give away the critical cells)."""

from __future__ import annotations

import random

from tests.bot.conftest import ALICE, BOB, CHAN, GUILD, Harness


async def test_without_hints_every_empty_cell_is_offered_legal_or_not(h: Harness) -> None:
    match_id = await h.casual()
    live = h.host.live[match_id]
    game, rng = live.game, random.Random(3)
    players = {0: ALICE, 1: BOB}
    # Play on until some empty cell is illegal (critical): it is offered all the same.
    while True:
        legal = {game.notation(m) for m in game.legal_moves(live.state)}
        empty = {game.notation(m) for m in game.well_formed_moves(live.state)}
        if legal < empty:
            break
        await h.play(players[live.to_move], rng.choice(sorted(legal)))
    seat = live.to_move
    user = players[seat].id
    offered = h.host.lookup.suggest_moves(GUILD, CHAN, user, "", limit=1000)
    assert set(offered) == empty and len(empty - legal) > 0
    critical = sorted(empty - legal)[0]
    assert critical in h.host.lookup.suggest_moves(GUILD, CHAN, user, critical[:1].lower())
    assert len(h.host.lookup.suggest_moves(GUILD, CHAN, user, "")) == min(25, len(empty))
    assert h.host.lookup.suggest_moves(GUILD, CHAN, players[1 - seat].id, "") == []


async def test_with_hints_only_the_legal_moves(h: Harness) -> None:
    match_id = await h.casual(hints=True)
    live = h.host.live[match_id]
    legal = sorted(live.game.notation(m) for m in live.game.legal_moves(live.state))
    assert h.host.lookup.suggest_moves(GUILD, CHAN, ALICE.id, "", limit=1000) == legal


async def test_quoridor_offers_squares_and_walls_by_what_was_typed(h: Harness) -> None:
    await h.casual(game="quoridor")
    offered = h.host.lookup.suggest_moves(GUILD, CHAN, ALICE.id, "e3")
    assert offered == ["e3", "e3h", "e3v"]  # legal or not: the walls are for Alice to see
