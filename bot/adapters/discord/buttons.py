"""Buttons on Discord: one persistent component class for every button id.

A button's id encodes the command it stands for (``bot.core.buttons``), so any press,
however old the message, is matched by ``CommandButton`` and run as that command.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, Self

import discord
from discord import ui

from bot.core import buttons
from bot.core.messages import Button, Select
from bot.texts import input as say

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Presses(Protocol):
    """The client, as a button needs it: something that runs the command pressed."""

    async def press(self, interaction: discord.Interaction,
                    call: buttons.ButtonCall) -> None: ...


class CommandButton(ui.DynamicItem[ui.Button[ui.View]], template=buttons.TEMPLATE):
    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        self.call = buttons.decode(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str]) -> Self:
        label = (item.label if isinstance(item, ui.Button) else None) or "?"
        style = item.style if isinstance(item, ui.Button) else discord.ButtonStyle.secondary
        return cls(match.string, label, style)

    async def callback(self, interaction: discord.Interaction) -> None:
        client: Presses = interaction.client  # type: ignore[assignment]
        if self.call is None:
            await interaction.response.send_message(say.control_gone("button"),
                                                    ephemeral=True)
            return
        await client.press(interaction, self.call)


class CommandSelect(ui.DynamicItem[ui.Select[ui.View]], template=buttons.MENU_TEMPLATE):
    """A select menu whose id encodes a command (``bot.core.buttons``); the value chosen
    is the command's ``choice``. Persistent like the buttons: any choice, however old
    the message, is matched here (the service refuses a menu of an earlier position)."""

    def __init__(self, custom_id: str, placeholder: str = "",
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(ui.Select(custom_id=custom_id, placeholder=placeholder or None,
                                   options=options or [discord.SelectOption(label="?")]))
        self.call = buttons.decode(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str]) -> Self:
        if isinstance(item, ui.Select):
            return cls(match.string, item.placeholder or "", list(item.options))
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        client: Presses = interaction.client  # type: ignore[assignment]
        values = self.item.values
        if self.call is None or not values:
            await interaction.response.send_message(say.control_gone("menu"),
                                                    ephemeral=True)
            return
        chosen = buttons.ButtonCall(self.call.command,
                                    self.call.options | {self.call.choice: values[0]})
        await client.press(interaction, chosen)


def _select(menu: Select) -> CommandSelect:
    if buttons.decode(menu.custom_id) is None:
        raise ValueError(f"no command for menu custom_id {menu.custom_id!r}")
    options = [discord.SelectOption(label=c.label[:100], value=c.value[:100],
                                    description=c.description[:100] or None)
               for c in menu.choices[:25]]
    return CommandSelect(menu.custom_id, menu.placeholder[:150], options)


def view_for(items: tuple[Button, ...], menus: tuple[Select, ...] = ()) -> ui.View | None:
    """The components of a post: each select menu in a row of its own (at most five),
    then one row of persistent buttons."""
    if not items and not menus:
        return None
    view = ui.View(timeout=None)
    for row, menu in enumerate(menus[:5]):
        made = _select(menu)
        made.item.row = row
        view.add_item(made)
    for item in items:
        if buttons.decode(item.custom_id) is None:
            raise ValueError(f"no command for button custom_id {item.custom_id!r}")
        style = STYLES.get(item.style, discord.ButtonStyle.secondary)
        view.add_item(CommandButton(item.custom_id, item.label[:80], style))
    return view
