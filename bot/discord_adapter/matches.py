"""Slash commands of players: challenges, Death Match set-up, moves and the board."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.core import options as opt
from bot.core.messages import Response
from bot.discord_adapter.delivery import Defer, UserError, actor_of, answer, player_of, where
from bot.discord_adapter.event_options import event_choices
from bot.services.matches import Matches
from bot.texts import match as texts
from engine.registry import game_keys, get_game

if TYPE_CHECKING:
    from bot.discord_adapter.client import GarnetBot

log = logging.getLogger(__name__)

TIE_CHOICES = [
    Choice(name="First Player loses (Death Match rule)", value="first-player-loses"),
    Choice(name="Last mover loses", value="last-mover-loses"),
    Choice(name="Draw", value="draw"),
]

OPTION_HELP = {
    "game": "The game to play",
    "turn": "Seconds of turn time per move (default 60)",
    "banks": "Reserve banks per player (default 36)",
    "bank": "Seconds in one reserve bank (default 5)",
    "reminders": "Reminder points in seconds left of the turn, e.g. 30,15,5; or off",
    "tie": "Who wins when the scores are equal (games with scores)",
    "hints": "Show analysis hints on the board and move suggestions (default no)",
    "match": "The match number, when several could be meant",
}


def _host(interaction: discord.Interaction) -> Matches:
    bot: GarnetBot = interaction.client  # type: ignore[assignment]
    return bot.host


@functools.cache
def game_title(key: str) -> str:
    """The title of a registered game, or its key when the game fails to load."""
    try:
        return get_game(key).title
    except Exception:  # a game that fails to load still shows by its key
        log.exception("game %s does not load", key)
        return key


async def game_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    wanted = current.strip().lower()
    found = [(key, game_title(key)) for key in game_keys()]
    return [Choice(name=title, value=key) for key, title in found
            if wanted in key or wanted in title.lower()][:25]


async def _match_choices(interaction: discord.Interaction, current: str,
                         mine: bool) -> list[Choice[int]]:
    guild, _ = where(interaction)
    user = str(interaction.user.id) if mine else None
    wanted = current.strip().lstrip("#").lower()
    matches = await _host(interaction).open_matches(guild, user)
    return [Choice(name=label[:100], value=match_id) for match_id, label in matches
            if wanted in label.lower()][:25]


async def my_matches(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """The asker's open matches (for what players do)."""
    return await _match_choices(interaction, current, mine=True)


async def any_matches(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """Every open match of the server (for hosts, choosers and spectators)."""
    return await _match_choices(interaction, current, mine=False)


async def move_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    moves = _host(interaction).suggest_moves(str(interaction.channel_id),
                                             str(interaction.user.id), current)
    return [Choice(name=move, value=move) for move in moves]


class MatchCommands(commands.Cog):
    def __init__(self, host: Matches) -> None:
        self.host = host

    @app_commands.command(description="Challenge members to a casual match")
    @app_commands.guild_only()
    @app_commands.describe(
        opponent="Who you challenge", opponent2="A second opponent (games for more players)",
        opponent3="A third opponent", first="Who moves first (default: random)",
        clock="Play with the clock (default yes)", rated="Count the result for ratings "
        "(default yes)", **{k: OPTION_HELP[k] for k in ("game", "turn", "banks", "bank",
                                                       "reminders", "tie", "hints")})
    @app_commands.choices(first=[Choice(name="Me", value="me"),
                                 Choice(name="My opponent", value="them"),
                                 Choice(name="Random", value="random")], tie=TIE_CHOICES)
    @app_commands.autocomplete(game=game_choices)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member,
                        game: str, opponent2: discord.Member | None = None,
                        opponent3: discord.Member | None = None, first: str | None = None,
                        clock: bool | None = None, turn: float | None = None,
                        banks: int | None = None, bank: float | None = None,
                        reminders: str | None = None, tie: str | None = None,
                        hints: bool = False, rated: bool = True) -> None:
        async def run() -> Response:
            named = [m for m in (opponent, opponent2, opponent3) if m is not None]
            opponents = [player_of(m) for m in named]
            tc = opt.time_control(clock, turn, banks, bank, reminders)
            guild, channel = where(interaction)
            return await self.host.challenge(
                guild, channel, actor_of(interaction.user), game, opponents,
                first=first or "random", options=opt.game_options(tie=tie), tc=tc,
                hints=hints, rated=rated)

        await answer(interaction, run, Defer.NO)

    @app_commands.command(description="Accept a challenge")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=my_matches)
    async def accept(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.answer(
            match, guild, channel, actor_of(interaction.user), accept=True), Defer.PUBLIC)

    @app_commands.command(description="Decline a challenge")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=my_matches)
    async def decline(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.answer(
            match, guild, channel, actor_of(interaction.user), accept=False), Defer.NO)

    @app_commands.command(description="Withdraw your challenge")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=my_matches)
    async def cancel(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.cancel(
            match, guild, channel, actor_of(interaction.user)), Defer.NO)

    @app_commands.command(name="dm", description="Start a Death Match (hosts)")
    @app_commands.guild_only()
    @app_commands.describe(
        player1="The first of the two players", player2="The second player",
        chooser="Who chooses the First Player (default: the higher priority in an event, "
        "else the host)",
        thread="Play in a new public thread of this channel (default no)",
        reward="Garnets for the winner (default from the server's settings)",
        event="The event it counts for (default: the one open event, if both play in it; "
        "none: no event)",
        **{k: OPTION_HELP[k] for k in ("game", "turn", "banks", "bank", "reminders", "tie",
                                       "hints")})
    @app_commands.choices(chooser=[Choice(name="The host", value="host"),
                                   Choice(name="Draw lots", value="lots"),
                                   Choice(name="player1 chooses", value="player1"),
                                   Choice(name="player2 chooses", value="player2")],
                          tie=TIE_CHOICES)
    @app_commands.autocomplete(game=game_choices, event=event_choices)
    async def dm(self, interaction: discord.Interaction, game: str, player1: discord.Member,
                 player2: discord.Member, chooser: str | None = None, thread: bool = False,
                 turn: float | None = None, banks: int | None = None,
                 bank: float | None = None, reminders: str | None = None,
                 tie: str | None = None, hints: bool = False,
                 reward: app_commands.Range[int, 0, 1_000_000] | None = None,
                 event: str | None = None) -> None:
        async def run() -> Response:
            players = [player_of(player1), player_of(player2)]
            picked = {"player1": players[0].id, "player2": players[1].id}.get(
                chooser or "", chooser)
            tc = opt.time_control(None, turn, banks, bank, reminders)
            guild, channel = where(interaction)
            actor = actor_of(interaction.user)
            made: discord.Thread | None = None
            if thread and await self.host.is_host(guild, actor):
                made = await self._thread(interaction, game, players[0].name, players[1].name)
                channel = str(made.id)
            response = await self.host.start_dm(
                guild, channel, actor, game, players, chooser=picked,
                options=opt.game_options(tie=tie), tc=tc, hints=hints, reward=reward,
                event=event)
            if made is not None and not response.posts:
                await _abandon(made)
            return response

        await answer(interaction, run, Defer.PRIVATE)

    async def _thread(self, interaction: discord.Interaction, game: str, name1: str,
                      name2: str) -> discord.Thread:
        if not isinstance(interaction.channel, discord.TextChannel):
            raise UserError("`thread:true` works in a text channel (not in a thread).")
        # An unknown game is refused here, before a thread is made for nothing.
        name = f"DM: {get_game(game).title} — {name1} vs {name2}"
        return await interaction.channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread,
            auto_archive_duration=1440, reason="garnet Death Match")

    @app_commands.command(description="Choose the First Player of a Death Match")
    @app_commands.guild_only()
    @app_commands.describe(player="The player who moves first", match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=any_matches)
    async def first(self, interaction: discord.Interaction, player: discord.Member,
                    match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.choose_first(
            match, guild, channel, actor_of(interaction.user), str(player.id)), Defer.PUBLIC)

    @app_commands.command(description="Play a move (you can also just type it)")
    @app_commands.guild_only()
    @app_commands.describe(move="Your move, e.g. D left", match=OPTION_HELP["match"])
    @app_commands.autocomplete(move=move_choices)
    @app_commands.autocomplete(match=my_matches)
    async def move(self, interaction: discord.Interaction, move: str,
                   match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.move(
            match, guild, channel, actor_of(interaction.user), move), Defer.PUBLIC)

    @app_commands.command(description="Resign your match")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=my_matches)
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.resign(
            match, guild, channel, actor_of(interaction.user)), Defer.PUBLIC)

    @app_commands.command(description="Show the board of a match to you")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=any_matches)
    async def board(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.board(
            match, guild, channel, actor_of(interaction.user)), Defer.PRIVATE)

    @app_commands.command(description="Show the clocks of a match")
    @app_commands.guild_only()
    @app_commands.describe(match=OPTION_HELP["match"])
    @app_commands.autocomplete(match=any_matches)
    async def time(self, interaction: discord.Interaction, match: int | None = None) -> None:
        guild, channel = where(interaction)
        await answer(interaction, lambda: self.host.time(
            match, guild, channel, actor_of(interaction.user)), Defer.NO)

    @app_commands.command(name="help", description="How to play and host with garnet")
    @app_commands.guild_only()
    async def help_(self, interaction: discord.Interaction) -> None:
        async def run() -> Response:
            return Response.say(texts.HELP.format(games=", ".join(game_keys())))

        await answer(interaction, run, Defer.NO)


async def _abandon(thread: discord.Thread) -> None:
    """Archive a thread made for a Death Match the host then refused."""
    try:
        await thread.edit(archived=True)
    except discord.HTTPException:
        log.warning("could not archive the unused thread %s", thread.id)
