"""Commands of a season's Death Match flow: Tokens of Life, nominations, reinstating
an eliminated player."""

from __future__ import annotations

from bot.commands.common import (
    CLOCK,
    DECK,
    EVENT,
    GAME,
    HINTS,
    MAX_GARNETS,
    MAX_REASON,
    OPTIONS,
    TIME_CONTROL,
    match_options,
    time_control,
)
from bot.commands.spec import Audience, Call, Command, Group, Kind, Option, Reply, Services
from bot.core.messages import Response
from bot.services.season import DmSettings

SECTION = "The season's Death Match"
GROUPS = (
    Group("host token", "Tokens of Life: a player holding one cannot be nominated for a DM"),
    Group("nomination", "The Death Match nomination: the main match's loser picks an "
          "opponent"),
    Group("host nomination", "Open or cancel a Death Match nomination"),
)
PLAYER = Option("player", Kind.USER, "The player", required=True)
REASON = Option("reason", Kind.TEXT, "Why; it is written with the token", required=True,
                max=MAX_REASON)


async def _token_grant(s: Services, c: Call) -> Response:
    return await s.season.token(c.guild_id, c.actor, c.options["player"], c.options["reason"],
                                c.get("event"), give=True)


async def _token_remove(s: Services, c: Call) -> Response:
    return await s.season.token(c.guild_id, c.actor, c.options["player"], c.options["reason"],
                                c.get("event"), give=False)


async def _reinstate(s: Services, c: Call) -> Response:
    return await s.season.reinstate(c.guild_id, c.actor, c.options["player"], c.get("event"),
                                    c.get("reason", ""))


async def _open(s: Services, c: Call) -> Response:
    settings = DmSettings(await match_options(s, c), time_control(c), c.get("hints", False),
                          c.get("reward"), c.get("thread", False))
    return await s.season.nominate(c.asker, c.options["nominator"],
                                   c.options["game"], settings, c.get("event"))


async def _pick(s: Services, c: Call) -> Response:
    return await s.season.pick(c.asker, c.options["opponent"],
                               c.get("event"))


async def _cancel(s: Services, c: Call) -> Response:
    return await s.season.cancel(c.guild_id, c.actor, c.get("event"))


COMMANDS = (
    Command("host token grant", "Give a player a Token of Life in an event (hosts)", _token_grant,
            (PLAYER, REASON, EVENT), audience=Audience.HOSTS, once=True, section=SECTION,
            usage="player:@x reason:…"),
    Command("host token remove", "Take a Token of Life from a player (hosts)", _token_remove,
            (PLAYER, REASON, EVENT), audience=Audience.HOSTS, once=True, section=SECTION,
            usage="player:@x reason:…"),
    Command("host nomination open", "Name the main match's loser, who nominates a DM opponent "
            "(hosts)", _open, (
                Option("nominator", Kind.USER, "The main match's loser, who nominates",
                       required=True),
                GAME,
                EVENT,
                Option("thread", Kind.BOOL, "Play the DM in a new public thread of this "
                       "channel (default no)"),
                CLOCK, *TIME_CONTROL, OPTIONS, HINTS, DECK,
                Option("reward", Kind.INT, "Garnets for the winner (default: the event's)",
                       min=0, max=MAX_GARNETS),
            ), audience=Audience.HOSTS, once=True, section=SECTION,
            usage="nominator:@x game:cairo"),
    Command("nomination pick", "Nominate your Death Match opponent (the nominator, or a "
            "host)", _pick, (
                Option("opponent", Kind.USER, "Who you nominate", required=True), EVENT,
            ), reply=Reply.PUBLIC, once=True, section=SECTION, usage="opponent:@x"),
    Command("host nomination cancel", "End an open nomination without a DM (hosts)", _cancel,
            (EVENT,), audience=Audience.HOSTS, once=True, section=SECTION),
    Command("host event reinstate", "Bring an eliminated player back into the event (hosts)",
            _reinstate, (
                PLAYER, EVENT,
                Option("reason", Kind.TEXT, "Why (shown with it)", max=MAX_REASON),
            ), audience=Audience.HOSTS, once=True, section=SECTION, usage="player:@x"),
)
