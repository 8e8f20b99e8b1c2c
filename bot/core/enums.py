"""Statuses and reasons, named once. Their values are the strings stored in the
database, so a ``StrEnum`` member and the stored text compare equal."""

from __future__ import annotations

from enum import StrEnum


class MatchKind(StrEnum):
    DM = "dm"
    CASUAL = "casual"
    PRACTICE = "practice"  # against the computer: never rated, never booked


class MatchStatus(StrEnum):
    PENDING = "pending"  # a challenge waiting for answers
    CHOOSING = "choosing"  # a Death Match waiting for its First Player
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    VOIDED = "voided"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class EndReason(StrEnum):
    """How a finished match ended."""

    RULES = "rules"  # the game's own end
    TIMEOUT = "timeout"
    RESIGN = "resign"
    ADJUDICATED = "adjudicated"
    CORRECTED = "corrected"  # a finished match given another result (/correct)
    VOID = "void"
    AGREED = "agreed"  # a draw the players agreed on (casual)
    ABORTED = "aborted"  # a casual match given up in its first two moves, without result
    LAPSED = "lapsed"  # a casual match without a clock left without a move too long


class MoveKind(StrEnum):
    MOVE = "move"
    OUT = "out"  # a seat left a game of more than two


ACTIVE = (MatchStatus.PENDING, MatchStatus.CHOOSING, MatchStatus.RUNNING, MatchStatus.PAUSED)
PLAYING = (MatchStatus.RUNNING, MatchStatus.PAUSED)
DONE = (MatchStatus.FINISHED, MatchStatus.VOIDED)
