"""The local console: a chat channel in a terminal, the second adapter of the host.

Each input line is ``name: message``. A message starting with ``/`` is a slash
command written as on Discord (``/challenge opponent:@bob game:cairo``); anything
else is a message typed in the channel (``D left``). Lines starting with ``~`` are
directives of the console itself:

    ~ wait 65s        let time pass (instantly with --virtual-clock)
    ~ host NAME       give NAME the host role
    ~ channel NAME    speak in another channel from now on

The bot answers with the same texts it posts on Discord, as ``bot: ...``; images
are written to a folder and their paths printed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

from bot.core import options as opt
from bot.core.clock import VirtualClock
from bot.core.messages import Actor, Post, Response
from bot.core.refusal import Refusal, answered
from bot.economy_console import ECONOMY_BUTTONS, ECONOMY_COMMANDS
from bot.history_console import HISTORY_BUTTONS, HISTORY_COMMANDS
from bot.services.economy import Economy
from bot.services.matches import Matches
from bot.texts import match as texts
from engine.registry import game_keys

log = logging.getLogger(__name__)

GUILD = "console"
LINE = re.compile(r"^\s*([A-Za-z0-9_.\-]{1,32})\s*:\s?(.*)$")
MENTION = re.compile(r"<@([^>]+)>")
WAIT = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?|h)?$")


class ConsoleError(Refusal):
    pass


def parse_command(text: str) -> tuple[str, list[str], dict[str, str]]:
    """``/name a b key:value key2:two words`` -> (name, [a, b], {key: value, key2: ...}).

    A value runs until the next ``word:``, so reasons and moves may contain spaces.
    """
    body = text.strip()[1:]
    name, _, rest = body.partition(" ")
    positional: list[str] = []
    named: dict[str, str] = {}
    parts = re.split(r"(?:^|\s)([a-z_][a-z0-9_]*):", " " + rest)
    head = parts[0].strip()
    if head:
        positional.extend(head.split())
    for key, value in zip(parts[1::2], parts[2::2], strict=True):
        named[key] = value.strip()
    return name.lower(), positional, named


def _user(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    match = MENTION.fullmatch(value)
    if match:
        return match.group(1)
    return value.lstrip("@") or None


def _seconds(text: str) -> float:
    match = WAIT.match(text.strip().lower())
    if not match:
        raise ConsoleError(f"cannot read '{text}' as a time; say e.g. `~ wait 65s`")
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
    def __init__(self, host: Matches, image_dir: Path, out: TextIO = sys.stdout,
                 hosts: tuple[str, ...] = ("host",)) -> None:
        self.host = host
        # Until the composition root builds it, the console makes the one Economy.
        self.economy = Economy(host.db, host.clock, host.roles, host.config.dm_reward)
        self.image_dir = image_dir
        self.out = out
        self.hosts = set(hosts)
        self.channel = "console"
        self._images = 0
        host.deliver = self.show

    # ---- output --------------------------------------------------------------------

    def _text(self, text: str) -> str:
        return MENTION.sub(lambda m: "@" + m.group(1), text)

    async def show(self, post: Post, to: str | None = None) -> None:
        lines = self._text(post.text).splitlines() or [""]
        prefix = f"bot (to {to} only): " if post.ephemeral and to else "bot: "
        if post.channel_id and post.channel_id != self.channel:
            prefix = f"bot [#{post.channel_id}]: "
        self.out.write(prefix + lines[0] + "\n")
        for line in lines[1:]:
            self.out.write("     " + line + "\n")
        if post.image is not None:
            self._images += 1
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path = self.image_dir / f"{self._images:04d}-{post.image.filename}"
            await asyncio.to_thread(path.write_bytes, post.image.data)
            self.out.write(f"     [image: {path}]\n")
        for item in post.attachments:
            # Files for keeping (an event's CSV books) go beside the images, by name.
            folder = self.image_dir.parent / "exports"
            folder.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread((folder / item.filename).write_bytes, item.data)
            self.out.write(f"     [file: {folder / item.filename}]\n")
        if post.buttons:
            shown = " ".join(f"[{b.label}: {self._button_command(b.custom_id)}]"
                             for b in post.buttons)
            self.out.write(f"     {shown}\n")
        self.out.flush()

    def _button_command(self, custom_id: str) -> str:
        parts = custom_id.split(":")
        if parts[1] in BUTTON_COMMANDS:
            return BUTTON_COMMANDS[parts[1]](parts)
        action, match_id = parts[1], parts[2]
        if action == "first":
            return f"/first player:@{parts[3]} match:{match_id}"
        return f"/{action} match:{match_id}"

    async def emit(self, response: Response, actor: Actor) -> None:
        if response.reply is not None:
            await self.show(response.reply, to=actor.name)
        for post in response.posts:
            await self.show(post)

    # ---- input ---------------------------------------------------------------------

    def actor(self, name: str) -> Actor:
        roles = frozenset({"Host"}) if name in self.hosts else frozenset()
        return Actor(id=name, name=name, roles=roles)

    async def handle_line(self, line: str) -> None:
        """One line of input: a directive, or a person's message. Never raises: a bug
        in handling one line must not end the session (it is logged)."""
        try:
            await self._handle_line(line)
        except Exception:
            log.exception("console line failed: %r", line)
            self.out.write("console: something went wrong with that line; "
                           "the match is unchanged (see the log).\n")

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
            self._message_id = getattr(self, "_message_id", 0) + 1
            message_id = f"console-{self._message_id}"
            response = await answered(lambda: self.host.typed(self.channel, actor, message,
                                                              message_id=message_id))
        await self.emit(response, actor)

    async def directive(self, text: str) -> None:
        word, _, rest = text.partition(" ")
        word = word.lower()
        try:
            if word == "wait":
                seconds = _seconds(rest)
                clock = self.host.clock
                if isinstance(clock, VirtualClock):
                    await clock.advance(seconds)
                else:
                    await asyncio.sleep(seconds)
            elif word == "host" and rest.strip():
                self.hosts.add(rest.strip().lstrip("@"))
            elif word == "channel" and rest.strip():
                self.channel = rest.strip().lstrip("#")
            else:
                raise ConsoleError(f"unknown directive '~ {text}' "
                                   "(directives: wait, host, channel)")
        except ConsoleError as exc:
            self.out.write(f"console: {exc}\n")

    async def command(self, actor: Actor, text: str) -> Response:
        name, positional, named = parse_command(text)
        handler = COMMANDS.get(name)
        if handler is None:
            return Response.error(f"Unknown command /{name}. Commands: "
                                  + ", ".join(f"/{c}" for c in COMMANDS))
        return await answered(lambda: handler(self, actor, positional, named))

    async def run(self, lines: Any) -> None:
        async for line in lines:
            await self.handle_line(line)


Handler = Callable[[Console, Actor, list[str], dict[str, str]], Awaitable[Response]]
# Buttons of other modules (``garnet:ACTION:...``) shown as the command they stand for.
BUTTON_COMMANDS: dict[str, Callable[[list[str]], str]] = {}


def _match(named: dict[str, str]) -> int | None:
    value = named.pop("match", None)
    if value is None or value == "":
        return None
    value = value.strip().lstrip("#")
    if not value.isdigit():
        raise ConsoleError(f"`match` is a match number, not '{value}'")
    return int(value)


def _take_users(positional: list[str]) -> list[str]:
    users = [p for p in positional if p.startswith("@") or MENTION.fullmatch(p)]
    for user in users:
        positional.remove(user)
    return [u for u in (_user(u) for u in users) if u]


def _check_unknown(named: dict[str, str], allowed: set[str]) -> None:
    unknown = set(named) - allowed
    if unknown:
        raise ConsoleError(f"unknown option(s) {', '.join(sorted(unknown))}; "
                           f"this command takes {', '.join(sorted(allowed)) or 'none'}")


async def _challenge(c: Console, actor: Actor, positional: list[str],
                     named: dict[str, str]) -> Response:
    _check_unknown(named, {"opponent", "opponent2", "opponent3", "game", "first", "clock",
                           "turn", "banks", "bank", "reminders", "tie", "hints", "rated"})
    users = [_user(named.get(k)) for k in ("opponent", "opponent2", "opponent3")]
    opponents = [u for u in users if u] + _take_users(positional)
    game = named.get("game") or (positional[0] if positional else "")
    if not game:
        raise ConsoleError(f"name the game: game:{'|'.join(game_keys())}")
    tc = opt.time_control(named.get("clock"), named.get("turn"), named.get("banks"),
                          named.get("bank"), named.get("reminders"))
    return await c.host.challenge(
        GUILD, c.channel, actor, game, [c.actor(u) for u in opponents],
        first=named.get("first") or "random",
        options=opt.game_options(tie=named.get("tie")), tc=tc,
        hints=opt.as_bool("hints", named.get("hints"), False),
        rated=opt.as_bool("rated", named.get("rated"), True),
    )


async def _dm(c: Console, actor: Actor, positional: list[str],
              named: dict[str, str]) -> Response:
    _check_unknown(named, {"player1", "player2", "game", "chooser", "clock", "turn", "banks",
                           "bank", "reminders", "tie", "hints", "reward", "event"})
    users = [_user(named.get("player1")), _user(named.get("player2"))]
    players = [u for u in users if u] + _take_users(positional)
    game = named.get("game") or (positional[0] if positional else "")
    if not game:
        raise ConsoleError(f"name the game: game:{'|'.join(game_keys())}")
    raw = (named.get("chooser") or "").strip()
    chooser = raw.lower() if raw.lower() in ("host", "lots") else _user(raw or None)
    tc = opt.time_control(named.get("clock"), named.get("turn"), named.get("banks"),
                          named.get("bank"), named.get("reminders"))
    return await c.host.start_dm(
        GUILD, c.channel, actor, game, [c.actor(u) for u in players], chooser=chooser,
        options=opt.game_options(tie=named.get("tie")), tc=tc,
        hints=opt.as_bool("hints", named.get("hints"), False),
        reward=opt.as_int("reward", named.get("reward")), event=named.get("event"),
    )


def _simple(method: str, extra: set[str] | None = None) -> Handler:
    async def handler(c: Console, actor: Actor, positional: list[str],
                      named: dict[str, str]) -> Response:
        match_id = _match(named)
        _check_unknown(named, extra or set())
        call: Callable[..., Awaitable[Response]] = getattr(c.host, method)
        return await call(match_id, GUILD, c.channel, actor)

    return handler


async def _accept(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    match_id = _match(named)
    _check_unknown(named, set())
    return await c.host.answer(match_id, GUILD, c.channel, actor, accept=True)


async def _decline(c: Console, actor: Actor, positional: list[str],
                   named: dict[str, str]) -> Response:
    match_id = _match(named)
    _check_unknown(named, set())
    return await c.host.answer(match_id, GUILD, c.channel, actor, accept=False)


async def _first(c: Console, actor: Actor, positional: list[str],
                 named: dict[str, str]) -> Response:
    match_id = _match(named)
    _check_unknown(named, {"player"})
    users = ([_user(named["player"])] if "player" in named else []) + _take_users(positional)
    if not users or users[0] is None:
        raise ConsoleError("name the First Player: `/first player:@name`")
    return await c.host.choose_first(match_id, GUILD, c.channel, actor, users[0])


async def _move(c: Console, actor: Actor, positional: list[str],
                named: dict[str, str]) -> Response:
    match_id = _match(named)
    text = named.pop("move", None) or " ".join(positional)
    _check_unknown(named, set())
    if not text:
        raise ConsoleError("say the move: `/move D left`")
    return await c.host.move(match_id, GUILD, c.channel, actor, text)


async def _repost(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    match_id = _match(named)
    _check_unknown(named, set())
    return await c.host.board(match_id, GUILD, c.channel, actor, public=True)


def _with_reason(method: str) -> Handler:
    """A host control that takes a reason: `/void reason:…` or `/void …`."""
    async def handler(c: Console, actor: Actor, positional: list[str],
                      named: dict[str, str]) -> Response:
        match_id = _match(named)
        reason = named.pop("reason", "") or " ".join(positional)
        _check_unknown(named, set())
        call: Callable[..., Awaitable[Response]] = getattr(c.host, method)
        return await call(match_id, GUILD, c.channel, actor, reason)

    return handler


async def _extend(c: Console, actor: Actor, positional: list[str],
                  named: dict[str, str]) -> Response:
    match_id = _match(named)
    raw = named.pop("seconds", None) or (positional[0] if positional else "")
    _check_unknown(named, set())
    seconds = opt.as_number("seconds", raw)
    if seconds is None:
        raise ConsoleError("say how long: `/extend seconds:30`")
    return await c.host.extend(match_id, GUILD, c.channel, actor, seconds)


async def _adjudicate(c: Console, actor: Actor, positional: list[str],
                      named: dict[str, str]) -> Response:
    match_id = _match(named)
    winner_raw = named.pop("winner", None)
    reason = named.pop("reason", "")
    _check_unknown(named, set())
    users = _take_users(positional)
    winner = _user(winner_raw) if winner_raw else (users[0] if users else None)
    if winner in ("draw", "none"):
        winner = None
    if not reason:
        reason = " ".join(positional)
    return await c.host.adjudicate(match_id, GUILD, c.channel, actor, winner, reason)


async def _hostrole(c: Console, actor: Actor, positional: list[str],
                    named: dict[str, str]) -> Response:
    role = named.pop("role", "") or " ".join(positional)
    _check_unknown(named, set())
    # In the console, the people named with --host / `~ host` have Manage Server.
    manager = Actor(actor.id, actor.name, actor.roles, manage_guild=actor.id in c.hosts)
    return await c.host.set_host_role(GUILD, manager, role)


async def _help(c: Console, actor: Actor, positional: list[str],
                named: dict[str, str]) -> Response:
    return Response.say(texts.HELP.format(games=", ".join(game_keys())))


COMMANDS: dict[str, Handler] = {
    "challenge": _challenge,
    "accept": _accept,
    "decline": _decline,
    "cancel": _simple("cancel"),
    "dm": _dm,
    "first": _first,
    "move": _move,
    "resign": _simple("resign"),
    "board": _simple("board"),
    "time": _simple("time"),
    "repost": _repost,
    "pause": _with_reason("pause"),
    "resume": _simple("resume"),
    "extend": _extend,
    "void": _with_reason("void"),
    "adjudicate": _adjudicate,
    "hostrole": _hostrole,
    "help": _help,
}
COMMANDS.update(ECONOMY_COMMANDS)
BUTTON_COMMANDS.update(ECONOMY_BUTTONS)
COMMANDS.update(HISTORY_COMMANDS)
BUTTON_COMMANDS.update(HISTORY_BUTTONS)
