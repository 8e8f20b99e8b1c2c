"""The Discord adapter: slash commands, buttons and typed moves, all handed to the Host."""

from bot.discord_adapter.client import GarnetBot, build_bot, run_bot

__all__ = ["GarnetBot", "build_bot", "run_bot"]
