"""The contract every registered game keeps: ``engine.conformance``, the check garnet
ships for games' authors (``garnet conformance KEY``), run on every installed game.

Parametrised over ``engine.registry.game_keys()`` and the checks of each game, so a
game installed is covered without touching this file. The timed checks (the render
budget, the move-time caps) run with the realtime tests, alone on a core.
"""

from __future__ import annotations

import ast
import tomllib
from importlib import import_module
from pathlib import Path

import pytest

import engine
from engine import conformance
from engine.registry import entries, game_keys, get_game

TIMED = ("render budget", "computer player")
CASES = [
    pytest.param(key, name, id=f"{key}-{name}",
                 marks=[pytest.mark.realtime] if name.startswith(TIMED) else [])
    for key in game_keys()
    for name, _ in conformance.checks(key)
]


@pytest.mark.parametrize(("key", "check"), CASES)
def test_conformance(key: str, check: str) -> None:
    found = dict(conformance.checks(key))
    try:
        found[check]()
    except conformance.Failure as exc:
        pytest.fail(f"{key}: {check}: {exc}")


def test_every_game_is_covered() -> None:
    covered = {case.values[0] for case in CASES}
    assert covered == set(game_keys())


# ---- the layout every game package shares -----------------------------------------

ENGINE = Path(engine.__file__).parent
LAYOUT = ("geometry", "notation", "state", "rules", "game", "render")


def _engine_imports() -> dict[str, set[str]]:
    """Each module of ``engine/`` and the engine modules it imports anywhere in it
    (imports inside functions included: a lazy import still closes a cycle)."""
    modules = {}
    for path in ENGINE.rglob("*.py"):
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


BUILT_IN = [entry.key for entry in entries() if entry.built_in]


@pytest.mark.parametrize("key", BUILT_IN)
def test_game_package_layout(key: str) -> None:
    cls = type(get_game(key))
    package = cls.__module__.rpartition(".")[0]
    assert package == f"engine.{key}"
    assert cls.__module__ == f"{package}.game"
    assert getattr(import_module(package), cls.__name__) is cls
    for module in LAYOUT:
        assert (ENGINE / key / f"{module}.py").is_file(), f"{package} has no {module}.py"
    # Images are drawn from a state: render never reaches for the Game object.
    graph = _engine_imports()
    assert f"{package}.game" not in graph[f"{package}.render"]
    assert package not in graph[f"{package}.render"]


def test_no_import_cycles_in_engine() -> None:
    graph = _engine_imports()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = [*path[path.index(name):], name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


# ---- the registry: one entry per game, its computer player typed -------------------


@pytest.mark.parametrize("key", game_keys())
def test_the_entry_names_a_game_and_its_player(key: str) -> None:
    from engine.ai.player import LEVELS, GameAI
    from engine.registry import entry, get_ai, has_ai

    game = get_game(key)
    assert entry(key).key == key
    for alias in game.aliases:
        assert get_game(alias) is game
    if not has_ai(key):
        return
    ai = get_ai(key)
    assert isinstance(ai, GameAI)
    state = game.new_state(game.seat_counts[0])
    decision = ai.make_player(LEVELS[1]).decide(state, 1)
    assert game.parse_move(state, decision.move) in game.legal_moves(state)
    assert isinstance(ai.evaluate(state, 0), float)


# ---- what names the games: the entry points, and what is checked against them -------

ROOT = ENGINE.parent


def test_the_entry_points_list_the_four_games() -> None:
    """``importlib.metadata.entry_points(group="garnet.games")``, as an installed garnet
    declares them, are the games of ``engine/``: one package each."""
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group="garnet.games")
              if p.dist is not None and p.dist.name == "garnet"}
    packages = sorted(p.name for p in ENGINE.iterdir() if (p / "game.py").is_file())
    assert sorted(points) == packages == ["cairo", "pathwayz", "quoridor", "sigma"]
    assert all(value.startswith(f"engine.{key}:") for key, value in points.items())
    assert sorted(BUILT_IN) == packages


def test_the_import_contracts_name_every_built_in_game() -> None:
    """The import contracts that name game packages (each stands alone; the match host
    reaches none) name exactly the games of the entry points of ``pyproject.toml``: a
    game added to one and not the other fails here, not silently in ``lint-imports``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = sorted(project["project"]["entry-points"]["garnet.games"].values())
    games = sorted(value.partition(":")[0] for value in declared)
    contracts = {c["name"]: c for c in project["tool"]["importlinter"]["contracts"]}
    alone = contracts["each game package stands alone"]["modules"]
    host = contracts["the match host reaches a game only through the Game interface and "
                     "the registry"]["forbidden_modules"]
    assert sorted(alone) == games
    assert sorted(host) == games
