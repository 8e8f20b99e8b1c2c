"""``/replay`` and ``/repost`` post once on a duplicated interaction (a gateway that
replays it, a retry with the same id): the second gets the word that it was done."""

from __future__ import annotations

from typing import Any

from bot.commands.history import COMMANDS as HISTORY
from bot.commands.hosting import COMMANDS as HOSTING
from bot.commands.spec import Call, Command, Services
from bot.core.messages import Post, Response
from bot.core.requests import Asker
from bot.services.requests import Once
from tests.bot.conftest import CHAN, GUILD, HOSTY


class Counting:
    """Stands for the history and match services: counts the posts it makes."""

    def __init__(self) -> None:
        self.calls = 0

    async def _post(self, *_args: Any, **_kw: Any) -> Response:
        self.calls += 1
        return Response(reply=Post(f"board {self.calls}"))

    replay = _post
    board = _post

    @property
    def viewing(self) -> Counting:  # the matches' collaborator that shows the board
        return self


def _command(commands: tuple[Any, ...], name: str) -> Command:
    return next(c for c in commands if isinstance(c, Command) and c.name == name)


async def test_replay_and_repost_are_carried_out_once_per_request() -> None:
    for command in (_command(HISTORY, "replay"), _command(HOSTING, "repost")):
        fake = Counting()
        services = Services(matches=fake, economy=None, history=fake, roles=None,  # type: ignore[arg-type]
                            season=None, tournaments=None, decks=None, games=None,  # type: ignore[arg-type]
                            languages=None,  # type: ignore[arg-type]
                            once=Once())
        call = Call(Asker(GUILD, CHAN, HOSTY), {"id": 1}, request_id="interaction-1")
        first = await command.invoke(services, call)
        again = await command.invoke(services, call)
        assert fake.calls == 1, command.name
        assert first.reply is not None and first.reply.text == "board 1"
        assert again.reply is not None and again.reply.ephemeral and not again.posts
        # A new request (another interaction) is answered again.
        await command.invoke(services, Call(Asker(GUILD, CHAN, HOSTY), {"id": 1},
                                            request_id="interaction-2"))
        assert fake.calls == 2
