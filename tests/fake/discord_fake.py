"""Discord, replaced below discord.py's HTTP client, for testing the adapter end to end.

**Transport.** ``install`` replaces ``aiohttp.ClientSession.request``: every request
discord.py makes, the bot token's REST calls (``HTTPClient.request``: messages,
threads, command sync) and the interactions' callbacks and follow-ups
(``AsyncWebhookAdapter.request``), is answered in process by ``FakeDiscord`` with the
status, headers and JSON body Discord would send. So discord.py's own machinery runs in
every test: its rate limiter (buckets from the ``X-RateLimit-*`` headers, waits on
``retry_after`` after a 429, the global limit), its retries of 500/502/504 and its
error mapping (``HTTPException``, ``Forbidden``, ``NotFound``, ``DiscordServerError``
with Discord's JSON error codes). Each request is recorded as a ``Call`` (route
template, JSON body, attached files, the answer and its status).

**Time.** With a clock (the tests' ``VirtualClock``), ids are snowflakes of its time,
and discord.py never sleeps for real: while installed, the ``asyncio`` that
``discord.http``, ``discord.webhook.async_`` and ``discord.state`` use is
``fake_transport.VirtualAsyncio`` (``sleep``, ``wait``, ``wait_for`` and the loop's
``time()`` on the virtual clock). A rate-limit wait or retry back-off first lets the
other ready tasks run, then moves the virtual clock to its end (running the bot's timers
due on the way), as real time would pass. ``fake.asyncio.slept`` lists those waits.

**What Discord does here** (all on the virtual clock):

- Rate limits: every answer carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/
  Bucket``. Posting messages is limited to 5 per 5 s per channel, any other route to
  50 per second per major parameter; requests with the bot's token (not interaction
  callbacks and follow-ups) to 50 per second in all (the global limit). Beyond that
  the answer is a 429 with ``retry_after`` (``"global": true`` for the global one).
- ``fail(method, path, status, code, message, times, retry_after, is_global,
  channel_id=)``: the next ``times`` requests matching answer that error.
- Permissions per channel: ``deny(channel_id, *names)`` / ``allow(...)`` set the
  channel's overwrites for the bot (a thread inherits its parent's); posts answer
  403 50001 Missing Access without View Channel, 403 50013 Missing Permissions without
  Send Messages (in Threads), Attach Files (with files) or Create Public Threads. The
  interaction's ``app_permissions`` reflects them (and ``bot_permissions``).
- ``delete_channel(id)``: requests to it (and its threads) answer 404 10003 Unknown
  Channel; CHANNEL_DELETE / THREAD_DELETE goes through the client's parser.
- Threads: creating one dispatches THREAD_CREATE. ``archive_thread(id)``: posting
  unarchives it, as on Discord. ``lock_thread(id, archived=False)``: posts answer 403
  160005 Thread is locked, or 50083 (operation not allowed on an archived thread)
  when it is archived too. THREAD_UPDATE is dispatched for both.
- Interactions: the initial response (callback) more than 3 s after the interaction's
  snowflake time answers 404 10062 Unknown interaction, a second one 400 40060
  (already acknowledged); follow-ups need an acknowledged interaction (404 10015) and
  work for 15 minutes (401 50027 after). ``slash``/``press``/... take ``ago=`` to make
  an interaction that was created that long before it is delivered. The answer that
  replaces a deferral's "thinking…" message (its first follow-up, or an edit of the
  original) keeps the deferral's id and ``timestamp``; whether it sets
  ``edited_timestamp`` is ``stamp_deferred_edits`` (Discord does not document it).
- Gateway: events go in through the client's own parsers (``state.parsers``), with
  payloads shaped like the gateway's, so command trees, option resolution, members'
  roles and permissions and dynamic buttons all run for real. ``disconnect()`` is what
  discord.py dispatches when the websocket drops (``on_disconnect``), ``resume()``
  RESUMED (``on_resumed``), ``new_session()`` READY and a GUILD_CREATE per server
  (``on_guild_available``, then ``on_ready`` once no more come for 2 virtual seconds).
  The client is attached when it logs in (or with ``attach``); settle after each.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import itertools
import os
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp
import discord
import discord.http
import discord.state
import discord.webhook.async_
import yarl
from multidict import CIMultiDict

from tests.fake.discord_payloads import Payloads
from tests.fake.discord_spec import check_events, check_exchange
from tests.fake.discord_world import (
    APP_ID,
    BOT_ID,
    CALLBACK,
    EPHEMERAL,
    FOLLOWUP_TIMEOUT,
    GLOBAL_LIMIT,
    GUILD_ID,
    INTERACTION_TIMEOUT,
    LOADING,
    MAX_CONCURRENCY,
    MESSAGE_LIMIT,
    MESSAGES,
    OSCAR,
    OWNER_ID,
    PEOPLE,
    ROUTE_LIMIT,
    SERVERS,
    Call,
    Failure,
    Injected,
    Person,
    Server,
    _Limited,
    _limited,
    user_payload,
)
from tests.fake.fake_transport import (
    Exchange,
    Request,
    Response,
    VirtualAsyncio,
    Window,
    Windows,
    decode,
)

#: where discord.py sends when nothing else is set (``bot.adapters.discord.sharing``)
DISCORD = "https://discord.com/"


def _bucket_id(method: str, path: str) -> str:
    """A route's rate-limit bucket, as the fake names it in ``X-RateLimit-Bucket``."""
    return hashlib.sha1(f"{method} {path}".encode()).hexdigest()[:16]


class _Sink:
    """Where a form is written as aiohttp's client writes a request's body."""

    def __init__(self) -> None:
        self.size = 0

    async def write(self, chunk: bytes | bytearray | memoryview) -> None:
        self.size += len(chunk)

    async def take(self, form: aiohttp.FormData) -> int:
        await form().write(self)  # type: ignore[arg-type]
        return self.size


class RealTime:
    """The fake's clock on real time (``python -m bot bench``): ids are snowflakes of
    the wall clock, and discord.py's waits are real sleeps (``install(real_time=True)``)."""

    def now(self) -> float:
        return time.time()


class FakeDiscord(Payloads):
    def __init__(self, clock: Any = None, *, keep_calls: bool = True,
                 validate: bool | None = None) -> None:
        # Every request and answer checked against Discord's API description and
        # documented limits (``discord_spec``): on by default under pytest; what
        # diverges fails the test at its next ``settle`` (and is in ``unexpected``).
        # The gateway events it makes are checked against discord-api-types in one
        # batch when ``unexpected`` is read (what the tests' fixtures assert empty).
        if validate is None:
            validate = "pytest" in sys.modules and os.environ.get("GARNET_DISCORD_SPEC") != "off"
        self.validate = validate
        self.divergent: list[str] = []
        _fakes.add(self)
        # The people and servers it knows (the tests' two by default; ``add_server``).
        self.servers: dict[int, Server] = dict(SERVERS)
        self.guild_locales: dict[int, str] = {}
        self.people: dict[int, Person] = {p.id: p for p in (*PEOPLE, OSCAR)}
        # ``keep_calls=False``: record nothing (a long benchmark); ``observe`` still sees
        # every call, with the moment it arrived.
        self.keep_calls = keep_calls
        # Write each multipart form out as aiohttp would send it (the benchmark sets it:
        # the encoding's cost is then in the figures; the tests read the fields only).
        self.encode_forms = False
        self.observe: Callable[[Call, float], None] | None = None
        # With a clock, ids are snowflakes of its time, as Discord's are of the moment
        # the message or interaction was made (discord.py reads created_at from them).
        self.clock = clock
        self.calls: list[Call] = []
        self._unexpected: list[str] = []
        self.events: list[tuple[str, Any]] = []  # made, not yet checked: (name, d)
        self._ids = itertools.count(700_000_000_000_000_001)
        self._token_channel: dict[str, int] = {}
        self._token_interaction: dict[str, int] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.originals: dict[str, dict[str, Any]] = {}
        self._token_meta: dict[str, dict[str, Any]] = {}
        # Tokens whose deferral's "thinking…" message the first follow-up has not yet
        # replaced.
        self.thinking: set[str] = set()
        self.acknowledged: set[str] = set()  # interaction tokens given their response
        self.departed: set[int] = set()  # people who left: options resolve them as users only
        # The bot's permissions per channel (every one where not said), less ``deny``.
        self.bot_permissions: dict[int, discord.Permissions] = {}
        self.denied: dict[int, set[str]] = {}
        self.deleted: set[int] = set()
        self.channels: dict[int, dict[str, Any]] = {
            s.channel: self.channel_payload(s.channel) for s in self.servers.values()}
        self.injected: list[Injected] = []
        self.buckets = Windows()
        self.global_window = Window(*GLOBAL_LIMIT)
        self.max_concurrency = MAX_CONCURRENCY  # GET /gateway/bot's
        # Requests discord.py sends elsewhere than Discord (DISCORD_API_BASE: a shared
        # REST proxy) really go there first, on this session; the proxy and what is
        # behind it (tests/fake/discord_meter.py) keep the limits, and the fake answers.
        self._relay: aiohttp.ClientSession | None = None
        self.relayed: dict[int, int] = {}  # the proxy's answers, by status
        self.forgotten_before = 0  # a snowflake: what was made before it is forgotten
        self.asyncio = VirtualAsyncio(clock)
        self.client: discord.Client | None = None
        self._sessions = itertools.count(1)
        self._undo: list[tuple[Any, str, Any]] = []

    def now(self) -> float:
        return float(self.clock.now()) if self.clock is not None else 0.0

    def forget(self, older_than: float) -> int:
        """Forget the messages and interactions made more than ``older_than`` seconds
        ago (their tokens' answers, follow-ups and rate windows too); returns how many
        things went. Discord keeps them, not the bot: a benchmark's fake that keeps
        them all in the bot's process grows the heap the bot's garbage collector
        walks (a third of it after a minute at 750 DMs). A request that names a
        forgotten message or interaction is unexpected (``unexpected``): the
        benchmark says so, for the fake could not answer it as Discord would."""
        if self.clock is None:
            return 0
        # The first snowflake of that moment (not a new id: none is taken from the
        # sequence the tests' ids come from).
        cut = (int((self.now() - older_than) * 1000) - discord.utils.DISCORD_EPOCH) << 22
        gone = 0
        for made in list(itertools.takewhile(lambda m: m < cut, self.messages)):
            del self.messages[made]
            gone += 1
        for token in list(itertools.takewhile(lambda t: _made_of(t) < cut,
                                              self._token_channel)):
            for held in (self._token_channel, self._token_interaction, self._token_meta,
                         self.originals):
                held.pop(token, None)
            self.thinking.discard(token)
            self.acknowledged.discard(token)
            gone += 1
        old = [key for key in self.buckets.windows
               if "+token-" in key[1] and _made_of(key[1].rsplit("+", 1)[1]) < cut]
        for key in old:
            del self.buckets.windows[key]
        self.forgotten_before = max(self.forgotten_before, cut)
        return gone + len(old)

    def _forgotten(self, what: str, made: int) -> None:
        if made < self.forgotten_before:
            self._unexpected.append(f"{what} {made}: forgotten by the fake (``forget``)")

    def snowflake(self, ago: float = 0.0) -> int:
        """A new id; with a clock, made ``ago`` seconds before its now."""
        n = next(self._ids)
        if self.clock is None:
            return n
        ms = int((self.clock.now() - ago) * 1000) - discord.utils.DISCORD_EPOCH
        return (ms << 22) | (n & 0x3FFFFF)

    def install(self, monkeypatch: Any = None, *, real_time: bool = False) -> None:
        """Answer discord.py's HTTP requests and, unless ``real_time``, put its waits on
        the virtual clock: until the test ends (``monkeypatch`` undoes it), or without
        one until ``uninstall``. ``real_time`` (the benchmark): discord.py sleeps for
        real, and the fake's clock should be ``RealTime()``."""
        fake = self

        def request(session: aiohttp.ClientSession, method: str, url: Any,
                    **kwargs: Any) -> Exchange:
            return Exchange(fake._traced(session, method, url, kwargs))

        login = discord.Client.login

        async def attach_and_login(client: discord.Client, token: str) -> None:
            fake.attach(client)
            await login(client, token)

        patches: list[tuple[Any, str, Any]] = [
            (aiohttp.ClientSession, "request", request),
            (discord.Client, "login", attach_and_login)]
        if not real_time:
            patches += [(module, "asyncio", self.asyncio) for module in (
                discord.http, discord.webhook.async_, discord.state)]
        for target, name, value in patches:
            if monkeypatch is not None:
                monkeypatch.setattr(target, name, value)
            else:
                self._undo.append((target, name, getattr(target, name)))
                setattr(target, name, value)

    def uninstall(self) -> None:
        """Undo ``install`` made without ``monkeypatch``."""
        while self._undo:
            target, name, value = self._undo.pop()
            setattr(target, name, value)

    def message_limit(self, channel_id: int, limit: int = MESSAGE_LIMIT[0]) -> None:
        """A channel's window for posting messages anew, of Discord's 5 per 5 s or of
        ``limit`` (the benchmark's set-up, which replays games faster than that)."""
        bucket = _bucket_id("POST", MESSAGES)
        self.buckets.windows[(bucket, str(channel_id))] = Window(limit, MESSAGE_LIMIT[1])

    def add_server(self, guild_id: int, name: str, channels: Sequence[int], host_role: int,
                   members: dict[Person, tuple[int, ...]]) -> None:
        """Another server: its text channels, host role and members (with their roles)."""
        self.servers[guild_id] = Server(guild_id, name, channels[0], host_role,
                                        {p.id: (roles, None) for p, roles in members.items()})
        for person in members:
            self.people.setdefault(person.id, person)
        for channel in channels:
            self.channels[channel] = {**self.channel_payload(channels[0]), "id": str(channel),
                                      "name": f"matches-{channel % 10_000}"}

    def attach(self, client: discord.Client) -> None:
        """The client whose gateway parsers the fake's events go through."""
        self.client = client

    # ---- injected failures, permissions, channels ---------------------------------------

    def fail(self, method: str, path: str, status: int, code: int = 0, message: str = "",
             times: int = 1, retry_after: float | None = None, is_global: bool = False,
             *, channel_id: int | None = None) -> None:
        """Answer the next ``times`` requests of ``method`` on the route template
        ``path`` (in ``channel_id`` if given) with ``status`` and Discord's error body."""
        if status == 429 and retry_after is None:
            retry_after = 1.0
        self.injected.append(Injected(method, path, status, code, message, times,
                                      retry_after, is_global, channel_id))

    def deny(self, channel_id: int, *names: str) -> None:
        """Take permissions (``send_messages``, ``attach_files``...) from the bot in a
        channel, as an overwrite for its member; CHANNEL_UPDATE tells the client."""
        for name in names:
            assert name in discord.Permissions.VALID_FLAGS, name
        self.denied.setdefault(channel_id, set()).update(names)
        self._overwrites_changed(channel_id)

    def allow(self, channel_id: int, *names: str) -> None:
        """Undo ``deny`` (every permission without names)."""
        left = self.denied.get(channel_id, set())
        left.difference_update(names or set(left))
        self._overwrites_changed(channel_id)

    def permissions(self, channel_id: int) -> discord.Permissions:
        """The bot's permissions in a channel (a thread: those of its parent too)."""
        perms = discord.Permissions(self.bot_permissions.get(
            channel_id, discord.Permissions.all()).value)
        channel = self.channels.get(channel_id) or {}
        scopes = [channel_id]
        if channel.get("parent_id"):
            parent = int(channel["parent_id"])
            scopes.append(parent)
            perms = discord.Permissions(perms.value & self.bot_permissions.get(
                parent, discord.Permissions.all()).value)
        for scope in scopes:
            for name in self.denied.get(scope, ()):
                setattr(perms, name, False)
        return perms

    def _overwrites_changed(self, channel_id: int) -> None:
        channel = self.channels.get(channel_id)
        if channel is None or "thread_metadata" in channel:
            return
        deny = discord.Permissions.none()
        for name in self.denied.get(channel_id, ()):
            setattr(deny, name, True)
        channel["permission_overwrites"] = [
            {"id": str(BOT_ID), "type": 1, "allow": "0", "deny": str(deny.value)}
        ] if deny.value else []
        self._dispatch("CHANNEL_UPDATE", channel)

    def delete_channel(self, channel_id: int) -> None:
        """Delete a channel (and its threads) or a thread, as a server admin would."""
        channel = self.channels[channel_id]
        gone = [channel_id] + [i for i, c in self.channels.items()
                               if c.get("parent_id") == str(channel_id)]
        self.deleted.update(gone)
        if "thread_metadata" in channel:
            self._dispatch("THREAD_DELETE", {
                "id": str(channel_id), "guild_id": channel["guild_id"],
                "parent_id": channel["parent_id"], "type": channel["type"]})
        else:
            self._dispatch("CHANNEL_DELETE", channel)

    def archive_thread(self, thread_id: int, archived: bool = True) -> None:
        self.channels[thread_id]["thread_metadata"]["archived"] = archived
        self._dispatch("THREAD_UPDATE", self.channels[thread_id])

    def lock_thread(self, thread_id: int, archived: bool = False) -> None:
        """Lock a thread (a moderator's doing); ``archived``: archive it as well."""
        meta = self.channels[thread_id]["thread_metadata"]
        meta["locked"] = True
        meta["archived"] = archived or meta["archived"]
        self._dispatch("THREAD_UPDATE", self.channels[thread_id])

    # ---- the gateway ----------------------------------------------------------------

    def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        """A gateway event through the attached client's own parser (if any)."""
        self.saw(event, data)
        if self.client is None:
            return
        if isinstance(self.client, discord.AutoShardedClient):
            # The gateway of an auto-sharded client tags events with their shard.
            count = self.client.shard_count or 1
            guild = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else 0)
            data = {**data, "__shard_id__": (int(guild or 0) >> 22) % count}
        self.client._connection.parsers[event](data)

    def disconnect(self) -> None:
        """The websocket dropped: what discord.py dispatches (``on_disconnect``)."""
        assert self.client is not None, "no client attached"
        self.client.dispatch("disconnect")

    def resume(self) -> None:
        """The session resumed (RESUMED: ``on_resumed``); missed events follow."""
        self._dispatch("RESUMED", {})

    def new_session(self) -> None:
        """A new session (READY, then GUILD_CREATE for each server the bot is in); an
        auto-sharded client gets a READY per shard it runs."""
        assert self.client is not None, "no client attached"
        guilds = [g.id for g in self.client.guilds if g.id in self.servers] or [GUILD_ID]
        sharded = isinstance(self.client, discord.AutoShardedClient)
        count = (self.client.shard_count or 1) if sharded else 1
        shard_ids = list(getattr(self.client, "shard_ids", None) or range(count))
        state: Any = self.client._connection
        if sharded and not state.shard_ids:
            # What launching the shards sets (the tests log in without connecting).
            state.shard_ids, state.shard_count = shard_ids, count
        for shard in shard_ids if sharded else [0]:
            mine = [g for g in guilds if (g >> 22) % count == shard]
            ready: dict[str, Any] = {
                "v": 10, "user": user_payload(BOT_ID, "garnet", bot=True),
                "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                "session_id": f"session-{next(self._sessions)}",
                "resume_gateway_url": "wss://gateway.discord.gg",
                "application": {"id": str(APP_ID), "flags": 0, "flags_new": "0"}}
            if sharded:
                ready["shard"] = [shard, count]
            self._dispatch("READY", ready)
            for guild in mine:
                self._dispatch("GUILD_CREATE", self.guild_payload(guild))

    # ---- REST answers -------------------------------------------------------------

    async def _traced(self, session: aiohttp.ClientSession, method: str, url: Any,
                      kwargs: dict[str, Any]) -> Response:
        """The exchange, and the session's trace hooks told of its end, as aiohttp's
        own ``request`` does (the bot counts Discord's answers with one). A closed
        session refuses, as aiohttp's own does, before anything is sent."""
        if session.closed:
            raise RuntimeError("Session is closed")
        response = await self._exchange(method, url, kwargs)
        for config in session.trace_configs:
            await config.on_request_end.send(
                session, config.trace_config_ctx(), aiohttp.TraceRequestEndParams(
                    method, yarl.URL(str(url)), CIMultiDict(), response))  # type: ignore[arg-type]
        return response

    async def _exchange(self, method: str, url: Any, kwargs: dict[str, Any]) -> Response:
        await asyncio.sleep(0)  # the network
        req = decode(method, url, kwargs)
        if not req.url.startswith(DISCORD):
            await self._through(req)
        if self.encode_forms and isinstance(kwargs.get("data"), aiohttp.FormData):
            # As aiohttp's client would before sending: the multipart body, PNGs and
            # all, written out (the benchmark: its cost is the bot's, not skipped).
            await _Sink().take(kwargs["data"])
        call = Call(req.method, req.path, req.url, req.body, req.files, req.query)
        if self.keep_calls:
            self.calls.append(call)
        arrived = time.perf_counter()
        status, data, headers = self._serve(req)
        # A copy kept with the calls (the answer may change after); the benchmark keeps
        # none, and its ``observe`` only reads it.
        call.status, call.response = status, copy.deepcopy(data) if self.keep_calls else data
        if self.validate:
            self.diverged(check_exchange(req.method, req.path, req.body, status, data))
        if self.observe is not None:
            self.observe(call, arrived)
        return Response(method, req.url, status, data, headers)

    async def _through(self, req: Request) -> None:
        """The request as it travels to a proxy at ``DISCORD_API_BASE``: its method,
        path, token and a JSON body (the fake's world answers it, not what is behind the
        proxy). Waits as long as the proxy holds it back for a limit."""
        if self._relay is None or self._relay.closed:
            self._relay = aiohttp.ClientSession()
        headers = {k: v for k, v in req.headers.items()
                   if k.lower() in ("authorization", "x-audit-log-reason")}
        body = None if req.method == "GET" else b"{}"
        if body is not None:
            headers["Content-Type"] = "application/json"
        # ClientSession.request is the fake's own while it is installed: the session's
        # underlying _request sends for real.
        async with await self._relay._request(req.method, req.url, data=body,
                                              headers=headers, params=req.query) as answer:
            await answer.read()
            self.relayed[answer.status] = self.relayed.get(answer.status, 0) + 1

    async def close_relay(self) -> None:
        if self._relay is not None:
            await self._relay.close()

    def diverged(self, problems: list[str]) -> None:
        """Record what diverges from Discord's description (the test then fails)."""
        report = os.environ.get("GARNET_DISCORD_SPEC_REPORT")
        if report:  # a file to list them in, without failing (to survey a change)
            with open(report, "a", encoding="utf-8") as out:
                out.writelines(f"{p}\n" for p in problems)
            return
        self.divergent += problems
        self._unexpected += [f"diverges from Discord's description: {p}" for p in problems]

    @property
    def unexpected(self) -> list[str]:
        """Requests the fake does not know, and what diverged from Discord's description
        (the gateway events made since the last look are checked now)."""
        if self.validate and self.events:
            events, self.events = self.events, []
            self.diverged(check_events(events))
        return self._unexpected

    def saw(self, event: str, data: dict[str, Any]) -> None:
        """A gateway event the fake made, as it is now (discord.py's parsers change
        what they get); checked when ``unexpected`` is read. An event of the same name
        and id made again (a press turned into a menu's choice) replaces it."""
        if not self.validate:
            return
        self.events = [(name, d) for name, d in self.events
                       if not (name == event and "id" in d and d["id"] == data.get("id"))]
        self.events.append((event, copy.deepcopy(data)))

    def check_divergences(self) -> None:
        """Fail (AssertionError) if anything since the last check diverged."""
        found, self.divergent = self.divergent, []
        if found:
            raise AssertionError("the Discord traffic diverges from Discord's API "
                                 "description:\n  " + "\n  ".join(found))

    def _serve(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        now = self.now()
        window, bucket = self._bucket(req)
        try:
            self._inject(req)
            # Behind a proxy, the limits are kept upstream (``_through``).
            upstream = not req.url.startswith(DISCORD)
            if req.bot_token and not upstream and not self.global_window.take(now):
                raise _limited(self.global_window.reset_after(now), True)
            if not upstream and not window.take(now):
                raise _limited(window.reset_after(now), False)
            self._check(req)
            data = self._respond(req)
        except Created as created:  # what Discord answers 201 Created
            return 201, created.data, self._limit_headers(window, bucket, now)
        except Failure as failure:
            headers = self._limit_headers(window, bucket, now)
            if isinstance(failure, _Limited):
                headers.update(failure.headers)
                return 429, failure.body, headers
            error: dict[str, Any] = {"code": failure.code, "message": failure.message}
            if failure.errors:
                error["errors"] = failure.errors
            return failure.status, error, headers
        return (200 if data is not None else 204), data, self._limit_headers(window, bucket, now)

    def _bucket(self, req: Request) -> tuple[Window, str]:
        major = "+".join(req.params.get(k, "") for k in ("channel_id", "guild_id",
                                                          "webhook_id", "webhook_token")
                         if k in req.params)
        limit = MESSAGE_LIMIT if (req.method, req.path) == ("POST", MESSAGES) else ROUTE_LIMIT
        bucket = _bucket_id(req.method, req.path)
        return self.buckets.get((bucket, major), *limit), bucket

    def _limit_headers(self, window: Window, bucket: str, now: float) -> dict[str, str]:
        after = window.reset_after(now)
        return {"X-RateLimit-Limit": str(window.limit),
                "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
                "X-RateLimit-Reset": f"{now + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}", "X-RateLimit-Bucket": bucket}

    def _inject(self, req: Request) -> None:
        channel = req.params.get("channel_id") or self._token_channel.get(
            req.params.get("webhook_token", ""))
        for injected in self.injected:
            if (injected.method, injected.path) != (req.method, req.path):
                continue
            if injected.channel_id is not None and str(injected.channel_id) != str(channel):
                continue
            injected.times -= 1
            if injected.times <= 0:
                self.injected.remove(injected)
            if injected.status == 429:
                raise _limited(injected.retry_after or 0.0, injected.is_global)
            raise Failure(injected.status, injected.code, injected.message)

    def _check(self, req: Request) -> None:
        """Refuse what Discord would: deleted channels, missing permissions, locked
        threads, late or repeated interaction responses."""
        token = req.params.get("webhook_token")
        if (token is not None and self.forgotten_before
                and token not in self._token_channel and token.startswith("token-")):
            self._forgotten("the interaction", _made_of(token))
            raise Failure(404, 10015)  # Unknown Webhook: as Discord, for a token it never made
        if req.path == CALLBACK and token is not None:
            if self.clock is not None and self.now() - _created(
                    int(req.params["webhook_id"])) > INTERACTION_TIMEOUT:
                raise Failure(404, 10062)
            if token in self.acknowledged:
                raise Failure(400, 40060)
        elif req.path.startswith("/webhooks/") and token in self._token_interaction:
            if token not in self.acknowledged:
                raise Failure(404, 10015)
            if self.clock is not None and self.now() - _created(
                    self._token_interaction[token]) > FOLLOWUP_TIMEOUT:
                raise Failure(401, 50027)
        if "channel_id" not in req.params or not req.bot_token:
            return
        channel_id = int(req.params["channel_id"])
        if channel_id in self.deleted:
            raise Failure(404, 10003)
        channel = self.channels.get(channel_id)
        perms = self.permissions(channel_id)
        if not perms.view_channel:
            raise Failure(403, 50001)
        if req.method == "GET" or channel is None:
            return
        meta = channel.get("thread_metadata")
        if meta is not None and meta["locked"]:
            raise Failure(403, 50083 if meta["archived"] else 160005)
        if (req.method, req.path) == ("POST", MESSAGES):
            send = "send_messages_in_threads" if meta is not None else "send_messages"
            if not getattr(perms, send) or (req.files and not perms.attach_files):
                raise Failure(403, 50013)
            reference = (req.body or {}).get("message_reference")
            if reference is not None:
                self._check_reply(reference, perms)
            if meta is not None and meta["archived"]:
                meta["archived"] = False  # a post unarchives a thread
        if req.path.endswith("/threads") and not perms.create_public_threads:
            raise Failure(403, 50013)

    def _check_reply(self, reference: dict[str, Any], perms: discord.Permissions) -> None:
        """A reply needs Read Message History, and its message: if that is gone, the
        post fails unless ``fail_if_not_exists`` is false (then it is a plain post)."""
        if not perms.read_message_history:
            raise Failure(403, 50013)
        if int(reference["message_id"]) in self.messages:
            return
        self._forgotten("the message", int(reference["message_id"]))
        if reference.get("fail_if_not_exists", True):
            raise Failure(400, 50035, "Invalid Form Body", errors={"message_reference": {
                "_errors": [{"code": "REPLIES_UNKNOWN_MESSAGE",
                             "message": "Unknown message"}]}})
        reference["gone"] = True

    def delete_message(self, channel_id: int, message_id: int | str) -> None:
        """A message deleted by its author (MESSAGE_DELETE)."""
        self.messages.pop(int(message_id), None)
        self._dispatch("MESSAGE_DELETE", {"id": str(message_id), "channel_id": str(channel_id),
                                          "guild_id": str(self.guild_of(channel_id))})

    def _respond(self, req: Request) -> Any:
        key = (req.method, req.path)
        params = req.params
        body = req.body
        if key == ("GET", "/users/@me"):
            return {**user_payload(BOT_ID, "garnet", bot=True), "mfa_enabled": False,
                    "locale": "en-US"}
        if key == ("GET", "/oauth2/applications/@me"):
            return {"id": str(APP_ID), "name": "garnet", "description": "", "icon": None,
                    "type": None,
                    "bot": user_payload(BOT_ID, "garnet", bot=True),
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": user_payload(OWNER_ID, "Owner"), "verify_key": "0" * 64,
                    "flags": 0, "team": None, "redirect_uris": [],
                    "interactions_endpoint_url": None,
                    "role_connections_verification_url": None, "tags": [],
                    "approximate_guild_count": len(self.servers),
                    "approximate_user_install_count": 0,
                    "approximate_user_authorization_count": 0,
                    "explicit_content_filter": 0, "flags_new": "0",
                    "eligible_oauth2_scopes": []}
        if key == ("GET", "/gateway/bot"):
            return {"url": "wss://gateway.discord.gg", "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999,
                                            "reset_after": 14_400_000,
                                            "max_concurrency": self.max_concurrency}}
        if key == ("GET", "/channels/{channel_id}"):
            # A channel not in the client's cache (an archived thread, say).
            found = self.channels.get(int(params["channel_id"]))
            if found is None:
                raise Failure(404, 10003)
            return found
        if req.method == "PUT" and req.path.startswith("/applications/"):
            return [{**command, "id": str(self.snowflake()), "application_id": str(APP_ID),
                     "version": "1"} for command in body]
        if key == ("POST", MESSAGES):
            reference = (body or {}).get("message_reference") or {}
            if reference.pop("gone", False):  # a reply to a deleted message: a plain post
                body = {k: v for k, v in body.items() if k != "message_reference"}
            return self.message_payload(int(params["channel_id"]), body, req.files)
        if key == ("GET", "/guilds/{guild_id}/members/{member_id}"):
            # A member looked up by id (people named several at once, by mention).
            guild, member = int(params["guild_id"]), int(params["member_id"])
            person = next((p for p in self.people.values() if p.id == member
                           and p.id in self.servers[guild].members and p.id not in self.departed),
                          None)
            if person is None:
                raise Failure(404, 10007)
            return self.member_of(person, guild)
        if key == ("POST", "/channels/{channel_id}/threads"):
            thread = self.thread_payload(int(params["channel_id"]), body["name"])
            self.channels[int(thread["id"])] = thread
            self._dispatch("THREAD_CREATE", {**thread, "newly_created": True})
            raise Created(thread)
        if key == ("PATCH", "/channels/{channel_id}"):
            channel = self.channels[int(params["channel_id"])]
            if "thread_metadata" in channel and "archived" in body:
                channel["thread_metadata"]["archived"] = body["archived"]
            return channel
        if key == ("POST", CALLBACK):
            answer = self._callback(params, body, req.files)
            self.acknowledged.add(params["webhook_token"])
            return answer
        token = params.get("webhook_token", "")
        if key == ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
            if token in self.thinking:
                # Discord: the first follow-up after a deferral edits the "thinking…"
                # message and returns it (its id and timestamp are the deferral's).
                self.thinking.discard(token)
                return self.edit_message(self.originals[token], body, req.files)
            return self.message_payload(self._token_channel[token], body, req.files,
                                        interaction=self._token_meta.get(token))
        if key == ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
            if token not in self.originals:
                raise Failure(404, 10008)
            self.thinking.discard(token)
            return self.edit_message(self.originals[token], body, req.files)
        if key == ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
            original = self.originals.pop(token, None)
            if original is None:
                raise Failure(404, 10008)
            self.thinking.discard(token)
            self.messages.pop(int(original["id"]), None)
            return None
        self._unexpected.append(f"{req.method} {req.url}")
        raise AssertionError(f"the fake does not know {req.method} {req.path}")

    def _callback(self, params: dict[str, Any], body: dict[str, Any],
                  files: list[tuple[str, bytes]]) -> dict[str, Any]:
        kind = int(body["type"])
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        token = params["webhook_token"]
        made = self._token_meta.get(token, {})
        answer: dict[str, Any] = {"interaction": {
            "id": str(params["webhook_id"]), "type": made.get("type", 2)}}
        if kind in (4, 5):
            channel = self._token_channel[token]
            if kind == 5:
                data = {**data, "flags": flags | LOADING}
                self.thinking.add(token)
            message = self.message_payload(channel, data, files, interaction=made)
            self.originals[token] = message
            answer["interaction"].update(
                response_message_id=message["id"], response_message_loading=kind == 5,
                response_message_ephemeral=bool(flags & EPHEMERAL))
            if kind == 4:  # the description has a resource for 4 and 7 only
                answer["resource"] = {"type": kind, "message": message}
        elif kind == 7 and token in self.originals:
            message = self.edit_message(self.originals[token], data, files)
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        return answer


class Created(Exception):  # an answer, not an error
    """An answer with status 201 (Discord's for a thread it made)."""

    def __init__(self, data: Any) -> None:
        super().__init__()
        self.data = data


def _made_of(token: str) -> int:
    """The snowflake an interaction's token was made with (``token-<snowflake>``)."""
    return int(token.removeprefix("token-"))


def _created(snowflake: int) -> float:
    """The moment (epoch seconds) a snowflake was made."""
    return ((snowflake >> 22) + discord.utils.DISCORD_EPOCH) / 1000


async def settle(baseline: set[asyncio.Task[Any]]) -> None:
    """Wait until every task the bot started (event handlers, command invocations) is
    done; then fail if any request or answer meanwhile diverged from Discord's API
    description (``FakeDiscord.validate``)."""
    me = asyncio.current_task()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and t not in baseline
                   and not t.done() and not _view_timeout(t)]
        if not pending:
            break
        await asyncio.wait(pending, timeout=10)
    for fake in list(_fakes):
        fake.check_divergences()


# The fakes alive, whose divergences ``settle`` reports.
_fakes: weakref.WeakSet[FakeDiscord] = weakref.WeakSet()


def _view_timeout(task: asyncio.Task[Any]) -> bool:
    # discord.py gives every view sent with an ephemeral message a 15-minute timeout
    # task; it is not work the bot started and would never finish in a test.
    return "timeout_task_impl" in repr(task.get_coro())
