"""Discord, replaced at its network boundary, for testing the adapter end to end.

Everything discord.py sends goes through two methods: ``HTTPClient.request`` (the bot
token's REST calls: messages, threads, command sync) and
``AsyncWebhookAdapter.request`` (interaction callbacks and follow-ups). The fake
replaces those two, records each request (route, JSON body, attached files) and
answers with payloads shaped like Discord's. Gateway events go in through the
client's own parsers (``parse_message_create``, ``parse_interaction_create``) with
payloads shaped like the gateway's, so command trees, option resolution, members'
roles and permissions and dynamic buttons all run for real.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

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


@dataclass
class Call:
    """One request discord.py made."""

    method: str
    path: str  # the route template, e.g. /channels/{channel_id}/messages
    url: str
    body: Any  # the JSON body (payload_json of a multipart request)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict[str, Any] = field(default_factory=dict)
    response: Any = None  # what the fake answered

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
        return f"<{self.method} {self.url} {self.content[:60]!r}{files}>"


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
        self.departed: set[int] = set()  # people who left: options resolve them as users only
        # The bot's permissions per channel (every one where not said).
        self.bot_permissions: dict[int, discord.Permissions] = {}
        self.channels: dict[int, dict[str, Any]] = {
            s.channel: self.channel_payload(s.channel) for s in SERVERS.values()}

    def snowflake(self, ago: float = 0.0) -> int:
        """A new id; with a clock, made ``ago`` seconds before its now."""
        n = next(self._ids)
        if self.clock is None:
            return n
        ms = int((self.clock.now() - ago) * 1000) - discord.utils.DISCORD_EPOCH
        return (ms << 22) | (n & 0x3FFFFF)

    def install(self, monkeypatch: Any) -> None:
        fake = self

        async def http_request(http: HTTPClient, route: Route, *,
                               files: Sequence[discord.File] | None = None,
                               form: Any = None, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            if form:
                body = _payload_json(form)
            return fake._answer(route, body, files, kwargs.get("params") or {})

        async def webhook_request(adapter: AsyncWebhookAdapter, route: Route, session: Any, *,
                                  payload: Any = None, multipart: Any = None,
                                  files: Sequence[discord.File] | None = None,
                                  params: Any = None, **kwargs: Any) -> Any:
            body = _payload_json(multipart) if multipart else payload
            return fake._answer(route, body, files, params or {})

        monkeypatch.setattr(HTTPClient, "request", http_request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_request)

    # ---- REST answers -------------------------------------------------------------

    def _answer(self, route: Route, body: Any, files: Sequence[discord.File] | None,
                query: dict[str, Any]) -> Any:
        read: list[tuple[str, bytes]] = []
        for f in files or ():
            f.reset()
            read.append((f.filename or "", f.fp.read()))
            f.reset()
        call = Call(route.method, route.path, route.url, body, read, dict(query))
        self.calls.append(call)
        call.response = self._respond(route, body, read)
        return call.response

    def _respond(self, route: Route, body: Any, read: list[tuple[str, bytes]]) -> Any:
        key = (route.method, route.path)
        params: dict[str, Any] = {"channel_id": route.channel_id, "webhook_id": route.webhook_id,
                                  "webhook_token": route.webhook_token}
        if key == ("GET", "/users/@me"):
            return user_payload(BOT_ID, "garnet", bot=True)
        if key == ("GET", "/oauth2/applications/@me"):
            return {"id": str(APP_ID), "name": "garnet", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": user_payload(OWNER_ID, "Owner"), "verify_key": "0" * 64,
                    "flags": 0}
        if route.method == "PUT" and route.path.startswith("/applications/"):
            return [{**command, "id": str(self.snowflake()), "application_id": str(APP_ID),
                     "version": "1"} for command in body]
        if key == ("POST", "/channels/{channel_id}/messages"):
            return self.message_payload(int(params["channel_id"]), body, read)
        if key == ("GET", "/guilds/{guild_id}/members/{member_id}"):
            # A member looked up by id (people named several at once, by mention).
            guild, member = route.url.rstrip("/").split("/")[-3::2]
            person = next((p for p in (*PEOPLE, OSCAR) if p.id == int(member)
                           and p.id in SERVERS[int(guild)].members), None)
            if person is None:
                raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                                       {"code": 10007, "message": "Unknown Member"})
            return self.member_of(person, int(guild))
        if key == ("POST", "/channels/{channel_id}/threads"):
            thread = self.thread_payload(int(params["channel_id"]), body["name"])
            self.channels[int(thread["id"])] = thread
            return thread
        if key == ("PATCH", "/channels/{channel_id}"):
            channel = self.channels[int(params["channel_id"])]
            if "thread_metadata" in channel and "archived" in body:
                channel["thread_metadata"]["archived"] = body["archived"]
            return channel
        if key == ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"):
            return self._callback(params, body, read)
        if key in (("POST", "/webhooks/{webhook_id}/{webhook_token}"),
                   ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")):
            return self.message_payload(self._token_channel[params["webhook_token"]], body, read)
        if key == ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
            return None
        self.unexpected.append(f"{route.method} {route.url}")
        raise AssertionError(f"the fake does not know {route.method} {route.path}")

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
            "joined_at": TIMESTAMP, "voice_states": [], "presences": [], "threads": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "roles": [
                {**role, "id": str(guild_id), "name": "@everyone", "position": 0,
                 "permissions": str(EVERYONE_PERMS.value)},
                {**role, "id": str(server.host_role), "name": "Host", "position": 2,
                 "permissions": "0"},
                {**role, "id": str(PLAYER_ROLE_ID + 10 * (guild_id - GUILD_ID)), "name": "Players",
                 "position": 1, "permissions": "0"},
            ],
            "channels": [self.channel_payload(server.channel)],
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
                     channel_id: int) -> dict[str, Any]:
        token = f"token-{self.snowflake()}"
        self._token_channel[token] = channel_id
        guild = self.guild_of(channel_id)
        member = self.member_of(person, guild)
        member["permissions"] = str(EVERYONE_PERMS.value)
        return {
            "id": str(self.snowflake()), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "guild_id": str(guild),
            "channel_id": str(channel_id), "channel": self.channels[channel_id],
            "member": member, "app_permissions": str(self.bot_permissions.get(
                channel_id, discord.Permissions.all()).value),
            "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
            "attachment_size_limit": 10_485_760, "data": data,
        }

    def slash(self, tree: app_commands.CommandTree[Any], person: Person, name: str,
              channel_id: int = CHANNEL_ID, focused: str | None = None,
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
        return self._interaction(4 if focused else 2, person, data, channel_id)

    def subcommand(self, tree: app_commands.CommandTree[Any], person: Person, group: str,
                   name: str, channel_id: int = CHANNEL_ID, /, **values: Any) -> dict[str, Any]:
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
        return self._interaction(2, person, data, channel_id)

    def press(self, person: Person, message: dict[str, Any], custom_id: str) -> dict[str, Any]:
        """A button press on a message the bot sent (as the fake answered it)."""
        payload = self._interaction(3, person, {"custom_id": custom_id, "component_type": 2},
                                    int(message["channel_id"]))
        payload["message"] = message
        return payload


def select_menu(fake: FakeDiscord, person: Person, message: dict[str, Any], custom_id: str,
                value: str) -> dict[str, Any]:
    """A choice in a select menu (component type 3) of a message the bot sent: kept
    apart from the transport, so that it stays valid whatever carries the calls."""
    payload = fake.press(person, message, custom_id)
    payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    return payload


def _payload_json(form: Any) -> Any:
    for part in form:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


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
