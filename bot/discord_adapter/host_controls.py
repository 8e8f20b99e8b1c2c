"""Slash commands of hosts: the clock, the result, the board again, and who hosts.

Anyone may invoke them; the host decides who is a host (``Host.is_host``) and
refuses everyone else, so the rule lives in one place for every platform.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.messages import Response
from bot.discord_adapter.delivery import Defer, UserError, actor_of, answer, player_of, where
from bot.discord_adapter.matches import OPTION_HELP, any_matches
from bot.services.matches import Matches

MATCH = OPTION_HELP["match"]



class HostControls(commands.Cog):
    def __init__(self, host: Matches) -> None:
        self.host = host

    @app_commands.command(description="Post the current board in the match channel (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def repost(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.board(
            match, guild, channel, actor_of(interaction.user), public=True), Defer.PRIVATE)

    @app_commands.command(description="Stop a match's clock (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(reason="Why, for the players and the log", match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def pause(self, interaction: discord.Interaction, reason: str = "",
                    match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.pause(
            match, guild, channel, actor_of(interaction.user), reason), Defer.NO)

    @app_commands.command(description="Restart a paused match's clock (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def resume(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.resume(
            match, guild, channel, actor_of(interaction.user)), Defer.NO)

    @app_commands.command(description="Give the player to move more time this turn (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(seconds="Seconds to add to this turn (1 to 86400)", match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def extend(self, interaction: discord.Interaction, seconds: float,
                     match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.extend(
            match, guild, channel, actor_of(interaction.user), seconds), Defer.NO)

    @app_commands.command(description="Cancel a match without a result (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(reason="Why; it is logged with the match", match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def void(self, interaction: discord.Interaction, reason: str,
                   match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.void(
            match, guild, channel, actor_of(interaction.user), reason), Defer.NO)

    @app_commands.command(description="Decide a match's result: a winner or a draw (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(reason="Why; it is logged with the match",
                           winner="The player who wins", draw="Declare a draw instead",
                           match=MATCH)
    @app_commands.autocomplete(match=any_matches)
    async def adjudicate(self, interaction: discord.Interaction, reason: str,
                         winner: discord.Member | None = None, draw: bool = False,
                         match: int | None = None) -> None:
        async def run() -> Response:
            if (winner is None) == (not draw):
                raise UserError("Name the `winner`, or set `draw:true` — one of the two.")
            guild, channel = where(interaction)
            chosen = player_of(winner).id if winner is not None else None
            return await self.host.adjudicate(match, guild, channel, actor_of(interaction.user),
                                              chosen, reason)

        await answer(interaction, run, Defer.PUBLIC)

    @app_commands.command(description="Set the role whose members host matches (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(role="The host role")
    async def hostrole(self, interaction: discord.Interaction, role: discord.Role) -> None:
        guild, _ = where(interaction)
        await answer(interaction, lambda: self.host.set_host_role(
            guild, actor_of(interaction.user), role.name), Defer.NO)
