"""The help: what garnet does and every command, by section."""

from __future__ import annotations

from collections.abc import Sequence


def usage(name: str, example: str) -> str:
    return f"`/{name}{' ' + example if example else ''}`"


def summary(games: Sequence[str], sections: Sequence[tuple[str, list[str], bool]]) -> str:
    lines = ["**garnet** hosts Death Matches and casual games.",
             f"Games: {', '.join(games)}.",
             "Type your move in the match channel when it is your turn (e.g. `D left`), "
             "or use `/move`. Buttons do the same as the commands they name."]
    for title, commands, hosts in sections:
        note = " (some for hosts only)" if hosts else ""
        lines.append(f"• **{title}**{note}: {', '.join(commands)}")
    return "\n".join(lines)
