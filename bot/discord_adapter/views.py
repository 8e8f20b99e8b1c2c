"""The host's buttons as Discord components that survive restarts.

A button's custom_id names the action and the match (``garnet:accept:12``), so the
bot needs no memory of the message: registered dynamic items match the custom_id of
any press, however old, and call the same host method as the slash command.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, Self

import discord
from discord import ui

from bot.core.messages import Actor, Button, Response

if TYPE_CHECKING:
    from bot.discord_adapter.client import GarnetBot

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

Press = Callable[["GarnetBot", str, str, Actor], Awaitable[Response]]


async def _press(interaction: discord.Interaction, call: Press,
                 closes: Callable[[Response], bool]) -> None:
    # Imported here: delivery builds its views from this module.
    from bot.discord_adapter.delivery import Defer, actor_of, answer

    bot: GarnetBot = interaction.client  # type: ignore[assignment]
    guild, channel = str(interaction.guild_id), str(interaction.channel_id)
    actor = actor_of(interaction.user)
    response = await answer(interaction, lambda: call(bot, guild, channel, actor), Defer.UPDATE)
    if response is not None and closes(response):
        # The question is settled: take the buttons off the message they were on.
        try:
            await interaction.edit_original_response(view=None)
        except discord.HTTPException:
            log.warning("could not remove the buttons of message %s",
                        interaction.message.id if interaction.message else None)


def _settled(response: Response) -> bool:
    return response.reply is None or not response.reply.ephemeral


class AnswerButton(ui.DynamicItem[ui.Button[ui.View]],
                   template=r"garnet:(?P<action>accept|decline):(?P<match>[0-9]+)"):
    """Accept or Decline under a challenge."""

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        found = self.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert found is not None
        self.accept = found["action"] == "accept"
        self.match_id = int(found["match"])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(match.string, _label(item), _style(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        def closes(response: Response) -> bool:
            # An accept that still waits for other opponents leaves the buttons up.
            return _settled(response) and (not self.accept or bool(response.posts))

        await _press(interaction, lambda bot, guild, channel, actor: bot.host.answer(
            self.match_id, guild, channel, actor, accept=self.accept), closes)


class FirstButton(ui.DynamicItem[ui.Button[ui.View]],
                  template=r"garnet:first:(?P<match>[0-9]+):(?P<user>[^:]+)"):
    """'<name> goes first' under a new Death Match."""

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        found = self.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert found is not None
        self.match_id = int(found["match"])
        self.user_id = found["user"]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(match.string, _label(item), _style(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, lambda bot, guild, channel, actor: bot.host.choose_first(
            self.match_id, guild, channel, actor, self.user_id), _settled)


class ButtonKind(Protocol):
    """A persistent button class: made from a custom_id its template matches."""

    __discord_ui_compiled_template__: re.Pattern[str]

    def __call__(self, custom_id: str, label: str,
                 style: discord.ButtonStyle) -> ui.DynamicItem[ui.Button[ui.View]]: ...


ITEMS: list[ButtonKind] = [AnswerButton, FirstButton]


def register(*kinds: ButtonKind) -> None:
    """Let ``view_for`` build the buttons of other modules (paging buttons); the bot
    registers the same classes with ``add_dynamic_items`` so that presses find them."""
    ITEMS.extend(kind for kind in kinds if kind not in ITEMS)


def _label(item: ui.Item[Any]) -> str:
    return (item.label if isinstance(item, ui.Button) else None) or "?"


def _style(item: ui.Item[Any]) -> discord.ButtonStyle:
    return item.style if isinstance(item, ui.Button) else discord.ButtonStyle.secondary


def view_for(buttons: tuple[Button, ...]) -> ui.View | None:
    """The components of a post: one row of persistent buttons."""
    if not buttons:
        return None
    view = ui.View(timeout=None)
    for button in buttons:
        style = STYLES.get(button.style, discord.ButtonStyle.secondary)
        kind = next((k for k in ITEMS
                     if k.__discord_ui_compiled_template__.fullmatch(button.custom_id)), None)
        if kind is None:
            raise ValueError(f"no handler for button custom_id {button.custom_id!r}")
        view.add_item(kind(button.custom_id, button.label[:80], style))
    return view
