"""Commands of players: challenges, moves, the board and the clocks."""

from __future__ import annotations

from bot.commands.common import (
    ANY_MATCH,
    CLOCK,
    DECK,
    GAME,
    HINTS,
    MATCH,
    MAX_NUMBER,
    OPTIONS,
    TIME_CONTROL,
    match_options,
    time_control,
)
from bot.commands.spec import Admits, Call, Command, Kind, Option, Reply, Services, Suggest
from bot.core.messages import Response

SECTION = "Play"


async def _challenge(s: Services, c: Call) -> Response:
    opponents = [c.options[k] for k in ("opponent", "opponent2", "opponent3")
                 if c.options.get(k) is not None]
    return await s.matches.lobby.challenge(
        c.asker, c.options["game"], opponents,
        first=c.get("first", "random"), options=await match_options(s, c), tc=time_control(c),
        hints=c.get("hints", False), rated=c.get("rated", True))


async def _practice(s: Services, c: Call) -> Response:
    tc = time_control(c) if c.get("clock", False) else None
    return await s.matches.practice.start(
        c.asker, c.options["game"], c.options["level"],
        first=c.get("first", "me"), tc=tc, hints=c.get("hints", False))


async def _accept(s: Services, c: Call) -> Response:
    return await s.matches.lobby.answer(c.asker, c.get("match"), accept=True)


async def _decline(s: Services, c: Call) -> Response:
    return await s.matches.lobby.answer(c.asker, c.get("match"), accept=False)


async def _cancel(s: Services, c: Call) -> Response:
    return await s.matches.lobby.cancel(c.asker, c.get("match"))


async def _move(s: Services, c: Call) -> Response:
    return await s.matches.play.move(c.asker, c.get("match"), c.options["move"], sent_at=c.sent_at)


async def _resign(s: Services, c: Call) -> Response:
    return await s.matches.play.resign(c.asker, c.get("match"))


async def _draw(s: Services, c: Call) -> Response:
    return await s.matches.courtesy.draw(c.asker, c.get("match"))


async def _abort(s: Services, c: Call) -> Response:
    return await s.matches.courtesy.abort(c.asker, c.get("match"))


async def _rematch(s: Services, c: Call) -> Response:
    return await s.matches.courtesy.rematch(c.asker, c.options["match"])


async def _board(s: Services, c: Call) -> Response:
    return await s.matches.viewing.board(c.asker, c.get("match"))


async def _time(s: Services, c: Call) -> Response:
    return await s.matches.viewing.time(c.asker, c.get("match"))


COMMANDS = (
    Command("challenge", "Challenge members to a casual match", _challenge, (
        Option("opponent", Kind.USER, "Who you challenge", required=True),
        GAME,
        Option("opponent2", Kind.USER, "A second opponent (games for more players)"),
        Option("opponent3", Kind.USER, "A third opponent"),
        Option("first", Kind.TEXT, "Who moves first (default: random)",
               choices=(("Me", "me"), ("My opponent", "them"), ("Random", "random"))),
        CLOCK, *TIME_CONTROL, OPTIONS, HINTS, DECK,
        Option("rated", Kind.BOOL, "Count the result for ratings (default yes)"),
    ), section=SECTION, usage="opponent:@someone game:cairo", once=True, posts_boards=True,
        admits=Admits.ASKS),
    Command("practice", "Play an unrated practice match against the computer", _practice, (
        GAME,
        Option("level", Kind.INT, "How strong the computer plays: 1 (weakest) to 5",
               required=True, min=1, max=5),
        Option("first", Kind.TEXT, "Who moves first (default: you)",
               choices=(("Me", "me"), ("The computer", "bot"), ("Random", "random"))),
        Option("clock", Kind.BOOL, "Play with the clock (default no)"),
        *TIME_CONTROL, HINTS,
    ), reply=Reply.PUBLIC, section=SECTION, usage="game:cairo level:3", once=True,
        posts_boards=True, admits=Admits.STARTS),
    Command("accept", "Accept a challenge", _accept, (MATCH,), reply=Reply.PUBLIC,
            section=SECTION, once=True, posts_boards=True),
    Command("decline", "Decline a challenge", _decline, (MATCH,), section=SECTION, once=True),
    Command("cancel", "Withdraw your challenge", _cancel, (MATCH,), section=SECTION, once=True),
    Command("move", "Play a move (you can also just type it)", _move, (
        Option("move", Kind.TEXT, "Your move (/help game: shows how to type one)", required=True,
               suggest=Suggest.MOVES),
        MATCH,
    ), reply=Reply.PUBLIC, section=SECTION, usage="move:D left"),
    Command("resign", "Resign your match", _resign, (MATCH,), reply=Reply.PUBLIC,
            section=SECTION, once=True),
    Command("draw", "Offer a draw in a casual match, or accept the one offered", _draw,
            (MATCH,), reply=Reply.PUBLIC, section=SECTION, once=True),
    Command("abort", "End a casual match before its second move, without a result", _abort,
            (MATCH,), section=SECTION, once=True),
    Command("rematch", "Challenge your opponent of a casual match again, colours swapped",
            _rematch, (Option("match", Kind.INT, "The match to play again (#12)", required=True,
                              min=1, max=MAX_NUMBER, suggest=Suggest.FINISHED_MATCHES),),
            section=SECTION, usage="match:12", once=True, posts_boards=True,
            admits=Admits.ASKS),
    Command("board", "Show the board of a match to you", _board, (ANY_MATCH,),
            reply=Reply.PRIVATE, section=SECTION),
    Command("time", "Show the clocks of a match", _time, (ANY_MATCH,), section=SECTION),
)


async def _pick_card(s: Services, c: Call) -> Response:
    return await s.matches.menus.pick_card(c.options["match"], c.guild_id, c.channel_id, c.actor,
                                     c.options["stamp"], c.options["choice"])


async def _pick_place(s: Services, c: Call) -> Response:
    return await s.matches.menus.pick_place(c.options["match"], c.guild_id, c.channel_id, c.actor,
                                      c.options["stamp"], c.options["choice"],
                                      sent_at=c.sent_at)


_PICKED = (Option("match", Kind.INT, "The match", required=True, min=1, max=MAX_NUMBER),
           Option("stamp", Kind.TEXT, "The position the menu was made for", required=True,
                  max=40),
           Option("choice", Kind.TEXT, "What was chosen", required=True, max=100))
# Answers to select menus only (``bot.core.buttons``): not slash commands, not in /help.
MENU_COMMANDS = (
    Command("pick card", "A card chosen in the menu under a board", _pick_card, _PICKED),
    Command("pick place", "A placement chosen in a card's menu", _pick_place, _PICKED,
            reply=Reply.PUBLIC),
)
