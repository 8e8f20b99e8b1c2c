"""What the select menus say (a game's groups, then a group's choices: Sigma Escape's
cards, then their placements), in the game's own words (``Game.choice_words``)."""

from __future__ import annotations

from bot.core.escape import plain
from engine.game import ChoiceWords


def group_placeholder(seat: str, name: str, words: ChoiceWords) -> str:
    return f"{seat} ({plain(name)[:40]}): {words.choose_group}"


def choice_placeholder(group: str, first: int, last: int, total: int,
                       words: ChoiceWords) -> str:
    return (f"{words.verb} {group}: {first}–{last} of {total}" if total > 25
            else f"{words.verb} {group}")


def group_choices(group: str, total: int, shown: int, words: ChoiceWords) -> str:
    typed = words.typed.format(group=group)
    more = (f" The first {shown} are here; type the others (`{typed}`)."
            if shown < total else "")
    return (f"**{group}**: {total} legal {words.choice}{'s' if total != 1 else ''} — "
            f"{words.hint}{more} Only you see this.")


def stale() -> str:
    return ("This menu is from an earlier position: the board has changed since. "
            "Use the menu under the newest board (or type your move).")


def not_for_menu() -> str:
    return "This match has no card menus."


def no_group(group: str, words: ChoiceWords) -> str:
    return (f"You have no legal {words.choice} of {plain(group)} now; "
            f"choose another {words.group}.")
