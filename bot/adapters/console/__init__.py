"""The local console adapter: a chat channel in a terminal."""

from bot.adapters.console.console import Console

__all__ = ["Console"]
