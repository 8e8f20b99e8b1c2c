"""Elimination brackets: their fixed shape, and who stands where given the results.

The bracket has 2^k lines (k = ceil(log2 players)) filled in standard seeding order
(1–8, 4–5, 2–7, 3–6 for eight), so the top seeds meet last and the missing
players are byes for the top seeds. In double elimination a winners'-bracket loser
drops into the losers' bracket (in alternately reversed and half-swapped order, so
early rematches are rare); the losers'-bracket champion meets the winners'-bracket
champion in the grand final, replayed once if the losers'-bracket side wins it (a
"bracket reset": both then have one loss).

Each match has a wave, the tournament round it is played in: winners' round r in
round r, losers' round r in round r + 1, the grand final after both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

NOBODY = ""  # an empty line of the bracket: whoever meets it has a bye
Decision = tuple[str, str, bool]  # winner, loser, by forfeit


@dataclass(frozen=True)
class Source:
    kind: str  # "seed", "winner", "loser"
    ref: str  # a seed number, or a match id


@dataclass(frozen=True)
class Spec:
    id: str  # W2-1: winners' round 2, match 1; L3-2; GF, GF2 (the reset); 3P
    section: str  # "W", "L", "F" (grand finals), "3" (third place)
    column: int
    index: int
    wave: int
    a: Source
    b: Source


@dataclass(frozen=True)
class Spot:
    """A match of the bracket as the results place it. ``a``/``b``: a player,
    ``NOBODY``, or None while not yet known. ``status``: "waiting" (a player not
    yet known), "ready" (to play), "done", "bye" (one player, who advances) or
    "void" (nobody)."""

    spec: Spec
    a: str | None
    b: str | None
    status: str
    winner: str | None = None
    loser: str | None = None
    forfeit: bool = False  # decided by a forfeit


def seeding(size: int) -> tuple[int, ...]:
    """Standard bracket order of seeds 1…size (a power of two): 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for x in order for s in (x, n + 1 - x)]
    return tuple(order)


def depth(players: int) -> int:
    k = 0
    while (1 << k) < players:
        k += 1
    return max(k, 1)


@lru_cache(maxsize=64)
def layout(players: int, double: bool, third_place: bool = False,
           reset: bool = True) -> tuple[Spec, ...]:
    """Every match of the bracket, each after the matches it draws players from."""
    k = depth(players)
    size = 1 << k
    order = seeding(size)
    specs: list[Spec] = []
    for r in range(1, k + 1):
        for i in range(size >> r):
            if r == 1:
                a, b = Source("seed", str(order[2 * i])), Source("seed", str(order[2 * i + 1]))
            else:
                a = Source("winner", f"W{r - 1}-{2 * i + 1}")
                b = Source("winner", f"W{r - 1}-{2 * i + 2}")
            specs.append(Spec(f"W{r}-{i + 1}", "W", r, i, r, a, b))
    if not double:
        if third_place and k >= 2:
            specs.append(Spec("3P", "3", 1, 0, k, Source("loser", f"W{k - 1}-1"),
                              Source("loser", f"W{k - 1}-2")))
        return tuple(specs)
    champion = Source("loser", "W1-1")
    for r in range(1, 2 * (k - 1) + 1):
        if r == 1:
            count = size >> 2
            sources = [(Source("loser", f"W1-{2 * i + 1}"), Source("loser", f"W1-{2 * i + 2}"))
                       for i in range(count)]
        elif r % 2 == 0:
            j = r // 2
            count = size >> (j + 1)
            drops = _drop_order(count, j)
            sources = [(Source("winner", f"L{r - 1}-{i + 1}"),
                        Source("loser", f"W{j + 1}-{drops[i] + 1}")) for i in range(count)]
        else:
            count = size >> ((r + 3) // 2)
            sources = [(Source("winner", f"L{r - 1}-{2 * i + 1}"),
                        Source("winner", f"L{r - 1}-{2 * i + 2}")) for i in range(count)]
        for i, (a, b) in enumerate(sources):
            specs.append(Spec(f"L{r}-{i + 1}", "L", r, i, r + 1, a, b))
        champion = Source("winner", f"L{r}-1")
    specs.append(Spec("GF", "F", 1, 0, 2 * k, Source("winner", f"W{k}-1"), champion))
    if reset:
        specs.append(Spec("GF2", "F", 2, 0, 2 * k + 1, Source("reset", "GF"),
                          Source("reset", "GF")))
    return tuple(specs)


def _drop_order(count: int, j: int) -> list[int]:
    """Which winners'-bracket loser meets losers'-bracket match i in drop-in round j."""
    natural = list(range(count))
    if count == 1:
        return natural
    if j % 2 == 1:
        return natural[::-1]
    half = count // 2
    return natural[half:] + natural[:half]


def resolve(specs: tuple[Spec, ...], players: tuple[str, ...],
            decided: Mapping[str, Decision]) -> dict[str, Spot]:
    """Each match given the results so far: ``decided`` maps a match id to its
    (winner, loser, by forfeit?), ``NOBODY`` for both after a double forfeit."""
    spots: dict[str, Spot] = {}
    for spec in specs:
        if spec.a.kind == "reset":
            spots[spec.id] = _reset(spec, spots[spec.a.ref], decided)
            continue
        a, b = _seat(spec.a, players, spots), _seat(spec.b, players, spots)
        spots[spec.id] = _place(spec, a, b, decided)
    return spots


def _seat(source: Source, players: tuple[str, ...], spots: Mapping[str, Spot]) -> str | None:
    if source.kind == "seed":
        seed = int(source.ref)
        return players[seed - 1] if seed <= len(players) else NOBODY
    spot = spots[source.ref]
    return spot.winner if source.kind == "winner" else spot.loser


def _place(spec: Spec, a: str | None, b: str | None,
           decided: Mapping[str, Decision]) -> Spot:
    if a is None or b is None:
        return Spot(spec, a, b, "waiting")
    if a == NOBODY and b == NOBODY:
        return Spot(spec, a, b, "void", NOBODY, NOBODY)
    if NOBODY in (a, b):
        return Spot(spec, a, b, "bye", a or b, NOBODY)
    if spec.id in decided:
        winner, loser, forfeit = decided[spec.id]
        return Spot(spec, a, b, "done", winner, loser, forfeit)
    return Spot(spec, a, b, "ready")


def _reset(spec: Spec, final: Spot, decided: Mapping[str, Decision]) -> Spot:
    if final.status == "waiting" or final.status == "ready":
        return Spot(spec, None, None, "waiting")
    if final.status != "done" or final.winner != final.b or final.b == NOBODY:
        return Spot(spec, NOBODY, NOBODY, "void", NOBODY, NOBODY)
    return _place(spec, final.a, final.b, decided)


def finished(spots: Mapping[str, Spot]) -> bool:
    return all(s.status in ("done", "bye", "void") for s in spots.values())


def continues(specs: tuple[Spec, ...], spot: Spot) -> bool:
    """Whether this match's loser plays on (drops to the losers' bracket, the third
    place match, or the bracket reset)."""
    if spot.spec.id == "GF":
        return any(s.id == "GF2" for s in specs) and spot.loser == spot.a
    return any(src.kind == "loser" and src.ref == spot.spec.id
               for s in specs for src in (s.a, s.b))


def placing(specs: tuple[Spec, ...], spots: Mapping[str, Spot]) -> dict[str, tuple[int, int]]:
    """For each player out of the tournament, when: (wave, tier) — a later wave
    places better; in the same wave a final's loser (tier 2) before the third-place
    winner (1) before others (0). Players not listed are still in (or champions)."""
    out: dict[str, tuple[int, int]] = {}
    double = any(s.section == "F" for s in specs)
    last = max(s.column for s in specs if s.section == "W")
    for spot in spots.values():
        if spot.status != "done":
            continue
        wave = spot.spec.wave
        final = spot.spec.section == "F" or (not double and spot.spec.section == "W"
                                             and spot.spec.column == last)
        if spot.winner == NOBODY:  # a double forfeit: both out
            for name in (spot.a, spot.b):
                if name:
                    out[name] = (wave, 0)
            continue
        if spot.loser and not continues(specs, spot):
            out[spot.loser] = (wave, 2 if final else 0)
        elif spot.loser and not double and spot.spec.section == "W":
            # A semi-final's loser plays for third place: 3–4 until that match
            # (which then places them, below).
            out[spot.loser] = (wave, 0)
        if spot.spec.section == "3" and spot.winner:
            out[spot.winner] = (wave, 1)
    return out
