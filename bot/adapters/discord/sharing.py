"""What the processes of one bot share with Discord: the token's REST limits, through a
shared proxy (``DISCORD_API_BASE``), and the gateway's session starts (IDENTIFY turns,
``bot.services.identify``).

discord.py sends every REST request to ``Route.BASE``; pointing it at a proxy such as
``@discordjs/proxy`` or nirn-proxy lets one process use what an idle one leaves of the
global limit, where a fixed share (``GLOBAL_REQUESTS_PER_SECOND`` = 50 ÷ processes)
wastes it. garnet's own pacer still orders each process's requests (boards first)
before they leave it.
"""

from __future__ import annotations

import discord.http

from bot.adapters.discord.pacing import GlobalPacer

#: discord.py's API version, as its own Route.BASE has it
API_VERSION = 10
DISCORD_API = "https://discord.com/api"
#: behind a proxy, this process's requests on their way at once (``GlobalPacer``): at
#: 50 a second, a third of a second of the proxy's queue; the rest wait in the pacer
#: in order of urgency
IN_FLIGHT = 16


def send_through(base: str | None) -> None:
    """Send this process's REST requests to ``base`` (a proxy), or to Discord (None)."""
    discord.http.Route.BASE = f"{base or DISCORD_API}/v{API_VERSION}"


def proxied_pacer(per_second: int) -> GlobalPacer:
    """The pacer of a process behind a shared proxy: its own order and rate in front of
    the proxy, and no more than ``IN_FLIGHT`` requests in the proxy's queue."""
    return GlobalPacer(per_second, in_flight=IN_FLIGHT)
