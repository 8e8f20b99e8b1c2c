"""The tournament world: every service (``bot.app.build_services``) on the test
database with virtual time, its posts kept and their boards reported out at once, as
an adapter does; the ``tournament_world`` fixture of ``tests.fixtures`` builds it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.app import build_services
from bot.commands.spec import Services
from bot.core.clock import VirtualClock
from bot.core.messages import Post, Role
from bot.core.refusal import answered
from bot.services.matches import MatchConfig
from bot.store.db import Database, open_database

GUILD = "g1"
# A heartbeat a minute: the tournaments wait hours with matches running.
CONFIG = MatchConfig(render_processes=0, heartbeat_every=60)


@dataclass
class TournamentWorld:
    url: str
    clock: VirtualClock
    db: Database
    services: Services
    posts: list[Post]

    async def ask(self, name: str, *args: object, **kw: object) -> list[str]:
        """A request to the tournaments service as an adapter makes it: the texts of its
        answer and posts (a refusal is the answer)."""
        method = getattr(self.services.tournaments, name)
        response = await answered(lambda: method(*args, **kw))
        posts = ([response.reply] if response.reply else []) + response.posts
        return [p.text for p in posts]

    def said(self) -> str:
        return "\n".join(p.text for p in self.posts)

    async def close(self) -> None:
        await self.services.matches.stop()
        await self.db.close()


async def tournament_world_on(url: str, clock: VirtualClock) -> TournamentWorld:
    """The services started on ``url`` (a restart, when they ran on it before)."""
    db = await open_database(url)
    posts: list[Post] = []

    async def deliver(post: Post) -> None:
        posts.append(post)
        if post.turn is not None:  # out at once, as an adapter reports it
            await services.matches.board_posted(post.turn, clock.now())

    services = build_services(db, clock, CONFIG, deliver=deliver, rng=random.Random(3))
    world = TournamentWorld(url, clock, db, services, posts)
    await services.matches.start()
    await services.roles.adopt(GUILD, [Role("host-role", "Host")])
    return world
