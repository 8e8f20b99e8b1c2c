"""The language core (bot/texts/language.py): a text said in one language can be said
again in another, with the texts it was given said again too."""

from __future__ import annotations

import copy
import pickle

from bot.texts.language import (
    Said,
    _,
    from_discord,
    language,
    n_,
    said_in,
    speaking,
    text,
)


@text
def _greeting(name: str) -> str:
    return f"[{language()}] hello {name}"


@text
def _wrapped(inner: str, count: int) -> str:
    return f"[{language()}] {inner} x{count}"


def test_a_text_is_said_again_in_another_language_with_its_text_arguments() -> None:
    inner = _greeting("ana")
    outer = _wrapped(inner, 3)
    assert outer == "[en] [en] hello ana x3"
    assert isinstance(outer, Said)
    assert said_in(outer, "ko") == "[ko] [ko] hello ana x3"
    assert said_in(outer, "xx") == "[en] [en] hello ana x3"  # not spoken: English
    # pasted into a bigger string it is plain, and stays as it was said
    assert said_in(f"{outer}!", "ja") == "[en] [en] hello ana x3!"


def test_speaking_sets_the_language_only_inside() -> None:
    with speaking("ja"):
        assert language() == "ja"
        assert _greeting("bo") == "[ja] hello bo"
    assert language() == "en"


def test_a_said_text_copies_and_pickles_as_the_plain_string() -> None:
    said = _greeting("cy")
    assert pickle.loads(pickle.dumps(said)) == said
    assert type(copy.deepcopy(said)) is str


def test_english_is_the_source() -> None:
    assert _("A Death Match") == "A Death Match"
    assert n_("{n} garnet", "{n} garnets", 1) == "{n} garnet"
    assert n_("{n} garnet", "{n} garnets", 5) == "{n} garnets"


def test_discord_locales_map_to_garnet_s_languages() -> None:
    assert from_discord("ko") == "ko"
    assert from_discord("ja") == "ja"
    assert from_discord("en-US") == "en"
    assert from_discord("en-GB") == "en"
    assert from_discord("pt-BR") is None
    assert from_discord(None) is None
