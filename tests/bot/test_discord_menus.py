"""Sigma Escape's select menus on Discord, through discord.py's real parsing: the board
of a player's turn carries a menu of their cards; a card chosen shows its placements
to that player only; a placement chosen is played as ``/move``; a menu from an earlier
position is refused; the menus work after a restart. And ``/deck show`` in a match."""

from __future__ import annotations

from typing import Any

from tests.bot.discord_fake import ALICE, BOB, CAROL, Call, Person, select_menu
from tests.discord_bot import World, sends


async def choose(world: World, person: Person, message: dict[str, Any], custom_id: str,
                 value: str) -> list[Call]:
    return await world._feed(lambda: world.state.parse_interaction_create(
        select_menu(world.fake, person, message, custom_id, value)))


def menus(call: Call) -> list[dict[str, Any]]:
    return [c for c in call.buttons if c.get("type") == 3]


async def sigma_board(world: World) -> Call:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="sigma", first="me")
    calls = await world.press(BOB, call.sent, call.buttons[0]["custom_id"])
    (board,) = [c for c in sends(calls) if c.files]
    return board


async def test_a_card_then_a_placement_from_the_menus(world: World) -> None:
    board = await sigma_board(world)
    (menu,) = menus(board)
    assert menu["custom_id"] == f"garnet:sc:1:0-{menu['custom_id'].split('-')[1]}"
    assert len(menu["custom_id"]) <= 100
    assert menu["placeholder"].startswith("White (")
    labels = [o["label"] for o in menu["options"]]
    assert labels and len(labels) <= 25 and labels == list(dict.fromkeys(labels))
    card = labels[0]
    # Only the player to move may use it.
    calls = await choose(world, BOB, board.sent, menu["custom_id"], card)
    (refused,) = sends(calls)
    assert refused.ephemeral and "turn, not yours" in refused.content
    calls = await choose(world, ALICE, board.sent, menu["custom_id"], card)
    (shown,) = sends(calls)
    assert shown.ephemeral and shown.content.startswith(f"**{card}**: ")
    places = menus(shown)
    assert places and all(len(m["options"]) <= 25 and len(m["custom_id"]) <= 100
                          for m in places)
    legal = world.live().game.legal_moves(world.live().state)
    expected = [world.live().game.notation(m) for m in legal if m.card == card]
    offered = [o["value"] for m in places for o in m["options"]]
    assert offered == expected[:125]
    calls = await choose(world, ALICE, shown.sent, places[0]["custom_id"], offered[0])
    (played,) = [c for c in sends(calls) if c.files]
    assert f"played **{offered[0]}**" in played.content
    assert world.live().ply == 1
    # Black's turn: a new menu; the old one is stale.
    (black,) = menus(played)
    assert black["placeholder"].startswith("Black (")
    calls = await choose(world, ALICE, board.sent, menu["custom_id"], card)
    (stale,) = sends(calls)
    assert stale.ephemeral and "earlier position" in stale.content
    assert world.live().ply == 1


async def test_menus_work_after_a_restart(world: World) -> None:
    board = await sigma_board(world)
    (menu,) = menus(board)
    card = menu["options"][0]["value"]
    await world.restart()
    calls = await choose(world, ALICE, board.sent, menu["custom_id"], card)
    (shown,) = sends(calls)
    assert shown.ephemeral and menus(shown)


async def test_no_menus_for_other_games(world: World) -> None:
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    calls = await world.press(BOB, call.sent, call.buttons[0]["custom_id"])
    (board,) = [c for c in sends(calls) if c.files]
    assert menus(board) == []


async def test_deck_show_in_a_sigma_match_channel(world: World) -> None:
    await sigma_board(world)
    calls = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.subcommand(world.bot.tree, CAROL, "deck", "show")))
    (sheet,) = [c for c in sends(calls) if c.files]
    assert "Deck `reconstructed` (the deck of match #1)" in sheet.content
    assert sheet.files[0][0] == "deck-reconstructed.png"
