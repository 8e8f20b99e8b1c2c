"""Every game garnet knows, by key. Adding a game is one line here."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.game import EngineError, Game

# key -> "module:ClassName"; imported on first use so that one game's import cost
# (fonts, tables) is paid only by those who play it.
_GAMES: dict[str, str] = {
    "cairo": "engine.cairo:CairoCorridor",
    "pathwayz": "engine.pathwayz:Pathwayz",
    "quoridor": "engine.quoridor:Quoridor",
    "sigma": "engine.sigma:SigmaEscape",
}

# Names players may type for a game.
_ALIASES: dict[str, str] = {
    "cairo corridor": "cairo",
    "cairo-corridor": "cairo",
    "cc": "cairo",
    "sigma escape": "sigma",
    "sigma-escape": "sigma",
}

_loaded: dict[str, Game[Any, Any]] = {}


def game_keys() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> Game[Any, Any]:
    """The game for a key or alias; EngineError lists the games when it is unknown."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in _GAMES:
        raise EngineError(f"unknown game '{name}' (games: {', '.join(_GAMES)})")
    if key not in _loaded:
        module_name, _, class_name = _GAMES[key].partition(":")
        cls = getattr(import_module(module_name), class_name)
        _loaded[key] = cls()
    return _loaded[key]
