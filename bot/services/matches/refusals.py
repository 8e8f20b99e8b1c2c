"""Why a request about a match is refused: each refusal carries what it is about."""

from __future__ import annotations

from typing import Any

from bot.core.refusal import Refusal
from bot.texts import match as texts
from bot.texts import refused
from bot.texts import waiting as waits


class NoSuchMatch(Refusal):
    """No match of that number on this server (``number`` None: none in this channel)."""

    def __init__(self, number: int | None) -> None:
        super().__init__(texts.no_such_match(number))
        self.number = number


class Busy(Refusal):
    """A player is playing a match in this channel: a new match cannot start here, and
    one set up already (``waiting``, a DM) starts once it ends."""

    channel: str | None = None  # where that match is played (None: in this channel)

    def __init__(self, user: str, number: int, waiting: bool = False) -> None:
        super().__init__(texts.busy(user, number, waiting))
        self.user, self.number, self.waiting = user, number, waiting


class Elsewhere(Busy):
    """A player of a tournament's game is still playing a match in another channel: the
    game waits until they are free (its no-show window starts then)."""

    def __init__(self, user: str, number: int, channel: str) -> None:
        Refusal.__init__(self, waits.playing_elsewhere(user, number, channel))
        self.user, self.number, self.waiting, self.channel = user, number, True, channel


class WrongStatus(Refusal):
    def __init__(self, number: int, status: str) -> None:
        super().__init__(refused.match_is(number, status))
        self.number, self.status = number, status


class NotBeingPlayed(Refusal):
    def __init__(self, number: int) -> None:
        super().__init__(refused.not_being_played(number))
        self.number = number


class AlreadyEnded(Refusal):
    """A host's void or decision of a match that has ended: a finished result is
    changed with ``/correct``; a void match has none to change."""

    def __init__(self, number: int, label: str, voided: bool) -> None:
        super().__init__(refused.already_void(label) if voided
                         else refused.finished_use_correct(label, number))
        self.number, self.voided = number, voided


class NoneRunningHere(Refusal):
    """Nothing being played in this channel: of the asker's (``player``), or at all (a
    host's request, which may be about anyone's match)."""

    def __init__(self, player: bool = True) -> None:
        super().__init__(texts.none_running_here(player))
        self.player = player


class NotRunning(Refusal):
    """Asked of a running match about one that is not being played: what it is doing
    instead (waiting for its First Player, a player, an answer or its first board; or
    over), from ``bot.texts.waiting``."""

    def __init__(self, said: str) -> None:
        super().__init__(said)


class MatchOver(Refusal):
    def __init__(self) -> None:
        super().__init__(refused.match_over())


class NotAPlayer(Refusal):
    def __init__(self) -> None:
        super().__init__(refused.not_a_player())


class NotYourTurn(Refusal):
    def __init__(self, name: str) -> None:
        super().__init__(refused.not_your_turn(name))
        self.name = name


class Ambiguous(Refusal):
    """More than one match could be meant; the asker must name one."""

    def __init__(self, running: bool) -> None:
        super().__init__(refused.ambiguous(running))


class NeedsReason(Refusal):
    def __init__(self) -> None:
        super().__init__(refused.needs_reason())


class OverBeforeStart(Refusal):
    """A game that its rules end before its first move (a deck whose cards fit nowhere):
    no match is set up for it."""

    def __init__(self, reason: str) -> None:
        super().__init__(refused.over_before_start(reason))
        self.reason = reason


def startable(game: Any, seats: int, options: Any) -> None:
    """Refuse a match whose game would be over before its first move."""
    outcome = game.outcome(game.new_state(seats, options))
    if outcome is not None:
        raise OverBeforeStart(outcome.reason)
