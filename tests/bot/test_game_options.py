"""A game's options and move help, as the game declares them, on Discord and the
console: one ``options:`` text read and bounded by the declarations, its autocomplete,
``/help game:``, the rules line of the first post; and ``/host games``."""

from __future__ import annotations

import pytest

from bot.core import options as opt
from engine.game import OptionError
from engine.registry import get_game
from tests.bot.discord_fake import ALICE, BOB, HANA
from tests.discord_bot import World, sends, sub


def test_the_options_text_is_read_by_the_games_declarations() -> None:
    quoridor, cairo = get_game("quoridor"), get_game("cairo")
    assert opt.read_game_options(quoridor, "ply-cap:200") == {"ply-cap": 200}
    assert opt.read_game_options(cairo, "tie=draw") == {"tie": "draw"}
    assert opt.read_game_options(cairo, "draw") == {"tie": "draw"}  # a bare choice
    assert opt.read_game_options(cairo, "tie:first-loses") == {"tie": "first-player-loses"}
    assert opt.read_game_options(cairo, "") == {}
    assert opt.read_game_options(quoridor, '"ply-cap:200"') == {"ply-cap": 200}
    for text, said in (("ply-cap:0", "option 'ply-cap' is from 1 to 10000, not 0"),
                       ("ply-cap:lots", "option 'ply-cap' takes a whole number"),
                       ("plies:3", "Quoridor has no option 'plies' (options: ply-cap)"),
                       ("ply-cap:5 ply-cap:6", "option 'ply-cap' is given twice"),
                       ("x" * 101, "`options` is at most 100 characters")):
        with pytest.raises(OptionError, match=said.replace("(", r"\(").replace(")", r"\)")):
            opt.read_game_options(quoridor, text)


def test_the_options_autocomplete_offers_what_the_game_declares() -> None:
    cairo = get_game("cairo")
    assert opt.suggest_game_options(cairo, "tie:d") == ["tie:draw"]
    assert opt.suggest_game_options(get_game("quoridor"), "") == [
        "ply-cap:300", "ply-cap:1", "ply-cap:10000"]
    assert opt.suggest_game_options(cairo, "tie:draw ") == []  # named already


async def test_quoridors_ply_cap_reaches_discord(world: World) -> None:
    completed = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, ALICE, "challenge", focused="options",
                         opponent=BOB, game="quoridor", options="ply")))
    (choices,) = completed
    assert [c["value"] for c in choices.body["data"]["choices"]] == [
        "ply-cap:300", "ply-cap:1", "ply-cap:10000"]
    (post,) = sends(await world.slash(ALICE, "challenge", opponent=BOB, game="quoridor",
                                      options="ply-cap:200"))
    assert "a draw after 200 plies" in post.content
    (refused,) = sends(await world.slash(ALICE, "challenge", opponent=BOB, game="quoridor",
                                         options="ply-cap:0"))
    assert refused.ephemeral and "from 1 to 10000, not 0" in refused.content


async def test_help_says_a_games_moves_and_options(world: World) -> None:
    (answer,) = sends(await world.slash(ALICE, "help", game="quoridor"))
    assert answer.content.startswith("**Quoridor** (`game:quoridor`)\nMoves: name the square")
    assert "• `ply-cap` — a game with more plies than this is a draw; a whole number " \
           "from 1 to 10000, default 300." in answer.content


async def test_a_host_turns_a_built_in_game_off_and_on(world: World) -> None:
    (off,) = sends(await sub(world, HANA, "host", "games", off="pathwayz"))
    assert "no longer offers **Pathwayz**" in off.content
    (refused,) = sends(await world.slash(ALICE, "challenge", opponent=BOB, game="pathwayz"))
    assert "does not offer Pathwayz" in refused.content
    (listing,) = sends(await sub(world, HANA, "host", "games"))
    assert "• `pathwayz` Pathwayz (garnet 0.1.0): off" in listing.content
    (games,) = await world._feed(lambda: world.state.parse_interaction_create(
        world.fake.slash(world.bot.tree, ALICE, "challenge", focused="game", opponent=BOB,
                         game="")))
    assert "pathwayz" not in [c["value"] for c in games.body["data"]["choices"]]
    (on,) = sends(await sub(world, HANA, "host", "games", on="pathwayz"))
    assert "now offers **Pathwayz**" in on.content
    (refused,) = sends(await sub(world, ALICE, "host", "games", on="pathwayz"))
    assert refused.ephemeral and "host" in refused.content.lower()
