"""Games as plugins: a game that does not load or does not fit the interface is left
out, and named with what it lacks; two packages cannot claim one key."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from engine.game import INTERFACE, EngineError
from tests.installed import install

BROKEN = '''
from engine.game import Game


class Half(Game):
    interface = 1
    key = "half"
    title = "Half a game"


class Future(Game):
    interface = 99
    key = "future"
    title = "From the future"
    move_help = "anything"


class Wrong:
    pass


def boom():
    raise RuntimeError("no board today")
'''


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "broken_games.py").write_text(BROKEN, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    registry.reload()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("broken_games", None)
        registry.reload()


def test_a_game_that_does_not_fit_is_named_with_what_it_lacks(site: Path) -> None:
    install(site, "broken-games", "1.0", {"half": "broken_games:Half",
                                    "future": "broken_games:Future",
                                    "wrong": "broken_games:Wrong",
                                    "gone": "no_such_module:Game",
                                    "cairo": "broken_games:Half"})
    registry.reload()
    # The four still load; none of the broken ones is offered.
    assert registry.game_keys() == ["pathwayz", "quoridor", "sigma"]
    broken = registry.broken()
    half = broken["half"]
    assert half.startswith(f"the game 'half' (broken_games:Half, from broken-games 1.0) "
                           f"does not fit garnet's game interface {INTERFACE}: it lacks ")
    for missing in ("move_help", "render", "parse_move", "legal_moves", "describe_position"):
        assert missing in half
    assert "interface 1 (it declares 99)" in broken["future"]
    assert "a class that subclasses engine.game.Game" in broken["wrong"]
    assert "does not load: ModuleNotFoundError" in broken["gone"]
    assert broken["cairo"] == "two packages register the game 'cairo': broken-games and garnet"
    with pytest.raises(registry.GameLoadError, match=r"it lacks .*move_help"):
        registry.get_game("half")
    with pytest.raises(EngineError, match="unknown game 'chess'"):
        registry.get_game("chess")
