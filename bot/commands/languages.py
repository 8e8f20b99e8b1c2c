"""``/host language``: the language garnet speaks in a server (``bot.services.languages``)."""

from __future__ import annotations

from bot.commands.hosting import SECTION
from bot.commands.spec import Audience, Call, Command, Kind, Option, Services
from bot.core.messages import Response

# Each language by its own name: a host finds theirs whatever language Discord shows.
LANGUAGE = Option("lang", Kind.TEXT, "The language of the server's posts, boards and pages",
                  required=True,
                  choices=(("English", "en"), ("한국어", "ko"), ("日本語", "ja")))


async def _language(s: Services, c: Call) -> Response:
    return await s.languages.choose(c.asker, c.options["lang"], c.get("browser"))


COMMANDS = (
    Command("host language", "The language garnet speaks in this server (hosts)", _language, (
        LANGUAGE,
        Option("browser", Kind.BOOL, "Web pages in each visitor's browser language "
               "(default no)"),
    ), audience=Audience.HOSTS, section=SECTION, usage="lang:ko", once=True),
)
