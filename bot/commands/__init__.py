"""Every command, declared once (see ``spec``); the adapters and the help are built
from this list."""

from __future__ import annotations

from bot.commands import events, history, hosting, play, season, tournaments
from bot.commands.spec import Audience, Call, Command, Group, Reply, Services
from bot.core.messages import Response
from bot.texts import help as help_texts
from engine.registry import game_keys

SECTIONS = (play.SECTION, hosting.SECTION, history.SECTION, events.SECTION, season.SECTION,
            tournaments.SECTION)


async def _help(s: Services, c: Call) -> Response:
    return Response.say(help_text())


HELP = Command("help", "How to play and host with garnet", _help, section=play.SECTION)
COMMANDS: tuple[Command, ...] = (*play.COMMANDS, HELP, *hosting.COMMANDS, *history.COMMANDS,
                                 *events.COMMANDS, *season.COMMANDS, *tournaments.COMMANDS)
GROUPS: tuple[Group, ...] = (*events.GROUPS, *season.GROUPS, *tournaments.GROUPS)
BY_NAME = {c.name: c for c in COMMANDS}


def help_text() -> str:
    """The summary ``/help`` gives: every command by section, from the declarations."""
    sections = []
    for section in SECTIONS:
        shown = [c for c in COMMANDS if c.section == section]
        sections.append((section, [help_texts.usage(c.name, c.usage) for c in shown],
                         any(c.audience is not Audience.ANYONE for c in shown)))
    return help_texts.summary(game_keys(), sections)


__all__ = ["BY_NAME", "COMMANDS", "GROUPS", "Audience", "Call", "Command", "Group", "Reply",
           "Services", "help_text"]
