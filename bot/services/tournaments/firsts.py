"""Who moves first: the tournament's rule, and the balance of each player's firsts.

Under ``FirstRule.ALTERNATE`` the first player is allotted the way FIDE's Swiss
rules allot colours (C.04.3 E), reading "moved first" as white: each player's
history of firsts gives a preference — absolute when they are two firsts (or
seconds) ahead or had the same twice running, strong when one ahead, mild to
alternate otherwise — and a pairing grants both preferences when it can, else the
stronger, else alternates from the last round the two differed, else favours the
higher-ranked player.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from bot.services.tournaments.state import Entry, Kind

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


@dataclass(frozen=True)
class Firsts:
    """A player's games in order: True where they moved first."""

    seq: tuple[bool, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Firsts:
        return cls(tuple(bool(e.first) for e in entries
                         if e.kind is Kind.PLAYED and e.first is not None))

    @property
    def diff(self) -> int:
        return 2 * sum(self.seq) - len(self.seq)

    @property
    def preference(self) -> tuple[bool | None, int]:
        """(wants to move first?, strength)."""
        if not self.seq:
            return None, NONE
        twice = len(self.seq) >= 2 and self.seq[-1] == self.seq[-2]
        if self.diff < -1 or (twice and not self.seq[-1]):
            return True, ABSOLUTE
        if self.diff > 1 or (twice and self.seq[-1]):
            return False, ABSOLUTE
        if self.diff != 0:
            return self.diff < 0, STRONG
        return not self.seq[-1], MILD


def allot(a: str, b: str, fa: Firsts, fb: Firsts, a_higher: bool,
          a_seed: int, b_seed: int) -> tuple[str, str]:
    """(first, second) for a pairing of ``a`` and ``b`` under the alternate rule."""
    (pa, sa), (pb, sb) = fa.preference, fb.preference
    if pa is None and pb is None:
        # Neither has played: the higher-ranked moves first with an odd seed number.
        top, top_seed = (a, a_seed) if a_higher else (b, b_seed)
        other = b if top == a else a
        return (top, other) if top_seed % 2 == 1 else (other, top)
    if pa is None or pb is None or pa != pb:
        a_first = pa if pa is not None else not pb
        return (a, b) if a_first else (b, a)
    if sa != sb or (sa == ABSOLUTE and abs(fa.diff) != abs(fb.diff)):
        a_wins = sa > sb or (sa == sb and abs(fa.diff) > abs(fb.diff))
        a_first = pa if a_wins else not pb
        return (a, b) if a_first else (b, a)
    for x, y in zip(reversed(fa.seq), reversed(fb.seq), strict=False):
        if x != y:  # alternate from the last time they differed
            return (a, b) if not x else (b, a)
    a_first = pa if a_higher else not pb
    return (a, b) if a_first else (b, a)


def violation(fa: Firsts, fb: Firsts) -> tuple[int, int]:
    """What pairing these two costs in preferences: (1 if both have the same
    absolute preference, the strength of the preference left unmet)."""
    (pa, sa), (pb, sb) = fa.preference, fb.preference
    if pa is None or pb is None or pa != pb:
        return 0, 0
    return int(sa == sb == ABSOLUTE), min(sa, sb)


def by_lot(seed: int, round_number: int, a: str, b: str) -> tuple[str, str]:
    """(first, second) drawn by lot, the same every time for the same tournament."""
    x, y = sorted((a, b))
    digest = hashlib.sha256(f"{seed}:{round_number}:{x}:{y}".encode()).digest()
    return (x, y) if digest[0] & 1 else (y, x)
