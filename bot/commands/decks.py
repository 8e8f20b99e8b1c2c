"""Commands of the decks of Sigma Escape: a host adds, lists and removes a server's
decks; anyone may see a deck's cards."""

from __future__ import annotations

from bot.commands.common import ANY_MATCH, DECK
from bot.commands.spec import Audience, Call, Command, Group, Kind, Option, Reply, Services
from bot.core.messages import Response
from bot.services.decks import MAX_KEY

SECTION = "Decks"
NAME = Option("name", Kind.TEXT, "The deck's name", required=True,
              suggest=DECK.suggest, max=MAX_KEY)


async def _add(s: Services, c: Call) -> Response:
    return await s.decks.add(c.guild_id, c.actor, c.options["file"], c.get("name"))


async def _list(s: Services, c: Call) -> Response:
    return await s.decks.listing(c.guild_id)


async def _show(s: Services, c: Call) -> Response:
    return await s.decks.show(c.asker, c.get("name"), c.get("match"))


async def _remove(s: Services, c: Call) -> Response:
    return await s.decks.remove(c.guild_id, c.actor, c.options["name"])


GROUPS = (Group("deck", "The decks of Sigma Escape: the shipped ones and this server's"),
          Group("host deck", "Add or remove this server's decks of Sigma Escape"))
COMMANDS = (
    Command("host deck add", "Add a deck of Sigma Escape to this server (a .toml or .json file)",
            _add, (
                Option("file", Kind.ATTACHMENT, "The deck file (.toml or .json, at most 64 KB)",
                       required=True),
                Option("name", Kind.TEXT, "Its name here (default: the file's name)",
                       max=MAX_KEY),
            ), audience=Audience.HOSTS, section=SECTION, usage="",
            once=True),
    Command("deck list", "The decks of Sigma Escape you can play with here", _list,
            section=SECTION),
    Command("deck show", "A deck's cards as a picture; without a name, your match's deck",
            _show, (
                Option("name", Kind.TEXT, "The deck (default: the deck of the match here)",
                       suggest=DECK.suggest, max=MAX_KEY),
                ANY_MATCH,
            ), reply=Reply.PRIVATE, section=SECTION),
    Command("host deck remove", "Remove one of this server's decks", _remove, (NAME,),
            audience=Audience.HOSTS, section=SECTION, once=True),
)
