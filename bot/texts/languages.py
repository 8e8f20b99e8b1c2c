"""What garnet says about the languages it speaks (``/host language``, ``~ locale``)."""

from __future__ import annotations

from bot.texts.language import N_, _, text

# Each language by its own name: the same in every language (never said through _).
# TRANSLATORS: a language's own name, shown as it is everywhere: nothing to translate.
NAMES = {"en": N_("English"), "ko": "한국어", "ja": "日本語"}


@text
def language_set(lang: str, browser: bool) -> str:
    """The answer to ``/host language``, said in the language just chosen."""
    if browser:
        return _("garnet speaks {language} on this server now: its posts, boards and web "
                 "pages. A visitor's browser language chooses the pages' language, and "
                 "each member gets their answers in their own Discord language."
                 ).format(language=NAMES[lang])
    return _("garnet speaks {language} on this server now: its posts, boards and web "
             "pages. Each member gets their answers in their own Discord language."
             ).format(language=NAMES[lang])


@text
def locale_set(person: str, lang: str) -> str:
    """The console's answer to ``~ locale``: a player's own language."""
    return _("{person} reads garnet's answers in {language} now.").format(
        person=person, language=NAMES[lang])


@text
def unknown_locale(given: str) -> str:
    return _("`{given}` is no language garnet speaks: write one of {languages}.").format(
        given=given, languages=", ".join(NAMES))


@text
def lines(*said: str) -> str:
    """Texts one under the other, as one text: said again in another language, each
    line is (an answer put together from several texts stays one the asker reads in
    their language)."""
    return "\n".join(said)
