"""Commands in each member's language: discord.py's ``Translator`` over the gettext
domain ``commands`` (``bot.commands.catalog``).

discord.py asks for every name, description and choice of every command in every
locale Discord has when it syncs; garnet answers for the languages it speaks, with
translations that keep Discord's rules (``catalog.localised``), and None otherwise
(Discord shows the English).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.commands.catalog import NAME, localised
from bot.texts.language import SOURCE, from_discord

# Where discord.py asks for a name (typed, so kept to Discord's rules for names); a
# choice's name is shown, not typed: it is translated like a description.
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


class CommandsTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]
                        ) -> str | None:
        lang = from_discord(locale.value)
        if lang is None or lang == SOURCE:
            return None
        return localised(string.message, NAME if context.location in NAMES else None, lang)
