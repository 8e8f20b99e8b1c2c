"""Commands of tournaments: the players' ``/tournament join|leave|checkin|standings|
pairings|info`` and the hosts' ``/host tournament create|add|start|next|drop|reinstate|
adjudicate|cancel|export``."""

from __future__ import annotations

from bot.commands.common import (
    CLOCK,
    EVENT,
    GAME,
    HINTS,
    MAX_NAME,
    MAX_REASON,
    OPTIONS,
    TIME_CONTROL,
    game_options,
    time_control,
)
from bot.commands.spec import (
    Audience,
    Call,
    Command,
    Group,
    Kind,
    Option,
    Reply,
    Services,
    Suggest,
    settings_option,
)
from bot.core.messages import Response
from bot.core.refusal import Refusal
from bot.services.tournaments.host import (
    DOUBLE,
    FORFEIT,
    Setup,
    TournamentSettings,
    parse_prizes,
)
from bot.services.tournaments.host.manage import MAX_BEST_OF
from bot.texts import tournaments as say

SECTION = "Tournaments"
GROUPS = (Group("tournament", "Tournaments: Swiss, round robin, single and double "
                "elimination"),
          Group("host tournament", "Run tournaments: create, enter, start, pair, settle"))
TOURNAMENT = Option("tournament", Kind.TEXT, "The tournament: its name or number (default: "
                    "the one open or running here)", suggest=Suggest.TOURNAMENTS,
                    max=MAX_NAME)
PLAYER = Option("player", Kind.USER, "The player", required=True)
MAX_ROUNDS = 50
MAX_DEADLINE = 14 * 24 * 60  # minutes: two weeks a round
DEFAULT_SHOW_UP = 10  # minutes a clocked pairing waits for each player's first move


async def _create(s: Services, c: Call) -> Response:
    deadline = c.get("deadline")
    setup = Setup(time_control=time_control(c), game_options=game_options(c),
                  hints=c.get("hints", False), thread=c.get("thread", False),
                  deadline=None if deadline is None else deadline * 60.0,
                  no_show=c.get("noshow", FORFEIT), prizes=parse_prizes(c.get("prizes")),
                  checkin=c.get("checkin", False), auto=c.get("auto", True),
                  show_up=c.get("showup", DEFAULT_SHOW_UP) * 60.0)
    return await s.tournaments.create(c.asker, TournamentSettings(
        c.options["name"], c.options["game"], c.options["format"], rounds=c.get("rounds"),
        best_of=c.get("bestof", 1), first=c.get("first"), double=c.get("double", False),
        third_place=c.get("thirdplace", False), event=c.get("event"), setup=setup))


async def _join(s: Services, c: Call) -> Response:
    return await s.tournaments.join(c.asker, c.get("tournament"))


async def _leave(s: Services, c: Call) -> Response:
    return await s.tournaments.leave(c.asker, c.get("tournament"))


async def _add(s: Services, c: Call) -> Response:
    people = [c.options["player"]] if c.get("player") is not None else []
    people += list(c.get("players", ()))
    role = c.get("role")
    if role is not None:
        if c.members is None:
            raise Refusal(say.role_needs_members())
        found = await c.members(role)
        if found is None:
            raise Refusal(say.role_needs_members())
        if not found:
            raise Refusal(say.role_empty(role=role.name))
        people += found
    if not people:
        raise Refusal(say.name_player_or_role())
    once = list({p.id: p for p in people}.values())  # each once, in order
    return await s.tournaments.add(c.asker, once, c.get("tournament"))


async def _checkin(s: Services, c: Call) -> Response:
    return await s.tournaments.checkin(c.asker, c.get("tournament"))


async def _start(s: Services, c: Call) -> Response:
    return await s.tournaments.start(c.asker, c.get("tournament"))


async def _next(s: Services, c: Call) -> Response:
    return await s.tournaments.next_round(c.asker, c.get("tournament"))


async def _drop(s: Services, c: Call) -> Response:
    return await s.tournaments.drop(c.asker, c.options["player"],
                                    c.get("tournament"))


async def _reinstate(s: Services, c: Call) -> Response:
    return await s.tournaments.reinstate(c.asker, c.options["player"], c.get("tournament"))


async def _adjudicate(s: Services, c: Call) -> Response:
    return await s.tournaments.adjudicate(c.asker, c.options["board"],
                                          c.options["result"], c.get("round"),
                                          c.get("reason", ""), c.get("tournament"))


async def _cancel(s: Services, c: Call) -> Response:
    return await s.tournaments.cancel(c.asker, c.get("tournament"))


async def _standings(s: Services, c: Call) -> Response:
    return await s.tournaments.standings(c.asker, c.get("tournament"))


async def _pairings(s: Services, c: Call) -> Response:
    return await s.tournaments.pairings(c.asker, c.get("round"),
                                        c.get("tournament"))


async def _info(s: Services, c: Call) -> Response:
    return await s.tournaments.info(c.asker, c.get("tournament"))


async def _export(s: Services, c: Call) -> Response:
    return await s.tournaments.export(c.asker, c.get("tournament"))


ROUND = Option("round", Kind.INT, "The round (default: the current one)", min=1,
               max=10_000)
# What few tournaments set, typed together: ``settings:deadline=60 noshow=double``.
RARELY_USED = (
    Option("deadline", Kind.INT, "Minutes each round may take; then unplayed pairings "
           "are settled (default: no deadline)", min=5, max=MAX_DEADLINE),
    Option("noshow", Kind.TEXT, "At the deadline, an unplayed pairing (default: who did "
           "not show loses)", choices=(("Who did not show loses by forfeit", FORFEIT),
                                       ("Both lose (double forfeit)", DOUBLE))),
    Option("showup", Kind.INT, "Clocked: minutes for each player's first move, "
           "then forfeit (default 10)", min=0, max=24 * 60),
    Option("checkin", Kind.BOOL, "Players check in before the start (default no)"),
    Option("auto", Kind.BOOL, "Start each round when the last ends (default yes)"),
    Option("double", Kind.BOOL, "Round robin: everyone meets everyone twice"),
    Option("thirdplace", Kind.BOOL, "Single elimination: a match for third place"),
)
COMMANDS = (
    Command("host tournament create", "Open a tournament for entries (hosts)", _create, (
        Option("name", Kind.TEXT, "The tournament's name, e.g. Spring Cup", required=True,
               min=1, max=50),
        GAME,
        Option("format", Kind.TEXT, "How it is played", required=True, choices=(
            ("Swiss", "swiss"), ("Round robin", "roundrobin"),
            ("Single elimination", "single"), ("Double elimination", "double"))),
        Option("rounds", Kind.INT, "Swiss: how many rounds (default: enough for one winner)",
               min=1, max=MAX_ROUNDS),
        Option("bestof", Kind.INT, "Games per pairing, the first player alternating "
               "(default 1)", min=1, max=MAX_BEST_OF),
        Option("first", Kind.TEXT, "Who moves first in a pairing's first game (default: "
               "balanced)", choices=(("Balanced (alternate)", "alternate"),
                                     ("The higher seed chooses", "chooses"),
                                     ("Drawn by lot", "lots"))),
        EVENT,
        Option("thread", Kind.BOOL, "Play each pairing in a new thread of this channel"),
        Option("prizes", Kind.TEXT, "Garnets by final place, e.g. 10,5,3", max=100),
        CLOCK, *TIME_CONTROL, OPTIONS, HINTS, settings_option(RARELY_USED),
    ), audience=Audience.HOSTS, once=True, section=SECTION, folded=RARELY_USED,
        usage="name:Spring Cup game:cairo format:swiss rounds:3"),
    Command("tournament join", "Enter a tournament", _join, (TOURNAMENT,), once=True,
            section=SECTION),
    Command("tournament leave", "Leave a tournament (after its start: withdraw)", _leave,
            (TOURNAMENT,), reply=Reply.PUBLIC, once=True, section=SECTION),
    Command("host tournament add", "Enter players, or a role's members (hosts)", _add, (
        Option("player", Kind.USER, "A player to enter"),
        Option("players", Kind.USERS, "Several at once: @a @b @c"),
        Option("role", Kind.ROLE, "Enter every member of this role"),
        TOURNAMENT,
    ), audience=Audience.HOSTS, once=True, section=SECTION, usage="players:@x @y"),
    Command("tournament checkin", "Confirm you will play (where the tournament asks)",
            _checkin, (TOURNAMENT,), once=True, section=SECTION),
    Command("host tournament start", "Close entries, seed the players and pair round 1 (hosts)",
            _start, (TOURNAMENT,), audience=Audience.HOSTS, reply=Reply.PUBLIC,
            once=True, section=SECTION),
    Command("host tournament next", "Pair the next round (hosts)", _next, (TOURNAMENT,),
            audience=Audience.HOSTS, reply=Reply.PUBLIC, once=True, section=SECTION),
    Command("host tournament drop", "Withdraw a player: not paired again (hosts)", _drop,
            (PLAYER, TOURNAMENT), audience=Audience.HOSTS, reply=Reply.PUBLIC,
            once=True, section=SECTION, usage="player:@x"),
    Command("host tournament reinstate", "Undo a withdrawal; within its round, its forfeit too "
            "(hosts)", _reinstate, (PLAYER, TOURNAMENT), audience=Audience.HOSTS,
            once=True, section=SECTION, usage="player:@x"),
    Command("host tournament adjudicate", "Decide or correct a pairing's result, any round (hosts)",
            _adjudicate, (
        Option("board", Kind.INT, "The board (its number in the pairings)", required=True,
               min=1, max=10_000),
        Option("result", Kind.TEXT, "From the first-named player's side", required=True,
               choices=(("1-0: the first-named wins", "1-0"),
                        ("0-1: the second-named wins", "0-1"), ("Draw", "draw"),
                        ("+/-: the first-named wins by forfeit", "+/-"),
                        ("-/+: the second-named wins by forfeit", "-/+"),
                        ("-/-: both lose by forfeit", "-/-"))),
        ROUND,
        Option("reason", Kind.TEXT, "Why; it is logged with the tournament", max=MAX_REASON),
        TOURNAMENT,
    ), audience=Audience.HOSTS, reply=Reply.PUBLIC, once=True, section=SECTION,
        usage="board:2 result:1-0 reason:…"),
    Command("host tournament cancel", "Cancel a tournament: no prizes (hosts)", _cancel,
            (TOURNAMENT,), audience=Audience.HOSTS, reply=Reply.PUBLIC, once=True, section=SECTION),
    Command("tournament standings", "The standings (or the bracket), with the image",
            _standings, (TOURNAMENT,), reply=Reply.PRIVATE, section=SECTION),
    Command("tournament pairings", "A round's pairings and results", _pairings,
            (ROUND, TOURNAMENT), section=SECTION),
    Command("tournament info", "A tournament's rules and players", _info, (TOURNAMENT,),
            section=SECTION),
    Command("host tournament export", "A tournament's standings and games as CSV files (hosts)",
            _export, (TOURNAMENT,), audience=Audience.HOSTS, reply=Reply.PRIVATE,
            section=SECTION),
)
