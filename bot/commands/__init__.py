"""Every command, declared once (see ``spec``); the adapters and the help are built
from this list."""

from __future__ import annotations

from bot.commands import (
    decks,
    events,
    history,
    hosting,
    languages,
    play,
    season,
    tournaments,
    web,
)
from bot.commands.spec import (
    Audience,
    Call,
    Command,
    Group,
    Kind,
    Option,
    Reply,
    Services,
    Suggest,
    misplaced,
)
from bot.core.messages import Response
from bot.texts import help as help_texts
from engine.registry import get_game

SECTIONS = (play.SECTION, hosting.SECTION, history.SECTION, events.SECTION, season.SECTION,
            tournaments.SECTION, decks.SECTION, web.SECTION)


async def _help(s: Services, c: Call) -> Response:
    name = c.get("game")
    if name:
        return Response.say(game_help(name))
    return Response.say(help_text(await s.games.offered(c.guild_id)))


HELP = Command("help", "How to play and host with garnet", _help, (
    Option("game", Kind.TEXT, "A game: how to type its moves and its options",
           suggest=Suggest.GAMES, max=32),
), section=play.SECTION, usage="game:quoridor")
COMMANDS: tuple[Command, ...] = (*play.COMMANDS, HELP, *hosting.COMMANDS, *languages.COMMANDS,
                                 *history.COMMANDS,
                                 *events.COMMANDS, *season.COMMANDS, *tournaments.COMMANDS,
                                 *decks.COMMANDS, *web.COMMANDS)
GROUPS: tuple[Group, ...] = (*hosting.GROUPS, *events.GROUPS, *season.GROUPS,
                              *tournaments.GROUPS, *decks.GROUPS, *web.GROUPS)
if misplaced(COMMANDS, GROUPS):  # a host's command where players would see it
    raise ValueError("; ".join(misplaced(COMMANDS, GROUPS)))
BY_NAME = {c.name: c for c in COMMANDS}
#: the commands buttons and menus may stand for: every command, and the menus' own
PRESSABLE = BY_NAME | {c.name: c for c in play.MENU_COMMANDS}


def _usages(commands: list[Command]) -> list[str]:
    """Each command's usage; a group's commands without an example in one:
    ``/deck list|show``, and the hosts' commands of a group always so:
    ``/host deck add|remove`` (the help stays within one Discord message)."""
    out: list[str] = []
    leaves: list[str] = []
    for command in commands:
        if command.group is not None and (not command.usage or command.for_hosts):
            if leaves and not out[-1].startswith(f"`/{command.group} "):
                leaves = []
            leaves.append(command.leaf)
            text = help_texts.usage(f"{command.group} {'|'.join(leaves)}", "")
            if len(leaves) > 1:
                out[-1] = text
            else:
                out.append(text)
        else:
            leaves = []
            out.append(help_texts.usage(command.name, command.usage))
    return out


def help_text(games: list[str]) -> str:
    """The summary ``/help`` gives: every command by section, from the declarations."""
    sections = []
    for section in SECTIONS:
        # The players' commands first, then the hosts' (``/host …``), each in the
        # order declared: a group's commands come together.
        shown = sorted((c for c in COMMANDS if c.section == section),
                       key=lambda c: c.for_hosts)
        sections.append((section, _usages(shown),
                         any(c.audience is not Audience.ANYONE for c in shown)))
    return help_texts.summary(games, sections)


def game_help(name: str) -> str:
    """``/help game:KEY``: the game's move help and options, as it declares them."""
    game = get_game(name)
    options = [(spec.name, spec.help,
                help_texts.option_values(spec.choices, spec.minimum, spec.maximum, spec.default))
               for spec in game.option_specs]
    return help_texts.game(game.title, game.key, game.move_help, game.move_example, options)


__all__ = [
    "BY_NAME",
    "COMMANDS",
    "GROUPS",
    "PRESSABLE",
    "Audience",
    "Call",
    "Command",
    "Group",
    "Reply",
    "Services",
    "help_text",
]
