"""The commands' catalog (``bot/locale/commands.pot``) is made from the declarations
and never drifts; a translation that would break Discord's rules is never sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands import BY_NAME
from bot.commands.catalog import (
    NAME,
    TEMPLATE,
    languages,
    localised,
    messages,
    problems,
    rule_broken,
    template,
    translations,
)


def test_the_template_is_made_from_the_declarations() -> None:
    assert TEMPLATE.read_text(encoding="utf-8") == template(), (
        "bot/locale/commands.pot is out of date: run `python -m bot.commands.catalog`")


def test_every_command_and_option_is_in_the_template() -> None:
    said = {(m.text, m.context) for m in messages()}
    for command in BY_NAME.values():
        assert (command.leaf, NAME) in said
        assert (command.description, None) in said
        for option in command.options:
            assert (option.name, NAME) in said and (option.description, None) in said
            assert all((label, None) in said for label, _ in option.choices)


@pytest.mark.parametrize("lang", languages())
def test_the_shipped_translations_keep_discords_rules(lang: str) -> None:
    assert problems(lang) == []


def test_a_translation_that_breaks_a_rule_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "commands.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgctxt "name"\nmsgid "host"\nmsgstr "호스트 명령"\n\n'  # a space: no name
        'msgctxt "name"\nmsgid "event"\nmsgstr "Event"\n\n'  # upper case
        'msgctxt "name"\nmsgid "join"\nmsgstr "참가"\n\n'
        'msgid "Join"\nmsgstr "' + "가" * 101 + '"\n', encoding="utf-8")
    translations.cache_clear()
    try:
        assert len(problems("ko", tmp_path)) == 3
        assert localised("host", NAME, "ko", tmp_path) is None
        assert localised("event", NAME, "ko", tmp_path) is None
        assert localised("Join", None, "ko", tmp_path) is None
        assert localised("join", NAME, "ko", tmp_path) == "참가"
    finally:
        translations.cache_clear()


def test_discords_rules() -> None:
    assert rule_broken("host", NAME, "주최") is None
    assert rule_broken("host", NAME, "ホスト") is None
    assert rule_broken("host", NAME, "host-tools_2") is None
    assert rule_broken("host", NAME, "x" * 33) is not None
    assert rule_broken("host", NAME, "") is not None
    assert rule_broken("Why", None, "") is not None
    assert rule_broken("Why", None, "y" * 100) is None
