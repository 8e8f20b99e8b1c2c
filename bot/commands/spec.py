"""How a command is declared, once, for every adapter.

A ``Command`` names itself, says what it does, lists its options (type, bounds,
choices, whether required), who may use it, how its answer is shown, and the
service call it makes. The Discord command tree, the console's parser and the help
text are all built from these declarations, so the adapters cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from bot.core import options as opt
from bot.core.messages import Actor, Response, Role, Upload
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.texts import input as say

if TYPE_CHECKING:
    from bot.services.decks import Decks
    from bot.services.economy import Economy
    from bot.services.event_review import EventReviews
    from bot.services.games import Games
    from bot.services.history import History
    from bot.services.languages import Languages
    from bot.services.matches import Matches
    from bot.services.permissions import HostRoles
    from bot.services.requests import Once
    from bot.services.season import Season
    from bot.services.tournaments.host import Tournaments
    from bot.services.web import PublicPages


class Kind(Enum):
    TEXT = "text"
    INT = "int"
    NUMBER = "number"  # a decimal number of seconds (its bounds are said as times)
    BOOL = "bool"
    USER = "user"  # a person: arrives as an Actor
    USERS = "users"  # several people, typed as mentions: arrives as a tuple of Actors
    ROLE = "role"  # a server role: arrives as a Role (id and name)
    ATTACHMENT = "attachment"  # a file: arrives as an Upload (Discord: an attachment;
    # the console: a file path); ``max`` bounds its size in bytes
    CHANNEL = "channel"  # a channel of the server: arrives as its id


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


class Admits(Enum):
    """A new match a command asks for, judged by the admission at Discord's limit
    (``bot.services.pressure``) before anything else: in memory, so that a refusal
    reads and writes nothing and is the request's one answer."""

    STARTS = "starts"  # it starts now (``/dm``, ``/practice``)
    ASKS = "asks"  # it starts when accepted (``/challenge``): no start is taken yet


class Suggest(Enum):
    """What an option's autocomplete offers."""

    GAMES = "games"  # the games the server offers
    INSTALLED_GAMES = "installed-games"  # every game installed (``/host games``)
    GAME_OPTIONS = "game-options"  # the ``options:`` of the game chosen in ``game:``
    DECKS = "decks"  # the shipped decks of Sigma Escape and the server's own
    EVENTS = "events"  # the server's events
    SCOPES = "scopes"  # events, plus overall and outside events
    MY_MATCHES = "my-matches"  # the asker's open matches
    OPEN_MATCHES = "open-matches"  # every open match of the server
    RECORDED_MATCHES = "recorded-matches"  # any match of the server that was played
    FINISHED_MATCHES = "finished-matches"
    MOVES = "moves"  # legal moves, where the match shows hints
    TOURNAMENTS = "tournaments"  # the server's tournaments


# Every input has a bound: options that declare none get these (a text's length, a
# number's range), and Discord is told them too.
TEXT_MAX = 100
MAX_PEOPLE = 60  # people named in one option of several (USERS)
PEOPLE_TEXT = 1500  # the characters of their mentions, as Discord is told
UPLOAD_MAX = 64 * 1024  # bytes of an attached file
INT_RANGE = (-2_000_000_000, 2_000_000_000)
NUMBER_RANGE = (-1e9, 1e9)


def storable(text: str) -> bool:
    """Whether a database can store the text: no lone surrogate (half of an emoji's
    pair, which Discord's JSON can carry but no UTF-8 encodes) and no NUL (which
    PostgreSQL's text refuses)."""
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class OutOfBounds(Refusal):
    def __init__(self, option: str, span: str, shown: str = "") -> None:
        super().__init__(say.out_of_bounds(option, span, shown))
        self.option = option


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

    def bounds(self) -> tuple[float | None, float | None]:
        """(low, high): the declared bounds, or the default ones of the kind."""
        if self.kind is Kind.TEXT:
            return self.min, self.max if self.max is not None else TEXT_MAX
        if self.kind is Kind.USERS:
            return None, PEOPLE_TEXT
        if self.kind is Kind.ATTACHMENT:
            return None, self.max if self.max is not None else UPLOAD_MAX
        if self.kind in (Kind.INT, Kind.NUMBER):
            low, high = INT_RANGE if self.kind is Kind.INT else NUMBER_RANGE
            return (self.min if self.min is not None else low,
                    self.max if self.max is not None else high)
        return None, None

    def check_size(self, size: int) -> None:
        """Refuse a file larger than the bound, before it is read."""
        _, high = self.bounds()
        if high is not None and size > high:
            raise OutOfBounds(self.name, say.file_bound(high), say.file_size(size))

    def check_typed(self, text: str) -> None:
        """Refuse typed text no database can store, before anything reads it: every
        text reaches garnet through here (``check``, the console's parser, Discord's
        autocomplete)."""
        if not storable(text):
            raise Refusal(say.unstorable(self.name))

    def read(self, raw: str) -> Any:
        """A typed value (a number, yes or no, a text) from its text, checked as Discord
        checks it: the console's values and ``settings:`` pairs are read here."""
        if self.kind is Kind.BOOL:
            return opt.as_bool(self.name, raw, False)
        if self.kind in (Kind.INT, Kind.NUMBER):
            value = (opt.as_int(self.name, raw.strip().lstrip("#")) if self.kind is Kind.INT
                     else opt.as_number(self.name, raw))
            if value is not None:
                self.check(value)
            return value
        text = raw.strip()
        if self.choices:
            values = [v for _, v in self.choices]
            if text.lower() not in values:
                raise Refusal(say.one_of(self.name, values, text))
            return text.lower()
        self.check(text)
        return text

    def check(self, value: Any) -> None:
        """Refuse a value outside the bounds (both adapters and buttons come here)."""
        if isinstance(value, str):
            self.check_typed(value)
        low, high = self.bounds()
        if self.kind is Kind.ATTACHMENT and isinstance(value, Upload):
            self.check_size(len(value.data))
            return
        if self.kind is Kind.USERS and isinstance(value, tuple | list):
            if len(value) > MAX_PEOPLE:
                raise OutOfBounds(self.name, say.people_bound(MAX_PEOPLE))
        elif self.kind is Kind.TEXT and isinstance(value, str):
            if high is not None and len(value) > high:
                raise OutOfBounds(self.name, say.most_characters(high))
            if low is not None and len(value.strip()) < low:
                raise OutOfBounds(self.name, say.least_characters(low))
        elif (self.kind in (Kind.INT, Kind.NUMBER) and isinstance(value, int | float)
              and not isinstance(value, bool)
              and ((low is not None and value < low) or (high is not None and value > high))):
            raise Refusal(say.number_out_of_bounds(self.name, low, high, value,
                                                   seconds=self.kind is Kind.NUMBER))


# Rarely used options of a command typed together in one text option, as name=value
# pairs (``settings:deadline=60 checkin=yes``): Discord takes at most 25 options a
# command and 8,000 characters a top-level command (``tests/bot/test_command_snapshot``
# keeps a tenth of each free). Each pair is read and checked by its own declaration.
SETTINGS = "settings"
SETTINGS_MAX = 300
PAIR = re.compile(r"^([a-z][a-z0-9_]*)=(.+)$")


def settings_option(folded: Sequence[Option]) -> Option:
    """The text option that carries ``folded``: its description names them."""
    return Option(SETTINGS, Kind.TEXT, "More, as name=value: " + " ".join(
        o.name for o in folded), max=SETTINGS_MAX)


def unfolded(folded: Sequence[Option], text: str) -> dict[str, Any]:
    """The values of ``folded`` options that ``settings:`` text gives, by name."""
    known = {o.name: o for o in folded}
    values: dict[str, Any] = {}
    for word in text.replace(",", " ").split():
        pair = PAIR.match(word.strip())
        option = known.get(pair.group(1).lower()) if pair else None
        if pair is None or option is None:
            raise Refusal(say.unknown_setting(SETTINGS, word, list(known)))
        if option.name in values:
            raise Refusal(say.repeated_option(option.name, None))
        values[option.name] = option.read(pair.group(2))
    return values


Thread = tuple[str, Callable[[], Awaitable[None]]]
# The members of a server role, as the adapter knows them (None: it cannot tell).
Members = Callable[[Role], Awaitable[Sequence[Actor] | None]]


@dataclass(frozen=True)
class Call:
    """One use of a command: who asks and where (``asker``), and the options as typed
    values.

    ``open_thread`` is the adapter's way to start a thread for a match: given its
    name, it returns the new channel's id and a way to archive it unused; ``members``
    its way to list a role's members."""

    asker: Asker
    options: Mapping[str, Any]
    open_thread: Callable[[str], Awaitable[Thread]] | None = None
    sent_at: float | None = None  # when the user sent it (the platform's timestamp)
    request_id: str | None = None  # the platform's id of this request (a retry has it too)
    members: Members | None = None

    @property
    def guild_id(self) -> str:
        return self.asker.guild_id

    @property
    def channel_id(self) -> str:
        return self.asker.channel_id

    @property
    def actor(self) -> Actor:
        return self.asker.actor

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
    season: Season
    tournaments: Tournaments
    decks: Decks
    games: Games
    languages: Languages
    once: Once = field(default_factory=lambda: _once())
    # Events' automatic DM reviews (the console shows them after the line that ended
    # the DM); None where nobody built them.
    event_reviews: EventReviews | None = None
    # The public web pages' switches (``/host web``, ``/web``); None where nobody built it.
    web: PublicPages | None = None

    async def link(self, guild_id: str, path: str) -> str | None:
        """The address of a page of the server for an answer, when its pages are up and
        garnet knows where people open them (``PUBLIC_URL``); else None."""
        return None if self.web is None else await self.web.link(guild_id, path)


def _once() -> Once:
    from bot.services.requests import Once

    return Once()


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
    # A write a user could repeat after a timeout: carried out once per request id.
    once: bool = False
    # It may start a match: the bot must be able to post boards where it is used.
    posts_boards: bool = False
    # Options typed in its ``settings:`` option, not on their own (see ``SETTINGS``).
    folded: tuple[Option, ...] = ()
    # The new match it asks for, refused at Discord's limit first (``turn_away``).
    admits: Admits | None = None

    @property
    def group(self) -> str | None:
        """The group it is typed under: "host tournament" for "host tournament create"."""
        return self.name.rsplit(" ", 1)[0] if " " in self.name else None

    @property
    def top(self) -> str:
        """The top-level command it is typed under (Discord shows or hides that one)."""
        return self.name.split()[0]

    @property
    def for_hosts(self) -> bool:
        return self.audience in FOR_HOSTS

    @property
    def leaf(self) -> str:
        return self.name.split()[-1]

    def option(self, name: str) -> Option | None:
        return next((o for o in (*self.options, *self.folded) if o.name == name), None)

    def turn_away(self, services: Services, guild_id: str) -> None:
        """Refuse the new match it asks for while garnet is at Discord's limit (the
        ``Refusal`` raised), before anything is read or written; its service lets
        the match in. Nothing for a command that starts no match."""
        if self.admits is not None:
            services.matches.pressure.check(guild_id, starts=self.admits is Admits.STARTS,
                                            admit=False)

    async def invoke(self, services: Services, call: Call) -> Response:
        """Run the command after checking every option against its bounds: what
        Discord checks for a slash command is checked again for buttons and the
        console, in this one place. ``settings:`` is read into the options it folds.
        A new match at Discord's limit is refused before any of it (``turn_away``)."""
        self.turn_away(services, call.guild_id)
        if self.folded and call.get(SETTINGS):
            given = {k: v for k, v in call.options.items() if k != SETTINGS}
            call = dataclasses.replace(call, options=given | unfolded(
                self.folded, str(call.options[SETTINGS])))
        for option in (*self.options, *self.folded):
            value = call.options.get(option.name)
            if value is not None:
                option.check(value)
        if self.once and call.request_id is not None:
            return await services.once.run(call.request_id,
                                           lambda: self.run(services, call))
        return await self.run(services, call)


@dataclass(frozen=True)
class Group:
    """A group of subcommands: "event" (top level) or "host event" (in ``host``).
    A top-level group for hosts only carries Discord's default permission itself."""

    name: str
    description: str
    audience: Audience = Audience.ANYONE

    @property
    def for_hosts(self) -> bool:
        return self.audience in FOR_HOSTS


# Discord honours ``default_member_permissions`` on top-level commands only: a
# subcommand is shown to whoever is shown its top-level command. So every command of
# hosts is typed under a top-level command shown to hosts only (itself, or a group
# such as ``/host`` whose audience is hosts), and every command of players under one
# shown to everyone. ``misplaced`` is that rule; ``bot.commands`` refuses to load
# declarations that break it.
FOR_HOSTS = (Audience.HOSTS, Audience.MANAGERS)


def misplaced(commands: Sequence[Command], groups: Sequence[Group]) -> list[str]:
    """Why each declaration breaks the rule above (empty: none does)."""
    hidden = {g.name: g.for_hosts for g in groups}
    problems = [f"/{g.name} is for hosts but is not a top-level command: Discord would "
                "show it to everyone" for g in groups if g.for_hosts and " " in g.name]
    for command in commands:
        if command.group is not None and command.group not in hidden:
            problems.append(f"/{command.name}: no group /{command.group} is declared")
        shown_to_hosts_only = command.for_hosts if command.group is None \
            else hidden.get(command.top, False)
        if command.for_hosts and not shown_to_hosts_only:
            problems.append(f"/{command.name} is for hosts but /{command.top} is shown to "
                            f"everyone: declare it as 'host {command.name}'")
        elif not command.for_hosts and shown_to_hosts_only:
            problems.append(f"/{command.name} is for everyone but /{command.top} is shown "
                            "to hosts only")
    return problems
