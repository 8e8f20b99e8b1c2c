"""Asked about 'the match in this channel' where none runs: a player hears of theirs,
a host (whose commands may be about anyone's match) of any, and how to name one."""

from __future__ import annotations

from bot.core.requests import Asker
from tests.bot.conftest import ALICE, CHAN, GUILD, HOSTY, Harness


async def test_a_host_is_not_told_of_matches_of_theirs(h: Harness) -> None:
    host = await h.host.controls.pause(Asker(GUILD, CHAN, HOSTY), None, "a break")
    assert host.reply is not None and host.reply.ephemeral
    assert host.reply.text == "No match is running in this channel; name one with `match:`."
    player = await h.host.play.resign(Asker(GUILD, CHAN, ALICE), None)
    assert player.reply is not None
    assert player.reply.text == "There is no match of yours running in this channel."
