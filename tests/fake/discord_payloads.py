"""Payloads shaped like Discord's (messages, channels, threads, servers) and the gateway
events and interactions built from them: the half of ``FakeDiscord`` that makes data
(``tests.fake.discord_fake``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from tests.fake.discord_world import (
    APP_ID,
    BOT_ID,
    CHANNEL_ID,
    EVERYONE_PERMS,
    GUILD_ID,
    LOADING,
    OWNER_ID,
    PLAYER_ROLE_ID,
    TIMESTAMP,
    Person,
    Server,
    iso_time,
    snowflake_time,
    user_payload,
)


def components_of(sent: Any) -> list[dict[str, Any]]:
    """A message's components as Discord returns them: each numbered (``id``, in
    order, where the sender gave none), without the request-only ``required``."""
    numbered = 0

    def made(component: dict[str, Any]) -> dict[str, Any]:
        nonlocal numbered
        numbered += 1
        out = {k: v for k, v in component.items() if k not in ("required", "components")}
        out.setdefault("id", numbered)
        if "components" in component:
            out["components"] = [made(c) for c in component["components"]]
        return out

    return [made(row) for row in sent or []]


def described(body: dict[str, Any], index: int) -> dict[str, Any]:
    """The description the request gave the ``index``-th file it uploads (discord.py
    lists each upload in ``attachments`` by its index), as Discord keeps it."""
    for attachment in body.get("attachments") or []:
        if (isinstance(attachment, dict) and str(attachment.get("id")) == str(index)
                and attachment.get("description")):
            return {"description": attachment["description"]}
    return {}


class Payloads:
    """Mixed into ``FakeDiscord``, which provides what is declared here."""

    servers: dict[int, Server]
    # A server's language in Discord's server settings (an interaction's
    # ``guild_locale``), where it is not English (US).
    guild_locales: dict[int, str]
    people: dict[int, Person]
    channels: dict[int, dict[str, Any]]
    departed: set[int]
    deleted: set[int]
    _token_channel: dict[str, int]
    _token_interaction: dict[str, int]
    # Every message the fake made or was told of, by id (what a reply may refer to).
    messages: dict[int, dict[str, Any]]
    # Per interaction token, its original response: the message a callback made (the
    # "thinking…" one of a deferral), or the message a component is on.
    originals: dict[str, dict[str, Any]]
    # Per interaction token, the interaction's ``interaction_metadata`` (its messages').
    _token_meta: dict[str, dict[str, Any]]
    # Whether the edit that replaces a deferral's "thinking…" message sets its
    # ``edited_timestamp`` (the client shows no "(edited)" on it; Discord's
    # documentation does not say): garnet must time a board alike either way.
    stamp_deferred_edits: bool = True

    def now(self) -> float:
        raise NotImplementedError

    def snowflake(self, ago: float = 0.0) -> int:
        raise NotImplementedError

    def permissions(self, channel_id: int) -> discord.Permissions:
        raise NotImplementedError

    def saw(self, event: str, data: dict[str, Any]) -> None:
        raise NotImplementedError

    # ---- payloads -----------------------------------------------------------------

    def message_payload(self, channel_id: int, body: dict[str, Any] | None,
                        files: Sequence[tuple[str, bytes]] = (),
                        author: dict[str, Any] | None = None,
                        interaction: dict[str, Any] | None = None) -> dict[str, Any]:
        """A message as Discord returns it; ``interaction``: an interaction's (its
        answer or a follow-up), which Discord marks as the application's webhook's."""
        body = body or {}
        made = self.snowflake()
        message: dict[str, Any] = {
            "id": str(made), "channel_id": str(channel_id),
            "author": author or user_payload(BOT_ID, "garnet", bot=True),
            "content": body.get("content") or "", "timestamp": snowflake_time(made),
            "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "embeds": [], "pinned": False,
            "type": 19 if body.get("message_reference") else 0,
            "flags": int(body.get("flags") or 0),
            "components": components_of(body.get("components")),
            "attachments": [
                {"id": str(self.snowflake()), "filename": name, "size": len(data),
                 "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}",
                 "content_type": "image/png", **described(body, i)}
                for i, (name, data) in enumerate(files)],
        }
        if body.get("message_reference"):
            reference = body["message_reference"]
            message["message_reference"] = {
                "type": 0, **{k: str(reference[k]) for k in ("message_id", "channel_id",
                                                            "guild_id") if k in reference}}
        if interaction:
            message.update(webhook_id=str(APP_ID), application_id=str(APP_ID),
                           interaction_metadata=interaction)
        self.messages[made] = message
        return message

    def edit_message(self, message: dict[str, Any], body: dict[str, Any] | None,
                     files: Sequence[tuple[str, bytes]] = ()) -> dict[str, Any]:
        """``message`` edited as ``body`` says: same id and ``timestamp`` (its
        creation), ``edited_timestamp`` now; a loading message loses its flag. The
        edit that replaces a deferral's "thinking…" sets ``edited_timestamp`` only with
        ``stamp_deferred_edits`` (Discord does not document whether it does)."""
        body = body or {}
        loading = bool(int(message.get("flags") or 0) & LOADING)
        if "content" in body:
            message["content"] = body["content"] or ""
        if "components" in body:
            message["components"] = components_of(body["components"])
        if files or "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept] + [
                {"id": str(self.snowflake()), "filename": name, "size": len(data),
                 "url": f"https://cdn.example/{name}",
                 "proxy_url": f"https://cdn.example/{name}",
                 "content_type": "image/png", **described(body, i)}
                for i, (name, data) in enumerate(files)]
        message["flags"] = int(message.get("flags") or 0) & ~LOADING
        if self.stamp_deferred_edits or not loading:
            message["edited_timestamp"] = iso_time(self.now())
        return message

    def guild_of(self, channel_id: int) -> int:
        if channel_id in self.channels:
            return int(self.channels[channel_id]["guild_id"])
        return next(s.id for s in self.servers.values() if s.channel == channel_id)

    def member_of(self, person: Person, guild_id: int, with_user: bool = True
                  ) -> dict[str, Any]:
        roles, nick = self.servers[guild_id].members.get(person.id, (person.roles, None))
        return person.member(with_user, roles, nick)

    def channel_payload(self, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        guild = next(s.id for s in self.servers.values() if s.channel == channel_id)
        return {"id": str(channel_id), "type": 0, "guild_id": str(guild), "name": "matches",
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}

    def thread_payload(self, parent: int, name: str) -> dict[str, Any]:
        return {"id": str(self.snowflake()), "type": 11, "guild_id": str(self.guild_of(parent)),
                "parent_id": str(parent), "name": name, "owner_id": str(BOT_ID),
                "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
                "member_count": 1, "flags": 0, "total_message_sent": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                    "archive_timestamp": TIMESTAMP, "locked": False}}

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        server = self.servers[guild_id]
        people = [p for p in self.people.values() if p.id in server.members]
        role = {"color": 0, "colors": {"primary_color": 0, "secondary_color": None,
                                       "tertiary_color": None},
                "hoist": False, "icon": None, "unicode_emoji": None,
                "managed": False, "mentionable": False, "flags": 0}
        return {
            "id": str(guild_id), "name": server.name, "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(OWNER_ID), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "features": [], "mfa_level": 0,
            "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0, "hub_type": None, "nsfw": False,
            "home_header": None, "region": "deprecated", "widget_enabled": False,
            "widget_channel_id": None, "max_presences": None, "max_members": 500_000,
            "max_stage_video_channel_users": 50, "max_video_channel_users": 25,
            "premium_subscription_count": 0,
            "safety_alerts_channel_id": None, "incidents_data": None,
            "premium_progress_bar_enabled": False, "emojis": [], "stickers": [],
            "unavailable": False, "member_count": len(people) + 1, "large": False,
            "joined_at": TIMESTAMP, "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "roles": [
                {**role, "id": str(guild_id), "name": "@everyone", "position": 0,
                 "permissions": str(EVERYONE_PERMS.value)},
                {**role, "id": str(server.host_role), "name": "Host", "position": 2,
                 "permissions": "0"},
                {**role, "id": str(PLAYER_ROLE_ID + 10 * abs(guild_id - GUILD_ID)),
                 "name": "Players",
                 "position": 1, "permissions": "0"},
            ],
            "channels": [c for i, c in self.channels.items() if i not in self.deleted
                         and c["guild_id"] == str(guild_id) and "thread_metadata" not in c],
            "threads": [c for i, c in self.channels.items() if i not in self.deleted
                        and c["guild_id"] == str(guild_id) and "thread_metadata" in c],
            "members": [self.member_of(p, guild_id) for p in people]
            + [{**Person(BOT_ID, "garnet").member(), "user": user_payload(BOT_ID, "garnet",
                                                                        bot=True)}],
        }

    # ---- gateway events -----------------------------------------------------------

    def message_create(self, author: Person, content: str, channel_id: int = CHANNEL_ID,
                       bot: bool = False, sent_ago: float = 0.0) -> dict[str, Any]:
        """A message as the gateway delivers it; ``sent_ago``: sent that long before
        (delivered late)."""
        data = self.message_payload(channel_id, {"content": content},
                                    author=user_payload(author.id, author.name, bot=bot))
        if sent_ago:
            data["id"] = str(self.snowflake(sent_ago))
        guild = self.guild_of(channel_id)
        data["guild_id"] = str(guild)
        data["member"] = self.member_of(author, guild, with_user=False)
        self.saw("MESSAGE_CREATE", data)
        return data

    def _interaction(self, kind: int, person: Person, data: dict[str, Any],
                     channel_id: int, ago: float = 0.0) -> dict[str, Any]:
        """An interaction; ``ago``: made that long before it is delivered."""
        token = f"token-{self.snowflake()}"
        interaction = self.snowflake(ago)
        self._token_channel[token] = channel_id
        self._token_interaction[token] = interaction
        guild = self.guild_of(channel_id)
        self._token_meta[token] = {
            "id": str(interaction), "type": kind, "user": person.user(),
            "authorizing_integration_owners": {"0": str(guild)}}
        member = self.member_of(person, guild)
        member["permissions"] = str(EVERYONE_PERMS.value)
        # The channel as an interaction carries it: partial, without its overwrites
        # (a channel's ``permissions`` are only in the resolved data of an option).
        partial = {k: v for k, v in self.channels[channel_id].items()
                   if k != "permission_overwrites"}
        made = {
            "id": str(interaction), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "guild_id": str(guild),
            "channel_id": str(channel_id), "channel": partial,
            "member": member, "app_permissions": str(self.permissions(channel_id).value),
            "locale": person.locale, "guild_locale": self.guild_locales.get(guild, "en-US"),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
            "attachment_size_limit": 10_485_760, "data": data,
        }
        self.saw("INTERACTION_CREATE", made)  # again by ``press``, once complete
        return made

    def slash(self, tree: app_commands.CommandTree[Any], person: Person, name: str,
              channel_id: int = CHANNEL_ID, focused: str | None = None, ago: float = 0.0,
              **values: Any) -> dict[str, Any]:
        """A slash command (or, with ``focused``, its autocomplete) as the gateway sends it.

        Option types come from the command as registered, so a value of the wrong
        type is caught here as Discord's client would.
        """
        command = (tree.get_command(name, guild=discord.Object(GUILD_ID))
                   or tree.get_command(name))  # synced globally (the bench)
        assert isinstance(command, app_commands.Command), name
        options, resolved = self._options(command, channel_id, focused, values)
        data = {"id": str(self.snowflake()), "name": name, "type": 1,
                "guild_id": str(self.guild_of(channel_id)), "options": options,
                "resolved": resolved}
        return self._interaction(4 if focused else 2, person, data, channel_id, ago)

    def _options(self, command: app_commands.Command[Any, ..., Any], channel_id: int,
                 focused: str | None, values: dict[str, Any]
                 ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        """A command's options and their ``resolved`` users, members and roles, typed
        as the command was registered (so a value of the wrong type is caught here, as
        Discord's client would)."""
        params = {p.name: p for p in command.parameters}
        guild = self.guild_of(channel_id)
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for key, value in values.items():
            kind = params[key].type
            if kind is discord.AppCommandOptionType.user:
                assert isinstance(value, Person)
                resolved.setdefault("users", {})[str(value.id)] = value.user()
                if value.id not in self.departed:
                    # A resolved member: partial (no user, deaf, mute), with permissions.
                    member = {k: v for k, v in self.member_of(value, guild, with_user=False)
                              .items() if k not in ("deaf", "mute")}
                    member["permissions"] = str(EVERYONE_PERMS.value)
                    resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            elif kind is discord.AppCommandOptionType.role:
                resolved.setdefault("roles", {})[str(value)] = next(
                    r for r in self.guild_payload(guild)["roles"] if r["id"] == str(value))
                value = str(value)
            option: dict[str, Any] = {"name": key, "type": kind.value, "value": value}
            if key == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    def subcommand(self, tree: app_commands.CommandTree[Any], person: Person, group: str,
                   name: str, channel_id: int = CHANNEL_ID, /, *, ago: float = 0.0,
                   focused: str | None = None, **values: Any) -> dict[str, Any]:
        """``/group name`` (or, with ``focused``, its autocomplete) as the gateway
        sends it; ``group`` may name a group in a group (``host tournament``)."""
        top, *inner = group.split()
        found = tree.get_command(top, guild=discord.Object(GUILD_ID))
        for word in inner:
            assert isinstance(found, app_commands.Group), group
            found = found.get_command(word)
        assert isinstance(found, app_commands.Group), group
        command = found.get_command(name)
        assert isinstance(command, app_commands.Command), name
        options, resolved = self._options(command, channel_id, focused, values)
        chosen: list[dict[str, Any]] = [{"name": name, "type": 1, "options": options}]
        for word in reversed(inner):  # a subcommand group (type 2) holds the subcommand
            chosen = [{"name": word, "type": 2, "options": chosen}]
        data = {"id": str(self.snowflake()), "name": top, "type": 1,
                "guild_id": str(self.guild_of(channel_id)), "resolved": resolved,
                "options": chosen}
        return self._interaction(4 if focused else 2, person, data, channel_id, ago)

    def press(self, person: Person, message: dict[str, Any], custom_id: str,
              ago: float = 0.0) -> dict[str, Any]:
        """A button press on a message the bot sent (as the fake answered it)."""
        payload = self._interaction(3, person, {"custom_id": custom_id, "component_type": 2},
                                    int(message["channel_id"]), ago)
        payload["message"] = message
        self._token_meta[payload["token"]]["interacted_message_id"] = str(message["id"])
        self.saw("INTERACTION_CREATE", payload)
        # A component's interaction's original response is the message it is on.
        self.originals[payload["token"]] = self.messages.get(int(message["id"]), message)
        return payload


