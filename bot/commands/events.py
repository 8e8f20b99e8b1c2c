"""Commands of events, priority, garnets, standings and exports."""

from __future__ import annotations

from bot.commands.common import AMOUNT, EVENT, MAX_GARNETS, MAX_PAGE, MAX_REASON, SCOPE
from bot.commands.spec import Audience, Call, Command, Group, Kind, Option, Reply, Services, Suggest
from bot.core.messages import Actor, Response
from bot.core.refusal import Refusal
from bot.services.web import linked
from bot.texts import economy as say

SECTION = "Events and garnets"
GROUPS = (
    Group("event", "Events: a season of play with its own garnets and priority"),
    Group("priority", "Priority in an event (1 is the highest)"),
    Group("host event", "Open, fill and close events"),
    Group("host priority", "Set priority in an event"),
)
PLAYER = Option("player", Kind.USER, "The player", required=True)
PLAYERS = Option("players", Kind.USERS, "Several players at once, as mentions: @a @b @c")
ROLE = Option("role", Kind.ROLE, "Everyone with this role")
REASON = Option("reason", Kind.TEXT, "Why; it is written in the ledger", required=True,
                max=MAX_REASON)


async def _create(s: Services, c: Call) -> Response:
    made = await s.economy.event_create(c.guild_id, c.actor, c.options["name"],
                                        c.get("reward"), c.get("transfers", False),
                                        c.get("confiscate"), c.get("eliminate", True),
                                        c.get("review", False))
    return linked(made, await s.link(c.guild_id, ""))  # its table is on the server's page


async def people(c: Call) -> list[Actor]:
    """Everyone a command names: ``player``, ``players`` and the members of ``role``
    (as the adapter knows them)."""
    named: list[Actor] = [c.options["player"]] if c.get("player") is not None else []
    named += list(c.get("players", ()))
    role = c.get("role")
    if role is not None:
        found = await c.members(role) if c.members is not None else None
        if not found:
            raise Refusal(say.role_without_members(role=role.name))
        named += list(found)
    return list(dict.fromkeys(named))


async def _add(s: Services, c: Call) -> Response:
    return await s.economy.event_add(c.guild_id, c.actor, await people(c), c.get("event"))


async def _remove(s: Services, c: Call) -> Response:
    return await s.economy.event_remove(c.guild_id, c.actor, c.options["player"],
                                        c.get("event"))


async def _close(s: Services, c: Call) -> Response:
    return await s.economy.event_close(c.guild_id, c.actor, c.get("event"))


async def _info(s: Services, c: Call) -> Response:
    shown = await s.economy.event_info(c.guild_id, c.actor, c.get("event"))
    return linked(shown, await s.link(c.guild_id, ""))  # its table is on the server's page


async def _priority_set(s: Services, c: Call) -> Response:
    return await s.economy.priority_set(c.guild_id, c.actor, c.options["player"],
                                        c.options["rank"], c.get("event"))


async def _priority_show(s: Services, c: Call) -> Response:
    return await s.economy.priority_show(c.guild_id, c.actor, c.get("event"))


async def _garnets(s: Services, c: Call) -> Response:
    return await s.economy.garnets(c.guild_id, c.actor, c.get("player"), c.get("event"))


async def _transfer(s: Services, c: Call) -> Response:
    return await s.economy.transfer(c.guild_id, c.actor, c.options["to"], c.options["amount"],
                                    c.get("reason", ""), c.get("event"))


async def _grant(s: Services, c: Call) -> Response:
    return await s.economy.grant(c.guild_id, c.actor, await people(c), c.options["amount"],
                                 c.options["reason"], c.get("event"))


async def _fine(s: Services, c: Call) -> Response:
    return await s.economy.fine(c.guild_id, c.actor, await people(c), c.options["amount"],
                                c.options["reason"], c.get("event"))


async def _priority_order(s: Services, c: Call) -> Response:
    return await s.economy.priority_order(c.guild_id, c.actor, list(c.options["players"]),
                                          c.get("event"))


async def _ledger(s: Services, c: Call) -> Response:
    return await s.economy.ledger(c.guild_id, c.actor, c.get("player"), c.get("event"),
                                  c.get("page", 1))


async def _leaderboard(s: Services, c: Call) -> Response:
    board = await s.economy.leaderboard(c.guild_id, c.actor, c.get("by", "garnets"),
                                        c.get("game"), c.get("event"), c.get("page", 1))
    return linked(board, await s.link(c.guild_id, ""))


async def _rating(s: Services, c: Call) -> Response:
    return await s.economy.rating(c.guild_id, c.actor, c.get("player"), c.get("game"))


async def _export(s: Services, c: Call) -> Response:
    return await s.economy.export(c.guild_id, c.actor, c.get("event"))


COMMANDS = (
    Command("host event create", "Open an event on this server (hosts)", _create, (
        Option("name", Kind.TEXT, "The event's name, e.g. Season 1", required=True, min=1,
               max=50),
        Option("reward", Kind.INT, "Garnets for the winner of each DM (default from the "
               "server's settings)", min=0, max=MAX_GARNETS),
        Option("transfers", Kind.BOOL, "May players give each other garnets? (default no)"),
        Option("confiscate", Kind.TEXT, "When a DM ends, what happens to the loser's garnets "
               "(default: kept)", choices=(("No: the loser keeps their garnets", "no"),
                                           ("To the winner", "winner"),
                                           ("Removed from the game", "remove"))),
        Option("eliminate", Kind.BOOL, "Is a DM's loser eliminated from the event? "
               "(default yes)"),
        Option("review", Kind.BOOL, "Post the computer's review of each DM when it ends? "
               "(default no)"),
    ), audience=Audience.HOSTS, section=SECTION, usage="name:Season 1 reward:3", once=True),
    Command("host event add", "Add players to an event: one, several, or a role's members (hosts)",
            _add, (Option("player", Kind.USER, "The player"), PLAYERS, ROLE, EVENT),
            audience=Audience.HOSTS, section=SECTION, usage="players:@x @y", once=True),
    Command("host event remove", "Take a player out of an event (hosts)", _remove, (PLAYER, EVENT),
            audience=Audience.HOSTS, section=SECTION, usage="player:@x", once=True),
    Command("host event close", "Close an event (hosts)", _close, (EVENT,),
            audience=Audience.HOSTS, section=SECTION, once=True),
    Command("event info", "An event's rules and players by priority", _info, (EVENT,),
            section=SECTION),
    Command("host priority set", "Give a player a priority; the others move to make room (hosts)",
            _priority_set, (
                PLAYER,
                Option("rank", Kind.INT, "The new priority (1 is the highest)", required=True,
                       min=1, max=10_000),
                EVENT,
            ), audience=Audience.HOSTS, section=SECTION, usage="player:@x rank:1", once=True),
    Command("host priority order", "Set the priority order at once: the players named take 1, 2, "
            "3, … (hosts)", _priority_order, (
                Option("players", Kind.USERS, "The players from the highest priority down, "
                       "as mentions: @a @b @c", required=True),
                EVENT,
            ), audience=Audience.HOSTS, section=SECTION, usage="players:@a @b @c", once=True),
    Command("priority show", "The players of an event by priority", _priority_show, (EVENT,),
            section=SECTION),
    Command("garnets", "A balance of garnets (yours, or a player's)", _garnets, (
        Option("player", Kind.USER, "Whose garnets (default: yours)"), SCOPE,
    ), section=SECTION),
    Command("transfer", "Give some of your garnets to another player (where the event "
            "allows it)", _transfer, (
                Option("to", Kind.USER, "Who receives them", required=True), AMOUNT,
                Option("reason", Kind.TEXT, "What for (shown in both ledgers)",
                       max=MAX_REASON), EVENT,
            ), section=SECTION, usage="to:@x amount:5", once=True),
    Command("grant", "Give garnets to a player, or the same to each of several (hosts)",
            _grant, (
                AMOUNT, REASON, Option("player", Kind.USER, "Who receives them"),
                Option("players", Kind.USERS, "Several who each receive them: @a @b @c"),
                EVENT,
            ), audience=Audience.HOSTS, section=SECTION, usage="player:@x amount:5 reason:…",
            once=True),
    Command("fine", "Take garnets from a player, or the same from each of several (hosts)",
            _fine, (
                AMOUNT, REASON, Option("player", Kind.USER, "Who pays"),
                Option("players", Kind.USERS, "Several who each pay: @a @b @c"), EVENT,
            ), audience=Audience.HOSTS, section=SECTION, usage="player:@x amount:5 reason:…",
            once=True),
    Command("ledger", "Every change of a balance, newest first", _ledger, (
        Option("player", Kind.USER, "Whose ledger (default: yours)"), SCOPE,
        Option("page", Kind.INT, "The page (10 entries each)", min=1, max=MAX_PAGE),
    ), section=SECTION),
    Command("leaderboard", "Who leads: by garnets, wins or rating", _leaderboard, (
        Option("by", Kind.TEXT, "What to rank by (default garnets)",
               choices=(("Garnets", "garnets"), ("Wins", "wins"), ("Rating", "rating"))),
        Option("game", Kind.TEXT, "For wins and rating: the game", suggest=Suggest.GAMES),
        SCOPE,
        Option("page", Kind.INT, "The page (10 players each)", min=1, max=MAX_PAGE),
    ), section=SECTION, usage="by:garnets"),
    Command("rating", "Ratings per game, with their uncertainty", _rating, (
        Option("player", Kind.USER, "Whose rating (default: yours)"),
        Option("game", Kind.TEXT, "One game only", suggest=Suggest.GAMES),
    ), section=SECTION),
    Command("export", "An event's ledger, standings and matches as CSV files (hosts)",
            _export, (EVENT,), audience=Audience.HOSTS, reply=Reply.PRIVATE, section=SECTION),
)
