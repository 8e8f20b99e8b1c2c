"""Why a request about a match is refused: each refusal carries what it is about."""

from __future__ import annotations

from bot.core.refusal import Refusal
from bot.texts import match as texts


class NoSuchMatch(Refusal):
    """No match of that number on this server (``number`` None: none in this channel)."""

    def __init__(self, number: int | None) -> None:
        super().__init__(texts.no_such_match(number))
        self.number = number


class Busy(Refusal):
    """A player is playing a match in this channel: a new match cannot start here, and
    one set up already (``waiting``, a DM) starts once it ends."""

    def __init__(self, user: str, number: int, waiting: bool = False) -> None:
        super().__init__(texts.busy(user, number, waiting))
        self.user, self.number, self.waiting = user, number, waiting


class WrongStatus(Refusal):
    def __init__(self, number: int, status: str) -> None:
        super().__init__(f"Match #{number} is {status}.")
        self.number, self.status = number, status


class NotBeingPlayed(Refusal):
    def __init__(self, number: int) -> None:
        super().__init__(f"Match #{number} is not being played now.")
        self.number = number


class NoneRunningHere(Refusal):
    """Nothing being played in this channel: of the asker's (``player``), or at all (a
    host's request, which may be about anyone's match)."""

    def __init__(self, player: bool = True) -> None:
        super().__init__(texts.none_running_here(player))
        self.player = player


class MatchOver(Refusal):
    def __init__(self) -> None:
        super().__init__("That match is over.")


class NotAPlayer(Refusal):
    def __init__(self) -> None:
        super().__init__("You are not playing in that match.")


class NotYourTurn(Refusal):
    def __init__(self, name: str) -> None:
        super().__init__(f"It is {name}'s turn, not yours.")
        self.name = name


class Ambiguous(Refusal):
    """More than one match could be meant; the asker must name one."""

    def __init__(self, running: bool) -> None:
        super().__init__(
            "Several matches are running here; add `match:` with its number." if running
            else "Several matches could be meant here; add `match:` with its number.")


class NeedsReason(Refusal):
    def __init__(self) -> None:
        super().__init__("Give a reason: it is logged with the match.")
