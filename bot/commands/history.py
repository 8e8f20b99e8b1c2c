"""Commands of match history: a player's matches, one match in full, its replay."""

from __future__ import annotations

from bot.commands.common import MAX_NUMBER
from bot.commands.spec import Call, Command, Kind, Option, Reply, Services, Suggest
from bot.core.messages import Response
from bot.services.web import linked

SECTION = "History"
MAX_PAGE = 100_000


async def _history(s: Services, c: Call) -> Response:
    player = c.get("player")
    # A page button names the player by id only (its Actor's name is the id): only a
    # member the platform named comes with a name worth remembering.
    named = c.actor if player is None else player if player.name != player.id else None
    return await s.history.page(c.guild_id, player.id if player else c.actor.id,
                                c.get("game"), c.get("page", 1), named=named)


async def _match(s: Services, c: Call) -> Response:
    shown = await s.history.show(c.guild_id, c.options["id"])
    return linked(shown, await s.link(c.guild_id, f"/m/{c.options['id']}"))


async def _replay(s: Services, c: Call) -> Response:
    return await s.history.replay(c.guild_id, c.options["id"])


async def _review(s: Services, c: Call) -> Response:
    reviewed = await s.history.review(c.guild_id, c.options["match"], c.actor.id)
    # The match's page shows the review from now on, beside its moves.
    return linked(reviewed, await s.link(c.guild_id, f"/m/{c.options['match']}"))


COMMANDS = (
    Command("history", "A player's finished matches, newest first", _history, (
        Option("player", Kind.USER, "Whose matches (default: yours)"),
        Option("game", Kind.TEXT, "Only matches of this game", suggest=Suggest.GAMES),
        Option("page", Kind.INT, "Which page (default 1)", min=1, max=MAX_PAGE),
    ), section=SECTION),
    Command("match", "One match move by move, with its board", _match, (
        Option("id", Kind.INT, "The match number (#12)", required=True,
               suggest=Suggest.RECORDED_MATCHES, min=1, max=MAX_NUMBER),
    ), reply=Reply.PRIVATE, section=SECTION, usage="id:12"),
    Command("replay", "Post a finished match as an animation", _replay, (
        Option("id", Kind.INT, "The match number (#12)", required=True,
               suggest=Suggest.FINISHED_MATCHES, min=1, max=MAX_NUMBER),
    ), reply=Reply.PUBLIC, section=SECTION, usage="id:12", once=True),
    Command("review", "The computer's review of a finished match: its mistakes and a plot",
            _review, (
                Option("match", Kind.INT, "The match number (#12)", required=True,
                       suggest=Suggest.FINISHED_MATCHES, min=1, max=MAX_NUMBER),
            ), reply=Reply.PUBLIC, section=SECTION, usage="match:12"),
)
