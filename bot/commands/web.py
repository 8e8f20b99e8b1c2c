"""Commands of the public web pages: a host turns a server's pages on or off; a player
hides their name from them or shows it again (``bot.services.web``). Self-contained:
the hosts' two commands may move under another top-level command as one block."""

from __future__ import annotations

from bot.commands.spec import Audience, Call, Command, Group, Services
from bot.core.messages import Response
from bot.services.web import PublicPages

SECTION = "Web pages"


def _pages(s: Services) -> PublicPages:
    if s.web is None:
        raise RuntimeError("bot.app builds the web pages' service with the others")
    return s.web


async def _on(s: Services, c: Call) -> Response:
    return await _pages(s).turn_on(c.asker)


async def _off(s: Services, c: Call) -> Response:
    return await _pages(s).turn_off(c.asker)


async def _hide(s: Services, c: Call) -> Response:
    return await _pages(s).hide(c.asker, hidden=True)


async def _show(s: Services, c: Call) -> Response:
    return await _pages(s).hide(c.asker, hidden=False)


GROUPS = (Group("host web", "This server's public web pages: live boards, standings, "
                "the leaderboard"),
          Group("web", "Your name on the public web pages"))
COMMANDS = (
    Command("host web on", "Put this server's pages on the web; answers with their address",
            _on, audience=Audience.HOSTS, section=SECTION, once=True),
    Command("host web off", "Take every web page of this server down at once", _off,
            audience=Audience.HOSTS, section=SECTION, once=True),
    Command("web hide", "Hide your name on every server's web pages (a neutral label "
            "instead)", _hide, section=SECTION, once=True),
    Command("web show", "Show your name on the web pages again", _show, section=SECTION,
            once=True),
)
