"""Names in any script and emoji, drawn legibly; shortened by display width; verdicts
never cut. These need the fonts the repository installs (``.ci/run``, ``make fonts``)."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine import animation, fonts
from engine.game import Game
from engine.registry import get_game
from engine.text import (
    clusters,
    display_width,
    fit_line,
    fit_text,
    printable,
    shorten,
    text_art,
    text_length,
)

NAMES = ["李小龍", "🐱cat"]
TOFU = "\U0010fffd"  # no font draws it: the .notdef box


def test_the_fonts_are_installed() -> None:
    found = fonts.fonts()
    assert found.cjk is not None, "no CJK font: run .ci/run or `make fonts`"
    assert found.emoji is not None, "no colour emoji font: run .ci/run or `make fonts`"
    for char in "李小龍한글カナ":
        assert fonts.has_glyph("cjk", char), char
    assert fonts.has_glyph("emoji", "🐱")
    assert not fonts.has_glyph("dejavu", "李") and not fonts.has_glyph("cjk", TOFU)


def test_clusters_and_display_width() -> None:
    assert display_width("李小龍") == 6
    assert display_width("🐱cat") == 5
    assert display_width("Bob") == 3
    assert display_width("e\u0301") == 1 and clusters("e\u0301x") == ["e\u0301", "x"]
    family = "👨\u200d👩\u200d👧"
    assert clusters(family + "a") == [family, "a"] and display_width(family) == 2
    assert clusters("👍🏽🇯🇵") == ["👍🏽", "🇯🇵"] and display_width("👍🏽🇯🇵") == 4
    assert display_width("한국어") == 6 and display_width("ｶﾅ") == 2  # half-width kana


def test_shorten_by_display_width_between_clusters() -> None:
    assert shorten("李小龍李小龍", 5) == "李小…"
    assert shorten("🐱🐱🐱cat", 6) == "🐱🐱…"
    assert shorten("👨\u200d👩\u200d👧abc", 3) == "👨\u200d👩\u200d👧…"
    assert shorten("Bob", 3) == "Bob"
    for text in ("李小龍李小龍", "a🐱b🐱c🐱", "Ünïcødé names"):
        for width in range(2, 12):
            assert display_width(shorten(text, width)) <= width


def _region_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _board(game: Game[Any, Any], names: list[str]) -> Image.Image:
    rng = random.Random(3)
    state = game.new_state(game.seat_counts[0])
    for _ in range(6):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return Image.open(io.BytesIO(game.render(state, names=names))).convert("RGB")


def _name_region(key: str, image: Image.Image) -> Image.Image:
    boxes = {"cairo": (70, 850, 500, 935), "quoridor": (60, 955, 420, 1050),
             "pathwayz": (90, 10, 900, 62), "sigma": (50, 680, 700, 1040)}
    return image.crop(boxes[key])


@pytest.mark.parametrize("key", ["cairo", "quoridor", "pathwayz", "sigma"])
def test_cjk_and_emoji_names_are_not_boxes(key: str) -> None:
    game = get_game(key)
    shown = _name_region(key, _board(game, NAMES))
    tofu = _name_region(key, _board(game, [TOFU * 3, TOFU + "cat"]))
    assert _region_difference(shown, tofu) > 1.0
    # The emoji is in colour: warm, saturated pixels (the cat's yellow) in the name row.
    data = shown.tobytes()
    warm = sum(1 for i in range(0, len(data), 3)
               if data[i] > 200 and data[i + 1] > 130 and data[i + 2] < 90)
    assert warm > 20


# Each of these once made the layout engine refuse the line, so that no board of a
# match with such a player could be drawn; a bidirectional override reversed the rest.
BREAKERS = ["\r", "\n", "\u0085", "\u001c", "\u001d", "\u001e", "\u2028", "\u2029", "\t",
            "\x00"]


@pytest.mark.parametrize("key", ["cairo", "quoridor", "pathwayz", "sigma"])
def test_names_with_line_breaks_and_controls_are_drawn_on_one_line(key: str) -> None:
    game = get_game(key)
    odd = [f"ann{c}bob" for c in BREAKERS[: game.seat_counts[0]]]
    plain = _board(game, ["ann bob"] * game.seat_counts[0])
    assert _region_difference(_name_region(key, _board(game, odd)),
                              _name_region(key, plain)) == 0.0


@pytest.mark.parametrize("char", BREAKERS)
def test_control_characters_become_spaces(char: str) -> None:
    assert printable(f"ann{char}bob") == "ann bob"
    assert text_art(f"ann{char}bob", 20).mask.tobytes() == text_art("ann bob", 20).mask.tobytes()
    assert text_length(f"ann{char}bob", 20) == text_length("ann bob", 20)


def test_bidirectional_overrides_are_dropped_and_right_to_left_text_kept() -> None:
    assert printable("\u202eevil\u202c and \u2067x\u2069") == "evil and x"
    assert printable("سلام 李小龍 🐱cat e\u0301") == "سلام 李小龍 🐱cat e\u0301"
    assert text_art("\u202eevil", 20).mask.tobytes() == text_art("evil", 20).mask.tobytes()


def test_a_cjk_name_is_drawn_by_the_cjk_face() -> None:
    art = text_art("李小龍", 26, True)
    box = text_art(TOFU * 3, 26, True)
    assert art.colour is None and art.mask.getbbox() is not None
    assert art.mask.tobytes() != box.mask.tobytes()
    cat = text_art("🐱cat", 26, True)
    assert cat.colour is not None and cat.colour.getbbox() is not None
    assert text_length("🐱cat", 26, True) > text_length("cat", 26, True) + 20


def test_fit_text_measures_every_face() -> None:
    text = fit_text("Black · " + "李" * 40, 300, 26)
    assert text.endswith("…") and text_length(text, 26, True) <= 300
    assert fit_text("Red · Bob", 400, 26) == "Red · Bob"


def test_a_long_name_never_cuts_the_verdict() -> None:
    long = "W" * 60
    verdict = f"{long} (White) wins: Black connected a to l (completed by White's move)"
    text, size = fit_line(verdict, 860, 20, names=[long], smallest=15)
    assert text.endswith("wins: Black connected a to l (completed by White's move)")
    assert text_length(text, size, True) <= 860 and "…" in text
    cjk = "李小龍" * 12
    text, size = fit_line(f"{cjk} wins: Bob ran out of time", 400, 22, names=[cjk])
    assert text.endswith("… wins: Bob ran out of time") or text.endswith(
        "…wins: Bob ran out of time")
    assert text_length(text, size, True) <= 400


def test_the_replays_last_frame_keeps_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = animation.draw_text

    def spy(image: Image.Image, xy: tuple[float, float], text: str, *args: Any) -> Any:
        drawn.append(text)
        return real(image, xy, text, *args)

    monkeypatch.setattr(animation, "draw_text", spy)
    long = "Sir " + "Lancelot " * 12
    result = f"{long} wins: Bob ran out of time"
    animation.animate(get_game("cairo"), ["DL", "JU"], names=[long, "Bob"], result=result,
                      width=600)
    assert drawn[-1].endswith("wins: Bob ran out of time")


def test_missing_fonts_are_warned_about_once_and_text_still_draws(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("FONT_DIRS", str(tmp_path))
    monkeypatch.delenv("CJK_FONT", raising=False)
    monkeypatch.delenv("EMOJI_FONT", raising=False)
    monkeypatch.setattr(fonts, "_SYSTEM_DIRS", ())
    monkeypatch.setattr(fonts, "SHIPPED", tmp_path)
    with caplog.at_level(logging.WARNING, logger="engine.fonts"):
        found = fonts.fonts.__wrapped__()
    assert found == fonts.Fonts(None, None)
    assert any("CJK" in r.message for r in caplog.records)
    assert any("emoji" in r.message for r in caplog.records)
    monkeypatch.setenv("CJK_FONT", str(tmp_path / "missing.ttc"))
    with caplog.at_level(logging.WARNING, logger="engine.fonts"):
        assert fonts.fonts.__wrapped__().cjk is None


def test_fonts_are_found_by_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    found = fonts.fonts()
    assert found.cjk is not None and found.emoji is not None
    monkeypatch.setenv("CJK_FONT", found.cjk[0].path)
    monkeypatch.setenv("EMOJI_FONT", found.emoji.path)
    monkeypatch.setattr(fonts, "_SYSTEM_DIRS", ())
    again = fonts.fonts.__wrapped__()
    assert again.cjk is not None and again.cjk[0].path == found.cjk[0].path
    assert again.emoji == fonts.FaceFile(found.emoji.path)


def _at(mask: Image.Image, offset: tuple[int, int], x: float, y: float) -> bytes:
    """``mask`` where a text anchored at (x, y) puts it, on a blank strip."""
    strip = Image.new("L", (1200, 90), 0)
    strip.paste(mask, (int(x // 1) + offset[0] + 60, int(y // 1) + offset[1] + 30))
    return strip.tobytes()


def test_a_line_put_together_from_its_words_is_the_line_drawn_whole() -> None:
    # Lines are drawn from their words' kept drawings (a board's status line is new each
    # move, its words are not): on the same pixels, to the level, as Pillow draws the
    # line whole, whatever the size, weight, anchor and fractional start (a start
    # 0.004 of a 64th from a rounding edge put a glyph a pixel off before the pen was
    # kept in 64ths), and for kerned pairs inside words.
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;'()!?-×·…/&%éü"
    lines = ["Move 12 · White to play · last: Black T4 1.1", "AV Ta Te To Ty Wa Yo LT P. y.",
             "jüB nv3G91w ×0 (LDEzZB P%78Y QE&s nzNb8Jq", "  two  spaces and trailing "]
    lines += [" ".join("".join(rng.choice(letters) for _ in range(rng.randint(1, 7)))
                       for _ in range(rng.randint(2, 7))) for _ in range(150)]
    used = 0
    for i, line in enumerate(lines):
        size, bold = rng.choice([11, 14, 16, 18, 20, 22, 24, 26, 28]), rng.random() < 0.6
        anchor = rng.choice(["la", "ls", "lm", "ra", "rm", "rs", "ma", "mm", "ms"])
        x = 10.289001209803072 if i == 2 else rng.choice([24.0, 0.5, rng.random() * 50])
        y = rng.choice([0.0, 0.5, rng.random() * 10])
        art = text_art(line, size, bold, anchor, (x, y))
        core, offset = fonts.dejavu(size, bold).getmask2(
            line, "L", anchor=anchor, start=(round(x % 1, 3), round(y % 1, 3)))
        assert _at(art.mask, art.offset, x, y) == _at(
            Image.Image()._new(core), offset, x, y), (line, size, bold, anchor, x, y)
        used += art.mask.size != core.size or art.offset != offset
        # Measured from its words too: the same advance as Pillow's layout of the line.
        assert text_length(line, size, bold) == fonts.dejavu(size, bold).getlength(line), line
    assert used  # the words were put together (their box is theirs, not Pillow's)
