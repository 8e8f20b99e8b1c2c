"""The Discord command tree, built from the command declarations (``bot.commands``).

Each declaration becomes an application command whose parameters are made from its
options (type, bounds, choices, autocomplete, description); invoking it turns the
values Discord resolved into a ``Call`` and answers as the declaration says.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.adapters.discord.delivery import Defer
from bot.adapters.discord.suggest import SUGGESTERS, Suggester
from bot.commands import COMMANDS, GROUPS
from bot.commands.play import SECTION as PLAY
from bot.commands.spec import Command, Group, Kind, Option, Reply, storable

SERVERS = app_commands.AppCommandContext(guild=True)  # like @guild_only() commands
# Discord shows a command for hosts to Manage Server by default; a server's admins let
# the host role use it in Server Settings → Integrations (docs/hosting.md). The
# services still check the host role on every use.
HOSTS_SHOWN = discord.Permissions(manage_guild=True)
# Fields of a command that Discord documents for global commands only.
GLOBAL_ONLY = ("contexts", "integration_types")


def documented(command: dict[str, Any], *, global_: bool) -> dict[str, Any]:
    """A command's JSON as Discord documents it, from what discord.py builds: the
    permissions a string (a bit set, like every permissions field), no ``dm_permission``
    (deprecated: ``contexts`` says where a command works), and ``contexts`` and
    ``integration_types`` only in a global sync (and only when set: lists, never null)."""
    made = {k: v for k, v in command.items() if k != "dm_permission"
            and not (k in GLOBAL_ONLY and (not global_ or v is None))}
    if made.get("default_member_permissions") is not None:
        made["default_member_permissions"] = str(made["default_member_permissions"])
    return made


ClientT = TypeVar("ClientT", bound=discord.Client)


class DocumentedTree(app_commands.CommandTree[ClientT]):
    """A command tree whose sync sends each command as Discord documents it
    (``documented``), localised by the tree's translator when it has one; otherwise
    discord.py's ``CommandTree.sync``."""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None
                   ) -> list[app_commands.AppCommand]:
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        commands = self._get_all_commands(guild=guild)
        translator = self.translator
        made = ([await command.get_translated_payload(self, translator)
                 for command in commands] if translator
                else [command.to_dict(self) for command in commands])
        payload = [documented(command, global_=guild is None) for command in made]
        http = self.client.http
        try:
            if guild is None:
                data = await http.bulk_upsert_global_commands(self.client.application_id,
                                                              payload=payload)
            else:
                data = await http.bulk_upsert_guild_commands(self.client.application_id,
                                                             guild.id, payload=payload)
        except discord.HTTPException as e:
            if e.status == 400 and e.code == 50035:
                raise app_commands.CommandSyncFailure(e, commands) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state)
                for d in data]
DEFERS = {Reply.QUICK: Defer.NO, Reply.PUBLIC: Defer.PUBLIC, Reply.PRIVATE: Defer.PRIVATE}


def defer_for(command: Command) -> Defer:
    """How an interaction is acknowledged before the command runs. A write of the
    hosts and of the economy is acknowledged first (publicly; a refusal then replaces
    the "thinking…" privately): a slow database never makes Discord give up on it,
    and an acknowledgement too late (10062) writes nothing, so the user's retry is the
    only write. Playing's quick answers (a challenge and its buttons) come at once."""
    defer = DEFERS[command.reply]
    if command.once and defer is Defer.NO and command.section != PLAY:
        return Defer.PUBLIC
    return defer
# People options take discord.User, so a player who left the server can still be named
# (removed, fined, adjudicated against); Discord resolves a member where there is one.
TYPES: dict[Kind, Any] = {Kind.TEXT: str, Kind.INT: int, Kind.NUMBER: float, Kind.BOOL: bool,
                          Kind.USER: discord.User, Kind.ROLE: discord.Role,
                          Kind.CHANNEL: discord.TextChannel,
                          Kind.USERS: str,  # mentions, each looked up (people.py)
                          Kind.ATTACHMENT: discord.Attachment}  # size checked, then read

Invoke = Callable[[discord.Interaction, Command, dict[str, Any], Defer], Awaitable[None]]


def _annotation(option: Option) -> Any:
    base = TYPES[option.kind]
    low, high = option.bounds()
    if option.kind is not Kind.ATTACHMENT and (low is not None or high is not None):
        cast = int if option.kind in (Kind.TEXT, Kind.INT, Kind.USERS) else float
        base = app_commands.Range[base, cast(low) if low is not None else None,
                                  cast(high) if high is not None else None]
    return base if option.required else base | None


Callback = Callable[..., Coroutine[Any, Any, None]]


def _callback(command: Command, invoke: Invoke) -> Callback:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await invoke(interaction, command, values, defer_for(command))

    callback.__name__ = callback.__qualname__ = command.leaf
    callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=discord.Interaction),
        *(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY,
                            annotation=_annotation(o),
                            default=inspect.Parameter.empty if o.required else None)
          for o in command.options),
    ])
    described = {o.name: o.description for o in command.options}
    chosen = {o.name: [Choice(name=label, value=value) for label, value in o.choices]
              for o in command.options if o.choices}
    suggested = {o.name: _storable_only(SUGGESTERS[o.suggest])
                 for o in command.options if o.suggest}
    made: Callback = callback
    if described:
        made = app_commands.describe(**described)(made)
    if chosen:
        made = app_commands.choices(**chosen)(made)
    if suggested:
        made = app_commands.autocomplete(**suggested)(made)  # type: ignore[arg-type]
    return made


def _storable_only(suggest: Suggester) -> Suggester:
    """What is typed so far reaches the services only if a database can store it (an
    autocomplete cannot be refused: it offers nothing, and the command refuses it)."""
    async def suggesting(interaction: discord.Interaction, current: Any) -> list[Any]:
        if isinstance(current, str) and not storable(current):
            return []
        return await suggest(interaction, current)

    return suggesting


def _command(command: Command, invoke: Invoke,
             parent: app_commands.Group | None) -> app_commands.Command[Any, ..., None]:
    made: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=command.leaf, description=command.description,
        callback=_callback(command, invoke), parent=parent)
    if parent is None:
        made = app_commands.guild_only()(made)
        if command.for_hosts:
            made = app_commands.default_permissions(HOSTS_SHOWN)(made)
    return made


def _group(group: Group, parent: app_commands.Group | None) -> app_commands.Group:
    if parent is not None:
        return app_commands.Group(name=group.name.split()[-1],
                                  description=group.description, parent=parent)
    return app_commands.Group(name=group.name, description=group.description,
                              guild_only=True, allowed_contexts=SERVERS,
                              default_permissions=HOSTS_SHOWN if group.for_hosts else None)


def install(tree: app_commands.CommandTree[Any], invoke: Invoke) -> None:
    """Every declared command on ``tree``, each answered through ``invoke``. Discord
    honours default permissions on top-level commands only (``spec.misplaced``): a
    top-level command or group for hosts carries them, and its subcommands follow."""
    groups: dict[str, app_commands.Group] = {}
    for group in sorted(GROUPS, key=lambda g: g.name.count(" ")):  # parents first
        parent = groups.get(group.name.rsplit(" ", 1)[0]) if " " in group.name else None
        groups[group.name] = _group(group, parent)  # a subgroup joins its parent
    for command in COMMANDS:
        parent = groups[command.group] if command.group else None
        made = _command(command, invoke, parent)
        if parent is None:
            tree.add_command(made)
        else:
            parent.add_command(made)
    for name, top in groups.items():
        if " " not in name:
            tree.add_command(top)
