"""People named several at once: Discord resolves a user option to a member, but a
text option of several people (``players:@a @b @c``) arrives as text with mentions
(``<@123> <@456>``): each is looked up on the server here."""

from __future__ import annotations

import logging
import re

import discord

from bot.adapters.discord.delivery import UserError, player_of
from bot.core.messages import Actor
from bot.texts import input as say

log = logging.getLogger(__name__)

MENTIONED = re.compile(r"<@!?(\d{1,20})>")
BETWEEN = re.compile(r"[\s,]+")


async def people(interaction: discord.Interaction, option: str, text: str
                 ) -> tuple[Actor, ...]:
    """The members a text of mentions names, in order, each once."""
    ids = MENTIONED.findall(text)
    if not ids or BETWEEN.sub("", MENTIONED.sub("", text)):
        raise UserError(say.takes_mentions(option))
    guild = interaction.guild
    if guild is None:
        raise UserError(say.servers_only())
    found = []
    for user_id in dict.fromkeys(ids):
        member = guild.get_member(int(user_id))
        if member is None:
            try:
                member = await guild.fetch_member(int(user_id))
            except discord.HTTPException:
                raise UserError(say.not_a_member(user_id)) from None
        found.append(player_of(member))
    return tuple(found)
