"""The help: what garnet does and every command, by section."""

from __future__ import annotations

from collections.abc import Sequence

from bot.texts.language import N_, _, text

#: /help's sections, as the commands name theirs (``SECTION`` of each bot/commands
#: module; tests/bot/test_catalogs.py checks that none is missing here)
SECTION_NAMES = (N_("Play"), N_("Hosting"), N_("History"), N_("Events and garnets"),
                 N_("The season's Death Match"), N_("Tournaments"), N_("Decks"),
                 N_("Web pages"))


@text
def usage(name: str, example: str) -> str:
    return f"`/{name}{' ' + example if example else ''}`"


@text
def summary(games: Sequence[str], sections: Sequence[tuple[str, list[str], bool]]) -> str:
    lines = [_("**garnet** hosts Death Matches and casual games."),
             _("Games: {listed}; `/help game:…` says how to type its moves and which "
               "`options:` it takes.").format(
                 listed=', '.join(f'`{key}`' for key in games)),
             _("Type your move in the match channel when it is your turn, or use `/move`. "
               "Buttons do the same as the commands they name.")]
    for title, commands, hosts in sections:
        note = _(" (some for hosts only)") if hosts else ""
        lines.append(f"• **{_(title)}**{note}: {', '.join(commands)}")
    return "\n".join(lines)


@text
def game(title: str, key: str, move_help: str, example: str,
         options: Sequence[tuple[str, str, str]]) -> str:
    """``/help game:KEY``: how to type a move and the options, as the game declares them
    (``options``: name, what it does, its values and default)."""
    lines = [
        _("**{title}** (`game:{key}`)").format(title=title, key=key),
        _("Moves: {move_help}.").format(move_help=move_help)]
    if example:
        lines.append(
            _("For example `{example}`, or `/move move:{example}`.").format(example=example))
    if options:
        lines.append(
            _(
                "Options, given to `/challenge`, `/dm` and `/host tournament create` "
                "as `options:` (several separated by spaces):"))
        lines += [f"• `{name}` — {what}; {values}." for name, what, values in options]
    else:
        lines.append(_("It takes no options."))
    return "\n".join(lines)


@text
def option_values(
    choices: Sequence[str] | None, low: int | None, high: int | None, default: str | int) -> str:
    """An option's values and default for ``/help game:``."""
    if choices is None:
        span = (
            _("a whole number from {low} to {high}").format(low=low, high=high)
            if low is not None and high is not None
            else _("a whole number"))
        return _("{span}, default {default}").format(span=span, default=default)
    return _("one of {listed}, default `{default}`").format(
        listed=", ".join(f"`{c}`" for c in choices), default=default)
