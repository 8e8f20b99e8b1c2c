"""The contract every registered game keeps, checked over seeded random games.

Parametrised over ``engine.registry.game_keys()`` and each game's ``seat_counts``, so
a game added to the registry is covered without touching this file. Every ply of a
game is checked in full (every legal move's notation read back, JSON round trip, chat
text) up to ``CHECKED_PLIES``; a longer game is played on with the cheap checks only,
so that its end is reached and checked too while the whole file stays within a few
seconds (about two today: every game of the four is checked in full).
"""

from __future__ import annotations

import ast
import json
import random
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.game import (
    DESCRIPTION_LIMIT,
    Game,
    GameOverError,
    MoveError,
    NotAMove,
    after_move,
)
from engine.registry import game_keys, get_game

SEEDS = (1, 2, 3)
CHECKED_PLIES = 400  # plies checked in full at the start of each game
MAX_PLIES = 2000  # a game still running after this many plies is left unfinished
CHAT = ("hello there", "gg", "ok", "lol", "good luck!")
PNG = b"\x89PNG\r\n\x1a\n"

CASES = [
    pytest.param(key, seats, id=f"{key}-{seats}")
    for key in game_keys()
    for seats in get_game(key).seat_counts
]


def _round_trip(game: Game[Any, Any], state: Any) -> None:
    data = game.to_json(state)
    again = game.from_json(json.loads(json.dumps(data)))
    assert again == state
    assert game.to_json(again) == data


def _check_ends(game: Game[Any, Any], state: Any, moves: list[Any]) -> None:
    """Outcome, to_move and the legal moves agree on whether the game is over.

    The contract: ``outcome`` is set exactly when no legal move remains, and
    ``to_move`` is None exactly then. All three games keep it as it stands:
    Quoridor ends by rule at its ply cap but then lists no moves either, and a seat
    that cannot move is passed over rather than left to move with none; Pathwayz
    ends on a chain or a full board; Cairo Corridor when every Corridor cell is
    critical, which is exactly when no legal cell is left.
    """
    result = game.outcome(state)
    assert (result is None) == bool(moves)
    if result is not None:
        assert game.well_formed_moves(state) == []
    assert (game.to_move(state) is None) == (result is not None)
    assert game.is_over(state) == (result is not None)
    if result is not None:
        assert result.winner is None or 0 <= result.winner < game.seats(state)
        assert result.draw == (result.winner is None)
        assert result.reason


def _check_chat(game: Game[Any, Any], state: Any) -> None:
    for text in CHAT:
        with pytest.raises(NotAMove):
            game.parse_move(state, text)


def _check_well_formed(game: Game[Any, Any], state: Any, legal: set[str],
                       rng: random.Random) -> None:
    """``well_formed_moves``: every legal move among them (what ``/move`` offers in a
    Death Match, never filtered by legality), each one read as a move (legal or not:
    a MoveError, never NotAMove)."""
    formed = [game.notation(m) for m in game.well_formed_moves(state)]
    assert legal <= set(formed)
    for text in rng.sample(formed, min(len(formed), 20)):
        try:
            game.parse_move(state, text)
        except NotAMove:
            pytest.fail(f"{text!r} is well-formed but does not read as a move")
        except GameOverError:
            pytest.fail("a move offered after the end")
        except MoveError:  # written well, not legal here
            pass


def _render(game: Game[Any, Any], state: Any, seats: int) -> None:
    names = [f"Player {n}" for n in range(seats)]
    for hints in (False, True):
        png = game.render(state, hints=hints, names=names)
        assert isinstance(png, bytes)
        assert png.startswith(PNG)


def _play(game: Game[Any, Any], seats: int, seed: int, render: bool) -> bool:
    """One random game under the contract's checks; whether it reached its end."""
    rng = random.Random(seed)
    state = game.new_state(seats)
    assert game.seats(state) == seats
    assert game.to_move(state) == 0
    _round_trip(game, state)
    if render:
        _render(game, state, seats)
    moves = game.legal_moves(state)
    states = [state]
    previous: Any = None
    ended = False
    for ply in range(MAX_PLIES):
        _check_ends(game, state, moves)
        if not moves:
            ended = True
            break
        full = ply < CHECKED_PLIES
        if full:
            _round_trip(game, state)
            _check_chat(game, state)
            texts = set()
            for move in moves:
                text = game.notation(move)
                texts.add(text)
                assert game.parse_move(state, text) == move, text
            assert len(texts) == len(moves), "two legal moves share a notation"
            _check_well_formed(game, state, texts, rng)
        previous = rng.choice(moves)
        after = game.apply(state, previous)
        moves = game.legal_moves(after)
        # apply gives a state whose to_move is None exactly when the outcome is set
        assert (game.to_move(after) is None) == (game.outcome(after) is not None)
        if full:
            assert game.last_move(after) in (None, game.notation(previous))
        state = after
        states.append(state)
    if render:
        _render(game, states[len(states) // 2], seats)
    if not ended:
        return False

    # The end: a finished state still round-trips, renders, and refuses moves.
    _round_trip(game, state)
    assert game.to_move(state) is None
    _check_chat(game, state)
    with pytest.raises(GameOverError):
        game.parse_move(state, game.notation(previous))
    with pytest.raises(GameOverError):
        game.apply(state, previous)
    if render:
        _render(game, state, seats)
    return True


@pytest.mark.parametrize(("key", "seats"), CASES)
def test_contract(key: str, seats: int) -> None:
    game = get_game(key)
    assert game.key == key
    assert seats in game.seat_counts
    assert game.check_options(None) is not None  # the defaults pass the game's own checks
    ended = [_play(game, seats, seed, render=seed == SEEDS[0]) for seed in SEEDS]
    # The end-of-game checks ran at least once.
    assert any(ended), f"no random game of {key} for {seats} ended in {MAX_PLIES} plies"


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


@pytest.mark.parametrize("key", game_keys())
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


# ---- the menus of a game that offers choices ---------------------------------------


@pytest.mark.parametrize("key", game_keys())
def test_choices_are_the_legal_moves(key: str) -> None:
    """``Game.choices``: every choice's notation reads as a legal move, every legal
    move is one choice, no group is empty, and a game with choices says how its menus
    speak (``choice_words``)."""
    game = get_game(key)
    for seats in game.seat_counts:
        for seed in SEEDS:
            rng = random.Random(seed)
            state = game.new_state(seats)
            for _ in range(MAX_PLIES):
                groups = game.choices(state)
                if groups is None:
                    assert game.choice_words is None
                    return
                assert game.choice_words is not None
                legal = game.legal_moves(state)
                offered = []
                for group in groups:
                    assert group.label and group.choices
                    for choice in group.choices:
                        assert choice.label
                        move = game.parse_move(state, choice.notation)
                        assert move in legal
                        assert game.notation(move) == choice.notation
                        offered.append(choice.notation)
                assert sorted(offered) == sorted(game.notation(m) for m in legal)
                if not legal:
                    break
                state = game.apply(state, rng.choice(legal))


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


@pytest.mark.parametrize(("key", "seats"), CASES)
def test_every_position_is_described_in_words_within_discords_limit(
        key: str, seats: int) -> None:
    """``describe`` (the image's description, for screen readers): the game, the move
    number, who moves or the result, the last move and the position, within 1,024
    characters, over whole random games with long names."""
    game = get_game(key)
    names = [("Ṁaximilian-Alexander von Long-Name " * 2).strip()] * seats
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_state(seats)
        for _ in range(MAX_PLIES):
            text = game.describe(state, names)
            assert len(text) <= DESCRIPTION_LIMIT
            assert text.startswith(f"{game.title}, {after_move(game.moves_played(state))}.")
            assert game.describe_position(state) in text
            last = game.last_move(state)
            assert last is None or f"Last move: {last}." in text
            seat = game.to_move(state)
            if seat is None:
                assert " wins: " in text or "Draw: " in text
                break
            assert f"{game.seat_name(state, seat)} ({names[seat]}) to move." in text
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        verdict = "Bob wins: Alice ran out of time"
        assert f"{verdict}." in game.describe(state, names, verdict)
