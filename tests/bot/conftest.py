"""A real host on a real, migrated database (TEST_DATABASE_URL, see tests/database.py),
with virtual time."""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.console import Console
from bot.commands.spec import Services
from bot.core.clock import VirtualClock
from bot.core.messages import Actor, Post, Response, Role, TurnStart
from bot.core.refusal import answered
from bot.core.requests import Asker
from bot.services.decks import Decks
from bot.services.economy import Economy
from bot.services.history import History
from bot.services.matches import MatchConfig, Matches
from bot.services.season import Season
from bot.services.tournaments.host import Tournaments
from bot.store.db import Database, open_database

ALICE = Actor("alice", "Alice")
BOB = Actor("bob", "Bob")
CAROL = Actor("carol", "Carol")
DAVE = Actor("dave", "Dave")
HOST_ROLE = Role("host-role", "Host")
HOSTY = Actor("hosty", "Hosty", roles=frozenset({HOST_ROLE.id}))
GUILD = "g1"
CHAN = "c1"


class Harness:
    def __init__(self, host: Matches, clock: VirtualClock, db: Database, url: str) -> None:
        self.host = host
        self.clock = clock
        self.db = db
        self.url = url
        self.delivered: list[Post] = []
        # The one Economy of this harness, built from the host's parts (see ``h``).
        self.economy: Economy

    async def deliver(self, post: Post) -> None:
        self.delivered.append(post)
        await self.host.posted(post)

    def texts(self) -> list[str]:
        return [p.text for p in self.delivered]

    async def casual(self, game: str = "cairo", first: str = "me", **kw: object) -> int:
        """Alice challenges Bob, Bob accepts; Alice moves first. Returns the match id."""
        r = await self.host.challenge(Asker(GUILD, CHAN, ALICE), game, [BOB], first=first, **kw)  # type: ignore[arg-type]
        assert r.reply is not None and not r.reply.ephemeral, r.reply
        match_id = int(re.search(r"#(\d+)", r.reply.text).group(1))  # type: ignore[union-attr]
        started = await self.host.answer(Asker(GUILD, CHAN, BOB), match_id, accept=True)
        assert started.posts and started.posts[0].image is not None
        return match_id

    async def play(self, actor: Actor, text: str) -> Response:
        return await self.host.typed(Asker(GUILD, CHAN, actor), text)


class Asking:
    """The match service as an adapter uses it: a refusal comes back as the private
    answer that says why (``bot.core.refusal.answered``), everything else as is; and a
    board that starts a turn is reported out at once, as an adapter does once it has
    posted it (``hold_boards``: kept in ``held`` for the test to report)."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self.hold_boards = False
        self.held: list[TurnStart] = []

    async def posted(self, post: Post) -> None:
        if post.turn is None:
            return
        if self.hold_boards:
            self.held.append(post.turn)
        else:
            await self.matches.board_posted(post.turn, self.matches.clock.now())

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.matches, name)
        if not inspect.iscoroutinefunction(found):
            return found

        async def ask(*args: Any, **kwargs: Any) -> Any:
            result = await answered(lambda: found(*args, **kwargs))
            if isinstance(result, Response):
                for post in ([result.reply] if result.reply else []) + result.posts:
                    await self.posted(post)
            return result

        return ask


def asking(matches: Matches) -> Any:
    return Asking(matches)


@pytest.fixture
async def h(database_url: str) -> AsyncIterator[Harness]:
    url = database_url
    db = await open_database(url)
    clock = VirtualClock()
    h = Harness(None, clock, db, url)  # type: ignore[arg-type]
    host = Matches(db, clock, MatchConfig(), deliver=h.deliver, rng=random.Random(7))
    h.host = asking(host)
    h.economy = Economy(db, clock, host.roles, host.config.dm_reward)
    await host.start()
    # The server's roles as the adapter shows them: HOST_ROLE "Host" resolves to its id.
    await host.roles.adopt(GUILD, [HOST_ROLE, Role("players", "Players")])
    yield h
    await host.stop()
    await db.close()


def console_for(h: Harness, image_dir: Path, out: Any, hosts: tuple[str, ...] = ("host",)
                ) -> Console:
    """A console on the harness's services; the matches' own posts go to it."""
    matches = h.host.matches
    tournaments = Tournaments(h.db, h.clock, matches, matches.roles, random.Random(7))
    matches.watch_ends(tournaments.match_ended)
    services = Services(matches=matches, economy=h.economy,
                        history=History(h.db, matches.renderer), roles=matches.roles,
                        season=Season(h.db, h.clock, matches.roles, matches),
                        tournaments=tournaments,
                        decks=Decks(h.db, h.clock, matches.roles, matches))
    console = Console(services, image_dir, out=out, hosts=hosts)
    matches.deliver = console.show
    matches.threads = console.thread_in
    return console
