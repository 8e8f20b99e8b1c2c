"""Pathwayz: connect column a to column l with normal and permanent pieces."""

from engine.pathwayz.game import Pathwayz
from engine.pathwayz.notation import Move
from engine.pathwayz.state import PathwayzState

__all__ = ["Move", "Pathwayz", "PathwayzState"]
