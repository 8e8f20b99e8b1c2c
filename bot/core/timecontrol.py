"""Time control: the turn clock with reserve banks, as the Death Match format has it.

Each turn a player has ``turn`` seconds (plus anything a host added to this turn);
after that they draw on a reserve of ``banks`` banks of ``bank`` seconds, one whole
bank at a time (a started bank is spent entirely). Running out of reserve loses.

Everything here is arithmetic on the seconds a turn has used so far, so it is the
same whether time is real, virtual, or restored after a restart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.game import OptionError

MAX_REMINDERS = 6  # reminder points of one turn: a handful, not a flood
CLOCK_KEYS = ("enabled", "turn", "banks", "bank", "turn_reminders", "reserve_every",
              "reserve_reminder")


@dataclass(frozen=True)
class Reminder:
    """A reminder due when the turn has used ``at`` seconds."""

    at: float
    kind: str  # "turn" | "reserve" | "reserve-used"
    seconds: float  # turn seconds left ("turn"), reserve seconds used ("reserve-used")
    banks_left: int  # whole banks not yet started
    # Reserve seconds left ("reserve-used"): the banks not yet started and, when a bank
    # is under way, the rest of it (which is more than ``banks_left`` banks' worth).
    left: float = 0.0


@dataclass(frozen=True)
class TimeControl:
    enabled: bool = True
    turn: float = 60.0
    banks: int = 36
    bank: float = 5.0
    turn_reminders: tuple[float, ...] = (30.0, 15.0, 5.0)
    reserve_every: float = 30.0
    reserve_reminder: bool = True

    @classmethod
    def off(cls) -> TimeControl:
        return cls(enabled=False, turn_reminders=(), reserve_every=0, reserve_reminder=False)

    @classmethod
    def build(
        cls,
        turn: float | None = None,
        banks: int | None = None,
        bank: float | None = None,
        reminders: str | None = None,
    ) -> TimeControl:
        """A time control from command options, defaults for what is not given.

        ``reminders`` is a comma list of turn-seconds-left points ("30,15,5"), or
        "off" to post none at all.
        """
        base = cls()
        turn = base.turn if turn is None else float(turn)
        banks = base.banks if banks is None else int(banks)
        bank = base.bank if bank is None else float(bank)
        if not 5 <= turn <= 86_400:
            raise OptionError(f"turn time must be 5 s to 24 h, not {turn:g} s")
        if not 0 <= banks <= 1000:
            raise OptionError(f"banks must be 0 to 1000, not {banks}")
        if not 1 <= bank <= 3600:
            raise OptionError(f"a bank must be 1 s to 1 h, not {bank:g} s")
        points = base.turn_reminders
        reserve_every = base.reserve_every
        reserve_reminder = True
        if reminders is not None:
            text = reminders.strip().lower()
            if text in ("off", "none", "no"):
                points, reserve_every, reserve_reminder = (), 0.0, False
            else:
                try:
                    points = tuple(
                        sorted({float(p.strip().rstrip("s")) for p in text.split(",")},
                               reverse=True)
                    )
                except ValueError:
                    raise OptionError(
                        f"reminders are seconds left, like '30,15,5', or 'off'; not '{reminders}'"
                    ) from None
                if len(points) > MAX_REMINDERS:
                    raise OptionError(f"at most {MAX_REMINDERS} reminder points, "
                                      f"like '30,15,5'")
                if any(p <= 0 or p >= turn for p in points):
                    raise OptionError(
                        f"each reminder must be between 0 and the turn time ({turn:g} s)"
                    )
        return cls(True, turn, banks, bank, points, reserve_every, reserve_reminder)

    # ---- serialisation ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "turn": self.turn,
            "banks": self.banks,
            "bank": self.bank,
            "turn_reminders": list(self.turn_reminders),
            "reserve_every": self.reserve_every,
            "reserve_reminder": self.reserve_reminder,
        }

    @staticmethod
    def only_clock(data: dict[str, Any]) -> dict[str, Any]:
        """The clock's own keys of a stored time control (a match keeps a few more
        beside them, such as a DM's reward)."""
        return {k: v for k, v in data.items() if k in CLOCK_KEYS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        return cls(
            enabled=bool(data.get("enabled", True)),
            turn=float(data.get("turn", 60)),
            banks=int(data.get("banks", 36)),
            bank=float(data.get("bank", 5)),
            turn_reminders=tuple(float(x) for x in data.get("turn_reminders", (30, 15, 5))),
            reserve_every=float(data.get("reserve_every", 30)),
            reserve_reminder=bool(data.get("reserve_reminder", True)),
        )

    def describe(self) -> str:
        if not self.enabled:
            return "no clock"
        reserve = self.banks * self.bank
        if self.banks == 0:
            return f"{self.turn:g} s a turn, no reserve"
        banks = "1 bank" if self.banks == 1 else f"{self.banks} banks"
        return f"{self.turn:g} s a turn + {_duration(reserve)} reserve ({banks} of {self.bank:g} s)"

    # ---- arithmetic ------------------------------------------------------------------

    def flag_at(self, banks_left: int, extra: float = 0.0) -> float:
        """Seconds of a turn after which the player has run out of time."""
        return self.turn + extra + self.bank * banks_left

    def banks_spent(self, elapsed: float, extra: float = 0.0) -> int:
        """Banks a move after ``elapsed`` seconds costs: every started bank counts."""
        over = elapsed - self.turn - extra
        if over <= 0:
            return 0
        return math.ceil(round(over / self.bank, 9))

    def extend(self, elapsed: float, banks_left: int, extra: float, banked: int,
               seconds: float) -> tuple[float, int]:
        """A host adds ``seconds`` to a turn after ``elapsed`` of it: the turn's new
        (``extra``, ``banked``). Extended time belongs to this turn only and runs before
        any more of the reserve: the banks the turn has started by now stay spent
        (``banked`` keeps them, whatever the turn's end), and a bank under way keeps
        what is left of it for after the extension. Given after the flag fell but
        before it was called (its grace for late moves), it counts from now."""
        flag = self.flag_at(banks_left, extra)
        banked = min(banks_left, max(banked, self.banks_spent(elapsed, extra)))
        return extra + seconds + max(0.0, elapsed - flag), banked

    def terms(self, banks_left: int, extra: float, banked: int) -> tuple[int, float]:
        """A turn's clock as (banks, extra) after its extensions: the banks it started
        before an extension come off the reserve and their seconds (the rest of one
        under way) count as this turn's time, so that every formula here holds."""
        return banks_left - banked, extra + banked * self.bank

    def reminders(self, banks_left: int, extra: float = 0.0) -> list[Reminder]:
        """The reminders of one turn, in order of when they fall due."""
        if not self.enabled:
            return []
        budget = self.turn + extra
        flag = self.flag_at(banks_left, extra)
        due = [
            Reminder(budget - left, "turn", left, banks_left)
            for left in self.turn_reminders
            if 0 < left < budget
        ]
        if banks_left > 0 and self.reserve_reminder:
            due.append(Reminder(budget, "reserve", 0.0, banks_left))
        if banks_left > 0 and self.reserve_every > 0:
            used = self.reserve_every
            while budget + used < flag - 1e-9:
                left = flag - budget - used
                # Whole banks not started: a bank under way is not one of them, but
                # the seconds left of it are (a 60 s bank 30 s in has 30 s left).
                whole = math.floor(round(left / self.bank, 9))
                due.append(Reminder(budget + used, "reserve-used", used, whole, left))
                used += self.reserve_every
        return sorted(due, key=lambda r: r.at)


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    minutes, secs = divmod(seconds, 60)
    if minutes and secs:
        return f"{minutes} min {secs} s"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


def clock_text(seconds: float) -> str:
    """m:ss for clocks shown to players, h:mm:ss from an hour (24:00:20, not 1440:20)."""
    seconds = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"
