"""Autocomplete on Discord: what each kind of option suggests, from the services.

Discord drops an autocomplete not answered within 3 s of the interaction (10062
Unknown interaction), and one cannot be deferred. So a suggestion read from the
database must be ready ``ANSWER_WITHIN`` seconds after the interaction was made;
otherwise (SQLite's one connection busy, a slow server) the answer is a cheap one from
memory: the running matches (``open_in_memory``), and what earlier answers of the same
kind on that server offered (``Recent``), filtered by what is typed. The slow read
finishes in the background and is remembered for the next; while it runs, that
server's suggestions of that kind answer from memory at once, so slow reads never
pile up on the connection.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.app_commands import Choice

from bot.adapters.discord.delivery import now_of
from bot.commands.spec import Services, Suggest
from bot.core import options as opt
from bot.core.clock import Clock
from engine.game import EngineError
from engine.registry import game_keys, get_game

log = logging.getLogger(__name__)
MAX_CHOICES = 25  # Discord's limit
ANSWER_WITHIN = 1.5  # seconds after the interaction was made: well inside Discord's 3
LEAST_WAIT = 0.2  # seconds a read is given even when the interaction came in late
REMEMBERED = MAX_CHOICES  # suggestions kept per server and kind (what Discord shows)
SERVERS_KINDS = 2048  # (server, kind) pairs remembered (some 10 MB at most), the least
# recent forgotten

Pair = tuple[Any, str]  # (value, label)


class Recent:
    """What the suggestions of each kind on each server were lately, and the reads
    still under way (a bot's own: ``GarnetBot.suggestions``)."""

    def __init__(self) -> None:
        self._said: collections.OrderedDict[tuple[str, str], list[Pair]] = \
            collections.OrderedDict()
        self.reading: dict[tuple[str, str], asyncio.Task[Any]] = {}

    def remember(self, key: tuple[str, str], pairs: list[Pair]) -> None:
        seen = {value for value, _ in pairs}
        kept = pairs + [p for p in self._said.pop(key, []) if p[0] not in seen]
        self._said[key] = kept[:REMEMBERED]
        while len(self._said) > SERVERS_KINDS:
            self._said.popitem(last=False)

    def recall(self, key: tuple[str, str], typed: str) -> list[Pair]:
        wanted = typed.strip().lstrip("#").lower()
        return [(value, label) for value, label in self._said.get(key, [])
                if wanted in label.lower()]


class HasServices(Protocol):
    services: Services
    suggestions: Recent


def _services(interaction: discord.Interaction) -> Services:
    client: HasServices = interaction.client  # type: ignore[assignment]
    return client.services


async def _done_within(clock: Clock, task: asyncio.Future[Any], seconds: float) -> bool:
    """Whether ``task`` is done within ``seconds`` of garnet's clock (virtual in tests:
    the time a test lets pass); it goes on either way."""
    late = asyncio.Event()

    async def lapse() -> None:
        late.set()

    timer = clock.call_at(clock.now() + seconds, lapse)
    waiting = asyncio.ensure_future(late.wait())
    try:
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
        waiting.cancel()
    return task.done()


async def _in_time(interaction: discord.Interaction, kind: str,
                   read: Callable[[], Awaitable[list[Pair]]], typed: Any,
                   from_memory: Callable[[], list[Pair]] = list) -> list[Pair]:
    """``read()`` if it is ready in time (``ANSWER_WITHIN``), else the answer from
    memory: ``from_memory()`` first, then what earlier answers offered."""
    client: HasServices = interaction.client  # type: ignore[assignment]
    recent = client.suggestions
    key = (str(interaction.guild_id), kind)

    def remembered() -> list[Pair]:
        fresh = from_memory()
        seen = {value for value, _ in fresh}
        return fresh + [p for p in recent.recall(key, str(typed)) if p[0] not in seen]

    if key in recent.reading:  # a read of this kind is still under way: no second
        return remembered()
    task = asyncio.ensure_future(read())
    late = now_of(client) - interaction.created_at.timestamp()
    if await _done_within(client.services.matches.kit.clock, task,
                          max(LEAST_WAIT, ANSWER_WITHIN - late)):
        if task.exception() is not None:  # the database failed: memory still answers
            log.warning("suggestions of %s on server %s failed: %r", kind, key[0],
                        task.exception())
            return remembered()
        found = task.result()
        recent.remember(key, found)
        return found
    log.warning("suggestions of %s on server %s were not read within %.1f s: answered "
                "from memory", kind, key[0], ANSWER_WITHIN)
    recent.reading[key] = task

    def finished(done: asyncio.Task[Any]) -> None:
        recent.reading.pop(key, None)
        if not done.cancelled() and done.exception() is None:
            recent.remember(key, done.result())

    task.add_done_callback(finished)
    return remembered()


@functools.cache
def game_title(key: str) -> str:
    """The title of a registered game, or its key when the game fails to load."""
    try:
        return get_game(key).title
    except Exception:  # a game that fails to load still shows by its key
        log.exception("game %s does not load", key)
        return key


async def _games(interaction: discord.Interaction, current: str,
                 installed: bool) -> list[Choice[str]]:
    """The games the server offers (``installed``: every game installed)."""
    wanted = current.strip().lower()
    keys = game_keys() if installed else await _services(interaction).games.offered(
        str(interaction.guild_id))
    return [Choice(name=game_title(key), value=key) for key in keys
            if wanted in key or wanted in game_title(key).lower()][:MAX_CHOICES]


async def _game_options(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``options:``: completed from the options the game chosen in ``game:`` declares."""
    name = getattr(interaction.namespace, "game", None)
    try:
        game = get_game(str(name)) if name else None
    except EngineError:
        game = None
    if game is None:
        return []
    return [Choice(name=text, value=text)
            for text in opt.suggest_game_options(game, str(current), MAX_CHOICES)]


async def _events(interaction: discord.Interaction, current: str,
                  wider: bool) -> list[Choice[str]]:
    guild = str(interaction.guild_id)

    async def read() -> list[Pair]:
        found = await _services(interaction).economy.event_choices(guild, current, wider)
        return [(value, label) for label, value in found]

    found = await _in_time(interaction, f"events:{wider}", read, current)
    return [Choice(name=label[:100], value=value) for value, label in found][:MAX_CHOICES]


async def _open(interaction: discord.Interaction, current: str,
                mine: bool) -> list[Choice[int]]:
    user = str(interaction.user.id) if mine else None
    guild = str(interaction.guild_id)
    matches = _services(interaction).matches

    async def read() -> list[Pair]:
        return list(await matches.lookup.open_matches(guild, user, str(current)))

    found = await _in_time(interaction, f"open:{user}", read, current,
                           lambda: list(matches.lookup.open_in_memory(guild, user, str(current))))
    return [Choice(name=label[:100], value=number) for number, label in found][:MAX_CHOICES]


async def _recorded(interaction: discord.Interaction, current: str | int,
                    done_only: bool) -> list[Choice[int]]:
    guild = str(interaction.guild_id)
    matches = _services(interaction).matches

    async def read() -> list[Pair]:
        return list(await _services(interaction).history.recent(guild, str(current),
                                                                done_only))

    def running() -> list[Pair]:  # a match being played has been played, in part
        return [] if done_only else list(matches.lookup.open_in_memory(guild, None, str(current)))

    found = await _in_time(interaction, f"recorded:{done_only}", read, current, running)
    return [Choice(name=label[:100], value=match_id)
            for match_id, label in found][:MAX_CHOICES]


async def _moves(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The moves that start with what was typed; none: what was typed, named with the
    game's move help (a choice's name is what Discord shows)."""
    where = (str(interaction.guild_id), str(interaction.channel_id), str(interaction.user.id))
    matches = _services(interaction).matches
    moves = matches.lookup.suggest_moves(*where, current)
    typed = str(current).strip()[:100]
    if not moves and typed:
        said = matches.lookup.move_help(*where)
        if said:
            return [Choice(name=f"{typed} — {said}"[:100], value=typed)]
    return [Choice(name=move, value=move) for move in moves]


async def _decks(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    guild = str(interaction.guild_id)

    async def read() -> list[Pair]:
        found = await _services(interaction).decks.choices(guild, str(current))
        return [(value, label) for label, value in found]

    found = await _in_time(interaction, "decks", read, current)
    return [Choice(name=label[:100], value=value) for value, label in found][:MAX_CHOICES]


async def _tournaments(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    guild = str(interaction.guild_id)

    async def read() -> list[Pair]:
        found = await _services(interaction).tournaments.choices(guild, current)
        return [(value, label) for label, value in found]

    found = await _in_time(interaction, "tournaments", read, current)
    return [Choice(name=label[:100], value=value) for value, label in found][:MAX_CHOICES]


Suggester = Callable[[discord.Interaction, Any], Awaitable[list[Any]]]


def _with(fn: Callable[..., Awaitable[list[Any]]], **fixed: bool) -> Suggester:
    # discord.py wants a coroutine function of (interaction, current).
    async def suggest(interaction: discord.Interaction, current: Any) -> list[Any]:
        return await fn(interaction, current, **fixed)

    return suggest


SUGGESTERS: dict[Suggest, Suggester] = {
    Suggest.GAMES: _with(_games, installed=False),
    Suggest.INSTALLED_GAMES: _with(_games, installed=True),
    Suggest.GAME_OPTIONS: _game_options,
    Suggest.DECKS: _decks,
    Suggest.EVENTS: _with(_events, wider=False),
    Suggest.SCOPES: _with(_events, wider=True),
    Suggest.MY_MATCHES: _with(_open, mine=True),
    Suggest.OPEN_MATCHES: _with(_open, mine=False),
    Suggest.RECORDED_MATCHES: _with(_recorded, done_only=False),
    Suggest.FINISHED_MATCHES: _with(_recorded, done_only=True),
    Suggest.MOVES: _moves,
    Suggest.TOURNAMENTS: _tournaments,
}
