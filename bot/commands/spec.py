"""How a command is declared, once, for every adapter.

A ``Command`` names itself, says what it does, lists its options (type, bounds,
choices, whether required), who may use it, how its answer is shown, and the
service call it makes. The Discord command tree, the console's parser and the help
text are all built from these declarations, so the adapters cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from bot.core.messages import Actor, Response

if TYPE_CHECKING:
    from bot.services.economy import Economy
    from bot.services.history import History
    from bot.services.matches import Matches
    from bot.services.permissions import HostRoles


class Kind(Enum):
    TEXT = "text"
    INT = "int"
    NUMBER = "number"  # seconds and the like: a decimal number
    BOOL = "bool"
    USER = "user"  # a person: arrives as an Actor
    ROLE = "role"  # a server role: arrives as its name


class Audience(Enum):
    """Who may use a command (the services check it; Discord is told too)."""

    ANYONE = "anyone"
    HOSTS = "hosts"
    MANAGERS = "managers"  # Manage Server


class Reply(Enum):
    """How the answer is shown, and whether it may take a while (a board image)."""

    QUICK = "quick"  # answered at once
    PUBLIC = "public"  # may be slow; the result is a post in the channel
    PRIVATE = "private"  # may be slow; the answer is for the asker only


class Suggest(Enum):
    """What an option's autocomplete offers."""

    GAMES = "games"
    EVENTS = "events"  # the server's events
    SCOPES = "scopes"  # events, plus overall and outside events
    MY_MATCHES = "my-matches"  # the asker's open matches
    OPEN_MATCHES = "open-matches"  # every open match of the server
    RECORDED_MATCHES = "recorded-matches"  # any match of the server that was played
    FINISHED_MATCHES = "finished-matches"
    MOVES = "moves"  # legal moves, where the match shows hints


@dataclass(frozen=True)
class Option:
    name: str
    kind: Kind
    description: str
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()  # (label, value)
    min: float | None = None  # a number's bounds, or a text's length
    max: float | None = None
    suggest: Suggest | None = None
    default: Any = None


Thread = tuple[str, Callable[[], Awaitable[None]]]


@dataclass(frozen=True)
class Call:
    """One use of a command: who, where, and the options as typed values.

    ``open_thread`` is the adapter's way to start a thread for a match: given its
    name, it returns the new channel's id and a way to archive it unused."""

    guild_id: str
    channel_id: str
    actor: Actor
    options: Mapping[str, Any]
    open_thread: Callable[[str], Awaitable[Thread]] | None = None

    def get(self, name: str, default: Any = None) -> Any:
        value = self.options.get(name)
        return default if value is None else value


@dataclass
class Services:
    """What commands call: every service, built once by ``bot.app``."""

    matches: Matches
    economy: Economy
    history: History
    roles: HostRoles


Run = Callable[[Services, Call], Awaitable[Response]]


@dataclass(frozen=True)
class Command:
    name: str  # "event create" for a command of a group
    description: str
    run: Run
    options: tuple[Option, ...] = ()
    audience: Audience = Audience.ANYONE
    reply: Reply = Reply.QUICK
    section: str = ""  # where the help lists it
    usage: str = ""  # an example for the help, e.g. "game:cairo player1:@a player2:@b"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def group(self) -> str | None:
        return self.name.split()[0] if " " in self.name else None

    @property
    def leaf(self) -> str:
        return self.name.split()[-1]

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class Group:
    name: str
    description: str
