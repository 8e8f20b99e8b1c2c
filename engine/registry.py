"""Every game garnet knows, by key: the installed packages' ``garnet.games`` entry points.

A game is a package that declares, in its ``pyproject.toml``::

    [project.entry-points."garnet.games"]
    mygame = "mygame:MyGame"

the entry point's name being the game's ``key`` and its value the ``engine.game.Game``
subclass. garnet's own four games are registered the same way (its ``pyproject.toml``),
so nothing lists them by hand. Each game is loaded and checked against the interface
(``engine.game.lacks``) once, on first use; one that does not load or fit is left out
of ``game_keys`` and named, with what it lacks, by ``broken`` and by every lookup of it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, cast

from engine.game import INTERFACE, EngineError, Game, lacks

if TYPE_CHECKING:
    from engine.ai.player import GameAI

GROUP = "garnet.games"
#: the distribution whose games are built in (on in every server by default)
BUILT_IN = "garnet"

log = logging.getLogger(__name__)


class GameLoadError(EngineError):
    """An installed game that cannot be used; the message names it and what it lacks."""


@dataclass(frozen=True)
class Entry:
    """A game as installed: its key, where its class is (``"module:name"``), and the
    distribution (package and version) that brought it."""

    key: str
    game: str
    package: str
    version: str

    @property
    def built_in(self) -> bool:
        return self.package == BUILT_IN


@dataclass
class _Games:
    entries: dict[str, Entry]
    games: dict[str, Game[Any, Any]]
    broken: dict[str, str]
    aliases: dict[str, str]


_state: _Games | None = None
_players: dict[str, GameAI[Any]] = {}


def _entry(point: EntryPoint) -> Entry:
    dist = point.dist
    return Entry(point.name, point.value, dist.name if dist else "?",
                 dist.version if dist else "?")


def _load(point: EntryPoint, found: Entry) -> Game[Any, Any]:
    where = f"the game '{found.key}' ({found.game}, from {found.package} {found.version})"
    try:
        cls = point.load()
    except Exception as exc:  # a third party's import may raise anything
        raise GameLoadError(f"{where} does not load: {type(exc).__name__}: {exc}") from exc
    missing = lacks(cls)
    if missing:
        raise GameLoadError(f"{where} does not fit garnet's game interface {INTERFACE}: "
                            f"it lacks {', '.join(missing)}")
    if cls.key != found.key:
        raise GameLoadError(f"{where} has the key '{cls.key}', not its entry point's name")
    try:
        return cast("Game[Any, Any]", cls())
    except Exception as exc:
        raise GameLoadError(f"{where} cannot be made: {type(exc).__name__}: {exc}") from exc


def _discover() -> _Games:
    global _state
    if _state is not None:
        return _state
    found = _Games({}, {}, {}, {})
    by_key: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=GROUP):
        by_key.setdefault(point.name, []).append(point)
    for key in sorted(by_key):
        points = by_key[key]
        if len(points) > 1:  # neither is taken: which one a server meant is unknown
            packages = sorted(_entry(p).package for p in points)
            found.broken[key] = (f"two packages register the game '{key}': "
                                 f"{' and '.join(packages)}")
            log.error("%s", found.broken[key])
            continue
        entry = _entry(points[0])
        try:
            game = _load(points[0], entry)
        except GameLoadError as exc:
            found.broken[key] = str(exc)
            log.error("%s", exc)
            continue
        found.entries[key] = entry
        found.games[key] = game
    for key, game in found.games.items():
        for alias in game.aliases:
            found.aliases.setdefault(alias.strip().lower(), key)
    _state = found
    return found


def reload() -> None:
    """Look for installed games again (after installing one in a running process)."""
    global _state
    _state = None
    _players.clear()


def game_keys() -> list[str]:
    """The keys of every installed game that loads and fits, in order of key."""
    return list(_discover().entries)


def entries() -> list[Entry]:
    return list(_discover().entries.values())


def broken() -> dict[str, str]:
    """Installed games that cannot be used, each with why (for operators and tests)."""
    return dict(_discover().broken)


def entry(name: str) -> Entry:
    """The entry of a key or alias; EngineError lists the games when it is unknown."""
    games = _discover()
    wanted = name.strip().lower()
    key = games.aliases.get(wanted, wanted)
    if key in games.broken:
        raise GameLoadError(games.broken[key])
    if key not in games.entries:
        raise EngineError(f"unknown game '{name}' (games: {', '.join(games.entries)})").because(
            "unknown_game", name=name, games=list(games.entries))
    return games.entries[key]


def get_game(name: str) -> Game[Any, Any]:
    """The game for a key or alias; EngineError lists the games when it is unknown."""
    return _discover().games[entry(name).key]


def has_ai(name: str) -> bool:
    return get_game(name).ai is not None


def get_ai(name: str) -> GameAI[Any]:
    """The computer player of a game (key or alias)."""
    game = get_game(name)
    if game.ai is None:
        raise EngineError(f"there is no computer player for {game.title} yet")
    if game.key not in _players:
        module_name, _, attr = game.ai.partition(":")
        _players[game.key] = cast("GameAI[Any]", getattr(import_module(module_name), attr))
    return _players[game.key]
