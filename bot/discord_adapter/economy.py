"""Slash commands for events, priority, garnets, ratings, leaderboards and exports.

``/event ...`` and ``/priority ...`` are command groups; the rest are single
commands. Every command calls ``bot.services.economy.Economy``, which decides who may and what
is said. The Prev/Next buttons of a leaderboard or a ledger are persistent
(``garnet:lb:...``, ``garnet:ledger:...``) and turn the page in place, as the person
who presses sees it (their own rank).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands, ui
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.core.messages import Actor, Response
from bot.discord_adapter.delivery import (
    Defer,
    actor_of,
    answer,
    player_of,
    turn_page,
    where,
)
from bot.discord_adapter.event_options import economy_of, event_choices, scope_choices
from bot.discord_adapter.matches import game_choices
from bot.discord_adapter.views import register
from bot.services.economy import Economy

if TYPE_CHECKING:
    from bot.discord_adapter.client import GarnetBot

log = logging.getLogger(__name__)

SERVERS = app_commands.AppCommandContext(guild=True)  # like @guild_only() commands

EVENT = "The event: its name or number (default: the server's one open event)"
EVENT_OR_ALL = EVENT + "; `all` for overall"
BY_CHOICES = [Choice(name="Garnets", value="garnets"), Choice(name="Wins", value="wins"),
              Choice(name="Rating", value="rating")]
CONFISCATE_CHOICES = [
    Choice(name="No: the loser keeps their garnets", value="no"),
    Choice(name="To the winner", value="winner"),
    Choice(name="Removed from the game", value="remove"),
]


def _person(member: discord.Member | None) -> Actor | None:
    return player_of(member) if member is not None else None


class EconomyCommands(commands.Cog):
    event = app_commands.Group(name="event", description="Events: a season of play "
                               "with its own garnets and priority", guild_only=True,
                               allowed_contexts=SERVERS)
    priority = app_commands.Group(name="priority", description="Priority in an event "
                                  "(1 is the highest)", guild_only=True,
                                  allowed_contexts=SERVERS)

    def __init__(self, bot: GarnetBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        register(LeaderboardPage, LedgerPage)
        self.bot.add_dynamic_items(LeaderboardPage, LedgerPage)

    def _run(self, interaction: discord.Interaction,
             call: Callable[[Economy, str, Actor], Awaitable[Response]],
             defer: Defer = Defer.NO) -> Awaitable[Response | None]:
        async def produce() -> Response:
            guild, _ = where(interaction)
            return await call(self.bot.economy, guild, actor_of(interaction.user))

        return answer(interaction, produce, defer)

    # ---- /event ---------------------------------------------------------------------

    @event.command(name="create", description="Open an event on this server (hosts)")
    @app_commands.describe(
        name="The event's name, e.g. Season 1",
        reward="Garnets for the winner of each DM (default from the server's settings)",
        transfers="May players give each other garnets? (default no)",
        confiscate="When a DM ends, what happens to the loser's garnets (default: kept)")
    @app_commands.choices(confiscate=CONFISCATE_CHOICES)
    async def event_create(self, interaction: discord.Interaction, name: Range[str, 1, 50],
                           reward: Range[int, 0, 1_000_000] | None = None,
                           transfers: bool = False, confiscate: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.event_create(
            guild, actor, name, reward, transfers, confiscate))

    @event.command(name="add", description="Add a player to an event (hosts)")
    @app_commands.describe(player="The player", event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def event_add(self, interaction: discord.Interaction, player: discord.Member,
                        event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.event_add(
            guild, actor, [player_of(player)], event))

    @event.command(name="remove", description="Take a player out of an event (hosts)")
    @app_commands.describe(player="The player", event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def event_remove(self, interaction: discord.Interaction, player: discord.Member,
                           event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.event_remove(
            guild, actor, player_of(player), event))

    @event.command(name="close", description="Close an event (hosts)")
    @app_commands.describe(event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def event_close(self, interaction: discord.Interaction,
                          event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.event_close(
            guild, actor, event))

    @event.command(name="info", description="An event's rules and players by priority")
    @app_commands.describe(event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def event_info(self, interaction: discord.Interaction,
                         event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.event_info(
            guild, actor, event))

    # ---- /priority ------------------------------------------------------------------

    @priority.command(name="set", description="Give a player a priority; the others "
                      "move to make room (hosts)")
    @app_commands.describe(player="The player", rank="The new priority (1 is the highest)",
                           event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def priority_set(self, interaction: discord.Interaction, player: discord.Member,
                           rank: Range[int, 1, 10_000], event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.priority_set(
            guild, actor, player_of(player), rank, event))

    @priority.command(name="show", description="The players of an event by priority")
    @app_commands.describe(event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def priority_show(self, interaction: discord.Interaction,
                            event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.priority_show(
            guild, actor, event))

    # ---- garnets --------------------------------------------------------------------

    @app_commands.command(description="A balance of garnets (yours, or a player's)")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose garnets (default: yours)", event=EVENT_OR_ALL)
    @app_commands.autocomplete(event=scope_choices)
    async def garnets(self, interaction: discord.Interaction,
                      player: discord.Member | None = None, event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.garnets(
            guild, actor, _person(player), event))

    @app_commands.command(description="Give some of your garnets to another player "
                          "(where the event allows it)")
    @app_commands.guild_only()
    @app_commands.describe(to="Who receives them", amount="How many garnets",
                           reason="What for (shown in both ledgers)", event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def transfer(self, interaction: discord.Interaction, to: discord.Member,
                       amount: Range[int, 1, 1_000_000], reason: str = "",
                       event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.transfer(
            guild, actor, player_of(to), amount, reason, event))

    @app_commands.command(description="Give a player garnets (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(player="Who receives them", amount="How many garnets",
                           reason="Why; it is written in the ledger", event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def grant(self, interaction: discord.Interaction, player: discord.Member,
                    amount: Range[int, 1, 1_000_000], reason: str,
                    event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.grant(
            guild, actor, player_of(player), amount, reason, event))

    @app_commands.command(description="Take garnets from a player (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(player="Who pays", amount="How many garnets",
                           reason="Why; it is written in the ledger", event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def fine(self, interaction: discord.Interaction, player: discord.Member,
                   amount: Range[int, 1, 1_000_000], reason: str,
                   event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.fine(
            guild, actor, player_of(player), amount, reason, event))

    @app_commands.command(description="Every change of a balance, newest first")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose ledger (default: yours)", event=EVENT_OR_ALL,
                           page="The page (10 entries each)")
    @app_commands.autocomplete(event=scope_choices)
    async def ledger(self, interaction: discord.Interaction,
                     player: discord.Member | None = None, event: str | None = None,
                     page: Range[int, 1, 100_000] = 1) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.ledger(
            guild, actor, _person(player), event, page))

    # ---- standings ------------------------------------------------------------------

    @app_commands.command(description="Who leads: by garnets, wins or rating")
    @app_commands.guild_only()
    @app_commands.describe(by="What to rank by (default garnets)",
                           game="For wins and rating: the game", event=EVENT_OR_ALL,
                           page="The page (10 players each)")
    @app_commands.choices(by=BY_CHOICES)
    @app_commands.autocomplete(game=game_choices, event=scope_choices)
    async def leaderboard(self, interaction: discord.Interaction, by: str = "garnets",
                          game: str | None = None, event: str | None = None,
                          page: Range[int, 1, 100_000] = 1) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.leaderboard(
            guild, actor, by, game, event, page))

    @app_commands.command(description="Ratings per game, with their uncertainty")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose rating (default: yours)", game="One game only")
    @app_commands.autocomplete(game=game_choices)
    async def rating(self, interaction: discord.Interaction,
                     player: discord.Member | None = None, game: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.rating(
            guild, actor, _person(player), game))

    @app_commands.command(description="An event's ledger, standings and matches as CSV "
                          "files (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(event=EVENT)
    @app_commands.autocomplete(event=event_choices)
    async def export(self, interaction: discord.Interaction, event: str | None = None) -> None:
        await self._run(interaction, lambda eco, guild, actor: eco.export(
            guild, actor, event), Defer.PRIVATE)


# ---- paging buttons ---------------------------------------------------------------------


async def _turn_page(interaction: discord.Interaction,
                     call: Callable[[Economy, str, Actor], Awaitable[Response]]) -> None:
    """Show another page in the message the button is on. A refusal (the button's
    scope is fixed, so only a vanished board can refuse) replaces the page shown."""
    await turn_page(interaction, lambda: call(economy_of(interaction),
                                              str(interaction.guild_id),
                                              actor_of(interaction.user)))


class LeaderboardPage(ui.DynamicItem[ui.Button[ui.View]],
                      template=r"garnet:lb:(?P<by>garnets|wins|rating):(?P<game>[a-z0-9_-]+):"
                               r"(?P<scope>[0-9]+|all|none):(?P<page>[0-9]+)"):
    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        found = self.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert found is not None
        self.by, self.scope = found["by"], found["scope"]
        self.game = None if found["game"] == "-" else found["game"]
        self.page = int(found["page"])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(match.string, _label(item), _style(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _turn_page(interaction, lambda eco, guild, actor: eco.leaderboard(
            guild, actor, self.by, self.game, self.scope, self.page))


class LedgerPage(ui.DynamicItem[ui.Button[ui.View]],
                 template=r"garnet:ledger:(?P<user>[^:]+):(?P<scope>[0-9]+|all|none):"
                          r"(?P<page>[0-9]+)"):
    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        found = self.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert found is not None
        self.user, self.scope, self.page = found["user"], found["scope"], int(found["page"])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(match.string, _label(item), _style(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _turn_page(interaction, lambda eco, guild, actor: eco.ledger(
            guild, actor, Actor(self.user, self.user), self.scope, self.page))


def _label(item: ui.Item[Any]) -> str:
    return (item.label if isinstance(item, ui.Button) else None) or "?"


def _style(item: ui.Item[Any]) -> discord.ButtonStyle:
    return item.style if isinstance(item, ui.Button) else discord.ButtonStyle.secondary
