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


def pathwayz_overflows(words: Mapping[str, str]) -> list[str]:
    """Pathwayz's words that do not fit: the key (its marks' words left of the goal), a
    colour in a player's slot (no wider than English's), and the header's line at its
    smallest size, to move, after a flip, won (each way) and drawn."""
    from engine.pathwayz import Pathwayz
    from engine.pathwayz import render as pathwayz_render
    from engine.pathwayz.rules import DRAW, reason_said
    from engine.pathwayz.state import COLOUR_NAMES

    game = Pathwayz()
    found = []
    with labelled(words):
        room = pathwayz_render.key_room(pathwayz_render._key_words())
        if room < 16:
            found.append(f"the key: {room:.0f} px between its marks and the goal")
        widest = max(text_length(c, 22, True) for c in COLOUR_NAMES)
        found += [f"{label(c)!r} in a slot" for c in COLOUR_NAMES
                  if text_length(label(c), 22, True) > widest]
        states = [game.new_state()]
        for move in ("a1*", "b2", "c1*"):
            states.append(game.apply(states[-1], game.parse_move(states[-1], move)))
        while game.outcome(states[-1]) is None:
            states.append(game.apply(states[-1], game.legal_moves(states[-1])[0]))
        lines = [pathwayz_render.line_said(state, None, None)[0] for state in states]
        lines.append(label("Draw: {reason} · {n} moves", reason=reason_said(states[0], DRAW),
                           n=96))
        box = pathwayz_render.WIDTH - 2 * pathwayz_render.BOARD_X
        found += [f"{line!r}: {text_length(line, 15, True):.0f} of {box} px"
                  for line in lines if text_length(line, 15, True) > box]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_pathwayz_label_overflows_its_box(lang: str) -> None:
    with speaking(lang):
        words = board_labels.labels()
    assert pathwayz_overflows(words) == []


def test_the_pathwayz_check_finds_a_translation_too_long() -> None:
    assert pathwayz_overflows({"flipped": "umgedreht worden in diesem Zug"}) != []
    assert pathwayz_overflows({"White": "Weiße Steine"}) != []
    assert pathwayz_overflows({"{colour} to move · {where}":
                               "{colour} ist jetzt am Zug und muss setzen, "
                               "und zwar jetzt · {where} · {where} · {where}"}) != []


def test_pathwayz_boards_of_two_languages_share_no_cached_image(tmp_path: Path) -> None:
    """The key is in the board's cached layer: a Japanese board drawn after an English one
    says Japanese, and an English one after it says English again."""
    from engine.pathwayz import Pathwayz

    game = Pathwayz()
    state = game.apply(game.new_state(), game.parse_move(game.new_state(), "c3*"))
    with speaking("ja"):
        words = board_labels.labels()
    english = _render_job("pathwayz", state, True, ["ann", "ben"])
    japanese = _render_job("pathwayz", state, True, ["ann", "ben"], None, words)
    assert japanese != english
    assert _render_job("pathwayz", state, True, ["ann", "ben"]) == english
    assert _render_job("pathwayz", state, True, ["ann", "ben"], None, words) == japanese
    with speaking("ja"), labelled(words):
        assert game.status(state) == "c3*で0個裏返し"
    with speaking("ja"):
        said = described(game, state, ["ann", "ben"])
    assert "黒（ben）の手番" in said


def sigma_overflows(words: Mapping[str, str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Sigma Escape's words that do not fit: every line of a board and of the default
    deck's sheet, as drawn (one cut short ends in an ellipsis), at the start, during and
    at the end of a game, with names; each result's wording; the pills."""
    from engine.sigma import SigmaEscape
    from engine.sigma import pen as sigma_pen
    from engine.sigma import render as sigma_render
    from engine.sigma.deck import DEFAULT_DECK, shipped_deck
    from engine.text import ELLIPSIS

    drawn: list[tuple[float, str, int, bool, str]] = []

    def record(image: object, xy: tuple[float, float], text: str, size: int,
               bold: bool = False, fill: object = None, anchor: str = "la") -> tuple[int, ...]:
        drawn.append((xy[0], text, size, bold, anchor))
        return (0, 0, 0, 0)

    monkeypatch.setattr(sigma_pen, "draw_text", record)
    monkeypatch.setattr(sigma_render, "draw_text", record)
    game = SigmaEscape()
    width = sigma_render.WIDTH
    found = []
    with labelled(words):
        states = [game.new_state()]
        while game.outcome(states[-1]) is None:
            states.append(game.apply(states[-1], game.legal_moves(states[-1])[0]))
        for state in (states[0], states[1], states[len(states) // 2], states[-1]):
            sigma_render.board_image(state, ["ann", "ben"])
        sigma_render.deck_sheet(shipped_deck(DEFAULT_DECK))
        for spaces in (1, 12):
            for reason in ("all cards are played with {spaces}",
                           "both players passed with {spaces}"):
                said = label("{who} wins: {reason}", who=label("White"), reason=label(
                    reason, spaces=label("{n} blank spaces left", n=spaces)))
                drawn.append((24, said, 18, True, "la"))
        pills = [label("to play"), label("wins")]
    found += [f"{text!r} cut short" for _, text, _, _, _ in drawn if ELLIPSIS in text]
    for x, text, size, bold, anchor in drawn:
        box = {24: width - 48, 56: 620}.get(round(x)) if anchor == "la" else None
        if anchor == "ra":
            box = 640
        if box is not None and text_length(text, size, bold) > box:
            found.append(f"{text!r}: {text_length(text, size, bold):.0f} of {box} px")
    found += [f"the pill {pill!r}" for pill in pills
              if text_length(pill, 20, True) > width - 24 - 20 - 56 - 620]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sigma_label_overflows_its_box(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with speaking(lang):
        words = board_labels.labels()
    assert sigma_overflows(words, monkeypatch) == []


def test_the_sigma_check_finds_a_translation_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sigma_overflows({"hatched: white cut off": "schraffiert: " + "weiß " * 40},
                           monkeypatch) != []
    assert sigma_overflows({"Preset cards": "Vorab " * 60}, monkeypatch) != []
    assert sigma_overflows({"wins": "gewinnt diese Partie am Ende doch noch"},
                           monkeypatch) != []


def test_sigma_s_words_off_the_image_are_said_in_the_language_spoken() -> None:
    """The line under a Sigma board, its description (the position and the result) and
    Cairo Corridor's result in a description take the labels too."""
    from engine.sigma import SigmaEscape

    game = SigmaEscape()
    state = game.new_state()
    with speaking("ja"), labelled(board_labels.labels()):
        status = game.status(state)
    assert status.startswith("空きマス") and "残りカード: 白 " in status
    ended = state
    while game.outcome(ended) is None:
        ended = game.apply(ended, game.legal_moves(ended)[0])
    english = described(game, ended, ["ann", "ben"])
    assert english == game.describe(ended, ["ann", "ben"])
    with speaking("ko"):
        said = described(game, ended, ["ann", "ben"])
    assert "백의 메인 그룹" in said and "승리" in said
    move = game.last_move(ended) or ""  # a card's name, as printed
    assert not re.search(r"\b(?!ann|ben)[A-Za-z]{3,}",
                         said[len("Sigma Escape"):].replace(move, ""))
    cairo = GAME.new_state()
    while GAME.outcome(cairo) is None:
        cairo = GAME.apply(cairo, GAME.legal_moves(cairo)[0])
    with speaking("ja"):
        said = described(GAME, cairo, ["ann", "ben"])
    assert "コリドーが閉じた: 黒 " in said


def test_a_tournament_s_image_is_drawn_in_the_language_spoken() -> None:
    """The bracket's parts, the standings' headings and where the tournament stands are
    said in the language spoken (the post's); English as before."""
    import random as rng
    from io import BytesIO

    from PIL import Image

    from bot.services.tournaments import Format, Options, Tournament
    from bot.services.tournaments.image import tournament_png
    from bot.services.tournaments.simulate import simulate
    from bot.texts import brackets

    t = Tournament(Format.DOUBLE, tuple(f"p{i}" for i in range(1, 9)), Options(best_of=1))
    events = simulate(t, rng.Random(2))
    english = tournament_png(t, events, "Cup")
    with speaking("ko"):
        korean = tournament_png(t, events, "Cup")
        assert brackets.image_section(section="W") == "승자조"
        assert brackets.image_subtitle(done=7, rounds=7, winner="p2") == "최종: p2 우승, 7라운드 후"
    with speaking("ja"):
        assert brackets.image_section(section="L") == "敗者側"
        assert brackets.image_subtitle(done=1, rounds=3, winner=None) == (
            "第1ラウンド終了（全3ラウンド）")
    assert brackets.image_section(section="F") == "Grand final"
    assert brackets.image_subtitle(done=0, rounds=3, winner=None) == "before round 1"
    assert korean != english
    assert Image.open(BytesIO(korean)).size == Image.open(BytesIO(english)).size
