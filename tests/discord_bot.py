"""The Discord world: the real bot (discord.py's parsing and command tree, every
service, the test database) with Discord faked at the HTTP boundary
(``tests.fake``); the ``world`` fixture of ``tests.fixtures`` builds it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.adapters.discord.client import GarnetBot
from bot.app import build_discord_bot, watch_bot
from bot.config import Settings
from bot.core.clock import VirtualClock
from bot.core.messages import Actor
from bot.services.observe import Observatory
from bot.services.users import remember
from bot.store.db import Database
from bot.store.models import Match, MatchPlayer
from bot.store.numbers import next_number
from tests.fake.discord_fake import FakeDiscord, settle
from tests.fake.discord_world import (
    ALICE,
    BOB,
    CHANNEL_ID,
    FOLLOWUP,
    GUILD_ID,
    HANA,
    MESSAGES,
    ORIGINAL,
    Call,
    Person,
)

T0 = 1_700_000_000.0  # when the matches of ``finished_matches`` were played


@dataclass
class World:
    fake: FakeDiscord
    bot: GarnetBot
    clock: VirtualClock
    baseline: set[asyncio.Task[Any]]
    settings: Settings
    db: Database

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database, as after a deploy."""
        await self.bot.close()
        self.bot = await start_bot(self.fake, self.settings, self.db, self.clock)
        self.baseline = set(asyncio.all_tasks())

    async def slash(self, person: Person, name: str, **values: Any) -> list[Call]:
        """Run a slash command; the requests it caused."""
        return await self._feed(lambda: self.state.parse_interaction_create(
            self.fake.slash(self.bot.tree, person, name, **values)))

    async def press(self, person: Person, message: dict[str, Any], custom_id: str) -> list[Call]:
        return await self._feed(lambda: self.state.parse_interaction_create(
            self.fake.press(person, message, custom_id)))

    async def say(self, person: Person, content: str, **kw: Any) -> tuple[list[Call], str]:
        """A message typed in the match channel; the requests it caused and its id."""
        payload = self.fake.message_create(person, content, **kw)
        calls = await self._feed(lambda: self.state.parse_message_create(payload))
        return calls, payload["id"]

    async def _feed(self, event: Any) -> list[Call]:
        start = len(self.fake.calls)
        event()
        await settle(self.baseline)
        return self.fake.calls[start:]

    async def advance(self, seconds: float) -> list[Call]:
        start = len(self.fake.calls)
        await self.clock.advance(seconds)
        await settle(self.baseline)
        return self.fake.calls[start:]

    @property
    def state(self) -> Any:
        """The client's gateway state, whose parsers take raw event payloads."""
        return self.bot._connection

    def live(self) -> Any:
        (live,) = self.bot.services.matches.live.values()
        return live


@asynccontextmanager
async def serving(world: World, **options: Any) -> AsyncIterator[Observatory]:
    """The bot's metrics server on a free port of loopback (``Observatory``'s
    ``options``), watching the bot as the composition root makes it."""
    observatory = Observatory("127.0.0.1", 0, **options)
    watch_bot(observatory, world.bot, world.db)
    await observatory.start()
    try:
        yield observatory
    finally:
        await observatory.stop()


async def start_bot(fake: FakeDiscord, settings: Settings, db: Database,
                    clock: VirtualClock) -> GarnetBot:
    """Log in (REST, faked) and receive the server (GUILD_CREATE), as on connecting."""
    bot = build_discord_bot(settings, db, clock=clock)
    await bot.login("token")
    state: Any = bot._connection
    before = set(asyncio.all_tasks())
    state.parse_guild_create(fake.guild_payload())
    await settle(before)  # on_guild_available: the host role named "Host" is adopted
    return bot


def sends(calls: list[Call]) -> list[Call]:
    """Requests that show something to someone (not acknowledgements, nor edits that
    only take buttons off; the edit that answers a deferral shows its answer)."""
    return [c for c in calls if c.callback_type not in (5, 6) and c.method != "DELETE"
            and not (c.method == "PATCH" and "content" not in (c.body or {}))]


async def challenge_accepted(world: World) -> int:
    """Alice challenges Bob (Alice first), Bob presses Accept: match running."""
    (call,) = await world.slash(ALICE, "challenge", opponent=BOB, game="cairo", first="me")
    await world.press(BOB, call.sent, call.buttons[0]["custom_id"])
    return int(world.live().id)


async def feed(world: World, payload: dict[str, Any]) -> list[Call]:
    """Run an interaction until the bot is done with it; the calls it made."""
    start = len(world.fake.calls)
    world.state.parse_interaction_create(payload)
    await settle(world.baseline)
    return world.fake.calls[start:]


async def sub(world: World, person: Person, group: str, command_name: str, /,
              focused: str | None = None, **values: Any) -> list[Call]:
    """A subcommand (``/group name``; ``group`` may be a group of ``/host``: ``host
    tournament``) as the gateway sends it; the requests it caused."""
    return await feed(world, world.fake.subcommand(
        world.bot.tree, person, group, command_name, focused=focused, **values))


def old_message(world: World, custom_id: str, label: str = "Press") -> dict[str, Any]:
    """A message in the channel with one button, as Discord keeps it (posted long ago)."""
    return world.fake.message_payload(CHANNEL_ID, {
        "content": "an old message",
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": label, "custom_id": custom_id}]}]})


async def press_old(world: World, person: Person, custom_id: str) -> list[Any]:
    """A press of ``custom_id`` on an old message (``old_message``)."""
    return await world.press(person, old_message(world, custom_id), custom_id)


async def finished_matches(world: World, count: int) -> None:
    """``count`` finished matches Alice won against Bob, straight into the database."""
    alice, bob = str(ALICE.id), str(BOB.id)
    async with world.db.session() as s, s.begin():
        await remember(s, str(GUILD_ID), [Actor(alice, "Alice"), Actor(bob, "Bob")])
        for k in range(count):
            match = Match(guild_id=str(GUILD_ID),
                          number=await next_number(s, str(GUILD_ID), "match"),
                          channel_id="1", game="cairo", kind="casual",
                          status="finished", seats=2, options={}, time_control={},
                          created_at=T0, finished_at=T0 + k, winner_seat=0,
                          end_reason="rules")
            s.add(match)
            await s.flush()
            s.add_all([MatchPlayer(match_id=match.id, user_id=alice, order=0, seat=0),
                       MatchPlayer(match_id=match.id, user_id=bob, order=1, seat=1)])


def slow_uploads(world: World, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every message with a file takes ``seconds`` to reach Discord (a slow upload or
    a rate-limit wait): the message is made, and timestamped, when it arrives."""
    from discord.http import HTTPClient
    from discord.webhook.async_ import AsyncWebhookAdapter

    channel_send, webhook_send = HTTPClient.request, AsyncWebhookAdapter.request

    async def channel(http: Any, route: Any, **kw: Any) -> Any:
        if kw.get("files") or kw.get("form"):
            await world.clock.advance(seconds)
        return await channel_send(http, route, **kw)

    async def webhook(adapter: Any, route: Any, session: Any, **kw: Any) -> Any:
        if kw.get("files"):
            await world.clock.advance(seconds)
        return await webhook_send(adapter, route, session, **kw)

    monkeypatch.setattr(HTTPClient, "request", channel)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook)


# --- Shared by the Discord tests (they never import each other) ---

UPLOAD = 3.0
RETRY_AFTER = 4.0
Route = tuple[str, str]
REPLY: Route = ("POST", MESSAGES)  # a typed move's answer, a channel post
EDIT: Route = ("PATCH", ORIGINAL)  # a deferred command's answer
FOLLOW: Route = ("POST", FOLLOWUP)  # a button's or a menu's answer


async def slowly(world: World, monkeypatch: pytest.MonkeyPatch, route: Route,
                 act: Callable[[], Awaitable[list[Call]]], files: bool = True) -> float:
    """Run ``act`` with every upload taking ``UPLOAD`` s and a 429 on ``route``; what
    the player to move then has used of their turn."""
    slow_uploads(world, monkeypatch, UPLOAD)
    world.fake.fail(*route, 429, retry_after=RETRY_AFTER)
    start = world.clock.now()
    calls = await act()
    assert [c.status for c in calls if (c.method, c.path) == route][:1] == [429], calls
    boards = [c for c in calls if c.ok and (c.method, c.path) == route
              and (bool(c.files) or not files)]
    assert len(boards) == 1, calls
    waited = world.clock.now() - start
    assert waited >= RETRY_AFTER + (UPLOAD if files else 0) - 1e-6
    live = world.live()
    assert live.waiting is None  # the turn started, when its board was out
    return live.elapsed(world.clock.now())


EVERYTHING = discord.Permissions.all()
EVERYTHING.administrator = False  # overwrites still count


def bot_may_do_all(world: World) -> None:
    """The fake answers REST calls as if garnet held every permission where none is
    denied, but its member in the client's cache has only @everyone's: a role update
    makes the cache agree (what garnet reads before ``/resume``)."""
    guild = world.bot.get_guild(GUILD_ID)
    assert guild is not None
    world.state.parse_guild_role_update({"guild_id": str(GUILD_ID), "role": {
        "id": str(GUILD_ID), "name": "@everyone", "position": 0, "color": 0, "hoist": False,
        "icon": None, "unicode_emoji": None, "managed": False, "mentionable": False,
        "flags": 0, "permissions": str(EVERYTHING.value)}})


async def dm_in_thread(world: World) -> tuple[int, Person]:
    """A DM by lots in a new thread of the match channel; its thread and first mover."""
    bot_may_do_all(world)
    await world.slash(HANA, "dm", game="cairo", player1=ALICE, player2=BOB, chooser="lots",
                      thread=True, turn=60, banks=0)
    live = world.live()
    first = next(p for p in (ALICE, BOB) if str(p.id) == live.users[0])
    return int(live.channel_id), first
