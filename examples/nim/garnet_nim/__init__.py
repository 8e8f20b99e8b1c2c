"""Nim for garnet (the example of docs/development.md, "Writing a game")."""

from garnet_nim.game import Nim

__all__ = ["Nim"]
