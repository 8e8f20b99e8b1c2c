"""Reading a console line as a command, by the same declarations Discord uses.

``/name a b key:value key2:two words``: a value runs until the next ``word:``, so
reasons and moves may contain spaces. Words without a key fill the command's
options by their look: ``@name`` the next person, a number the next number, and
the rest, joined, the next text (``/grant @erin 5 reason:late``, ``/match 12``,
``/pause phone call``). Values are checked as Discord checks them: types, bounds,
choices, what is required.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.commands import BY_NAME, COMMANDS, GROUPS
from bot.commands.spec import Command, Kind, Option
from bot.core.escape import plain
from bot.core.messages import MENTION, Actor, Role, Upload
from bot.core.refusal import Refusal
from bot.texts import input as say
from engine.registry import game_keys, get_game

NUMBER = re.compile(r"^#?\d+(?:\.\d+)?s?$")


def split(text: str) -> tuple[list[str], list[str], dict[str, str]]:
    """``/a b @c key:value`` -> (["a", "b"], ["@c"], {"key": "value"}): the words of the
    name (with a group's subcommand), the free words, and the named values."""
    body = text.strip()[1:]
    parts = re.split(r"(?:^|\s)([a-z_][a-z0-9_]*):", " " + body)
    head = parts[0].split()
    named: dict[str, str] = {}
    for key, value in zip(parts[1::2], parts[2::2], strict=True):
        if key in named:  # Discord takes an option once; the last must not win in silence
            raise Refusal(say.repeated_option(key, _several(head[:3], key)))
        named[key] = value.strip()
    return head[:1], head[1:], named


def _several(head: list[str], key: str) -> str | None:
    """The option of several people of the command ``head`` names, when ``key`` names
    one person there (``player:`` twice in ``/host event add``: ``players:``)."""
    words = [w.lower() for w in head]
    # The longest name the words begin with: ``host event add``, else ``event``, ...
    command = next((BY_NAME[n] for n in (" ".join(words[:k]) for k in range(len(words), 0, -1))
                    if n in BY_NAME), None)
    if command is None or not any(o.name == key and o.kind is Kind.USER
                                  for o in command.options):
        return None
    return next((o.name for o in command.options if o.kind is Kind.USERS), None)


def find(words: list[str], free: list[str]) -> Command:
    name = words[0].lower() if words else ""
    groups = {g.name for g in GROUPS}
    while name in groups:  # ``/host tournament create``: a group, its group, the command
        subs = list(dict.fromkeys(
            [g.name.split()[-1] for g in GROUPS if g.name.rsplit(" ", 1)[0] == name
             and " " in g.name] + [c.leaf for c in COMMANDS if c.group == name]))
        sub = free.pop(0).lower() if free else ""
        if sub not in subs:
            # ``/event create``: the hosts' commands of a group are typed under /host.
            hosts = [c.leaf for c in COMMANDS if c.group == f"host {name}"]
            if sub in hosts:
                raise Refusal(say.under_host(f"{name} {sub}"))
            example = next(c for c in COMMANDS if c.name.startswith(f"{name} "))
            raise Refusal(say.group_usage(name, subs, example.name, example.usage, hosts))
        name = f"{name} {sub}"
    if name not in BY_NAME:
        raise Refusal(say.unknown_command(name, sorted({c.name.split()[0] for c in COMMANDS})))
    return BY_NAME[name]


def person(text: str) -> str | None:
    text = text.strip()
    found = MENTION.fullmatch(text)
    return found.group(1) if found else (text.lstrip("@") or None)


def _looks_like(word: str, option: Option) -> bool:
    if option.kind in (Kind.USER, Kind.USERS):
        return word.startswith("@") or MENTION.fullmatch(word) is not None
    if option.kind in (Kind.INT, Kind.NUMBER):
        return NUMBER.match(word) is not None
    if option.kind is Kind.CHANNEL:
        return word.startswith("#")
    return False


def _place(command: Command, free: list[str], named: dict[str, str]) -> None:
    """Give the free words to the options they fit, in the order declared."""
    rest: list[str] = []
    many: set[str] = set()  # options of several people that free words filled
    for word in free:
        fits = next((o for o in command.options if o.name not in named
                     and o.kind in (Kind.USER, Kind.INT, Kind.NUMBER, Kind.CHANNEL)
                     and _looks_like(word, o)),
                    None)
        fits = fits or next((o for o in command.options if o.kind is Kind.USERS
                             and (o.name not in named or o.name in many)
                             and _looks_like(word, o)), None)
        if fits is not None and fits.kind is Kind.USERS:
            named[fits.name] = f"{named.get(fits.name, '')} {word}".strip()
            many.add(fits.name)
        elif fits is not None:
            named[fits.name] = word
        else:
            rest.append(word)
    if rest:
        text = next((o for o in command.options if o.name not in named
                     and o.kind in (Kind.TEXT, Kind.ROLE)), None)
        if text is None:
            raise Refusal(say.cannot_place(command.name, " ".join(rest),
                                           [o.name for o in command.options]))
        named[text.name] = " ".join(rest)


def upload(option: Option, raw: str) -> Upload:
    """The console attaches a file by its path: bounded by its size before it is read."""
    path = Path(raw.strip()).expanduser()
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise IsADirectoryError
        option.check_size(size)
        return Upload(path.name, path.read_bytes())
    except OSError:
        raise Refusal(say.not_a_file(option.name, plain(raw.strip()))) from None


def convert(option: Option, raw: str, actor_of: Callable[[str], Actor]) -> Any:
    """One typed value, checked as Discord would check it."""
    option.check_typed(raw)
    if option.kind is Kind.USER:
        who = person(raw)
        if who is None:
            raise Refusal(say.names_a_person(option.name))
        return actor_of(who)
    if option.kind is Kind.USERS:
        words = raw.replace(",", " ").split()
        if not words or not all(w.startswith("@") or MENTION.fullmatch(w) for w in words):
            raise Refusal(say.names_people(option.name))
        people = tuple(dict.fromkeys(actor_of(who) for w in words
                                     if (who := person(w)) is not None))
        option.check(people)
        return people
    if option.kind is Kind.CHANNEL:
        # Console channels are known by name; the console makes the name its id.
        name = raw.strip().lstrip("#")
        if not name or len(name) > 100 or any(c.isspace() for c in name):
            raise Refusal(say.names_a_channel(option.name))
        return name
    if option.kind is Kind.ROLE:
        # Console roles are known by name: the name is their id.
        name = raw.strip().lstrip("@")
        return Role(name, name)
    if option.kind is Kind.ATTACHMENT:
        return upload(option, raw)
    return option.read(raw)


def _fold_game_options(named: dict[str, str], known: set[str]) -> None:
    """A game's option typed as an option of its own (``tie:draw``, as before the game's
    options were one text) is read as part of ``options:``."""
    declared = {spec.name for key in game_keys() for spec in get_game(key).option_specs}
    folded = [f"{name}:{named.pop(name)}" for name in sorted(set(named) - known)
              if name in declared]
    if folded:
        named["options"] = " ".join([*folded, named.get("options", "")]).strip()


def parse(text: str, actor_of: Callable[[str], Actor]) -> tuple[Command, dict[str, Any]]:
    """A console line starting with ``/``: the command and its options as typed values."""
    words, free, named = split(text)
    command = find(words, free)
    known = {o.name for o in command.options}
    if "options" in known:
        _fold_game_options(named, known)
    unknown = set(named) - known
    if unknown:
        raise Refusal(say.unknown_options(sorted(unknown), [o.name for o in command.options]))
    _place(command, free, named)
    values = {}
    for option in command.options:
        raw = named.get(option.name)
        if raw is None or raw == "":
            if option.required:
                raise Refusal(say.needs_option(command.name, option.name, option.description))
            continue
        values[option.name] = convert(option, raw, actor_of)
    return command, values
