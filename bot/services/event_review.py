"""The automatic review of an event's Death Matches (``/host event create … review:yes``).

When a DM of such an event ends with a result, the computer reviews it exactly as
``/review`` does (``bot.services.review``: in the computer player's worker process,
in its fair queue, within ``REVIEW_SECONDS``) and posts the summary and the
plot in the match's channel. The end of the match is not held up: the watcher only
starts the review as a task of its own and returns; the event loop merely awaits
the worker. The post pings nobody (the result already did). A review that fails or
takes too long is logged and left out; ``/review`` can still be asked for.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import select

from bot.core.enums import MatchKind
from bot.core.messages import Pace, Post
from bot.core.refusal import Refusal
from bot.services.matches import Matches
from bot.services.matches.kit import MatchEnd
from bot.services.review import Reviews
from bot.services.web import linked
from bot.store.db import Database
from bot.store.models import Event, Match

log = logging.getLogger(__name__)


class EventReviews:
    def __init__(self, db: Database, reviews: Reviews, matches: Matches) -> None:
        self.db = db
        self.reviews = reviews
        self.matches = matches  # its ``deliver``, looked up when posting (adapters set it)
        self._tasks: set[asyncio.Task[None]] = set()

    async def wanted(self, match_id: int) -> tuple[str, int] | None:
        """(channel, number) of a DM whose event asks for reviews; else None."""
        async with self.db.session() as s:
            row = (await s.execute(
                select(Match.channel_id, Match.number, Match.kind, Event.review)
                .join(Event, Event.id == Match.event_id)
                .where(Match.id == match_id))).first()
        if row is None or row.kind != MatchKind.DM or not row.review:
            return None
        return row.channel_id, row.number

    async def match_ended(self, end: MatchEnd) -> list[Post]:
        """A match ended: start its review if its event asks for one (posts follow)."""
        if end.voided:
            return []
        found = await self.wanted(end.id)
        if found is None:
            return []
        task = asyncio.get_running_loop().create_task(
            self._post(end.guild_id, found[0], found[1]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return []

    async def _post(self, guild_id: str, channel_id: str, number: int) -> None:
        try:
            response = await self.reviews.review(guild_id, number)
        except asyncio.CancelledError:
            raise
        except Refusal as exc:  # the server's queue is full, or it took too long
            log.warning("the automatic review of match %s (server %s) was refused: %s",
                        number, guild_id, exc)
            return
        except Exception:
            log.exception("the automatic review of match %s (server %s) failed",
                          number, guild_id)
            return
        # Its plot and notes are on the match's page from now on.
        response = linked(response, await self.matches.kit.web_link(guild_id, f"/m/{number}"))
        if response.reply is None:
            return
        await self.matches.deliver(Post(response.reply.text, channel_id, image=response.reply.image,
                                        pings=(), pace=Pace.LOW))
        for post in response.posts:  # the link, when the review left it no room
            await self.matches.deliver(Post(post.text, channel_id, pings=(), pace=Pace.LOW))

    async def idle(self) -> None:
        """Wait until every review started has been posted (for tests and scripts)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self._tasks.clear()


__all__ = ["EventReviews"]
