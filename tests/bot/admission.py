"""Starting matches as the admission at Discord's limit judges them
(``bot.services.pressure``, ``bot.services.budget``), for the tests of both."""

from __future__ import annotations

from bot.core.messages import Actor
from bot.core.requests import Asker
from tests.bot.conftest import Harness


async def started(h: Harness, guild: str, n: int) -> str | None:
    """A casual match between two new players in a channel of its own on ``guild``
    (``{guild}c{n}``): None when it started, else the refusal."""
    a, b = Actor(f"{guild}a{n}", "A"), Actor(f"{guild}b{n}", "B")
    r = await h.host.lobby.challenge(Asker(guild, f"{guild}c{n}", a), "cairo", [b])
    if r.reply is not None and r.reply.ephemeral:
        return r.reply.text
    r = await h.host.lobby.answer(Asker(guild, f"{guild}c{n}", b), None, accept=True)
    return None if r.posts else r.reply.text if r.reply else "?"


async def challenged(h: Harness, guild: str) -> str | None:
    """A challenge on ``guild`` (not accepted: it starts nothing yet): None when it was
    made, else the refusal."""
    a, b = Actor(f"{guild}a", "A"), Actor(f"{guild}b", "B")
    r = await h.host.lobby.challenge(Asker(guild, f"{guild}c", a), "cairo", [b])
    return r.reply.text if r.reply is not None and r.reply.ephemeral else None


async def first_move(h: Harness, guild: str, n: int) -> None:
    """The first move of the match ``started`` made (Cairo Corridor's ``D left``, by
    whoever moves first): the budget measures a match from its first move on."""
    channel = f"{guild}c{n}"
    live = h.services.matches.kit.live.for_seat(guild, channel, f"{guild}a{n}")
    assert live is not None and live.to_move is not None and live.ply == 0
    mover = Actor(live.users[live.to_move], "X")
    moved = await h.host.play.typed(Asker(guild, channel, mover), "D left")
    assert moved.posts and live.ply == 1
    h.services.matches.kit.budget.used()  # seen moving (as the board's request would be)
