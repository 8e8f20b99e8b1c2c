"""The local console: a chat channel in a terminal, the second adapter.

Each input line is ``name: message``. A message starting with ``/`` is a slash
command written as on Discord (``/challenge opponent:@bob game:cairo``); anything
else is a message typed in the channel (``D left``). Lines starting with ``~`` are
directives of the console itself:

    ~ wait 65s        let time pass (instantly with --virtual-clock)
    ~ host NAME       give NAME the host role (on the current server)
    ~ channel NAME    speak in another channel from now on
    ~ server NAME     speak on another server from now on (each has its own
                      matches, events, hosts and channels; the first is "console")
    ~ role NAME P...  give the people P... the role NAME (on the current server), for
                      commands that take a role's members (``/host tournament add role:``,
                      ``/host event add role:``)
    ~ deny #NAME      garnet loses Send Messages in channel NAME (``~ allow #NAME``
                      gives it back); ``~ delete #NAME`` deletes the channel
    ~ disconnect      garnet loses its connection (``~ reconnect``: it is back)
    ~ leave NAME      NAME leaves the current server

The bot answers with the same texts it posts on Discord, as ``bot: ...``; images
are written to a folder and their paths printed.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from bot.adapters.console.parse import parse
from bot.commands import BY_NAME
from bot.commands.spec import Audience, Call, Kind, Services, Thread
from bot.core import buttons
from bot.core.clock import VirtualClock
from bot.core.escape import unescape
from bot.core.failures import Cause, PostFailure
from bot.core.messages import MENTION, Actor, Post, Response, Role, Select
from bot.core.refusal import Refusal, answered
from bot.core.requests import Asker
from bot.texts import input as say
from bot.texts import outages as outage_texts

log = logging.getLogger(__name__)

GUILD = "console"
HOST_ROLE = Role("Host", "Host")  # every console server's host role; names are ids here
# A speaker is any name without spaces or colons, in any script: `李小龍: D left`.
LINE = re.compile(r"^\s*([^\s:@/~#][^\s:]{0,31})\s*:\s?(.*)$")
IMAGE_NUMBER = re.compile(r"^(\d+)-")
CHANNEL = re.compile(r"<#([^>\s]+)>")
# Discord's live timestamps, ``<t:EPOCH:R>``: the console says them against its clock.
TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")


def relative(epoch: float, now: float) -> str:
    """An instant as Discord's ``<t:…:R>`` reads: "in 45 s", "in 4 min", "2 h ago". An
    instant to come is given up to its whole second (``texts.match.live_time``): the
    whole seconds before it agree with a clock shown beside it."""
    delta = math.floor(epoch - now + 1e-9) if epoch >= now else round(epoch - now)
    size = abs(delta)
    if size < 60:
        amount = f"{size} s"
    elif size < 3600:
        amount = f"{round(size / 60)} min"
    elif size < 86_400:
        amount = f"{round(size / 3600)} h"
    else:
        amount = f"{round(size / 86_400)} days"
    return f"in {amount}" if delta >= 0 else f"{amount} ago"
SERVER = re.compile(r"^[A-Za-z0-9_\-]{1,32}$")
MAX_NAME = 100
WAIT = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?|h)?$")


class ConsoleError(Refusal):
    pass


def _seconds(text: str) -> float:
    match = WAIT.match(text.strip().lower())
    if not match:
        raise ConsoleError(say.not_a_time(text))
    number = float(match.group(1))
    unit = match.group(2) or "s"
    if unit == "ms":
        return number / 1000
    if unit.startswith("m"):
        return number * 60
    if unit == "h":
        return number * 3600
    return number


class Console:
    def __init__(self, services: Services | None, image_dir: Path, out: TextIO = sys.stdout,
                 hosts: tuple[str, ...] = ("host",)) -> None:
        self._services = services
        self.image_dir = image_dir
        self.out = out
        self.guild = GUILD
        self._hosts: dict[str, set[str]] = {GUILD: set(hosts)}
        self._roles: dict[tuple[str, str], list[str]] = {}  # (server, role) -> members
        self._channels: dict[str, str] = {GUILD: "console"}
        # Channels are known by name in their server; ids are unique across servers,
        # as on Discord: "dm" on the first server, "B/dm" on server B.
        self._servers_of: dict[str, str] = {}
        self._adopted: set[str] = set()
        self._images: int | None = None  # the last image's number, once looked up
        self._messages = 0
        self._threads = 0
        # Channels garnet cannot post to (``~ deny``, ``~ delete``), and why.
        self._blocked: dict[str, PostFailure] = {}
        if services is not None:
            services.matches.reach = self.reach

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the services are attached by bot.app before the first line")
        return self._services

    def attach(self, services: Services) -> None:
        self._services = services
        services.matches.reach = self.reach

    async def reach(self, channel_id: str) -> PostFailure | None:
        """Can garnet post in a channel (for ``/resume`` after a failure)?"""
        return self._blocked.get(channel_id)

    # ---- where we are --------------------------------------------------------------

    @property
    def hosts(self) -> set[str]:
        return self._hosts.setdefault(self.guild, set())

    @property
    def channel(self) -> str:
        """The id of the channel spoken in now."""
        return self._channel_id(self._channels.setdefault(self.guild, "console"))

    def _channel_id(self, name: str) -> str:
        channel = name if self.guild == GUILD else f"{self.guild}/{name}"
        self._servers_of[channel] = self.guild
        return channel

    def prompt(self) -> str:
        """Where the next line is said, e.g. ``console #dm> `` or ``B #general> ``."""
        return f"{self.guild} #{self._channels.get(self.guild, 'console')}> "

    async def enter_server(self, name: str) -> None:
        """Speak on server ``name`` from now on (made on first use)."""
        self.guild = name
        self._channels.setdefault(self.guild, "console")

    # ---- output --------------------------------------------------------------------

    def _text(self, text: str) -> str:
        # The console shows what a Discord reader sees: mentions as @name, channels as
        # #name, escaped markdown without its backslashes.
        text = CHANNEL.sub(lambda m: "#" + m.group(1).removeprefix(f"{self.guild}/"), text)
        if "<t:" in text:
            now = self.services.matches.clock.now()
            text = TIMESTAMP.sub(lambda m: relative(int(m.group(1)), now), text)
        return unescape(MENTION.sub(lambda m: "@" + m.group(1), text))

    async def show(self, post: Post, to: str | None = None) -> None:
        where = post.channel_id or (self.channel if not post.ephemeral else None)
        if where in self._blocked:
            # As on Discord: the post is refused, and the services settle the matches.
            self.out.write(f"console: garnet cannot post in #{self._name(where)}\n")
            await self._settle(self._blocked[where])
            return
        if where is not None and not post.ephemeral:
            # A post in a channel is a request with the bot's token on Discord: what the
            # running matches need is measured alike (``bot.services.budget``).
            self.services.matches.kit.budget.spent(where)
        lines = self._text(post.text).splitlines() or [""]
        prefix = f"bot (to {to} only): " if post.ephemeral and to else "bot: "
        if post.channel_id and post.channel_id != self.channel:
            server = self._servers_of.get(post.channel_id, GUILD)
            name = post.channel_id.removeprefix(f"{server}/")
            prefix = (f"bot [#{name}]: " if server == self.guild
                      else f"bot [server {server} #{name}]: ")
        self.out.write(prefix + lines[0] + "\n")
        for line in lines[1:]:
            self.out.write("     " + line + "\n")
        if post.image is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            if self._images is None:
                # After a restart, number on from what an earlier run wrote.
                self._images = await asyncio.to_thread(self._last_image)
            self._images += 1
            path = self.image_dir / f"{self._images:04d}-{post.image.filename}"
            await asyncio.to_thread(path.write_bytes, post.image.data)
            self.out.write(f"     [image: {path}]\n")
            if post.image.description:  # what a screen reader says of it on Discord
                self.out.write(f"     [alt text: {post.image.description}]\n")
        for item in post.attachments:
            # Files for keeping (an event's CSV books) go beside the images, by name.
            folder = self.image_dir.parent / "exports"
            folder.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread((folder / item.filename).write_bytes, item.data)
            self.out.write(f"     [file: {folder / item.filename}]\n")
        if post.buttons:
            shown = " ".join(f"[{b.label}: {self.button_command(b.custom_id)}]"
                             for b in post.buttons)
            self.out.write(f"     {shown}\n")
        for menu in post.selects:
            typed = self.menu_command(menu)
            if typed is not None:  # (a board's menus of moves are typed as moves)
                self.out.write(f"     [{menu.placeholder}: {typed}]\n")
        self.out.flush()
        if post.turn is not None:
            # Out at once: the turn this board starts begins now.
            matches = self.services.matches
            await matches.timing.board_posted(post.turn, matches.clock.now())

    def _name(self, channel_id: str) -> str:
        return channel_id.removeprefix(f"{self._servers_of.get(channel_id, GUILD)}/")

    async def _settle(self, failure: PostFailure) -> None:
        for notice in await self.services.matches.outages.post_failed(failure):
            await self.show(notice)

    async def _show_all(self, posts: list[Post]) -> None:
        for post in posts:
            await self.show(post)

    def _block(self, name: str, cause: Cause) -> PostFailure:
        """garnet can no longer post in channel ``name`` of this server."""
        channel = self._channel_id(name.strip().lstrip("#")[:MAX_NAME])
        home = self._channel_id("console")
        failure = PostFailure(channel, cause,
                              ("Send Messages",) if cause is Cause.DENIED else (),
                              fallback=home if home != channel else None)
        self._blocked[channel] = failure
        return failure

    def _last_image(self) -> int:
        numbers = [int(found.group(1)) for p in self.image_dir.iterdir()
                   if (found := IMAGE_NUMBER.match(p.name))]
        return max(numbers, default=0)

    @staticmethod
    def button_command(custom_id: str) -> str:
        """The command a button stands for, as one would type it."""
        call = buttons.decode(custom_id)
        if call is None:
            return "(no longer works)"
        command = BY_NAME[call.command]
        kinds = {o.name: o.kind for o in command.options}
        words = [f"{k}:@{v}" if kinds.get(k) is Kind.USER else f"{k}:{v}"
                 for k, v in call.options.items()]
        return " ".join([f"/{command.name}", *words])

    @classmethod
    def menu_command(cls, menu: Select) -> str | None:
        """The command a select menu stands for, with its choices, as one would type it
        (None for a menu of no typed command)."""
        call = buttons.decode(menu.custom_id)
        if call is None or call.command not in BY_NAME:
            return None
        kind = next((o.kind for o in BY_NAME[call.command].options if o.name == call.choice),
                    None)
        values = " | ".join(f"@{c.value}" if kind is Kind.USER else c.value
                            for c in menu.choices)
        return f"{cls.button_command(menu.custom_id)} {call.choice}:{values}"

    async def emit(self, response: Response, actor: Actor) -> None:
        if response.reply is not None:
            await self.show(response.reply, to=actor.name)
        for post in response.posts:
            # The later parts of a private answer (a long `/match`) stay private.
            private = post.ephemeral and post.channel_id is None
            await self.show(post, to=actor.name if private else None)
        missed = next((p for p in ([response.reply] if response.reply else []) + response.posts
                       if p.channel_id in self._blocked), None)
        if missed is not None and missed.channel_id is not None:
            # As on Discord: the asker hears what could not be posted there (a host's
            # `/void` of a match whose channel was deleted).
            await self.show(Post(outage_texts.not_posted(missed.channel_id, missed.text),
                                 ephemeral=True), to=actor.name)

    # ---- input ---------------------------------------------------------------------

    def actor(self, name: str, manager: bool = False) -> Actor:
        """A console person; those named with --host / `~ host` host, and may manage
        the server where a command needs Manage Server."""
        host = name in self.hosts
        roles = frozenset({HOST_ROLE.id}) if host else frozenset()
        return Actor(id=name, name=name, roles=roles, manage_guild=manager and host)

    async def handle_line(self, line: str) -> None:
        """One line of input: a directive, or a person's message. Never raises: a bug
        in handling one line must not end the session (it is logged). A computer
        player's answer is shown after the line's own, once it has moved."""
        practice = self.services.matches.practice
        practice.hold()
        try:
            await self._handle_line(line)
        except Exception:
            log.exception("console line failed: %r", line)
            self.out.write("console: something went wrong with that line; "
                           "the match is unchanged (see the log).\n")
        finally:
            practice.release()
        await practice.idle()
        if self.services.event_reviews is not None:  # a DM just ended: its review
            await self.services.event_reviews.idle()

    async def _handle_line(self, line: str) -> None:
        line = line.rstrip("\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            return
        if stripped.startswith("~"):
            await self.directive(stripped[1:].strip())
            return
        match = LINE.match(line)
        if not match:
            self.out.write("console: write `name: message`, e.g. `alice: /help`\n")
            return
        actor = self.actor(match.group(1))
        message = match.group(2).strip()
        if message.startswith("/"):
            response = await self.command(actor, message)
        else:
            self._messages += 1
            message_id = f"console-{self._messages}"
            response = await answered(lambda: self.services.matches.play.typed(
                Asker(self.guild, self.channel, actor), message, message_id=message_id))
        await self.emit(response, actor)

    async def directive(self, text: str) -> None:
        word, _, rest = text.partition(" ")
        word = word.lower()
        try:
            if word == "wait":
                seconds = _seconds(rest)
                clock = self.services.matches.clock
                if isinstance(clock, VirtualClock):
                    await clock.advance(seconds)
                else:
                    await asyncio.sleep(seconds)
            elif word == "host" and rest.strip():
                self.hosts.add(rest.strip().lstrip("@"))
            elif word == "channel" and rest.strip():
                self._channels[self.guild] = rest.strip().lstrip("#")[:MAX_NAME]
            elif word == "role" and len(rest.split()) >= 2:
                role, *people = rest.split()
                members = self._roles.setdefault((self.guild, role.lstrip("@")), [])
                members += [p.lstrip("@") for p in people if p.lstrip("@") not in members]
            elif word in ("deny", "delete") and rest.strip():
                failure = self._block(rest, Cause.DENIED if word == "deny" else Cause.GONE)
                if word == "delete":  # Discord says so at once: the matches are settled
                    await self._settle(failure)
            elif word == "allow" and rest.strip():
                self._blocked.pop(self._channel_id(rest.strip().lstrip("#")[:MAX_NAME]), None)
            elif word == "disconnect":
                self.services.matches.outages.disconnected()
                self.out.write("console: garnet lost its connection\n")
            elif word == "reconnect":
                await self._show_all(await self.services.matches.outages.reconnected())
            elif word == "leave" and rest.strip():
                await self._show_all(await self.services.matches.outages.member_left(
                    self.guild, rest.strip().lstrip("@")))
            elif word == "server" and rest.strip():
                name = rest.strip()
                if not SERVER.match(name):
                    raise ConsoleError(say.server_name())
                await self.enter_server(name)
                self.out.write(f"console: on server {name} now (#{self._channels[name]})\n")
            else:
                raise ConsoleError(say.unknown_directive(text))
        except ConsoleError as exc:
            self.out.write(f"console: {exc}\n")

    async def _open_thread(self, name: str) -> Thread:
        """``thread:true``: a new console channel for the match."""
        self._threads += 1
        channel = self._channel_id(f"thread-{self._threads}")
        self.out.write(f"console: thread #thread-{self._threads} made: {name}\n")

        async def abandon() -> None:
            self.out.write(f"console: thread #{channel} archived unused\n")

        return channel, abandon

    async def thread_in(self, parent: str, name: str) -> Thread:
        """A thread for a match outside a command (a tournament's next match): a new
        console channel on the server of ``parent``."""
        self._threads += 1
        server = self._servers_of.get(parent, GUILD)
        short = f"thread-{self._threads}"
        channel = short if server == GUILD else f"{server}/{short}"
        self._servers_of[channel] = server
        self.out.write(f"console: thread #{short} made: {name}\n")

        async def abandon() -> None:
            self.out.write(f"console: thread #{short} archived unused\n")

        return channel, abandon

    async def _members(self, role: Role) -> list[Actor]:
        return [Actor(p, p) for p in self._roles.get((self.guild, role.id), [])]

    async def command(self, actor: Actor, text: str) -> Response:
        if self.guild not in self._adopted:
            # As Discord shows the bot a server's roles when it connects: a host role
            # configured by name ("Host") is resolved to this server's role.
            self._adopted.add(self.guild)
            await self.services.roles.adopt(self.guild, [HOST_ROLE])

        async def run() -> Response:
            command, options = parse(text, self.actor)
            for option in command.options:  # a channel by name, as this server calls it
                if option.kind is Kind.CHANNEL and option.name in options:
                    options[option.name] = self._channel_id(options[option.name])
            who = (self.actor(actor.id, manager=True)
                   if command.audience is Audience.MANAGERS else actor)
            call = Call(Asker(self.guild, self.channel, who), options,
                        open_thread=self._open_thread, members=self._members)
            return await command.invoke(self.services, call)

        return await answered(run)

    async def run(self, lines: Any) -> None:
        async for line in lines:
            await self.handle_line(line)
