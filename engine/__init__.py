"""garnet's game engine: pure rules and images, no I/O beyond bytes.

Use ``engine.get_game("cairo")`` to get a game; see ``engine.game.Game`` for the
interface every game implements.
"""

from engine.game import (
    EngineError,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionError,
    Outcome,
    PositionError,
)
from engine.registry import game_keys, get_game

__all__ = [
    "EngineError",
    "Game",
    "GameOverError",
    "MoveError",
    "NotAMove",
    "OptionError",
    "Outcome",
    "PositionError",
    "game_keys",
    "get_game",
]
