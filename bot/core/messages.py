"""What the host says, independent of the chat platform.

Mentions are written as ``<@user_id>`` (Discord's own markup); the console shows
them as ``@name``. Buttons carry a ``custom_id`` of the form ``garnet:ACTION:MATCH[:ARG]``
which Discord keeps across restarts and which the console shows as the equivalent
slash command.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Role:
    """A server role: its id is what counts (a rename keeps it); the name is for show."""

    id: str
    name: str


@dataclass(frozen=True)
class Actor:
    """Who asked: their platform id and name, and what the platform says of their rights
    (``roles``: the ids of their roles on the server they asked in)."""

    id: str
    name: str
    roles: frozenset[str] = frozenset()
    manage_guild: bool = False


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass(frozen=True)
class Choice:
    """One option of a select menu: what it shows and the value it sends."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class Select:
    """A select menu (at most 25 choices; Discord's limit). Its ``custom_id`` encodes a
    command like a button's (``bot.core.buttons``); the chosen value is its ``choice``."""

    custom_id: str
    placeholder: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Image:
    """A file sent with a post. ``description``: what a screen reader says of it (the
    attachment's description on Discord, at most 1,024 characters; the console prints
    it beside the file's path): a board in words (``Game.describe``)."""

    data: bytes
    filename: str
    description: str = ""


@dataclass(frozen=True)
class Upload:
    """A file a user attached to a command (``/host deck add``): its name and its bytes,
    within the option's bound (the adapters check the size before reading it)."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class TurnStart:
    """The turn a board post starts: its player's clock runs from when the post is
    actually out (the adapter reports it with ``Matches.timing.board_posted``), not from when
    the move was processed, so a slow upload or a rate-limit wait is charged to no one."""

    guild_id: str
    match_id: int
    ply: int


class Pace(enum.IntEnum):
    """How urgently a post must be out when the bot is at Discord's global limit
    (50 requests a second per bot): while posts of several paces wait, each pace gets
    its ``SHARE`` of the turns (a pace with nothing waiting leaves its turns to the
    others), so boards go first and none waits forever. Declared where the post is
    made."""

    BOARD = 0  # the board of a running match: a move's board, the post starting a turn
    NORMAL = 1  # an answer someone waits for, a notice in a running match
    LOW = 2  # reminders, set-up posts, lapsed challenges, standings, reviews


#: the turns each pace gets while all wait: of every 11, boards 8, answers 2, the rest 1
#: (boards and the rest alone: 8 of 9)
SHARE = {Pace.BOARD: 8, Pace.NORMAL: 2, Pace.LOW: 1}


@dataclass
class Post:
    """A message. With ``channel_id`` None it answers the person who asked."""

    text: str
    channel_id: str | None = None
    image: Image | None = None
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()  # each in a row of its own, above the buttons
    ephemeral: bool = False
    # Files sent with the message besides its image (e.g. an event's CSV books).
    attachments: tuple[Image, ...] = ()
    # Whom it pings, by user id. None: everyone it mentions with ``mention`` (user
    # text in a post is escaped, so those are the bot's own mentions); () nobody.
    pings: tuple[str, ...] | None = None
    # The turn this post starts: report when it is out (see ``TurnStart``).
    turn: TurnStart | None = None
    # How soon it must be out when the bot is at Discord's limit (see ``Pace``).
    pace: Pace = Pace.NORMAL
    # Whether it is still wanted (None: always): one that is not by its turn at
    # Discord's limit is not sent (``Withdrawn``). A reminder whose turn's move landed,
    # or that a later reminder of the same turn replaced, while it waited.
    current: Callable[[], bool] | None = field(default=None, compare=False, repr=False)

    def pinged(self) -> tuple[str, ...]:
        """The user ids this post may ping: never anyone it does not mean."""
        if self.pings is not None:
            return self.pings
        return tuple(dict.fromkeys(MENTION.findall(self.text)))


class Withdrawn(Exception):
    """A post was not sent: it was no longer wanted (``Post.current``) when its turn
    came at Discord's limit."""


@dataclass
class Response:
    """What one request produced: an answer to the asker and posts to channels.

    ``reply`` None means nothing to say to the asker in particular (a typed move that
    was applied is answered by the board post itself).
    """

    reply: Post | None = None
    posts: list[Post] = field(default_factory=list)

    @classmethod
    def error(cls, text: str) -> Response:
        """A refusal: for the asker only, and it pings nobody."""
        return cls(reply=Post(text, ephemeral=True, pings=()))

    @classmethod
    def say(cls, text: str, ephemeral: bool = True) -> Response:
        return cls(reply=Post(text, ephemeral=ephemeral))


#: a mention as ``mention`` writes it (and as Discord does): ``<@id>``
MENTION = re.compile(r"(?<!\\)<@([^>\s\\\u200b]+)>")


#: the user id of the computer player's seat: ``garnet-ai:LEVEL``
AI_PREFIX = "garnet-ai:"


def ai_user(level: int) -> str:
    return f"{AI_PREFIX}{level}"


def ai_level(user_id: str) -> int | None:
    """The level of the computer player's seat, or None for a person."""
    if not user_id.startswith(AI_PREFIX):
        return None
    level = user_id[len(AI_PREFIX):]
    return int(level) if level.isdigit() else None


def ai_name(level: int) -> str:
    return f"garnet AI, level {level}"


def mention(user_id: str) -> str:
    level = ai_level(user_id)
    if level is not None:  # not a person: named, never pinged
        return ai_name(level)
    return f"<@{user_id}>"
