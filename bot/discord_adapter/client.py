"""The Discord bot: gateway events in, the host's posts out."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import host_config
from bot.config import ConfigError, Settings
from bot.core.clock import Clock, RealClock
from bot.core.messages import Post, Response
from bot.core.refusal import answered
from bot.discord_adapter.delivery import (
    MENTIONS,
    SOMETHING_WRONG,
    actor_of,
    channel_for,
    deliver_posts,
    reply_to,
    send_post,
)
from bot.discord_adapter.economy import EconomyCommands
from bot.discord_adapter.history import install as install_history
from bot.discord_adapter.host_controls import HostControls
from bot.discord_adapter.matches import MatchCommands, game_title
from bot.discord_adapter.views import AnswerButton, FirstButton
from bot.services.economy import Economy
from bot.services.matches import Matches
from bot.store.db import Database
from engine.registry import game_keys

log = logging.getLogger(__name__)

# What people type; system messages (a thread was created, a pin) carry other text.
TYPED = (discord.MessageType.default, discord.MessageType.reply)


def intents() -> discord.Intents:
    """Servers and their channels, and the text of messages: typed moves are messages."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.message_content = True
    return wanted


class GarnetTree(app_commands.CommandTree["GarnetBot"]):
    async def on_error(self, interaction: discord.Interaction[GarnetBot],
                       error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            text = str(error)
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=error)
            text = SOMETHING_WRONG
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to interaction %s", interaction.id)


class GarnetBot(commands.Bot):
    """A bot whose every command and typed move goes to one Host."""

    def __init__(self, db: Database, clock: Clock, settings: Settings) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, allowed_mentions=MENTIONS, tree_cls=GarnetTree)
        self.host = Matches(db, clock, host_config(settings), deliver=self.deliver)
        # Until the composition root builds it, the bot makes the one Economy.
        self.economy = Economy(db, clock, self.host.roles, self.host.config.dm_reward)
        self.command_guild = settings.command_guild
        self._host_started = False

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AnswerButton, FirstButton)
        await self.add_cog(MatchCommands(self.host))
        await self.add_cog(HostControls(self.host))
        await self.add_cog(EconomyCommands(self))
        await install_history(self)
        for key in game_keys():
            game_title(key)  # load the games now, not in a 3-second autocomplete
        await self.host.start()
        self._host_started = True
        try:
            if self.command_guild is not None:
                # One server's commands update at once: for testing a new version.
                guild = discord.Object(id=self.command_guild)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("%d slash commands synced%s", len(synced),
                     f" to server {self.command_guild}" if self.command_guild else "")
        except discord.HTTPException:
            log.exception("could not sync the slash commands; the old ones stay")

    async def close(self) -> None:
        if self._host_started:
            self._host_started = False
            try:
                await self.host.stop()
            except Exception:
                log.exception("the host did not stop cleanly")
        await super().close()

    # ---- the host's own posts: reminders, time-outs, lapsed challenges ------------

    async def deliver(self, post: Post) -> None:
        if post.channel_id is None:
            log.error("the host posted without a channel: %r", post.text)
            return
        try:
            await send_post(channel_for(self, post.channel_id), post)
        except discord.HTTPException:
            log.exception("could not post to channel %s", post.channel_id)

    # ---- typed moves ----------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        if (message.author.bot or message.webhook_id is not None or message.guild is None
                or message.type not in TYPED or not message.content.strip()):
            return
        here = str(message.channel.id)
        try:
            actor = actor_of(message.author)
            response = await answered(lambda: self.host.typed(
                here, actor, message.content, message_id=str(message.id)))
        except Exception:
            log.exception("typed message %s failed", message.id)
            response = Response.error(SOMETHING_WRONG)
        try:
            reply = response.reply
            if reply is not None:
                if reply.channel_id in (None, here):
                    await reply_to(message, reply)
                else:
                    await send_post(channel_for(self, reply.channel_id), reply)
            await deliver_posts(self, response.posts, here)
        except discord.HTTPException:
            log.exception("could not answer message %s", message.id)


def build_bot(settings: Settings, db: Database, clock: Clock | None = None) -> GarnetBot:
    return GarnetBot(db, clock or RealClock(), settings)


async def run_bot(settings: Settings, db: Database) -> None:
    """Log in and serve until the process is stopped."""
    if not settings.discord_token:
        raise ConfigError("DISCORD_TOKEN is not set")
    bot = build_bot(settings, db)
    async with bot:
        await bot.start(settings.discord_token)
