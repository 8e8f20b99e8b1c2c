"""Slash commands of match history: ``/history``, ``/match`` and ``/replay``.

Anyone may use them. ``/history`` answers the asker with a page and ◀ ▶ buttons
(``garnet:hist:USER:PAGE[:GAME]``, persistent: a press months later still pages);
a press edits that message in place. ``/match`` answers the asker with the match
move by move and its board; ``/replay`` posts the animation in the channel.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands, ui
from discord.app_commands import Choice
from discord.ext import commands

from bot.discord_adapter.delivery import Defer, answer, turn_page, where
from bot.discord_adapter.matches import game_choices
from bot.discord_adapter.views import register
from bot.services import history, history_queries
from bot.services.matches import Matches

if TYPE_CHECKING:
    from bot.discord_adapter.client import GarnetBot

log = logging.getLogger(__name__)

ID_HELP = "The match number (#12)"


def _host(interaction: discord.Interaction) -> Matches:
    bot: GarnetBot = interaction.client  # type: ignore[assignment]
    return bot.host


async def _choices(interaction: discord.Interaction, current: str | int,
                   done_only: bool) -> list[Choice[int]]:
    guild, _ = where(interaction)
    # What was typed so far: text, or a number when it already reads as one.
    found = await history_queries.recent_matches(_host(interaction).db, guild, str(current),
                                         done_only)
    return [Choice(name=label[:100], value=match_id) for match_id, label in found]


async def any_match(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    return await _choices(interaction, current, done_only=False)


async def finished_match(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    return await _choices(interaction, current, done_only=True)


class HistoryButton(ui.DynamicItem[ui.Button[ui.View]],
                    template=r"garnet:hist:(?P<user>[^:]+):(?P<page>[0-9]+)(?::(?P<game>[^:]+))?"):
    """◀ / ▶ under a page of ``/history``: shows another page in the same message."""

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        found = self.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert found is not None
        self.user_id = found["user"]
        self.page = int(found["page"])
        self.game: str | None = found["game"]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: ui.Item[Any], match: re.Match[str]) -> Self:
        label = (item.label if isinstance(item, ui.Button) else None) or "?"
        style = item.style if isinstance(item, ui.Button) else discord.ButtonStyle.secondary
        return cls(match.string, label, style)

    async def callback(self, interaction: discord.Interaction) -> None:
        guild, _ = where(interaction)
        await turn_page(interaction, lambda: history.history(
            _host(interaction).db, guild, self.user_id, self.game, self.page),
            refusal_in_place=False, fault="Something went wrong; try again.")


class HistoryCommands(commands.Cog):
    def __init__(self, host: Matches) -> None:
        self.host = host

    @app_commands.command(description="A player's finished matches, newest first")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose matches (default: yours)",
                           game="Only matches of this game", page="Which page (default 1)")
    @app_commands.autocomplete(game=game_choices)
    async def history(self, interaction: discord.Interaction,
                      player: discord.User | None = None, game: str | None = None,
                      page: app_commands.Range[int, 1, 100_000] = 1) -> None:
        guild, _ = where(interaction)
        user = str((player or interaction.user).id)
        await answer(interaction, lambda: history.history(self.host.db, guild, user, game, page),
                     Defer.NO)

    @app_commands.command(name="match", description="One match move by move, with its board")
    @app_commands.guild_only()
    @app_commands.describe(id=ID_HELP)
    @app_commands.autocomplete(id=any_match)
    async def match_(self, interaction: discord.Interaction, id: int) -> None:
        guild, _ = where(interaction)
        await answer(interaction, lambda: history.show_match(
            self.host.db, self.host.renderer, guild, id), Defer.PRIVATE)

    @app_commands.command(description="Post a finished match as an animation")
    @app_commands.guild_only()
    @app_commands.describe(id=ID_HELP)
    @app_commands.autocomplete(id=finished_match)
    async def replay(self, interaction: discord.Interaction, id: int) -> None:
        guild, _ = where(interaction)
        await answer(interaction, lambda: history.replay(
            self.host.db, self.host.renderer, guild, id), Defer.PUBLIC)


async def install(bot: GarnetBot) -> None:
    """The history commands and their paging buttons, on a bot being set up."""
    register(HistoryButton)
    bot.add_dynamic_items(HistoryButton)
    await bot.add_cog(HistoryCommands(bot.host))
