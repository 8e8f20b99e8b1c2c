"""The words on the board images in the server's language: the engine draws English
templates, the bot passes their translations (``bot/texts/board_labels.py``); every
label fits its box in every language, and a board drawn in Japanese says Japanese."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from bot.services.render import _render_job, described
from bot.texts import board_labels
from bot.texts.language import LANGUAGES, speaking
from engine import labels
from engine.cairo import CairoCorridor
from engine.cairo import render as cairo_render
from engine.labels import label, labelled
from engine.quoridor import Quoridor
from engine.quoridor import render as quoridor_render
from engine.text import text_length
from tests.catalogs import compiled

GAME = CairoCorridor()
LEFT = cairo_render.MARGIN_X - 44
RIGHT = cairo_render.WIDTH - cairo_render.MARGIN_X + 44
# The legend's boxes (``engine.cairo.render._legend``): a seat's label before the
# counts, a count right of the pill, the pill's word, the status line at its smallest
# size, the note.
LABEL_BOX = RIGHT - 250 - (LEFT + 52)
COUNT_BOX, PILL_BOX, LINE_BOX = 130, 90, RIGHT - LEFT


@pytest.fixture(autouse=True)
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with compiled(tmp_path / "locale", monkeypatch):
        yield


def _states() -> list[tuple[object, bool]]:
    start = GAME.new_state()
    played = start
    for move in ("DL", "XD", "JU"):
        played = GAME.apply(played, GAME.parse_move(played, move))
    ended = start
    while GAME.outcome(ended) is None:
        ended = GAME.apply(ended, GAME.legal_moves(ended)[0])
    return [(start, False), (played, True), (ended, False)]


def overflows(words: Mapping[str, str]) -> list[str]:
    """Each label of the legend, drawn with ``words``, that does not fit its box."""
    found = []
    with labelled(words):
        for state, hints in _states():
            outcome = GAME.outcome(state)  # type: ignore[arg-type]
            shown = cairo_render._content(state, outcome, hints, None, None)  # type: ignore[arg-type]
            boxes = [(label, 26, True, LABEL_BOX) for label in shown.labels]
            boxes += [(count, 24, True, COUNT_BOX) for count in shown.counts]
            boxes += [(shown.pill[1], 20, True, PILL_BOX)] if shown.pill else []
            boxes += [(shown.line, 17, True, LINE_BOX), (shown.note, 17, False, LINE_BOX)]
            found += [f"{text!r}: {text_length(text, size, bold):.0f} of {box} px"
                      for text, size, bold, box in boxes
                      if text_length(text, size, bold) > box]
    return found


def test_the_bot_translates_every_template_the_engine_draws() -> None:
    assert board_labels.TEMPLATES == labels.TEMPLATES


def quoridor_overflows(words: Mapping[str, str]) -> list[str]:
    """Quoridor's goal lines (right of the names, left of the walls' bars) that do not
    fit, in every layout, with hints (the steps) and for a player who left."""
    found = []
    with labelled(words):
        for seats in (2, 4):
            state = Quoridor().new_state(seats)
            walls = state.layout.walls
            box = quoridor_render.WIDTH - 60 - walls * 12 - 430 - 8
            for seat in range(seats):
                goal = quoridor_render._goal(state, seat)
                for said in (label("to {goal}", goal=goal), label("left the game"),
                             label("{goal} · {n} steps", goal=label("to {goal}", goal=goal),
                                   n=18)):
                    if text_length(said, 19) > box:
                        found.append(f"{said!r}: {text_length(said, 19):.0f} of {box} px")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_overflows_its_box(lang: str) -> None:
    with speaking(lang):
        words = board_labels.labels()
    assert overflows(words) == []
    assert quoridor_overflows(words) == []


def test_the_check_finds_a_translation_too_long() -> None:
    assert overflows({"to play": "Ist jetzt am Zug und muss ziehen"}) != []
    assert quoridor_overflows({"to {goal}": "auf dem langen Weg bis zu {goal}"}) != []


def test_a_board_is_drawn_with_the_words_it_is_given(tmp_path: Path) -> None:
    state, _ = _states()[1]
    english = _render_job("cairo", state, True, [], None, None)
    words = {"Black": "黒", "Red": "赤", "First Player": "先手", "Second Player": "後手",
             "to play": "手番", "{n} left": "残り{n}"}
    japanese = _render_job("cairo", state, True, [], None, words)
    assert japanese != english
    (tmp_path / "ja.png").write_bytes(japanese)
    with labelled(words):
        assert cairo_render._content(state, None, True, None, None).labels == [  # type: ignore[arg-type]
            "黒 · 先手", "赤 · 後手"]


def test_quoridor_s_line_under_the_board_is_said_in_the_language_spoken() -> None:
    """The line under a Quoridor board (walls left, who passed or left: the engine's
    ``status``) takes the same labels as its image."""
    game = Quoridor()
    state = game.new_state(2, {})
    said = {}
    for lang in ("en", "ja", "ko"):
        with speaking(lang), labelled(board_labels.labels()):
            said[lang] = game.status(state)
    assert said == {"en": "walls left: White 10, Black 10", "ja": "残りの壁: 白 10、黒 10",
                    "ko": "남은 벽: 백 10, 흑 10"}


def test_a_board_s_description_is_said_in_the_language_spoken() -> None:
    """A board's alt text (``Game.describe``) takes the labels too: English as the engine
    writes it, Japanese without English words but the players' and the moves'."""
    game = Quoridor()
    state = game.apply(game.new_state(2, {}), game.parse_move(game.new_state(2, {}), "e2"))
    english = described(game, state, ["ann", "ben"])
    assert english == game.describe(state, ["ann", "ben"])
    with speaking("ja"):
        said = described(game, state, ["ann", "ben"])
    assert said.startswith("Quoridor、1手目の後。黒（ben）の手番。最後の手: e2。")
    assert "残りの壁10枚" in said and not re.search(r"\b(?!ann|ben|e\d)[A-Za-z]{2,}", said[9:])
