"""The Discord bot: gateway events and interactions in, the services' posts out."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapters.discord import tree as command_tree
from bot.adapters.discord.buttons import CommandButton, CommandSelect, view_for
from bot.adapters.discord.delivery import (
    MENTIONS,
    SOMETHING_WRONG,
    Defer,
    UserError,
    actor_of,
    answer,
    capped,
    channel_for,
    player_of,
    refused_at_once,
    reply_to,
    send_post,
    turn_page,
)
from bot.adapters.discord.failures import failure_of, fallback, gone, reach
from bot.adapters.discord.pacing import DISCORD_GLOBAL_LIMIT, GlobalPacer
from bot.adapters.discord.pacing import install as install_pacing
from bot.adapters.discord.people import MemberFetches, may_name, people
from bot.adapters.discord.suggest import Recent, game_title
from bot.adapters.discord.translator import CommandsTranslator
from bot.adapters.discord.watch import Gateway, http_trace, observe_pacer
from bot.commands import PRESSABLE
from bot.commands.spec import Call, Command, Kind, Services, Thread
from bot.core import heap, logs, metrics
from bot.core.buttons import ButtonCall
from bot.core.failures import Cause, PostFailure
from bot.core.messages import Actor, Post, Response, Role, TurnStart, Upload
from bot.core.metrics import BOARD_WAIT, RECEIVED, board_on_its_way, stage_done
from bot.core.requests import Asker
from bot.services.identify import IdentifyTurns
from bot.texts import input as input_texts
from bot.texts import match as texts
from bot.texts import outages as outage_texts
from bot.texts.language import from_discord
from engine.registry import game_keys

log = logging.getLogger(__name__)

# What people type; system messages (a thread was created, a pin) carry other text.
TYPED = (discord.MessageType.default, discord.MessageType.reply)


def intents(members: bool = False, message_content: bool = True) -> discord.Intents:
    """Servers and their channels, and the text of messages: typed moves are messages
    (``message_content``, privileged: without it players move with ``/move``).
    ``members`` (the privileged Server Members intent) lets hosts enter a role's
    members in a tournament."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.message_content = message_content
    wanted.members = members
    return wanted


class GarnetTree(command_tree.DocumentedTree["GarnetBot"]):
    async def on_error(self, interaction: discord.Interaction[GarnetBot],
                       error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            text = capped(str(error))
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


def _value(value: Any) -> Any:
    """A value Discord resolved, as the commands take it."""
    if isinstance(value, discord.Member | discord.User):
        return player_of(value)
    if isinstance(value, discord.Role):
        return Role(str(value.id), value.name)
    if isinstance(value, discord.abc.GuildChannel | discord.Thread
                  | app_commands.AppCommandChannel | app_commands.AppCommandThread):
        return str(value.id)
    return value


def _can_post_in(interaction: discord.Interaction, value: Any) -> None:
    """A channel named for garnet to post in (the log channel): refuse one it cannot."""
    guild = interaction.guild
    channel = guild.get_channel_or_thread(value.id) if guild is not None else None
    if guild is None or channel is None:
        return
    have = channel.permissions_for(guild.me)
    missing = [label for flag, label in NEEDED[:2] if not getattr(have, flag)]
    if missing:
        raise UserError(outage_texts.cannot_post_in(str(channel.id), missing))


# What the bot needs in a match channel, as Discord names the permissions.
NEEDED = (("view_channel", "View Channel"), ("send_messages", "Send Messages"),
          ("attach_files", "Attach Files"), ("read_message_history", "Read Message History"))
IN_THREADS = (("send_messages_in_threads", "Send Messages in Threads"),)
NEW_THREAD = (("create_public_threads", "Create Public Threads"),
              ("send_messages_in_threads", "Send Messages in Threads"))


def _can_post_boards(interaction: discord.Interaction, new_thread: bool) -> None:
    """Refuse, naming what is missing, a match the bot could not post the boards of:
    better than a clock that runs while nobody sees a board."""
    have = interaction.app_permissions
    needed = list(NEEDED)
    if isinstance(interaction.channel, discord.Thread):
        needed += IN_THREADS
    if new_thread:
        needed += NEW_THREAD
    missing = [label for flag, label in needed if not getattr(have, flag)]
    if missing:
        raise UserError(texts.missing_permissions(missing))


async def _open_thread(interaction: discord.Interaction, name: str) -> Thread:
    if not isinstance(interaction.channel, discord.TextChannel):
        raise UserError(input_texts.thread_in_text_channel())
    made = await interaction.channel.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440,
        reason="garnet Death Match")

    async def abandon() -> None:
        # A thread made for a Death Match the host then refused is archived.
        try:
            await made.edit(archived=True)
        except discord.HTTPException:
            log.warning("could not archive the unused thread %s", made.id)

    return str(made.id), abandon


async def _role_members(interaction: discord.Interaction, role: Role) -> list[Actor] | None:
    """A role's members as the bot's member cache knows them; None without the Server
    Members intent, when the cache holds only members the bot happened to see."""
    guild = interaction.guild
    if guild is None or not interaction.client.intents.members:
        return None
    found = guild.get_role(int(role.id))
    if found is None:
        return []
    return [Actor(str(m.id), m.display_name) for m in found.members if not m.bot]


async def _nothing() -> None:
    return None


def _in_server(guild: discord.Guild | None) -> None:
    if guild is not None:
        logs.SERVER.set(str(guild.id))
        logs.SHARD.set(guild.shard_id)


class GarnetBot(commands.AutoShardedBot):
    """Every command, button and typed move goes to the services through the commands.

    Sharded as large bots are: ``shard_count`` shards over all processes, of which this
    one connects ``shard_ids`` (all of them when None; without ``shard_count``, Discord's
    recommended count, all in this process). The matches a process runs are those of
    its shards' servers (``Settings.shards``, held by leases).

    Every request with the bot's token waits for its turn at ``pacer``, so that the
    process never exceeds ``global_requests_per_second`` (Discord's global limit, or
    this process's share of it) on its own (``pacing``)."""

    def __init__(self, services: Services | None = None,
                 command_guild: int | None = None, members_intent: bool = False,
                 shard_count: int | None = None,
                 shard_ids: tuple[int, ...] | None = None,
                 message_content: bool = True,
                 global_requests_per_second: int = DISCORD_GLOBAL_LIMIT) -> None:
        options: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:
            options["shard_ids"] = list(shard_ids)
        if metrics.on():  # METRICS=off: no trace at all on discord.py's session
            options["http_trace"] = http_trace()
        options["max_messages"] = None  # a message is read once: no cache to walk in GC
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=intents(members_intent, message_content),
                         help_command=None, allowed_mentions=MENTIONS, tree_cls=GarnetTree,
                         **options)
        self.command_guild = command_guild
        self.pacer = GlobalPacer(global_requests_per_second)
        self.fetches = MemberFetches()  # members looked up on Discord, per server
        self.suggestions = Recent()  # autocompletes' recent answers, for a slow database
        install_pacing(self.http, self.pacer)
        if metrics.on():
            observe_pacer(self.pacer)
        self.gateway = Gateway(list(shard_ids) if shard_ids is not None
                               else list(range(shard_count or 1)))
        self._started = False
        self._services: Services | None = None
        # Whose turn it is to IDENTIFY, among every process of the bot (bot.app sets it)
        self.turns: IdentifyTurns | None = None
        self._max_concurrency: int | None = None
        if services is not None:
            self.attach(services)

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the services are attached by bot.app before login")
        return self._services

    def attach(self, services: Services) -> None:
        self._services = services
        self.pace(self.pacer)

    def pace(self, pacer: GlobalPacer) -> None:
        """Send with ``pacer`` from now on (the benchmark's ``--fifo`` swaps it); the
        services read its boards' wait (``bot.services.pressure``)."""
        if pacer is not self.pacer:
            self.pacer = pacer
            install_pacing(self.http, pacer)
            if metrics.on():
                observe_pacer(pacer)
        pressure = self.services.matches.pressure
        pressure.signal = pacer.board_wait

        def watch(wait: float) -> None:  # each board's wait, as it leaves the pacer
            BOARD_WAIT.observe(wait)
            pressure.observe(wait)

        pacer.watch = watch if metrics.on() else pressure.observe
        # Each request's channel, for what each running match needs (``budget``).
        pacer.spend = self.services.matches.kit.budget.spent

    async def before_identify_hook(self, shard_id: int | None, *,
                                   initial: bool = False) -> None:
        """Wait for the shard's identify bucket to be free in every process of the bot
        (Discord: ``max_concurrency`` session starts per 5 s), in place of discord.py's
        5-s wait, which knows only this process."""
        if self.turns is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self._max_concurrency is None:
            limits = await self.fetch_session_start_limits()
            self._max_concurrency = limits.max_concurrency
        await self.turns.take(shard_id or 0, self._max_concurrency, str(self.application_id))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CommandButton, CommandSelect)
        command_tree.install(self.tree, self.invoke_command)
        # Names, descriptions and choices in Korean and Japanese (bot/locale).
        await self.tree.set_translator(CommandsTranslator())
        for key in game_keys():
            game_title(key)  # load the games now, not in a 3-second autocomplete
        await self.services.matches.start()
        self._started = True
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
        if self.turns is not None:
            await self.turns.close()
        if self._started:
            self._started = False
            try:
                await self.services.matches.stop()
            except Exception:
                log.exception("the matches did not stop cleanly")
        await super().close()

    # ---- commands and buttons -------------------------------------------------------

    def _call(self, interaction: discord.Interaction, command: Command,
              options: dict[str, Any]) -> Call:
        _in_server(interaction.guild)  # the log's server and shard, in this task
        return Call(_asker(interaction), options,
                    open_thread=lambda name: _open_thread(interaction, name),
                    sent_at=interaction.created_at.timestamp(),
                    request_id=str(interaction.id),
                    members=lambda role: _role_members(interaction, role))

    async def invoke_command(self, interaction: discord.Interaction, command: Command,
                             values: dict[str, Any], defer: Defer) -> None:
        if await self._turned_away(interaction, command):
            return
        kinds = {o.name: o.kind for o in command.options}
        declared = {o.name: o for o in command.options}

        async def run() -> Response:
            if command.posts_boards:
                _can_post_boards(interaction, bool(values.get("thread")))
            if any(kinds.get(k) is Kind.USERS and v is not None for k, v in values.items()):
                # Nobody is looked up on Discord for a request its asker may not make.
                await may_name(self.services.roles, str(interaction.guild_id),
                               actor_of(interaction.user), command)
            options: dict[str, Any] = {}
            for key, value in values.items():
                if value is None:
                    continue
                if kinds.get(key) is Kind.USERS:
                    options[key] = await people(interaction, key, str(value),
                                                self.fetches)
                elif isinstance(value, discord.Attachment):
                    # Bounded before it is read: Discord says the size.
                    declared[key].check_size(value.size)
                    options[key] = Upload(value.filename, await value.read())
                elif kinds.get(key) is Kind.CHANNEL:
                    _can_post_in(interaction, value)
                    options[key] = _value(value)
                else:
                    options[key] = _value(value)
            return await command.invoke(self.services, self._call(interaction, command, options))

        await answer(interaction, await self._spoken(interaction, run), defer,
                     self.board_posted)

    async def _turned_away(self, interaction: discord.Interaction, command: Command) -> bool:
        """A new match refused at Discord's limit (``Command.turn_away``) before the
        interaction is acknowledged: one answer, for the hundred a second there can be."""
        if command.admits is None or interaction.guild_id is None:
            return False

        async def look() -> Response:
            command.turn_away(self.services, str(interaction.guild_id))
            return Response()

        return await refused_at_once(interaction, await self._spoken(interaction, look))

    async def _spoken(self, interaction: discord.Interaction,
                      run: Callable[[], Awaitable[Response]]
                      ) -> Callable[[], Awaitable[Response]]:
        """``run`` carried out in the server's language, its answer in the member's
        (``Languages.answer``); Discord's server locale noted as the server's default."""
        languages = self.services.languages
        if interaction.guild_id is not None:
            await languages.noticed(str(interaction.guild_id),
                                    from_discord(str(interaction.guild_locale or "")))
        return lambda: languages.answer(_asker(interaction), run)

    async def press(self, interaction: discord.Interaction, call: ButtonCall) -> None:
        """A button or a menu's choice: the command it stands for, with the options it
        carries (a menu's chosen value as ``choice``)."""
        command = PRESSABLE[call.command]
        kinds = {o.name: o.kind for o in command.options}
        options = {k: Actor(str(v), str(v)) if kinds.get(k) is Kind.USER else v
                   for k, v in call.options.items()}

        async def pressed() -> Response:
            return await command.invoke(self.services, self._call(interaction, command, options))

        run = await self._spoken(interaction, pressed)
        if call.turns_page:
            await turn_page(interaction, run)
            return
        response = await answer(interaction, run, Defer.UPDATE, self.board_posted)
        settled = response is not None and (response.reply is None
                                            or not response.reply.ephemeral)
        if settled and response is not None and (not call.waits_for_all or response.posts):
            # The question is settled: take the buttons off the message they were on.
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                log.warning("could not remove the buttons of message %s",
                            interaction.message.id if interaction.message else None)

    # ---- servers -------------------------------------------------------------------

    async def _adopt_host_role(self, guild: discord.Guild) -> None:
        """A host role configured by name becomes the id of that server's role, once."""
        try:
            await self.services.roles.adopt(
                str(guild.id), [Role(str(r.id), r.name) for r in guild.roles])
        except Exception:
            log.exception("could not settle the host role of server %s", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._adopt_host_role(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._adopt_host_role(guild)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.name != after.name:
            await self._adopt_host_role(after.guild)

    # ---- the services' own posts: reminders, time-outs, lapsed challenges -----------

    def now(self) -> float:
        """garnet's clock, the services' own: when an answer came back (``delivery``)."""
        return self.services.matches.kit.now()

    async def board_posted(self, turn: TurnStart, at: float) -> None:
        """A board that starts a turn is out since ``at`` (when garnet saw it out)."""
        await self.services.matches.timing.board_posted(turn, at)

    async def deliver(self, post: Post) -> None:
        if post.channel_id is None:
            log.error("a post without a channel: %r", post.text)
            return
        try:
            await send_post(channel_for(self, post.channel_id), post, self.board_posted)
        except discord.HTTPException as error:
            log.warning("could not post to channel %s: %s", post.channel_id, error)
            await self.post_failed(post.channel_id, error)
        except RuntimeError:
            # Still waiting for its turn at Discord's limit when garnet closed: its
            # session is gone. One line, not a traceback per post of the backlog.
            if not self.is_closed():
                raise
            log.warning("channel %s: a post still waiting for Discord's limit when garnet "
                        "closed was not sent", post.channel_id)

    async def post_failed(self, channel_id: str, error: discord.HTTPException) -> None:
        """A post refused for good pauses the matches of that channel (the services
        decide); their hosts are told where garnet still can post."""
        failure = failure_of(self, channel_id, error)
        if failure is None:
            return
        await self._settle(failure)

    async def _settle(self, failure: PostFailure) -> None:
        try:
            notices = await self.services.matches.outages.post_failed(failure)
        except Exception:
            log.exception("could not settle the matches of channel %s", failure.channel_id)
            return
        for notice in notices:
            # A notice that fails too is settled the same way, once per channel.
            await self.deliver(notice)

    async def reach(self, channel_id: str) -> PostFailure | None:
        return await reach(self, channel_id)

    async def _announce(self, posts: list[Post]) -> None:
        for post in posts:
            await self.deliver(post)

    # ---- what Discord changes under the matches --------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel: its matches, and those of its threads, are settled."""
        threads = getattr(channel, "threads", [])
        await self._settle(gone(self, channel.id, channel.guild))
        for thread in threads:
            await self._settle(gone(self, thread.id, channel.guild, channel.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._settle(gone(self, payload.thread_id, self.get_guild(payload.guild_id),
                                payload.parent_id))

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        if after.locked and not before.locked:
            await self._settle(PostFailure(str(after.id), Cause.LOCKED, (),
                                           fallback(self, after.id, after.guild)))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.services.matches.outages.server_left(str(guild.id))

    async def on_disconnect(self) -> None:
        """No one is charged while the gateway is down."""
        if len(self.gateway.shard_ids) == 1:  # else on_shard_disconnect says which
            self.gateway.disconnected()
        if self._started:
            self.services.matches.outages.disconnected()

    async def on_resumed(self) -> None:
        if len(self.gateway.shard_ids) == 1:
            self.gateway.connected()
        await self._announce(await self.services.matches.outages.reconnected())

    async def on_ready(self) -> None:
        heap.settle()  # its servers' cache (bot.core.heap), while the clocks stand still
        self.gateway.connected()  # every shard of this process
        if self._started:
            await self._announce(await self.services.matches.outages.reconnected())

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.gateway.disconnected(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        self.gateway.connected(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.gateway.connected(shard_id)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A player who leaves during a match is reported to the hosts (needs the
        Server Members intent: without it Discord does not say)."""
        await self._announce(await self.services.matches.outages.member_left(
            str(payload.guild_id), str(payload.user.id)))

    async def thread_in(self, parent: str, name: str) -> Thread:
        """A public thread of ``parent`` for a match started outside a command (a
        tournament's next match); if none can be made there, the match is played in
        ``parent`` itself."""
        channel = self.get_channel(int(parent))
        if not isinstance(channel, discord.TextChannel):
            return parent, _nothing
        try:
            made = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread,
                auto_archive_duration=1440, reason="garnet tournament match")
        except discord.HTTPException:
            log.warning("could not open a thread in channel %s", parent)
            return parent, _nothing

        async def abandon() -> None:
            try:
                await made.edit(archived=True)
            except discord.HTTPException:
                log.warning("could not archive the unused thread %s", made.id)

        return str(made.id), abandon

    # ---- typed moves ----------------------------------------------------------------

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch; a message's handlers inherit when it arrived."""
        if event_name != "message" or not metrics.on():
            super().dispatch(event_name, *args, **kwargs)
            return
        token = RECEIVED.set(time.perf_counter())
        try:
            super().dispatch(event_name, *args, **kwargs)
        finally:
            RECEIVED.reset(token)

    async def on_message(self, message: discord.Message) -> None:
        received = RECEIVED.get() or time.perf_counter()
        if (message.author.bot or message.webhook_id is not None or message.guild is None
                or message.type not in TYPED or not message.content.strip()):
            return
        stage_done("dispatch", received)
        here, guild = str(message.channel.id), str(message.guild.id)
        _in_server(message.guild)
        actor = actor_of(message.author)
        try:
            asker = Asker(guild, here, actor)  # a message says no member's language
            response = await self.services.languages.answer(
                asker, lambda: self.services.matches.play.typed(
                    asker, message.content, message_id=str(message.id),
                    sent_at=message.created_at.timestamp()))
        except Exception:
            log.exception("typed message %s failed", message.id)
            response = Response.error(SOMETHING_WRONG)
        answered_at = time.perf_counter()
        reply = response.reply
        if reply is not None and reply.channel_id not in (None, here):
            await self.deliver(reply)
        elif reply is not None:
            try:
                await reply_to(message, reply, self.board_posted)
            except discord.HTTPException as error:
                log.warning("could not answer message %s: %s", message.id, error)
                await self.post_failed(here, error)
        timed = False
        for post in response.posts:
            # A board refused for good pauses its match (``deliver``).
            post = post if post.channel_id else replace(post, channel_id=here)
            if post.image is None or timed:
                await self.deliver(post)
                continue
            timed = True  # the move's board: its latency, for the operators
            stage_done("announce", answered_at)
            with board_on_its_way(received):
                await self.deliver(post)


def _asker(interaction: discord.Interaction) -> Asker:
    """Who asks: in their Discord client's language, where garnet speaks it."""
    return Asker(str(interaction.guild_id), str(interaction.channel_id),
                 actor_of(interaction.user), from_discord(str(interaction.locale)))


__all__ = ["GarnetBot", "view_for"]
