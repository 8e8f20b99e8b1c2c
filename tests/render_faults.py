"""The board renderer overloaded: the next boards cannot be drawn in time (a start that
fails, issue 36), for the tests of the match host, the tournaments and Discord."""

from __future__ import annotations

from typing import Any

from bot.services.render import TooLongToDraw


def overloaded(matches: Any, boards: int) -> list[int]:
    """The next ``boards`` boards of ``matches`` cannot be drawn in time (as when the
    renderer's time limit passes under load); the count of those refused so far, which
    a test may set to change how many more are refused."""
    refused = [0]
    draw = matches.kit.render

    async def render(*args: Any, **kwargs: Any) -> Any:
        if refused[0] < boards:
            refused[0] += 1
            raise TooLongToDraw()
        return await draw(*args, **kwargs)

    matches.kit.render = render
    return refused
