"""The world the Discord fake models: its ids, limits, error codes, people and servers,
and the records of what was asked of it (``tests.fake.discord_fake``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

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
LOADING = 128  # a deferred response's "thinking…" message

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
# Discord's rate limits as the fake applies them: (requests, per seconds).
# Every route the fake answers (``FakeDiscord._respond``): each is held to Discord's
# API description by tests/bot/test_fake_answers.py, whether garnet calls it or not.
ROUTES = (
    ("GET", "/users/@me"), ("GET", "/oauth2/applications/@me"), ("GET", "/gateway/bot"),
    ("GET", "/channels/{channel_id}"), ("PATCH", "/channels/{channel_id}"),
    ("PUT", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", MESSAGES), ("POST", "/channels/{channel_id}/threads"),
    ("GET", "/guilds/{guild_id}/members/{member_id}"),
    ("POST", CALLBACK), ("POST", FOLLOWUP), ("PATCH", ORIGINAL), ("DELETE", ORIGINAL),
)
MESSAGE_LIMIT = (5, 5.0)  # posting messages, per channel
ROUTE_LIMIT = (50, 1.0)  # any other route, per major parameter
GLOBAL_LIMIT = (50, 1.0)  # every request with the bot's token
# GET /gateway/bot's session start limit: how many shards may IDENTIFY at once (per 5 s)
MAX_CONCURRENCY = 1
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

    def __init__(self, status: int, code: int = 0, message: str = "",
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(status, code, message)
        self.status = status
        self.code = code
        self.message = message or ERRORS.get(code, "")
        self.errors = errors  # Discord's field errors (50035 Invalid Form Body)


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
        """Sent to the asker only: said by the message (an edit keeps the flags of the
        message it edits, such as the deferral's)."""
        flags = int(self.message.get("flags") or 0)
        if self.method == "PATCH" and self.ok and isinstance(self.response, dict):
            flags |= int(self.response.get("flags") or 0)
        return bool(flags & EPHEMERAL)

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


def iso_time(seconds: float) -> str:
    """An instant (epoch seconds) as Discord writes timestamps (ISO 8601)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds")


def snowflake_time(snowflake: int) -> str:
    """A snowflake's creation time as Discord writes timestamps."""
    return iso_time(((snowflake >> 22) + discord.utils.DISCORD_EPOCH) / 1000)


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name.lower(), "global_name": name,
            "discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0, "flags": 0,
            "primary_guild": None}


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    roles: tuple[int, ...] = ()
    locale: str = "en-US"  # their Discord app's language (an interaction's ``locale``)

    def user(self) -> dict[str, Any]:
        return user_payload(self.id, self.name)

    def member(self, with_user: bool = True, roles: tuple[int, ...] | None = None,
               nick: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in (self.roles if roles is None else roles)],
            "nick": nick, "avatar": None, "banner": None,
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

class _Limited(Failure):
    """A 429: Discord's body and headers for a rate limit."""

    def __init__(self, retry_after: float, is_global: bool) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.body = {"message": self.message, "retry_after": retry_after,
                     "global": is_global, "code": 0}
        self.headers = {"Retry-After": str(math.ceil(retry_after)),
                        "X-RateLimit-Scope": "global" if is_global else "user"}
        if is_global:
            self.headers["X-RateLimit-Global"] = "true"


def _limited(retry_after: float, is_global: bool) -> _Limited:
    return _Limited(retry_after, is_global)

