"""Commands of hosts: Death Matches, the First Player, and control of a running match."""

from __future__ import annotations

from bot.commands.common import (
    ANY_MATCH,
    CLOCK,
    DECK,
    GAME,
    HINTS,
    MAX_NUMBER,
    MAX_REASON,
    OPTIONS,
    TIME_CONTROL,
    match_options,
    time_control,
)
from bot.commands.spec import (
    Admits,
    Audience,
    Call,
    Command,
    Group,
    Kind,
    Option,
    Reply,
    Services,
    Suggest,
)
from bot.core.messages import Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches import DMSetup
from bot.texts import match as texts
from bot.texts import refused
from engine.registry import get_game

SECTION = "Hosting"
# The hosts' top-level command: what hosts do in a group that players use too
# (``/host tournament create`` beside ``/tournament join``) is typed under it, so
# Discord shows it to hosts only (see ``spec.misplaced``).
GROUPS = (Group("host", "For hosts: tournaments, events, decks, nominations, priority, "
                "tokens", audience=Audience.HOSTS),)
REASON = Option("reason", Kind.TEXT, "Why; it is logged with the match", required=True,
                max=MAX_REASON)


async def _dm(s: Services, c: Call) -> Response:
    players = [c.options["player1"], c.options["player2"]]
    chooser = c.get("chooser")
    picked = {"player1": players[0].id, "player2": players[1].id}.get(chooser, chooser)
    channel, abandon = c.channel_id, None
    if c.get("thread", False) and await s.roles.is_host(c.guild_id, c.actor):
        if c.open_thread is None:
            raise Refusal(refused.no_threads_here())
        # An unknown game is refused here, before a thread is made for nothing.
        name = texts.dm_thread(get_game(c.options["game"]).title, players[0].name,
                               players[1].name)
        channel, abandon = await c.open_thread(name)
    try:
        return await s.matches.choosing.start_dm(
            Asker(c.guild_id, channel, c.actor), DMSetup(c.options["game"], players, chooser=picked,
            options=await match_options(s, c), tc=time_control(c), hints=c.get("hints", False),
            reward=c.get("reward"), event=c.get("event"),
            within=c.get("deadline") * 60.0 if c.get("deadline") is not None else None,
            missed=c.get("missed")))
    except BaseException:
        if abandon is not None:
            await abandon()
        raise


async def _first(s: Services, c: Call) -> Response:
    return await s.matches.choosing.choose_first(c.asker, c.get("match"), c.options["player"].id)


async def _repost(s: Services, c: Call) -> Response:
    return await s.matches.viewing.board(c.asker, c.get("match"), public=True)


async def _pause(s: Services, c: Call) -> Response:
    return await s.matches.controls.pause(c.asker, c.get("match"), c.get("reason", ""))


async def _resume(s: Services, c: Call) -> Response:
    return await s.matches.controls.resume(c.asker, c.get("match"))


async def _extend(s: Services, c: Call) -> Response:
    return await s.matches.controls.extend(c.asker, c.get("match"), c.options["seconds"])


async def _void(s: Services, c: Call) -> Response:
    return await s.matches.controls.void(c.asker, c.get("match"), c.options["reason"])


async def _adjudicate(s: Services, c: Call) -> Response:
    winner, draw = c.get("winner"), c.get("draw", False)
    if (winner is None) == (not draw):
        raise Refusal(refused.winner_or_draw())
    return await s.matches.controls.adjudicate(c.asker, c.get("match"),
                                      winner.id if winner is not None else None,
                                      c.options["reason"])


async def _takeback(s: Services, c: Call) -> Response:
    return await s.matches.corrections.take_back(c.asker, c.get("match"), c.options["reason"])


async def _correct(s: Services, c: Call) -> Response:
    winner, draw = c.get("winner"), c.get("draw", False)
    if (winner is None) == (not draw):
        raise Refusal(refused.winner_or_draw())
    return await s.matches.corrections.correct(c.asker, c.options["match"],
                                   winner.id if winner is not None else None,
                                   c.options["reason"])


async def _matches(s: Services, c: Call) -> Response:
    return await s.matches.viewing.overview(c.guild_id)


async def _logchannel(s: Services, c: Call) -> Response:
    return await s.matches.outages.set_log_channel(c.asker, c.get("channel"), c.get("clear", False))


async def _games(s: Services, c: Call) -> Response:
    return await s.games.choose(c.asker, c.get("on"), c.get("off"))


async def _hostrole(s: Services, c: Call) -> Response:
    role = await s.roles.set_host_role(c.guild_id, c.actor, c.options["role"])
    return Response.say(texts.host_role_set(role.name), False)


COMMANDS = (
    Command("dm", "Start a Death Match (hosts)", _dm, (
        GAME,
        Option("player1", Kind.USER, "The first of the two players", required=True),
        Option("player2", Kind.USER, "The second player", required=True),
        Option("chooser", Kind.TEXT, "Who chooses the First Player (default: the higher "
               "priority in an event, else the host)",
               choices=(("The host", "host"), ("Draw lots", "lots"),
                        ("player1 chooses", "player1"), ("player2 chooses", "player2"))),
        Option("thread", Kind.BOOL, "Play in a new public thread of this channel "
               "(default no)"),
        CLOCK, *TIME_CONTROL, OPTIONS, HINTS, DECK,
        Option("reward", Kind.INT, "Garnets for the winner (default from the server's "
               "settings)", min=0, max=1_000_000),
        Option("event", Kind.TEXT, "The event it counts for (default: the one open event, "
               "if both play in it; none: no event)", suggest=Suggest.EVENTS),
        Option("deadline", Kind.INT, "Minutes the chooser has to choose the First Player "
               "(default from the server's settings)", min=1, max=10_080),
        Option("missed", Kind.TEXT, "If the First Player is not chosen in time (default: "
               "draw lots)", choices=(("Draw lots", "lots"), ("Void the DM", "void"))),
    ), audience=Audience.HOSTS, reply=Reply.PRIVATE, section=SECTION,
        usage="game:cairo player1:@a player2:@b", once=True, posts_boards=True,
        admits=Admits.STARTS),
    Command("first", "Choose the First Player of a Death Match", _first, (
        Option("player", Kind.USER, "The player who moves first", required=True),
        ANY_MATCH,
    ), reply=Reply.PUBLIC, section=SECTION, usage="player:@a", once=True, posts_boards=True),
    Command("matches", "The server's matches being played and waiting to start: players, "
            "turn, clocks", _matches, section=SECTION),
    Command("repost", "Post the current board in the match channel (hosts)", _repost,
            (ANY_MATCH,), audience=Audience.HOSTS, reply=Reply.PRIVATE, section=SECTION,
            once=True),
    Command("pause", "Stop a match's clock (hosts)", _pause, (
        Option("reason", Kind.TEXT, "Why, for the players and the log", max=MAX_REASON),
        ANY_MATCH,
    ), audience=Audience.HOSTS, section=SECTION, once=True),
    Command("resume", "Restart a paused match's clock (hosts)", _resume, (ANY_MATCH,),
            audience=Audience.HOSTS, section=SECTION, once=True),
    Command("extend", "Give the player to move more time this turn (hosts)", _extend, (
        Option("seconds", Kind.NUMBER, "Seconds to add to this turn (1 s to 24 h)",
               required=True, min=1, max=86_400),
        ANY_MATCH,
    ), audience=Audience.HOSTS, section=SECTION, usage="seconds:30", once=True),
    Command("void", "Cancel a match without a result (hosts)", _void, (REASON, ANY_MATCH),
            audience=Audience.HOSTS, section=SECTION, once=True),
    Command("adjudicate", "Decide a match's result: a winner or a draw (hosts)", _adjudicate, (
        REASON,
        Option("winner", Kind.USER, "The player who wins"),
        Option("draw", Kind.BOOL, "Declare a draw instead"),
        ANY_MATCH,
    ), audience=Audience.HOSTS, reply=Reply.PUBLIC, section=SECTION,
        usage="winner:@a reason:…", once=True),
    Command("takeback", "Take back the last move of a match; the clocks go back with it "
            "(hosts)", _takeback, (REASON, ANY_MATCH), audience=Audience.HOSTS,
            reply=Reply.PUBLIC, section=SECTION, usage="reason:…", once=True),
    Command("correct", "Correct the result of a finished match: garnets and ratings follow "
            "(hosts)", _correct, (
                Option("match", Kind.INT, "The match number (#12)", required=True, min=1,
                       max=MAX_NUMBER, suggest=Suggest.FINISHED_MATCHES),
                REASON,
                Option("winner", Kind.USER, "The player who wins"),
                Option("draw", Kind.BOOL, "A draw instead"),
            ), audience=Audience.HOSTS, section=SECTION,
            usage="match:12 winner:@a reason:…", once=True),
    Command("hostrole", "Set the role whose members host matches (Manage Server)", _hostrole,
            (Option("role", Kind.ROLE, "The host role", required=True),),
            audience=Audience.MANAGERS, section=SECTION, usage="role:@Role", once=True),
    Command("logchannel", "Where garnet tells hosts that a match needs them (hosts)",
            _logchannel, (
                Option("channel", Kind.CHANNEL, "The log channel (without it: show the one "
                       "set)"),
                Option("clear", Kind.BOOL, "No log channel: hosts are told in the match's "
                       "channel"),
            ), audience=Audience.HOSTS, section=SECTION, once=True),
    Command("host games", "Which installed games this server offers (hosts)", _games, (
        Option("on", Kind.TEXT, "Offer this game here", suggest=Suggest.INSTALLED_GAMES,
               max=32),
        Option("off", Kind.TEXT, "Stop offering this game here",
               suggest=Suggest.INSTALLED_GAMES, max=32),
    ), audience=Audience.HOSTS, section=SECTION, once=True),
)
