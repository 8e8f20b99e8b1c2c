"""The one root of every refusal: a request garnet will not carry out, and why.

Services raise a ``Refusal`` (or a subclass that carries its data and formats its
own sentence); each adapter turns it into a private answer in one place. Errors
of the engine (an illegal move, an unknown option) are refusals too: their text
is written for players and names what was wrong.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core.escape import defang, sentence
from bot.core.messages import Response
from engine.game import EngineError


class Refusal(Exception):
    """A request that is refused; ``text`` is the sentence for the person who asked."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def refusal_of(exc: BaseException) -> Refusal | None:
    """The refusal an exception stands for, or None for a fault (a bug, an outage)."""
    if isinstance(exc, Refusal):
        return exc
    if isinstance(exc, EngineError):
        # The engine's sentences quote what the player typed: echoed, it must not
        # ping or render; written for the command line, they become sentences.
        return Refusal(sentence(defang(str(exc))))
    return None


async def answered(produce: Callable[[], Awaitable[Response]]) -> Response:
    """Run a request; a refusal becomes the private answer that says why.

    Adapters call this in their one place that turns requests into answers; a
    fault that is no refusal goes on up to the adapter's catch-all.
    """
    try:
        return await produce()
    except Exception as exc:
        refusal = refusal_of(exc)
        if refusal is None:
            raise
        return Response.error(refusal.text)
