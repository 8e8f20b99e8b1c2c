"""The games' refusals said by their cause (``bot/texts/game_errors.py``): in English
exactly as the engine writes them, every cause the engine raises known, and the words
of the language spoken (a direction in Korean is one the parser reads back)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.escape import defang, sentence
from bot.texts.game_errors import CAUSES, refusal
from bot.texts.language import speaking
from engine.cairo import CairoCorridor
from engine.cairo.notation import WORDS_BY_LANGUAGE
from engine.game import EngineError, Game
from engine.pathwayz import Pathwayz
from engine.quoridor import Quoridor
from engine.registry import get_game

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CAUSE = re.compile(r'\.because\(\s*f?"([a-z_.{}]+)"')

TRIES: list[tuple[Game, tuple[str, ...], str]] = [
    (CairoCorridor(), (), "A left"), (CairoCorridor(), (), "Z up"),
    (CairoCorridor(), (), "hello @everyone"), (CairoCorridor(), ("DL",), "D left"),
    (Quoridor(), (), "e9"), (Quoridor(), (), "z1"), (Quoridor(), (), "a12"),
    (Quoridor(), (), "e3x"), (Quoridor(), (), "i9h"), (Quoridor(), (), "e1"),
    (Quoridor(), (), "e5"), (Quoridor(), (), "chat"), (Quoridor(), ("e3h",), "e3h"),
    (Quoridor(), ("e3h",), "f3h"), (Quoridor(), ("e3h",), "e3v"),
    (Pathwayz(), (), "c5 c5"), (Pathwayz(), (), "z9"), (Pathwayz(), (), "m1"),
    (Pathwayz(), ("c5",), "c5"),
    (get_game("sigma"), (), "hello there"), (get_game("sigma"), (), "I2 99"),
    (get_game("sigma"), (), "pass"), (get_game("sigma"), (), "I2 1.99"),
]


def _error(game: Game, played: tuple[str, ...], typed: str) -> EngineError:
    state = game.new_state()
    for move in played:
        state = game.apply(state, game.parse_move(state, move))
    with pytest.raises(EngineError) as caught:
        game.apply(state, game.parse_move(state, typed))
    return caught.value


def test_every_cause_the_engine_raises_is_said() -> None:
    raised = {m for p in ENGINE.rglob("*.py") for m in CAUSE.findall(p.read_text("utf-8"))}
    named = {c for c in raised if "{" not in c} | {"quoridor.crosses", "quoridor.overlaps"}
    assert len(named) > 20
    assert sorted(named - set(CAUSES)) == []


@pytest.mark.parametrize(("game", "played", "typed"), TRIES)
def test_in_english_as_the_engine_says_it(game: Game, played: tuple[str, ...],
                                          typed: str) -> None:
    error = _error(game, played, typed)
    assert error.cause in CAUSES, str(error)
    assert refusal(error) == sentence(defang(str(error)))


def test_the_directions_are_the_words_of_the_language_spoken() -> None:
    error = _error(CairoCorridor(), (), "A left")
    with speaking("ko"):
        said = refusal(error)
    assert "왼쪽" in said and "오른쪽" in said
    with speaking("ja"):
        assert "左" in refusal(error)
    for words in WORDS_BY_LANGUAGE.values():  # what a refusal names, the parser reads
        assert CairoCorridor().parse_move(CairoCorridor().new_state(),
                                          f"A {words['R']}") == "AR"


@pytest.mark.parametrize("typed", ["a", "J upwards", "x-rightward"])
def test_a_try_at_a_move_is_said_by_its_cause_too(typed: str) -> None:
    game = CairoCorridor()
    missing = game.incomplete(game.new_state(), typed)
    assert isinstance(missing, EngineError) and missing.cause in CAUSES
    assert refusal(missing) == sentence(defang(str(missing)))
    with speaking("ko"):
        assert "오른쪽" in refusal(missing)


def test_an_unknown_game_is_said_by_its_cause_too() -> None:
    with pytest.raises(EngineError) as caught:
        get_game("chess")
    assert caught.value.cause == "unknown_game"
    assert refusal(caught.value) == sentence(defang(str(caught.value)))
    with speaking("ko"):
        assert "chess" in refusal(caught.value) and "게임" in refusal(caught.value)
