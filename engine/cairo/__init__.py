"""Cairo Corridor: the board, the notation, the rules and the pictures."""

from engine.cairo.game import CairoCorridor
from engine.cairo.state import CairoState

__all__ = ["CairoCorridor", "CairoState"]
