"""The help: what garnet does and every command, by section."""

from __future__ import annotations

from collections.abc import Sequence


def usage(name: str, example: str) -> str:
    return f"`/{name}{' ' + example if example else ''}`"


def summary(games: Sequence[str], sections: Sequence[tuple[str, list[str], bool]]) -> str:
    lines = ["**garnet** hosts Death Matches and casual games.",
             f"Games: {', '.join(f'`{key}`' for key in games)}; `/help game:…` says how to "
             "type its moves and which `options:` it takes.",
             "Type your move in the match channel when it is your turn, "
             "or use `/move`. Buttons do the same as the commands they name."]
    for title, commands, hosts in sections:
        note = " (some for hosts only)" if hosts else ""
        lines.append(f"• **{title}**{note}: {', '.join(commands)}")
    return "\n".join(lines)


def game(title: str, key: str, move_help: str, example: str,
         options: Sequence[tuple[str, str, str]]) -> str:
    """``/help game:KEY``: how to type a move and the options, as the game declares them
    (``options``: name, what it does, its values and default)."""
    lines = [f"**{title}** (`game:{key}`)", f"Moves: {move_help}."]
    if example:
        lines.append(f"For example `{example}`, or `/move move:{example}`.")
    if options:
        lines.append("Options, given to `/challenge`, `/dm` and `/host tournament create` as "
                     "`options:` (several separated by spaces):")
        lines += [f"• `{name}` — {what}; {values}." for name, what, values in options]
    else:
        lines.append("It takes no options.")
    return "\n".join(lines)


def option_values(choices: Sequence[str] | None, low: int | None, high: int | None,
                  default: str | int) -> str:
    """An option's values and default for ``/help game:``."""
    if choices is None:
        span = f"a whole number from {low} to {high}" if low is not None and high is not None \
            else "a whole number"
        return f"{span}, default {default}"
    return f"one of {', '.join(f'`{c}`' for c in choices)}, default `{default}`"
