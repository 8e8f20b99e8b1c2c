"""Every game garnet knows, by key: one entry per game naming its ``Game`` and its
computer player (``engine.ai.player.GameAI``). Adding a game is one entry here."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

from engine.game import EngineError, Game

if TYPE_CHECKING:
    from engine.ai.player import GameAI


@dataclass(frozen=True)
class Entry:
    """A game: its key, its ``Game`` and its ``GameAI`` as ``"module:name"`` (imported
    on first use, so that one game's import cost (fonts, tables) is paid only by those
    who play it; ``ai`` None: no computer player), and the other names players may
    type for it."""

    key: str
    game: str
    ai: str | None = None
    aliases: tuple[str, ...] = ()


ENTRIES: tuple[Entry, ...] = (
    Entry("cairo", "engine.cairo:CairoCorridor", "engine.cairo.ai:AI",
          ("cairo corridor", "cairo-corridor", "cc")),
    Entry("pathwayz", "engine.pathwayz:Pathwayz", "engine.pathwayz.ai:AI"),
    Entry("quoridor", "engine.quoridor:Quoridor", "engine.quoridor.ai:AI"),
    Entry("sigma", "engine.sigma:SigmaEscape", "engine.sigma.ai:AI",
          ("sigma escape", "sigma-escape")),
)

_ENTRIES: dict[str, Entry] = {entry.key: entry for entry in ENTRIES}
_ALIASES: dict[str, str] = {alias: entry.key for entry in ENTRIES for alias in entry.aliases}

_loaded: dict[str, Game[Any, Any]] = {}
_players: dict[str, GameAI[Any]] = {}


def _load(path: str) -> Any:
    module_name, _, name = path.partition(":")
    return getattr(import_module(module_name), name)


def game_keys() -> list[str]:
    return list(_ENTRIES)


def entry(name: str) -> Entry:
    """The entry of a key or alias; EngineError lists the games when it is unknown."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in _ENTRIES:
        raise EngineError(f"unknown game '{name}' (games: {', '.join(_ENTRIES)})")
    return _ENTRIES[key]


def get_game(name: str) -> Game[Any, Any]:
    """The game for a key or alias; EngineError lists the games when it is unknown."""
    found = entry(name)
    if found.key not in _loaded:
        _loaded[found.key] = _load(found.game)()
    return _loaded[found.key]


def has_ai(name: str) -> bool:
    return entry(name).ai is not None


def get_ai(name: str) -> GameAI[Any]:
    """The computer player of a game (key or alias)."""
    found = entry(name)
    if found.ai is None:
        raise EngineError(f"there is no computer player for {get_game(found.key).title} yet")
    if found.key not in _players:
        _players[found.key] = cast("GameAI[Any]", _load(found.ai))
    return _players[found.key]
