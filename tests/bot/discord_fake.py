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
  an interaction that was created that long before it is delivered.
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
import hashlib
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import discord.http
import discord.state
import discord.webhook.async_
from discord import app_commands

from tests.bot.fake_transport import (
    Exchange,
    Request,
    Response,
    VirtualAsyncio,
    Window,
    Windows,
    decode,
)

APP_ID = 900_000_000_000_000_001
BOT_ID = 900_000_000_000_000_002
GUILD_ID = 100_000_000_000_000_001
CHANNEL_ID = 200_000_000_000_000_001
OWNER_ID = 111_111_111_111_111_111  # owns the server; not one of the people below
HOST_ROLE_ID = 500_000_000_000_000_001
PLAYER_ROLE_ID = 500_000_000_000_000_002
TIMESTAMP = "2024-05-01T12:00:00.000000+00:00"
# A second server, with its own channel, host role and members.
GUILD2_ID = 100_000_000_000_000_002
CHANNEL2_ID = 200_000_000_000_000_002
HOST_ROLE2_ID = 500_000_000_000_000_003

# @everyone may read and write; the Host role grants nothing more on Discord's side.
EVERYONE_PERMS = discord.Permissions(view_channel=True, send_messages=True,
                                     read_message_history=True, use_application_commands=True)
EPHEMERAL = 64

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
# Discord's rate limits as the fake applies them: (requests, per seconds).
MESSAGE_LIMIT = (5, 5.0)  # posting messages, per channel
ROUTE_LIMIT = (50, 1.0)  # any other route, per major parameter
GLOBAL_LIMIT = (50, 1.0)  # every request with the bot's token
INTERACTION_TIMEOUT = 3.0  # seconds to make the initial response
FOLLOWUP_TIMEOUT = 15 * 60.0  # seconds an interaction's token lasts
ERRORS = {
    10003: "Unknown Channel", 10007: "Unknown Member", 10008: "Unknown Message",
    10015: "Unknown Webhook", 10062: "Unknown interaction",
    40060: "Interaction has already been acknowledged.", 50001: "Missing Access",
    50013: "Missing Permissions", 50027: "Invalid Webhook Token",
    50083: "Operation is not allowed on an archived thread", 160005: "Thread is locked",
}


class Failure(Exception):
    """An error answer: the status and Discord's JSON error code."""

    def __init__(self, status: int, code: int = 0, message: str = "") -> None:
        super().__init__(status, code, message)
        self.status = status
        self.code = code
        self.message = message or ERRORS.get(code, "")


@dataclass
class Injected:
    """An error ``fail`` scheduled for the next requests matching it."""

    method: str
    path: str
    status: int
    code: int
    message: str
    times: int
    retry_after: float | None
    is_global: bool
    channel_id: int | None


@dataclass
class Call:
    """One request discord.py made, and what the fake answered."""

    method: str
    path: str  # the route template, e.g. /channels/{channel_id}/messages
    url: str
    body: Any  # the JSON body (payload_json of a multipart request)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict[str, Any] = field(default_factory=dict)
    response: Any = None  # what the fake answered (the error body when it refused)
    status: int = 200

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def sent(self) -> dict[str, Any]:
        """The message object Discord holds for this send (to press its buttons)."""
        if self.path.endswith("/callback"):
            message = self.response["resource"]["message"]
        else:
            message = self.response
        assert isinstance(message, dict)
        return message

    @property
    def message(self) -> dict[str, Any]:
        """The message this request creates or edits (inside a callback's ``data``)."""
        if not isinstance(self.body, dict):
            return {}
        if self.path.endswith("/callback"):
            data = self.body.get("data") or {}
            assert isinstance(data, dict)
            return data
        return self.body

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.message.get("flags") or 0) & EPHEMERAL)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.message.get("components") or []
                for c in row.get("components", [])]

    @property
    def callback_type(self) -> int | None:
        return int(self.body["type"]) if self.path.endswith("/callback") else None

    def __repr__(self) -> str:
        files = f" files={[name for name, _ in self.files]}" if self.files else ""
        status = "" if self.ok else f" -> {self.status}"
        return f"<{self.method} {self.url} {self.content[:60]!r}{files}{status}>"


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name.lower(), "global_name": name,
            "discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0}


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    roles: tuple[int, ...] = ()

    def user(self) -> dict[str, Any]:
        return user_payload(self.id, self.name)

    def member(self, with_user: bool = True, roles: tuple[int, ...] | None = None,
               nick: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in (self.roles if roles is None else roles)],
            "nick": nick, "avatar": None,
            "joined_at": TIMESTAMP, "premium_since": None, "deaf": False, "mute": False,
            "flags": 0, "pending": False, "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user()
        return data


HANA = Person(310_000_000_000_000_001, "Hana", (HOST_ROLE_ID,))  # a host
ALICE = Person(310_000_000_000_000_002, "Alice", (PLAYER_ROLE_ID,))
BOB = Person(310_000_000_000_000_003, "Bob")
CAROL = Person(310_000_000_000_000_004, "Carol")  # a bystander
PEOPLE = (HANA, ALICE, BOB, CAROL)
OSCAR = Person(310_000_000_000_000_005, "Oscar")  # hosts the second server


@dataclass(frozen=True)
class Server:
    """A server as the fake models it: its one text channel, its host role, and each
    member's roles and nickname there."""

    id: int
    name: str
    channel: int
    host_role: int
    members: dict[int, tuple[tuple[int, ...], str | None]]


SERVERS = {
    GUILD_ID: Server(GUILD_ID, "Genius", CHANNEL_ID, HOST_ROLE_ID,
                     {p.id: (p.roles, None) for p in PEOPLE}),
    # On the second server Hana is nobody special, Oscar hosts, and Alice is "Queenie".
    GUILD2_ID: Server(GUILD2_ID, "Elsewhere", CHANNEL2_ID, HOST_ROLE2_ID,
                      {OSCAR.id: ((HOST_ROLE2_ID,), None), HANA.id: ((), None),
                       ALICE.id: ((), "Queenie"), BOB.id: ((), None), CAROL.id: ((), None)}),
}


class FakeDiscord:
    def __init__(self, clock: Any = None) -> None:
        # With a clock, ids are snowflakes of its time, as Discord's are of the moment
        # the message or interaction was made (discord.py reads created_at from them).
        self.clock = clock
        self.calls: list[Call] = []
        self.unexpected: list[str] = []
        self._ids = itertools.count(700_000_000_000_000_001)
        self._token_channel: dict[str, int] = {}
        self._token_interaction: dict[str, int] = {}
        self.acknowledged: set[str] = set()  # interaction tokens given their response
        self.departed: set[int] = set()  # people who left: options resolve them as users only
        # The bot's permissions per channel (every one where not said), less ``deny``.
        self.bot_permissions: dict[int, discord.Permissions] = {}
        self.denied: dict[int, set[str]] = {}
        self.deleted: set[int] = set()
        self.channels: dict[int, dict[str, Any]] = {
            s.channel: self.channel_payload(s.channel) for s in SERVERS.values()}
        self.injected: list[Injected] = []
        self.buckets = Windows()
        self.global_window = Window(*GLOBAL_LIMIT)
        self.asyncio = VirtualAsyncio(clock)
        self.client: discord.Client | None = None
        self._sessions = itertools.count(1)

    def now(self) -> float:
        return float(self.clock.now()) if self.clock is not None else 0.0

    def snowflake(self, ago: float = 0.0) -> int:
        """A new id; with a clock, made ``ago`` seconds before its now."""
        n = next(self._ids)
        if self.clock is None:
            return n
        ms = int((self.clock.now() - ago) * 1000) - discord.utils.DISCORD_EPOCH
        return (ms << 22) | (n & 0x3FFFFF)

    def install(self, monkeypatch: Any) -> None:
        """Answer discord.py's HTTP requests, and put its waits on the virtual clock,
        until the test ends (``monkeypatch`` undoes both)."""
        fake = self

        def request(session: aiohttp.ClientSession, method: str, url: Any,
                    **kwargs: Any) -> Exchange:
            return Exchange(fake._exchange(method, url, kwargs))

        login = discord.Client.login

        async def attach_and_login(client: discord.Client, token: str) -> None:
            fake.attach(client)
            await login(client, token)

        monkeypatch.setattr(aiohttp.ClientSession, "request", request)
        for module in (discord.http, discord.webhook.async_, discord.state):
            monkeypatch.setattr(module, "asyncio", self.asyncio)
        monkeypatch.setattr(discord.Client, "login", attach_and_login)

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
        if self.client is None:
            return
        self.client._connection.parsers[event](data)

    def disconnect(self) -> None:
        """The websocket dropped: what discord.py dispatches (``on_disconnect``)."""
        assert self.client is not None, "no client attached"
        self.client.dispatch("disconnect")

    def resume(self) -> None:
        """The session resumed (RESUMED: ``on_resumed``); missed events follow."""
        self._dispatch("RESUMED", {})

    def new_session(self) -> None:
        """A new session (READY, then GUILD_CREATE for each server the bot is in)."""
        assert self.client is not None, "no client attached"
        guilds = [g.id for g in self.client.guilds if g.id in SERVERS] or [GUILD_ID]
        self._dispatch("READY", {
            "v": 10, "user": user_payload(BOT_ID, "garnet", bot=True),
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": f"session-{next(self._sessions)}",
            "resume_gateway_url": "wss://gateway.discord.gg",
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [], "relationships": []})
        for guild in guilds:
            self._dispatch("GUILD_CREATE", self.guild_payload(guild))

    # ---- REST answers -------------------------------------------------------------

    async def _exchange(self, method: str, url: Any, kwargs: dict[str, Any]) -> Response:
        await asyncio.sleep(0)  # the network
        req = decode(method, url, kwargs)
        call = Call(req.method, req.path, req.url, req.body, req.files, req.query)
        self.calls.append(call)
        status, data, headers = self._serve(req)
        call.status, call.response = status, data
        return Response(method, req.url, status, data, headers)

    def _serve(self, req: Request) -> tuple[int, Any, dict[str, str]]:
        now = self.now()
        window, bucket = self._bucket(req)
        try:
            self._inject(req)
            if req.bot_token and not self.global_window.take(now):
                raise _limited(self.global_window.reset_after(now), True)
            if not window.take(now):
                raise _limited(window.reset_after(now), False)
            self._check(req)
            data = self._respond(req)
        except Failure as failure:
            headers = self._limit_headers(window, bucket, now)
            if isinstance(failure, _Limited):
                headers.update(failure.headers)
                return 429, failure.body, headers
            return failure.status, {"code": failure.code, "message": failure.message}, headers
        return (200 if data is not None else 204), data, self._limit_headers(window, bucket, now)

    def _bucket(self, req: Request) -> tuple[Window, str]:
        major = "+".join(req.params.get(k, "") for k in ("channel_id", "guild_id",
                                                          "webhook_id", "webhook_token")
                         if k in req.params)
        limit = MESSAGE_LIMIT if (req.method, req.path) == ("POST", MESSAGES) else ROUTE_LIMIT
        bucket = hashlib.sha1(f"{req.method} {req.path}".encode()).hexdigest()[:16]
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
            if meta is not None and meta["archived"]:
                meta["archived"] = False  # a post unarchives a thread
        if req.path.endswith("/threads") and not perms.create_public_threads:
            raise Failure(403, 50013)

    def _respond(self, req: Request) -> Any:
        key = (req.method, req.path)
        params = req.params
        body = req.body
        if key == ("GET", "/users/@me"):
            return user_payload(BOT_ID, "garnet", bot=True)
        if key == ("GET", "/oauth2/applications/@me"):
            return {"id": str(APP_ID), "name": "garnet", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": user_payload(OWNER_ID, "Owner"), "verify_key": "0" * 64,
                    "flags": 0}
        if req.method == "PUT" and req.path.startswith("/applications/"):
            return [{**command, "id": str(self.snowflake()), "application_id": str(APP_ID),
                     "version": "1"} for command in body]
        if key == ("POST", MESSAGES):
            return self.message_payload(int(params["channel_id"]), body, req.files)
        if key == ("GET", "/guilds/{guild_id}/members/{member_id}"):
            # A member looked up by id (people named several at once, by mention).
            guild, member = int(params["guild_id"]), int(params["member_id"])
            person = next((p for p in (*PEOPLE, OSCAR) if p.id == member
                           and p.id in SERVERS[guild].members and p.id not in self.departed),
                          None)
            if person is None:
                raise Failure(404, 10007)
            return self.member_of(person, guild)
        if key == ("POST", "/channels/{channel_id}/threads"):
            thread = self.thread_payload(int(params["channel_id"]), body["name"])
            self.channels[int(thread["id"])] = thread
            self._dispatch("THREAD_CREATE", {**thread, "newly_created": True})
            return thread
        if key == ("PATCH", "/channels/{channel_id}"):
            channel = self.channels[int(params["channel_id"])]
            if "thread_metadata" in channel and "archived" in body:
                channel["thread_metadata"]["archived"] = body["archived"]
            return channel
        if key == ("POST", CALLBACK):
            answer = self._callback(params, body, req.files)
            self.acknowledged.add(params["webhook_token"])
            return answer
        if key in (("POST", "/webhooks/{webhook_id}/{webhook_token}"),
                   ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")):
            return self.message_payload(self._token_channel[params["webhook_token"]], body,
                                        req.files)
        if key == ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
            return None
        self.unexpected.append(f"{req.method} {req.url}")
        raise AssertionError(f"the fake does not know {req.method} {req.path}")

    def _callback(self, params: dict[str, Any], body: dict[str, Any],
                  files: list[tuple[str, bytes]]) -> dict[str, Any]:
        kind = int(body["type"])
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        answer: dict[str, Any] = {"interaction": {
            "id": str(params["webhook_id"]), "type": 2,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & EPHEMERAL)}}
        if kind in (4, 5):
            channel = self._token_channel[params["webhook_token"]]
            message = self.message_payload(channel, data, files)
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        else:
            answer["resource"] = {"type": kind}
        return answer

    # ---- payloads -----------------------------------------------------------------

    def message_payload(self, channel_id: int, body: dict[str, Any] | None,
                        files: Sequence[tuple[str, bytes]] = (),
                        author: dict[str, Any] | None = None) -> dict[str, Any]:
        body = body or {}
        message: dict[str, Any] = {
            "id": str(self.snowflake()), "channel_id": str(channel_id),
            "author": author or user_payload(BOT_ID, "garnet", bot=True),
            "content": body.get("content") or "", "timestamp": TIMESTAMP,
            "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "embeds": [], "pinned": False,
            "type": 19 if body.get("message_reference") else 0,
            "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
            "attachments": [
                {"id": str(self.snowflake()), "filename": name, "size": len(data),
                 "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}",
                 "content_type": "image/png"} for name, data in files],
        }
        if body.get("message_reference"):
            message["message_reference"] = body["message_reference"]
        return message

    def guild_of(self, channel_id: int) -> int:
        if channel_id in self.channels:
            return int(self.channels[channel_id]["guild_id"])
        return next(s.id for s in SERVERS.values() if s.channel == channel_id)

    def member_of(self, person: Person, guild_id: int, with_user: bool = True
                  ) -> dict[str, Any]:
        roles, nick = SERVERS[guild_id].members.get(person.id, (person.roles, None))
        return person.member(with_user, roles, nick)

    def channel_payload(self, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        guild = next(s.id for s in SERVERS.values() if s.channel == channel_id)
        return {"id": str(channel_id), "type": 0, "guild_id": str(guild), "name": "matches",
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}

    def thread_payload(self, parent: int, name: str) -> dict[str, Any]:
        return {"id": str(self.snowflake()), "type": 11, "guild_id": str(self.guild_of(parent)),
                "parent_id": str(parent), "name": name, "owner_id": str(BOT_ID),
                "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
                "member_count": 1, "flags": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                    "archive_timestamp": TIMESTAMP, "locked": False}}

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        server = SERVERS[guild_id]
        people = [p for p in (*PEOPLE, OSCAR) if p.id in server.members]
        role = {"color": 0, "hoist": False, "icon": None, "unicode_emoji": None,
                "managed": False, "mentionable": False, "flags": 0}
        return {
            "id": str(guild_id), "name": server.name, "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(OWNER_ID), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "emojis": [], "stickers": [],
            "unavailable": False, "member_count": len(people) + 1, "large": False,
            "joined_at": TIMESTAMP, "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "roles": [
                {**role, "id": str(guild_id), "name": "@everyone", "position": 0,
                 "permissions": str(EVERYONE_PERMS.value)},
                {**role, "id": str(server.host_role), "name": "Host", "position": 2,
                 "permissions": "0"},
                {**role, "id": str(PLAYER_ROLE_ID + 10 * (guild_id - GUILD_ID)), "name": "Players",
                 "position": 1, "permissions": "0"},
            ],
            "channels": [c for i, c in self.channels.items() if i not in self.deleted
                         and c["guild_id"] == str(guild_id) and "thread_metadata" not in c],
            "threads": [c for i, c in self.channels.items() if i not in self.deleted
                        and c["guild_id"] == str(guild_id) and "thread_metadata" in c],
            "members": [self.member_of(p, guild_id) for p in people]
            + [{**Person(BOT_ID, "garnet").member(), "user": user_payload(BOT_ID, "garnet",
                                                                        bot=True)}],
        }

    # ---- gateway events -----------------------------------------------------------

    def message_create(self, author: Person, content: str, channel_id: int = CHANNEL_ID,
                       bot: bool = False, sent_ago: float = 0.0) -> dict[str, Any]:
        """A message as the gateway delivers it; ``sent_ago``: sent that long before
        (delivered late)."""
        data = self.message_payload(channel_id, {"content": content},
                                    author=user_payload(author.id, author.name, bot=bot))
        if sent_ago:
            data["id"] = str(self.snowflake(sent_ago))
        guild = self.guild_of(channel_id)
        data["guild_id"] = str(guild)
        data["member"] = self.member_of(author, guild, with_user=False)
        return data

    def _interaction(self, kind: int, person: Person, data: dict[str, Any],
                     channel_id: int, ago: float = 0.0) -> dict[str, Any]:
        """An interaction; ``ago``: made that long before it is delivered."""
        token = f"token-{self.snowflake()}"
        interaction = self.snowflake(ago)
        self._token_channel[token] = channel_id
        self._token_interaction[token] = interaction
        guild = self.guild_of(channel_id)
        member = self.member_of(person, guild)
        member["permissions"] = str(EVERYONE_PERMS.value)
        return {
            "id": str(interaction), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "guild_id": str(guild),
            "channel_id": str(channel_id), "channel": self.channels[channel_id],
            "member": member, "app_permissions": str(self.permissions(channel_id).value),
            "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
            "attachment_size_limit": 10_485_760, "data": data,
        }

    def slash(self, tree: app_commands.CommandTree[Any], person: Person, name: str,
              channel_id: int = CHANNEL_ID, focused: str | None = None, ago: float = 0.0,
              **values: Any) -> dict[str, Any]:
        """A slash command (or, with ``focused``, its autocomplete) as the gateway sends it.

        Option types come from the command as registered, so a value of the wrong
        type is caught here as Discord's client would.
        """
        command = tree.get_command(name, guild=discord.Object(GUILD_ID))
        assert isinstance(command, app_commands.Command), name
        params = {p.name: p for p in command.parameters}
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in values.items():
            kind = params[key].type
            if kind is discord.AppCommandOptionType.user:
                assert isinstance(value, Person)
                resolved.setdefault("users", {})[str(value.id)] = value.user()
                if value.id not in self.departed:
                    resolved.setdefault("members", {})[str(value.id)] = self.member_of(
                        value, self.guild_of(channel_id), with_user=False)
                value = str(value.id)
            elif kind is discord.AppCommandOptionType.role:
                resolved.setdefault("roles", {})[str(value)] = next(
                    r for r in self.guild_payload(self.guild_of(channel_id))["roles"]
                    if r["id"] == str(value))
                value = str(value)
            option: dict[str, Any] = {"name": key, "type": kind.value, "value": value}
            if key == focused:
                option["focused"] = True
            options.append(option)
        data = {"id": str(self.snowflake()), "name": name, "type": 1,
                "guild_id": str(self.guild_of(channel_id)), "options": options,
                "resolved": resolved}
        return self._interaction(4 if focused else 2, person, data, channel_id, ago)

    def subcommand(self, tree: app_commands.CommandTree[Any], person: Person, group: str,
                   name: str, channel_id: int = CHANNEL_ID, /, *, ago: float = 0.0,
                   **values: Any) -> dict[str, Any]:
        """``/group name`` as the gateway sends it (users and plain values)."""
        found = tree.get_command(group, guild=discord.Object(GUILD_ID))
        assert isinstance(found, app_commands.Group), group
        command = found.get_command(name)
        assert isinstance(command, app_commands.Command), name
        params = {p.name: p for p in command.parameters}
        guild = self.guild_of(channel_id)
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in values.items():
            kind = params[key].type
            if kind is discord.AppCommandOptionType.user:
                resolved.setdefault("users", {})[str(value.id)] = value.user()
                if value.id not in self.departed:
                    resolved.setdefault("members", {})[str(value.id)] = self.member_of(
                        value, guild, with_user=False)
                value = str(value.id)
            options.append({"name": key, "type": kind.value, "value": value})
        data = {"id": str(self.snowflake()), "name": group, "type": 1,
                "guild_id": str(guild), "resolved": resolved,
                "options": [{"name": name, "type": 1, "options": options}]}
        return self._interaction(2, person, data, channel_id, ago)

    def press(self, person: Person, message: dict[str, Any], custom_id: str,
              ago: float = 0.0) -> dict[str, Any]:
        """A button press on a message the bot sent (as the fake answered it)."""
        payload = self._interaction(3, person, {"custom_id": custom_id, "component_type": 2},
                                    int(message["channel_id"]), ago)
        payload["message"] = message
        return payload


class _Limited(Failure):
    """A 429: Discord's body and headers for a rate limit."""

    def __init__(self, retry_after: float, is_global: bool) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.body = {"message": self.message, "retry_after": retry_after, "global": is_global}
        self.headers = {"Retry-After": str(math.ceil(retry_after)),
                        "X-RateLimit-Scope": "global" if is_global else "user"}
        if is_global:
            self.headers["X-RateLimit-Global"] = "true"


def _limited(retry_after: float, is_global: bool) -> _Limited:
    return _Limited(retry_after, is_global)


def _created(snowflake: int) -> float:
    """The moment (epoch seconds) a snowflake was made."""
    return ((snowflake >> 22) + discord.utils.DISCORD_EPOCH) / 1000


async def settle(baseline: set[asyncio.Task[Any]]) -> None:
    """Wait until every task the bot started (event handlers, command invocations) is done."""
    me = asyncio.current_task()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and t not in baseline
                   and not t.done() and not _view_timeout(t)]
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)


def _view_timeout(task: asyncio.Task[Any]) -> bool:
    # discord.py gives every view sent with an ephemeral message a 15-minute timeout
    # task; it is not work the bot started and would never finish in a test.
    return "timeout_task_impl" in repr(task.get_coro())
