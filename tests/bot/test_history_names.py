"""/history names a player by name, even one garnet has not met by name yet."""

from __future__ import annotations

from bot.commands.spec import Services
from bot.core.messages import Actor

GUILD = "g1"


async def test_a_player_not_yet_known_by_name_is_called_by_it(services: Services) -> None:
    # Nobody has told garnet what u123 is called here: the page falls back on the id,
    # unless the asker named the member (the platform gives their name with them).
    bare = await services.history.page(GUILD, "u123")
    assert bare.reply is not None and "u123" in bare.reply.text
    named = await services.history.page(GUILD, "u123", named=Actor("u123", "Newbie"))
    assert named.reply is not None
    assert "Newbie" in named.reply.text and "u123" not in named.reply.text
    # And from then on, on this server only.
    again = await services.history.page(GUILD, "u123")
    assert again.reply is not None and "Newbie" in again.reply.text
    other = await services.history.page("g2", "u123")
    assert other.reply is not None and "Newbie" not in other.reply.text
