"""Autocomplete on Discord: what each kind of option suggests, from the services."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord.app_commands import Choice

from bot.commands.spec import Services, Suggest
from bot.core import options as opt
from engine.game import EngineError
from engine.registry import game_keys, get_game

log = logging.getLogger(__name__)
MAX_CHOICES = 25  # Discord's limit


class HasServices(Protocol):
    services: Services


def _services(interaction: discord.Interaction) -> Services:
    client: HasServices = interaction.client  # type: ignore[assignment]
    return client.services


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
    found = await _services(interaction).economy.event_choices(
        str(interaction.guild_id), current, wider)
    return [Choice(name=label[:100], value=value) for label, value in found][:MAX_CHOICES]


async def _open(interaction: discord.Interaction, current: str,
                mine: bool) -> list[Choice[int]]:
    user = str(interaction.user.id) if mine else None
    found = await _services(interaction).matches.open_matches(
        str(interaction.guild_id), user, str(current))
    return [Choice(name=label[:100], value=number) for number, label in found][:MAX_CHOICES]


async def _recorded(interaction: discord.Interaction, current: str | int,
                    done_only: bool) -> list[Choice[int]]:
    found = await _services(interaction).history.recent(str(interaction.guild_id),
                                                        str(current), done_only)
    return [Choice(name=label[:100], value=match_id) for match_id, label in found]


async def _moves(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The moves that start with what was typed; none: what was typed, named with the
    game's move help (a choice's name is what Discord shows)."""
    where = (str(interaction.guild_id), str(interaction.channel_id), str(interaction.user.id))
    matches = _services(interaction).matches
    moves = matches.suggest_moves(*where, current)
    typed = str(current).strip()[:100]
    if not moves and typed:
        said = matches.move_help(*where)
        if said:
            return [Choice(name=f"{typed} — {said}"[:100], value=typed)]
    return [Choice(name=move, value=move) for move in moves]


async def _decks(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    found = await _services(interaction).decks.choices(str(interaction.guild_id), str(current))
    return [Choice(name=label[:100], value=value) for label, value in found][:MAX_CHOICES]


async def _tournaments(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    found = await _services(interaction).tournaments.choices(str(interaction.guild_id),
                                                             current)
    return [Choice(name=label[:100], value=value) for label, value in found][:MAX_CHOICES]


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
