"""Swiss pairing by maximum-weight matching (networkx's blossom algorithm).

Every possible pairing of the round gets a weight, and the matching that pairs
everybody with the greatest total weight is the round. Two rules are absolute:
nobody meets the same opponent twice (a forfeited game counts as met) and nobody
gets a second pairing-allocated bye. Late in a long Swiss (more rounds than half
the players) each round is also chosen so that the next can still be paired (FIDE's
"the tournament can be completed", looked at one round ahead), which lets even a
Swiss as long as a round robin finish. Should no pairing of a round keep the rules
all the same, there is no next round: the tournament ends there, as lichess's Swiss
does. Within those rules the weight ranks, each criterion outweighing all below it
put together (as FIDE's Dutch rules order theirs):

1. the bye, for an odd field, goes to the lowest-ranked player who has not had
   one (a player with a forfeit win comes after the others, C.04.1 d);
2. players meet players of their own score: the score differences, largest first,
   are as small as they can be (FIDE's "pairing score difference");
3. first-player balance (``FirstRule.ALTERNATE`` only): as few preferences as
   possible go unmet (two topscorers of the last round who must both move first, or
   second, may meet: see below);
4. nobody floats down (or up) two rounds running;
5. within a score group the top half meets the bottom half in order (1–5, 2–6, … in
   a group of eight) and a player floating down meets the top of the group below.

Under the alternate rule one more rule stands above the score differences, as in
FIDE's Dutch rules (C.04.3 C3): two players with the same absolute preference (two
firsts, or seconds, ahead, or the same twice running) do not meet, so nobody moves
first (or second) three rounds running or gets three more firsts than seconds (or
the reverse); only topscorers (over half the points possible) may in the last
round. Should no pairing avoid it, as few such pairs as possible meet.

Ranking for pairing is by score, then seed, as in the Dutch system. A search
widens the allowed score difference step by step, so the graph stays small (the
first sufficient step already holds the best pairing, by rule 2's ordering).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.services.tournaments.firsts import Firsts, violation
from bot.services.tournaments.state import Entry, Kind, score

Pair = tuple[str, str]


@dataclass(frozen=True)
class _Player:
    name: str
    rank: int  # 0 = top of the pairing order
    half_points: int
    group_pos: int  # position within the score group
    group_size: int
    met: frozenset[str]
    had_bye: bool
    forfeit_win: bool
    floated: int  # last round: +1 floated down (or bye), -1 floated up, 0 neither
    firsts: Firsts
    topscorer: bool  # the last round and over half the points possible (FIDE A.7)


def pair(seeds: Mapping[str, int], active: Sequence[str],
         records: Mapping[str, tuple[Entry, ...]], balance: bool,
         remaining: int = 0) -> tuple[list[Pair], str | None] | None:
    """The round's pairs (in ranking order, unordered within a pair) and the bye, or
    None when no pairing keeps the absolute rules. ``balance``: weigh first-player
    preferences (the alternate rule). ``remaining``: rounds still to come after
    this one; late in a long Swiss the round is chosen so that the next one can
    still be paired (FIDE's "the tournament can be completed", one round ahead)."""
    played = max((len(records[p]) for p in active), default=0)
    ranked = _ranked(seeds, active, records, played if remaining == 0 else None)
    byes: list[_Player | None] = [None]
    if len(ranked) % 2 == 1:
        eligible = [p for p in ranked if not p.had_bye]
        byes = [p for p in sorted(eligible, key=lambda p: (p.forfeit_win, -p.rank))]
    # Up to n/2 rounds a pairing without rematches always exists (Dirac's theorem).
    tight = remaining > 0 and played + 1 >= len(ranked) // 2
    fallback: tuple[list[Pair], str | None] | None = None
    for bye in byes:
        rest = [p for p in ranked if p is not bye]
        if not rest:
            return [], bye.name if bye else None
        steps = sorted({abs(a.half_points - b.half_points) for i, a in enumerate(rest)
                        for b in rest[i + 1:] if b.name not in a.met})
        for step in steps:
            if step == 0 and any(n % 2 for n in Counter(p.half_points for p in rest).values()):
                continue  # an odd score group: somebody must float
            avoid: set[frozenset[str]] = set()
            for _ in range(_TRIES if tight else 1):
                pairs = _match(rest, balance, step, avoid)
                if pairs is None:
                    break
                if balance and step < steps[-1] and _clashes(rest, pairs):
                    # Avoiding a clash of absolute preferences outranks the score
                    # differences: the widest step minimises clashes first.
                    pairs = _match(rest, balance, steps[-1], avoid) or pairs
                found = pairs, bye.name if bye else None
                if not tight or _next_round_possible(ranked, *found):
                    return found
                fallback = fallback or found
                avoid.update(frozenset(ab) for ab in pairs)
    return fallback


_TRIES = 8


def _next_round_possible(players: list[_Player], pairs: list[Pair], bye: str | None) -> bool:
    """Whether, after this round, the next one could be paired without a rematch
    or a second bye (everybody staying in)."""
    now = {frozenset(ab) for ab in pairs}
    graph: nx.Graph[str] = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if b.name not in a.met and frozenset((a.name, b.name)) not in now:
                graph.add_edge(a.name, b.name)
        if len(players) % 2 and not a.had_bye and a.name != bye:
            graph.add_edge(a.name, _BYE)
    nodes = len(players) + len(players) % 2
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == nodes


_BYE = "\x00bye"


def _ranked(seeds: Mapping[str, int], active: Sequence[str],
            records: Mapping[str, tuple[Entry, ...]], last: int | None) -> list[_Player]:
    """The players in pairing order. ``last``: the rounds played before this one
    when it is the last round (topscorers then have over half of them in points)."""
    points = {p: round(score(records[p]) * 2) for p in active}
    order = sorted(active, key=lambda p: (-points[p], seeds[p]))
    groups: dict[int, list[str]] = {}
    for name in order:
        groups.setdefault(points[name], []).append(name)
    players = []
    for rank, name in enumerate(order):
        group = groups[points[name]]
        entries = records[name]
        players.append(_Player(
            name, rank, points[name], group.index(name), len(group),
            frozenset(e.opponent for e in entries if e.opponent is not None),
            any(e.kind is Kind.BYE for e in entries),
            any(e.kind is Kind.FORFEIT_WIN for e in entries),
            _floated(entries, records), Firsts.of(entries),
            last is not None and points[name] > last))
    return players


def _clash(a: _Player, b: _Player) -> int:
    """1 if ``a`` and ``b`` may not meet for their first-player histories: the same
    absolute preference, unless both are topscorers of the last round."""
    return 0 if a.topscorer and b.topscorer else violation(a.firsts, b.firsts)[0]


def _clashes(players: list[_Player], pairs: list[Pair]) -> int:
    by_name = {p.name: p for p in players}
    return sum(_clash(by_name[a], by_name[b]) for a, b in pairs)


def _floated(entries: tuple[Entry, ...], records: Mapping[str, tuple[Entry, ...]]) -> int:
    if not entries:
        return 0
    last = entries[-1]
    if last.kind is Kind.BYE:
        return 1
    if last.opponent is None or last.kind is not Kind.PLAYED:
        return 0
    mine = score(e for e in entries if e.round < last.round)
    theirs = score(e for e in records[last.opponent] if e.round < last.round)
    return (mine > theirs) - (mine < theirs)


def _match(players: list[_Player], balance: bool, step: int,
           avoid: set[frozenset[str]]) -> list[Pair] | None:
    """The best perfect matching of ``players`` without repeats and with score
    differences up to ``step`` half-points (pairs in ``avoid`` only if it must), or
    None if there is none."""
    base = len(players) // 2 + 1
    edges: list[tuple[str, str, tuple[int, ...]]] = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            d = abs(a.half_points - b.half_points)
            if b.name not in a.met and d <= step:
                avoided = int(frozenset((a.name, b.name)) in avoid)
                edges.append((a.name, b.name,
                              (avoided, *_tiers(a, b, base ** d, balance))))
    graph: nx.Graph[str] = nx.Graph()
    for u, v, w in _weights(edges, len(players) // 2):
        graph.add_edge(u, v, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    by_name = {p.name: p for p in players}
    pairs: list[Pair] = []
    for u, v in matching:
        a, b = sorted((by_name[u], by_name[v]), key=lambda p: p.rank)
        pairs.append((a.name, b.name))
    pairs.sort(key=lambda ab: (-by_name[ab[0]].half_points, by_name[ab[0]].rank))
    return pairs


def _tiers(a: _Player, b: _Player, psd: int, balance: bool) -> tuple[int, ...]:
    absolute, unmet = violation(a.firsts, b.firsts) if balance else (0, 0)
    clash = _clash(a, b) if balance else 0
    high, low = (a, b) if (a.half_points, -a.rank) >= (b.half_points, -b.rank) else (b, a)
    floats = 0
    if high.half_points > low.half_points:
        floats = int(high.floated > 0) + int(low.floated < 0)
        order = low.group_pos + (high.group_size - 1 - high.group_pos)
    else:
        order = abs(abs(a.group_pos - b.group_pos) - a.group_size // 2)
    return clash, psd, absolute, unmet, floats, order


def _weights(edges: list[tuple[str, str, tuple[int, ...]]],
             pairs: int) -> list[tuple[str, str, int]]:
    """One integer per edge ranking the tiers lexicographically: each tier's unit
    exceeds the most that all lower tiers can add up to over a whole matching."""
    if not edges:
        return []
    width = len(edges[0][2])
    units = [1] * width
    for t in range(width - 1, 0, -1):
        most = max(e[2][t] for e in edges)
        units[t - 1] = units[t] * (most * pairs + 1)
    penalty = [sum(x * u for x, u in zip(w, units, strict=True)) for _, _, w in edges]
    top = max(penalty) + 1
    return [(u, v, top - p) for (u, v, _), p in zip(edges, penalty, strict=True)]
