"""A real host on a real, migrated database (TEST_DATABASE_URL, see tests/database.py),
with virtual time."""

from __future__ import annotations

import inspect
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
from bot.services.economy import Economy
from bot.services.matches import Matches
from bot.store.db import Database

ALICE = Actor("alice", "Alice")
BOB = Actor("bob", "Bob")
CAROL = Actor("carol", "Carol")
DAVE = Actor("dave", "Dave")
HOST_ROLE = Role("host-role", "Host")
HOSTY = Actor("hosty", "Hosty", roles=frozenset({HOST_ROLE.id}))
GUILD = "g1"
CHAN = "c1"


class Harness:
    def __init__(self, services: Services, clock: VirtualClock, db: Database, url: str
                 ) -> None:
        self.services = services
        self.host = asking(services.matches)
        self.clock = clock
        self.db = db
        self.url = url
        self.delivered: list[Post] = []
        self.economy: Economy = services.economy

    async def deliver(self, post: Post) -> None:
        self.delivered.append(post)
        await self.host.posted(post)

    def texts(self) -> list[str]:
        return [p.text for p in self.delivered]

    async def casual(self, game: str = "cairo", first: str = "me", **kw: object) -> int:
        """Alice challenges Bob, Bob accepts; Alice moves first. Returns the match id."""
        r = await self.host.lobby.challenge(Asker(GUILD, CHAN, ALICE), game, [BOB], first=first,
                                            **kw)  # type: ignore[arg-type]
        assert r.reply is not None and not r.reply.ephemeral, r.reply
        match_id = int(re.search(r"#(\d+)", r.reply.text).group(1))  # type: ignore[union-attr]
        started = await self.host.lobby.answer(Asker(GUILD, CHAN, BOB), match_id, accept=True)
        assert started.posts and started.posts[0].image is not None
        return match_id

    async def play(self, actor: Actor, text: str) -> Response:
        return await self.host.play.typed(Asker(GUILD, CHAN, actor), text)


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
            await self.matches.timing.board_posted(post.turn, self.matches.clock.now())

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.matches, name)
        if name in OWNERS:
            return Asked(self, found)
        return self.wrapped(found)

    def wrapped(self, found: Any) -> Any:
        if not inspect.iscoroutinefunction(found):
            return found

        async def ask(*args: Any, **kwargs: Any) -> Any:
            result = await answered(lambda: found(*args, **kwargs))
            if isinstance(result, Response):
                for post in ([result.reply] if result.reply else []) + result.posts:
                    await self.posted(post)
            return result

        return ask


# The collaborators of ``Matches`` that own the requests (``h.host.play.move``).
OWNERS = frozenset({"choosing", "lobby", "play", "menus", "viewing", "controls", "corrections",
                    "courtesy", "lookup", "practice", "outages", "timing"})


class Asked:
    """One collaborator of the matches, asked as ``Asking`` asks; what a test sets on
    it is set on the collaborator."""

    def __init__(self, asking: Asking, owner: Any) -> None:
        object.__setattr__(self, "_asking", asking)
        object.__setattr__(self, "_owner", owner)

    def __getattr__(self, name: str) -> Any:
        return self._asking.wrapped(getattr(self._owner, name))

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._owner, name, value)


def asking(matches: Matches) -> Any:
    return Asking(matches)


@pytest.fixture
async def h(services: Services, database_url: str) -> AsyncIterator[Harness]:
    """The match service of ``services`` (``tests.fixtures``) as an adapter asks it; its
    posts are kept in ``delivered``."""
    matches = services.matches
    h = Harness(services, matches.clock, matches.kit.db, database_url)
    matches.deliver = h.deliver
    # The server's roles as the adapter shows them: HOST_ROLE "Host" resolves to its id.
    await matches.roles.adopt(GUILD, [HOST_ROLE, Role("players", "Players")])
    yield h


def console_for(h: Harness, image_dir: Path, out: Any, hosts: tuple[str, ...] = ("host",)
                ) -> Console:
    """A console on the harness's services; the matches' own posts go to it."""
    console = Console(h.services, image_dir, out=out, hosts=hosts)
    h.host.matches.deliver = console.show
    h.host.matches.threads = console.thread_in
    return console
