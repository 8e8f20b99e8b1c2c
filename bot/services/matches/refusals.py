"""Why a request about a match is refused: each refusal carries what it is about."""

from __future__ import annotations

from bot.core.refusal import Refusal


class NoSuchMatch(Refusal):
    def __init__(self, number: int) -> None:
        super().__init__(f"There is no match #{number} on this server.")
        self.number = number


class WrongStatus(Refusal):
    def __init__(self, number: int, status: str) -> None:
        super().__init__(f"Match #{number} is {status}.")
        self.number, self.status = number, status


class NotBeingPlayed(Refusal):
    def __init__(self, number: int) -> None:
        super().__init__(f"Match #{number} is not being played now.")
        self.number = number


class NoneRunningHere(Refusal):
    def __init__(self) -> None:
        super().__init__("There is no match of yours running in this channel.")


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
