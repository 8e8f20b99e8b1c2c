"""The tournament world: every service (``bot.app.build_services``) on the test
database with virtual time, its posts kept and their boards reported out at once, as
an adapter does; the ``tournament_world`` fixture of ``tests.fixtures`` builds it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.app import build_services
from bot.commands.spec import Services
from bot.core.clock import VirtualClock
from bot.core.messages import Actor, Post, Role
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.services.matches import MatchConfig
from bot.services.matches.live import LiveMatch
from bot.services.tournaments.host import Setup, TournamentSettings
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
            await services.matches.timing.board_posted(post.turn, clock.now())

    services = build_services(db, clock, CONFIG, deliver=deliver, rng=random.Random(3))
    world = TournamentWorld(url, clock, db, services, posts)
    await services.matches.start()
    await services.roles.adopt(GUILD, [Role("host-role", "Host")])
    return world


# The small tournaments of the drop, no-show and host tests: four players in "c1".
HOST = Actor("host", "host", roles=frozenset({"host-role"}))
CHAN = "c1"
PEOPLE = [Actor(n, n.capitalize()) for n in ("ann", "ben", "cat", "dan")]


async def swiss_of_four(w: TournamentWorld, setup: Setup, rounds: int = 2) -> str:
    """A Swiss of ``PEOPLE`` opened, entered and started: what its start said."""
    texts = await w.ask("create", Asker(GUILD, CHAN, HOST),
                        TournamentSettings("Weekly", "cairo", "swiss", rounds=rounds, setup=setup))
    assert "opened" in texts[0], texts
    await w.ask("add", Asker(GUILD, CHAN, HOST), PEOPLE)
    texts = await w.ask("start", Asker(GUILD, CHAN, HOST))
    assert "begins with 4 players" in texts[0], texts
    return "\n".join(texts)


def running(w: TournamentWorld) -> dict[int, LiveMatch]:
    """The matches being played, by number."""
    return {live.number: live for live in w.services.matches.live.values()}


async def resign(w: TournamentWorld, number: int, who: str) -> None:
    """Match ``number``'s player ``who`` resigns; the posts kept as an adapter would."""
    match = running(w)[number]
    r = await w.services.matches.play.resign(Asker(GUILD, match.channel_id, Actor(who, who)),
                                             number)
    assert r.posts, r
    w.posts += r.posts


async def log_of(w: TournamentWorld) -> list[object]:
    """The first tournament's log."""
    loaded = await w.services.tournaments.flow.load(1)
    return list(loaded.events)
