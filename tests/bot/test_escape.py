"""User text echoed in a post: pings nobody, renders as typed, stays on one line, and
cannot turn the rest of the bot's sentence around."""

from __future__ import annotations

import pytest

from bot.core.escape import defang, plain, unescape

OVERRIDES = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
             "\u2069"]


@pytest.mark.parametrize("char", OVERRIDES)
def test_bidirectional_controls_are_dropped(char: str) -> None:
    # "@alice wins" after a name ending in U+202E would read "sniw ecila@" on screen.
    assert plain(f"eve{char}") == "eve"
    assert defang(f"`code` eve{char} says") == "`code` eve says"


def test_right_to_left_names_and_marks_are_kept() -> None:
    assert plain("سلام") == "سلام"
    assert plain("a\u200fb") == "a\u200fb"  # a mark orders nothing beyond its neighbours


@pytest.mark.parametrize("char", ["\r", "\n", "\u0085", "\u001c", "\u001d", "\u001e",
                                  "\u2028", "\u2029"])
def test_line_breaks_of_every_kind_are_joined(char: str) -> None:
    assert plain(f"ann{char}# forged line") == "ann \\# forged line"


def test_mentions_and_markdown_stay_literal() -> None:
    shown = plain("@everyone **bold** <@123>")
    assert "@everyone" not in shown and "<@123>" not in shown
    assert unescape(shown).replace("\u200b", "") == "@everyone **bold** <@123>"


def test_the_bye_of_a_round_is_named_plainly() -> None:
    from bot.texts.tournaments import byes_line

    assert byes_line(["@everyone", "**ann**"]) == "Bye: @\u200beveryone, \\*\\*ann\\*\\*"


def test_a_sentence_ends_as_its_language_ends_one() -> None:
    from bot.core.escape import sentence

    assert sentence("そのマスには置けません") == "そのマスには置けません。"
    assert sentence("その列は埋まっています。") == "その列は埋まっています。"
    assert sentence("둘 수 없어요") == "둘 수 없어요."
    assert sentence("no such cell 'z9'") == "No such cell 'z9'."
