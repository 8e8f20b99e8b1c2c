"""Round robin by Berger tables (FIDE C.05 annex 1), optionally twice.

With an even number of players n, round 1 is 1–n, 2–(n−1), …; each later round
adds n/2 to every number but n (counting 1…n−1 round), keeps the boards' order, and
gives player n the other colour. An odd field adds a dummy: who meets it rests.
A double round robin plays the schedule again with colours reversed; as FIDE
advises, the last two rounds of the first cycle swap places, so nobody moves first
(or second) three times running across the two cycles.
"""

from __future__ import annotations

from functools import lru_cache

Table = tuple[tuple[tuple[int, int], ...], ...]  # rounds of (first, second) seed pairs


@lru_cache(maxsize=64)
def berger(players: int) -> Table:
    """Every round's pairs of seeds (1-based); a seed above ``players`` is the dummy."""
    if players < 2:
        return ()
    n = players + players % 2
    half = n // 2
    current = [(i, n + 1 - i) for i in range(1, half + 1)]
    rounds = [tuple(current)]
    for _ in range(n - 2):
        nxt = []
        for a, b in current:
            if n in (a, b):
                other = _shift(b if a == n else a, n)
                nxt.append((n, other) if b == n else (other, n))
            else:
                nxt.append((_shift(a, n), _shift(b, n)))
        current = nxt
        rounds.append(tuple(current))
    return tuple(rounds)


def _shift(x: int, n: int) -> int:
    return (x - 1 + n // 2) % (n - 1) + 1


@lru_cache(maxsize=64)
def schedule(players: int, double: bool) -> Table:
    single = berger(players)
    if not double:
        return single
    first = list(single)
    if len(first) >= 2:
        first[-1], first[-2] = first[-2], first[-1]
    return (*first, *(tuple((b, a) for a, b in rnd) for rnd in single))


def rounds_total(players: int, double: bool) -> int:
    return len(schedule(players, double))
