"""A running match as the host holds it in memory between database writes.

The database is the truth; a LiveMatch is rebuilt from it at start (its moves
replayed through the engine) and changed only after the change is committed.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from bot.core.clock import Handle
from bot.core.enums import MatchKind
from bot.core.failures import PostFailure
from bot.core.messages import TurnStart
from bot.core.timecontrol import Reminder, TimeControl
from engine.game import Game


@dataclass
class LiveMatch:
    id: int  # the database's key: internal
    number: int  # what its server calls it (#1, #2, ...)
    guild_id: str
    channel_id: str
    kind: MatchKind | str
    game: Game[Any, Any]
    state: Any
    users: list[str]  # user id of each seat
    names: list[str]
    tc: TimeControl
    banks_left: list[int]
    time_used: list[float]
    out: list[bool]
    ply: int
    turn_elapsed: float
    resumed_at: float | None  # None while paused
    extra: float
    hints: bool
    reward: int
    options: dict[str, Any] = field(default_factory=dict)  # the game's, as stored
    # Set up by a host or a service (a DM, a tournament's game), not by a challenge:
    # its players have none of the casual courtesies (draws, aborts, rematches, lapses).
    hosted: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: Handle | None = None
    reminders: list[Reminder] = field(default_factory=list)
    next_reminder: int = 0
    # Message ids already handled: a gateway that delivers a message twice must
    # not make a player move twice.
    seen: deque[str] = field(default_factory=lambda: deque(maxlen=64))
    finished: bool = False
    draw_offer: int | None = None  # the seat that offers a draw (casual), until a move
    # Paused because garnet could not post to its channel (see ``outages``): why, until
    # a host resumes it once garnet can post again.
    halted: PostFailure | None = None
    # Since when its clock stands still because the gateway is down (in memory only:
    # the turn goes on when the connection is back); None while connected.
    suspended_at: float | None = None
    # Since when its clock stands still because the database could not be written (a
    # timer's write or the heartbeat failed; see ``timing``): in memory only, nobody is
    # charged; it goes on by itself once a write for it is committed. None otherwise.
    stalled_at: float | None = None
    # The turn's board is not out yet: the clock starts when the adapter reports it
    # (``resumed_at`` holds the latest start meanwhile, ``TurnStart`` in timing), and not
    # before ``board_from``, when the move was processed. Not a pause: no host set it.
    waiting: TurnStart | None = None
    board_from: float = 0.0
    # A tournament pairing's no-show window ends here (``HostedMatch.show_up``): a
    # player's first turn runs its clock only after it. None without a window.
    show_up_by: float | None = None
    # Banks this turn had started when a host extended it (``TimeControl.extend``): they
    # stay spent, the extension runs before any more of the reserve. Kept with the match
    # as ``time_control["extended"]`` = [ply, extra, banked] (``extended_of``).
    banked: int = 0

    @property
    def paused(self) -> bool:
        return self.resumed_at is None

    @property
    def to_move(self) -> int | None:
        seat: int | None = self.game.to_move(self.state)
        return seat

    def seat_of(self, user_id: str) -> int | None:
        try:
            return self.users.index(user_id)
        except ValueError:
            return None

    def active_seats(self) -> int:
        return sum(1 for o in self.out if not o)

    def other_than(self, seat: int) -> int:
        """The one other seat still playing (in a game down to two)."""
        return next(i for i in range(len(self.users)) if i != seat and not self.out[i])

    def elapsed(self, now: float) -> float:
        """Seconds the current turn has used."""
        if self.resumed_at is None:
            return self.turn_elapsed
        return self.turn_elapsed + max(0.0, now - self.resumed_at)

    def terms(self) -> tuple[int, float]:
        """The clock of the turn under way as (banks, extra seconds), its extensions
        counted (``TimeControl.terms``): what every clock text and formula takes."""
        seat = self.to_move
        banks = self.banks_left[seat] if seat is not None else 0
        return self.tc.terms(banks, self.extra, self.banked)

    def flag_at(self) -> float:
        return self.tc.flag_at(*self.terms())

    def banks_spent(self, elapsed: float) -> int:
        """Banks the turn costs if its move comes after ``elapsed`` seconds."""
        if not self.tc.enabled:
            return 0
        return self.banked + self.tc.banks_spent(elapsed, self.terms()[1])

    def new_turn(self, now: float, wait: float = 0.0) -> TurnStart | None:
        """Start the clock of whoever is to move now; with ``wait``, once their board
        is out, at the latest ``wait`` seconds from now. Returns the board's token."""
        self.turn_elapsed = 0.0
        self.extra = 0.0
        self.banked = 0
        self.resumed_at = now + wait
        self.board_from = now
        self.waiting = TurnStart(self.guild_id, self.id, self.ply) if wait > 0 else None
        self.suspended_at = None  # a move replayed after an outage starts a live turn
        self.stalled_at = None  # a committed move: the database is back
        self.plan_reminders()
        return self.waiting

    def window_left(self, ply: int, now: float) -> float:
        """What is left at ``now`` of the no-show window for the turn after ``ply``: the
        second player's first turn (ply 1) gets it as extra time, so that their clock
        runs only once the window is over (the First Player's first has it whole)."""
        if self.show_up_by is None or ply != 1:
            return 0.0
        return max(0.0, self.show_up_by - now)

    def plan_reminders(self) -> None:
        seat = self.to_move
        if seat is None or not self.tc.enabled:
            self.reminders, self.next_reminder = [], 0
            return
        self.reminders = self.tc.reminders(*self.terms())
        # Reminders already passed (after a restart or an extension) are not repeated.
        done = self.turn_elapsed + 1e-6
        self.next_reminder = sum(1 for r in self.reminders if r.at <= done)


def extended_of(kept: dict[str, Any], ply: int) -> tuple[float, int] | None:
    """The (extra, banked) a host's extension left the turn after ``ply`` moves with,
    as kept in a match's ``time_control`` (None: no extension in that turn)."""
    found = kept.get("extended")
    if isinstance(found, list) and len(found) == 3 and found[0] == ply:
        return float(found[1]), int(found[2])
    return None
