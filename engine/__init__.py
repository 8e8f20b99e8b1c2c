"""garnet's game engine: pure rules and images, no I/O beyond bytes.

Use ``engine.get_game("cairo")`` to get a game; see ``engine.game.Game`` for the
interface every game implements (``INTERFACE``, its version), and ``engine.registry``
for how games are found (the ``garnet.games`` entry points).
"""

from engine.game import (
    INTERFACE,
    EngineError,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    OptionError,
    OptionSpec,
    Outcome,
    PositionError,
)
from engine.registry import game_keys, get_game

__all__ = [
    "INTERFACE",
    "EngineError",
    "Game",
    "GameOverError",
    "MoveError",
    "NotAMove",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "PositionError",
    "game_keys",
    "get_game",
]
