"""What the select menus say (a game's groups, then a group's choices: Sigma Escape's
cards, then their placements), in the game's own words (``Game.choice_words``)."""

from __future__ import annotations

from bot.core.escape import plain
from bot.texts.language import _, n_, text
from engine.game import ChoiceWords


@text
def group_placeholder(seat: str, name: str, words: ChoiceWords) -> str:
    return f"{seat} ({plain(name)[:40]}): {words.choose_group}"


@text
def choice_placeholder(group: str, first: int, last: int, total: int,
                       words: ChoiceWords) -> str:
    return (_("{verb} {group}: {first}–{last} of {total}").format(
                verb=words.verb, group=group, first=first, last=last, total=total) if total > 25
            else f"{words.verb} {group}")


@text
def group_choices(group: str, total: int, shown: int, words: ChoiceWords) -> str:
    typed = words.typed.format(group=group)
    more = (_(" The first {shown} are here; type the others (`{typed}`).").format(
                shown=shown, typed=typed)
            if shown < total else "")
    return n_(
        "**{group}**: {total} legal {choice} — {hint}{more} Only you see this.",
        "**{group}**: {total} legal {choice}s — {hint}{more} Only you see this.",
        total).format(group=group, total=total, choice=words.choice, hint=words.hint, more=more)


@text
def stale() -> str:
    return _(
        "This menu is from an earlier position: the board has changed since. Use the "
        "menu under the newest board (or type your move).")


@text
def not_for_menu() -> str:
    return _("This match has no card menus.")


@text
def no_group(group: str, words: ChoiceWords) -> str:
    return _("You have no legal {choice} of {group} now; choose another {kind}.").format(
        choice=words.choice, group=plain(group), kind=words.group)
