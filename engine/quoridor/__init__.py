"""Quoridor for 2 or 4 players: rules, algebraic notation and board images."""

from engine.quoridor.game import Quoridor
from engine.quoridor.notation import Move, PawnMove, WallMove
from engine.quoridor.state import QuoridorState

__all__ = ["Move", "PawnMove", "Quoridor", "QuoridorState", "WallMove"]
