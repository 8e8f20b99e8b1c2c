"""The commands' words in every language: the gettext domain ``commands``.

What Discord shows of a command (its name, description, its options' names and
descriptions, its choices' names) comes from the declarations (``bot.commands``);
``messages`` lists them, ``template`` is ``bot/locale/commands.pot`` made from them
(``python -m bot.commands.catalog`` writes it; ``tests/bot/test_command_catalog``
fails when it drifts), and ``localised`` looks one up in a language's
``bot/locale/<language>/LC_MESSAGES/commands.po``.

A name is a message in the context ``name`` and must keep Discord's rules for names
(``NAME``); a translation that breaks a rule is never sent (``problems`` lists it, and
the test fails on it), so one bad line cannot make Discord refuse the whole sync.
"""

from __future__ import annotations

import functools
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.commands import COMMANDS, GROUPS
from bot.commands.spec import Option
from bot.texts.language import LANGUAGES, LOCALE_DIR, SOURCE

DOMAIN = "commands"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
NAME = "name"  # the context of a name; descriptions and choices have none
# Discord's rule for a name of a command or an option ("Application Command Naming"):
# letters (lowercase where the script has case), digits, - and _; 1 to 32 characters.
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_MAX = 100  # characters of a description, and of a choice's name
NAME_NOTE = ("A name typed after /: lowercase, no spaces (- or _ instead), at most 32 "
             "characters.")
HEADER = ("# What Discord shows of garnet's commands: names, descriptions, choices.\n"
          "# Made from bot/commands by `python -m bot.commands.catalog`; do not edit.\n"
          "# A translator copies it to bot/locale/<language>/LC_MESSAGES/commands.po.")
DESCRIPTION_NOTE = "Shown under the name in Discord: at most 100 characters."


@dataclass(frozen=True)
class Message:
    """One thing Discord shows: its words, whether it is a name, and where it is."""

    text: str
    context: str | None
    where: str


def _option(option: Option, where: str) -> Iterator[Message]:
    yield Message(option.name, NAME, f"{where} {option.name}:")
    yield Message(option.description, None, f"{where} {option.name}:")
    for label, value in option.choices:
        yield Message(label, None, f"{where} {option.name}:{value}")


def messages() -> Iterator[Message]:
    """Every name, description and choice of the declared commands, in their order."""
    for group in GROUPS:
        yield Message(group.name.split()[-1], NAME, f"/{group.name}")
        yield Message(group.description, None, f"/{group.name}")
    for command in COMMANDS:
        where = f"/{command.name}"
        yield Message(command.leaf, NAME, where)
        yield Message(command.description, None, where)
        for option in command.options:
            yield from _option(option, where)


def template() -> str:
    """``commands.pot``: every message once, with where it is shown and its rule."""
    seen: dict[tuple[str, str | None], list[str]] = {}
    for message in messages():
        seen.setdefault((message.text, message.context), []).append(message.where)
    pot = Catalog(project="garnet", domain=DOMAIN, fuzzy=False, header_comment=HEADER)
    for (words, context), places in seen.items():
        shown = ", ".join(places[:4]) + (f" and {len(places) - 4} more" if len(places) > 4
                                         else "")
        note = NAME_NOTE if context == NAME else DESCRIPTION_NOTE
        pot.add(words, context=context, auto_comments=[note, f"In {shown}"])
    out = io.BytesIO()
    write_po(out, pot, width=88, omit_header=False, no_location=True)
    return _dateless(out.getvalue().decode("utf-8"))


def _dateless(po: str) -> str:
    # The creation date would change the file at every run: the template is compared.
    return "".join(line for line in po.splitlines(keepends=True)
                   if not line.startswith('"POT-Creation-Date:'))


def rule_broken(words: str, context: str | None, translated: str) -> str | None:
    """Why Discord would refuse ``translated`` for ``words`` (None: it would not)."""
    if context == NAME:
        if translated != translated.lower() or not NAME_PATTERN.match(translated):
            return "a name: lowercase letters, digits, - or _, 1 to 32 characters"
        return None
    if not translated.strip() or len(translated) > DESCRIPTION_MAX:
        return f"1 to {DESCRIPTION_MAX} characters"
    return None


@functools.cache
def translations(lang: str, folder: Path = LOCALE_DIR) -> dict[tuple[str, str | None], str]:
    """The translated messages of ``lang`` (none for English or a missing catalog)."""
    path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == SOURCE or not path.exists():
        return {}
    with path.open("rb") as f:
        po = read_po(f, locale=lang)
    return {(str(m.id), m.context): str(m.string) for m in po
            if m.id and m.string and not m.fuzzy and isinstance(m.id, str)}


def problems(lang: str, folder: Path = LOCALE_DIR) -> list[str]:
    """Each translation of ``lang`` that breaks Discord's rules, and why."""
    return [f"{lang}: {words!r} -> {said!r}: {why}"
            for (words, context), said in translations(lang, folder).items()
            if (why := rule_broken(words, context, said))]


def localised(words: str, context: str | None, lang: str,
              folder: Path = LOCALE_DIR) -> str | None:
    """``words`` in ``lang`` when it is translated within Discord's rules; else None
    (Discord then shows the English)."""
    said = translations(lang, folder).get((words, context))
    if said is None or said == words or rule_broken(words, context, said):
        return None
    return said


def languages() -> tuple[str, ...]:
    """The languages the commands may be translated into (all but the source)."""
    return tuple(lang for lang in LANGUAGES if lang != SOURCE)


if __name__ == "__main__":  # python -m bot.commands.catalog: write commands.pot
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_text(template(), encoding="utf-8")
    sys.stdout.write(f"wrote {TEMPLATE}\n")
