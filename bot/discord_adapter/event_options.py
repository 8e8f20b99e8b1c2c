"""Autocomplete of the ``event`` option (``/dm``, ``/event ...``, ``/leaderboard``, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.app_commands import Choice

from bot.discord_adapter.delivery import where
from bot.services.economy import Economy

if TYPE_CHECKING:
    from bot.discord_adapter.client import GarnetBot


def economy_of(interaction: discord.Interaction) -> Economy:
    bot: GarnetBot = interaction.client  # type: ignore[assignment]
    return bot.economy


async def _events(interaction: discord.Interaction, current: str,
                  wider: bool) -> list[Choice[str]]:
    guild, _ = where(interaction)
    found = await economy_of(interaction).event_choices(guild, current, wider)
    return [Choice(name=label[:100], value=value) for label, value in found][:25]


async def event_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The server's events, open ones first."""
    return await _events(interaction, current, wider=False)


async def scope_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Events, and also 'overall' and 'outside events' (for balances and boards)."""
    return await _events(interaction, current, wider=True)
