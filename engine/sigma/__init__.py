"""Sigma Escape: the card model, decks, notation, rules and pictures."""

from engine.sigma.game import SigmaEscape
from engine.sigma.state import SigmaState

__all__ = ["SigmaEscape", "SigmaState"]
