"""The catalogs (bot/locale, docs/translating.md): the template holds every message of
the code; each language's catalog holds every message, with the same placeholders and
its plural forms; and the pseudo-locale ``en-XA``, run through the golden season, finds
any line of the bot still said outside the catalogs."""

from __future__ import annotations

import re
from gettext import NullTranslations, c2py
from pathlib import Path
from typing import Any

import pytest
from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.plural import to_gettext

from bot.commands import SECTIONS
from bot.texts import language
from bot.texts.games import OPTION_WORDS, option_value
from bot.texts.help import SECTION_NAMES, summary
from engine.registry import game_keys, get_game
from tests.catalogs import (
    CLOSE,
    OPEN,
    TRANSLATED,
    catalog,
    extracted,
    fields,
    forms,
    ids,
    pseudo,
    pseudo_catalog,
    pseudo_locale,
    template,
    translations,
)
from tests.transcripts import GOLDEN, transcript

COUNTS = (0, 1, 2, 5, 21)
TEMPLATES = Path(__file__).resolve().parents[2] / "bot" / "web" / "templates"


def _plurals(cat: Catalog) -> list[Message]:
    return [m for m in cat if m.id and m.pluralizable]


def _values(message: str) -> dict[str, Any]:
    """A value for each placeholder, of the kind its format spec takes."""
    return {name: 21 if spec else "x" for name, _, spec in fields(message)}


def test_the_template_holds_every_message_of_the_code(tmp_path: Path) -> None:
    """garnet.pot is what `make catalogs` extracts now: a changed sentence reaches the
    translators (and its catalogs turn fuzzy) only through it."""
    now = {m.id if isinstance(m.id, str) else tuple(m.id) for m in extracted(tmp_path / "x.pot")
           if m.id}
    pot = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template() if m.id}
    assert not (now - pot) and not (pot - now), (
        "bot/locale/garnet.pot is out of date: run `make catalogs`\n"
        f"new: {sorted(map(str, now - pot))[:20]}\ngone: {sorted(map(str, pot - now))[:20]}")


def test_every_message_is_english_with_named_placeholders() -> None:
    """A message's placeholders are named (translators read them and may reorder them),
    and a plural's two forms take the same ones."""
    bad = []
    for m in template():
        if not m.id:
            continue
        for text in ids(m):
            if any(not name or name.isdigit() for name, _, _ in fields(text)):
                bad.append(f"positional placeholder: {text!r}")
        if m.pluralizable and len(ids(m)) == 2:
            one, many = (fields(t) for t in ids(m))
            if {f[0] for f in one} - {f[0] for f in many}:
                bad.append(f"singular's placeholders not in the plural: {ids(m)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_in_the_catalog(lang: str) -> None:
    """Complete: every message of the template translated and confirmed (not fuzzy)."""
    cat = catalog(lang)
    missing = []
    for m in template():
        if not m.id:
            continue
        found = cat.get(m.id)
        if found is None or not all(forms(found)) or found.fuzzy:
            state = ("missing" if found is None else "fuzzy" if found.fuzzy
                     else "untranslated")
            missing.append(f"{state}: {ids(m)[0]!r}")
    assert not missing, (f"{len(missing)} of {len(template()) - 1} messages are not in the "
                         f"{lang} catalog:\n" + "\n".join(missing[:40]))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    """Each translation has the placeholders of its message, with their formats (a
    missing or misspelt one would fail at the moment the bot says it), and passes
    Babel's checks."""
    cat = catalog(lang)
    bad = [f"{m.id!r}: {', '.join(map(str, errors))}" for m, errors in cat.check()]
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        wanted = set().union(*(fields(t) for t in ids(m)))
        for form in filter(None, forms(m)):
            got = fields(form)
            # A plural form may leave the count out ("once more"); nothing else may go,
            # and nothing may come that the code does not give.
            lost = {f[0] for f in wanted - got} - ({"n"} if m.pluralizable else set())
            if got - wanted or (lost and not m.pluralizable):
                bad.append(f"{ids(m)[0]!r} -> {form!r}: placeholders {sorted(got)} "
                           f"for {sorted(wanted)}")
            try:
                form.format(**_values(ids(m)[-1]))
            except (KeyError, ValueError, IndexError) as error:
                bad.append(f"{form!r}: {error!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_has_the_language_s_plural_rule(lang: str) -> None:
    """The catalog's Plural-Forms picks the form CLDR's rule does, for every count."""
    cat = catalog(lang)
    cldr = to_gettext(Locale.parse(lang).plural_form)
    expression = re.search(r"plural=(.*);", cldr)
    assert expression is not None
    rule, ours = c2py(expression.group(1)), c2py(cat.plural_expr)
    assert cat.num_plurals == int(cldr.split("=")[1].split(";")[0]) and all(
        rule(n) == ours(n) for n in range(1000)), (
        f"the {lang} catalog's Plural-Forms is {cat.plural_forms}, CLDR's is {cldr}")


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_plural_forms_for_0_1_2_5_and_21(lang: str) -> None:
    """Every message with a number says each of 0, 1, 2, 5 and 21 in a form of the
    language's rule, its placeholders filled."""
    said = NullTranslations() if lang == "en" else translations(catalog(lang))
    rule = Locale.parse(lang).plural_form
    bad = []
    for m in _plurals(template()):
        one, many = ids(m)
        for n in COUNTS:
            text = said.ngettext(one, many, n)
            if lang == "en":
                expected = one if rule(n) == "one" else many
                if text != expected:
                    bad.append(f"{n}: {text!r}")
            try:
                out = text.format(**(_values(many) | {"n": n}))
            except (KeyError, ValueError, IndexError) as error:
                bad.append(f"{one!r} for {n}: {error!r}")
                continue
            if not out.strip() and one.strip():
                bad.append(f"{one!r} for {n}: nothing said")
    assert not bad, "\n".join(bad)


def test_english_counts_agree_with_their_words() -> None:
    """The source itself: "1 garnet", "21 garnets", "0 garnets", as CLDR's rule says."""
    from bot.texts.practice import changed_hands
    from bot.texts.words import garnets
    assert [garnets(n) for n in COUNTS] == ["0 garnets", "1 garnet", "2 garnets",
                                            "5 garnets", "21 garnets"]
    assert "changed hands once more" in changed_hands((3, "a", 1, -1), (9, "b"), 1)
    assert "changed hands 21 more times" in changed_hands((3, "a", 1, -1), (9, "b"), 21)


# ---- the pseudo-locale ------------------------------------------------------------------


def test_help_says_every_section_through_the_catalogs() -> None:
    """/help's section names come from bot/commands; each is a message of bot/texts."""
    assert set(SECTIONS) <= set(SECTION_NAMES)
    with language.speaking("ko"):
        assert "**플레이**" in summary(["cairo"], [("Play", ["`/help`"], False)])


def test_every_option_of_the_games_is_said_through_the_catalogs() -> None:
    """The rules line's words of each shipped game's options (the engine's English) are
    messages of bot/texts, and say the language spoken."""
    said = {w for key in game_keys() for spec in get_game(key).option_specs
            for w in [*(words for _, words in spec.words), spec.phrase] if w}
    assert said == set(OPTION_WORDS)
    tie = get_game("cairo").option_specs[0]
    with language.speaking("ja"):
        assert option_value(tie, "draw") == "同点は引き分け"


def test_the_pseudo_locale_is_longer_accented_and_bracketed() -> None:
    said = pseudo("There is no match #{number} on `/match id:{number}`.")
    assert said.startswith(OPEN) and said.endswith(CLOSE)
    assert "{number}" in said and "`/match id:{number}`" in said
    assert "There" not in said and len(said) >= 1.35 * len("There is no match #{number} "
                                                              "on `/match id:{number}`.")
    assert len(pseudo_catalog()) == len(template())


def test_a_text_says_the_pseudo_locale() -> None:
    from bot.texts.words import garnets
    with pseudo_locale():
        assert garnets(1_000).startswith(OPEN + "1,000 ") and garnets(1_000).endswith(CLOSE)
        with language.speaking("ko"):
            assert garnets(1).startswith(OPEN + "1 ")
    assert garnets(1_000) == "1,000 garnets"


def test_templates_say_their_words_through_the_catalogs() -> None:
    """A page's words are ``{{ _("...") }}`` or a text function's: no English in the
    templates' markup but garnet's name."""
    bare = []
    for page in sorted(TEMPLATES.glob("*.html")):
        source = re.sub(r"{{.*?}}|{%.*?%}|{#.*?#}", " ", page.read_text("utf-8"), flags=re.S)
        # what a reader sees: the text between tags, and the attributes read out
        shown = re.findall(r'(?:alt|aria-label|title|placeholder)="([^"]*)"', source)
        shown += re.sub(r"<[^>]*>", " ", source).split("\n")
        for text in shown:
            words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w != "garnet"]
            if words:
                bare.append(f"{page.name}: {text.strip()!r}")
    assert not bare, "\n".join(bare)


#: Words the golden season still says outside the catalogs, by where they come from:
#: not bot/texts' or the pages' (the games' titles, the commands' names, and the console
#: adapter's own lines and file names). A word not listed here is a sentence said outside
#: the catalogs, and fails.
OUTSIDE = {
    # engine/: the games' titles, proper nouns in every language
    "engine": {"Cairo", "Corridor", "Pathwayz", "Quoridor"},
    # bot/commands: the commands' names (a list of them, as typed)
    "commands": {"abort", "correct", "deck", "logchannel", "matches", "nomination",
                 "practice", "review", "takeback", "tournament", "web", "rematch", "event",
                 "export", "extend", "fine", "grant", "help", "history", "host", "hostrole",
                 "leaderboard", "ledger", "pause", "priority", "rating", "replay", "repost",
                 "resign", "resume", "time", "transfer", "void", "accept", "adjudicate",
                 "board", "cancel", "challenge", "decline", "dm", "first", "match", "move"},
    # bot/adapters/console: its own lines, and the files it names
    "console": {"write", "name", "message", "image", "file", "images", "exports", "csv",
                "png", "gif", "season", "standings", "ledger", "matches", "alt", "text"},
    # CLDR's English dates, which the pseudo-locale (English underneath) writes
    "dates": {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
              "Dec"},
}
_SAID = re.compile(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}|`[^`]*`|<[^<>]*>|@\w+")


def _leftovers(printed: str, script: str) -> dict[str, str]:
    """The words of the bot's lines said outside the catalogs: each with a line."""
    typed = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    own = {w for line in typed for w in re.findall(r"[A-Za-z]+", line.split(":", 1)[-1])}
    found: dict[str, str] = {}
    for line in printed.splitlines():
        if line in typed:
            continue
        rest = re.sub(r"^(bot|console)( \(to \w+ only\))?( \[[^\]]*\])?:", "", line.strip())
        before = None
        while before != rest:  # the catalogs' messages, innermost first
            before, rest = rest, _SAID.sub(" ", rest)
        for word in re.findall(r"[A-Za-z]{2,}", rest):
            if word not in own and not re.fullmatch(r"[A-Z]{1,3}", word):  # notation
                found.setdefault(word, line)
    return found


@pytest.mark.sqlite_only("the words said, not the database: the season itself is held to "
                         "its golden on PostgreSQL too (test_console_golden.py)")
async def test_the_pseudo_locale_finds_no_sentence_outside_the_catalogs(
        tmp_path: Path, database_url: str) -> None:
    """The golden season said in ``en-XA``: every word of the bot's lines comes from a
    message of the catalogs (bracketed), the script (names), or a known part of garnet
    not yet in them (``OUTSIDE``); and the bot said it without failing."""
    script = GOLDEN / "season.txt"
    with pseudo_locale():
        printed = await transcript(script, tmp_path, database_url)
    assert "something went wrong" not in printed
    assert printed.count(OPEN) > 500  # said in the pseudo-locale, not in English
    known = set().union(*OUTSIDE.values())
    outside = {w: line for w, line in _leftovers(printed, script.read_text("utf-8")).items()
               if w not in known}
    assert not outside, "said outside the catalogs:\n" + "\n".join(
        f"{w}: {line}" for w, line in sorted(outside.items()))
