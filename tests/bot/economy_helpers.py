"""Shared steps of the event, ledger, rating and leaderboard tests."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import select

from bot.core.messages import Actor, Response
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.services.economy import Economy
from bot.services.matches import DMSetup, Matches
from bot.store.models import LedgerEntry
from tests.bot.conftest import CHAN, GUILD, HOSTY, Harness


class Answering:
    """An Economy whose every request is answered as the adapters answer it: a refusal
    the service raises becomes the private Response that says why (``answered``)."""

    def __init__(self, economy: Economy) -> None:
        self.economy = economy

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Response]]:
        method = getattr(self.economy, name)

        async def call(*args: Any, **kwargs: Any) -> Response:
            return await answered(lambda: method(*args, **kwargs))

        return call


def eco(h: Harness) -> Any:
    """The harness's one Economy, answering refusals (see ``Answering``)."""
    return Answering(h.economy)


def economy_of(host: Matches) -> Economy:
    """An Economy built from a host's parts, as the console and the bot build theirs."""
    return Economy(host.db, host.clock, host.roles, host.config.dm_reward)


def public(response: Response) -> str:
    """The text of an answer said in the channel (a change everyone should see)."""
    assert response.reply is not None and not response.reply.ephemeral, response
    return response.reply.text


def private(response: Response) -> str:
    """The text of an answer to the asker alone (a read, or a refusal)."""
    assert response.reply is not None and response.reply.ephemeral, response
    return response.reply.text


def refused(response: Response) -> str:
    assert response.reply is not None and response.reply.ephemeral, response
    assert not response.posts
    return response.reply.text


async def make_event(h: Harness, name: str, players: Sequence[Actor] = (),
                     **options: object) -> int:
    """An event; unless asked, without elimination: these tests play the same players
    in DM after DM (the season's elimination has tests of its own)."""
    options.setdefault("eliminate", False)
    r = await eco(h).event_create(GUILD, HOSTY, name, **options)  # type: ignore[arg-type]
    assert r.reply is not None and not r.reply.ephemeral, r.reply
    found = re.search(r"\(#(\d+)\)", r.reply.text)
    assert found, r.reply.text
    event_id = int(found.group(1))
    if players:
        added = await eco(h).event_add(GUILD, HOSTY, players, str(event_id))
        assert added.reply is not None and not added.reply.ephemeral, added.reply
    return event_id


async def dm(h: Harness, a: Actor, b: Actor, event: str | None = None, channel: str = CHAN,
             game: str = "cairo", **kw: object) -> int:
    """A DM between a and b, started at once by lots; its match id."""
    r = await h.host.choosing.start_dm(Asker(GUILD, channel, HOSTY), DMSetup(game, [a, b],
                                                                             chooser="lots",
                              event=event, **kw))  # type: ignore[arg-type]
    assert r.posts, r.reply
    found = re.search(r"DM #(\d+)", r.posts[-1].text)
    assert found
    return int(found.group(1))


async def win_dm(h: Harness, winner: Actor, loser: Actor, event: str | None = None,
                 channel: str = CHAN) -> int:
    """A DM that ``loser`` resigns; its match id."""
    match_id = await dm(h, winner, loser, event, channel)
    r = await h.host.play.resign(Asker(GUILD, channel, loser), match_id)
    assert r.posts and "wins DM" in r.posts[0].text, r
    return match_id


async def entries(h: Harness, **where: object) -> list[LedgerEntry]:
    async with h.db.session() as s:
        query = select(LedgerEntry).order_by(LedgerEntry.id)
        for column, value in where.items():
            query = query.where(getattr(LedgerEntry, column) == value)
        return list((await s.scalars(query)).all())
