"""Swiss pairing by maximum-weight matching (networkx's blossom algorithm).

Every possible pairing of the round gets a weight, and the matching that pairs
everybody with the greatest total weight is the round. The weight ranks, each
criterion outweighing all below it put together (as FIDE's Dutch rules order theirs):

1. no two players meet twice, and nobody has a second bye (nor a bye after a
   forfeit win, C.04.1 d) — an absolute rule, broken only when no pairing of the
   round can keep it (too many rounds for too few players);
2. the bye, for an odd field, goes to the lowest-ranked eligible player;
3. players meet players of their own score: the score differences, largest first,
   are as small as they can be (FIDE's "pairing score difference");
4. first-player balance (``FirstRule.ALTERNATE`` only): no two players who must both
   move first (or second) meet, then as few preferences as possible go unmet;
5. nobody floats down (or up) two rounds running;
6. within a score group the top half meets the bottom half in order (1–5, 2–6, … in
   a group of eight) and a player floating down meets the top of the group below.

Ranking for pairing is by score, then seed, as in the Dutch system. A search
widens the allowed score difference step by step, so the graph stays small (the
first sufficient step already holds the best pairing, by rule 3's ordering).
"""

from __future__ import annotations

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
    bye_ok: bool
    floated: int  # last round: +1 floated down (or bye), -1 floated up, 0 neither
    firsts: Firsts


def pair(seeds: Mapping[str, int], active: Sequence[str],
         records: Mapping[str, tuple[Entry, ...]], balance: bool) -> tuple[list[Pair], str | None]:
    """The round's pairs (in ranking order, unordered within a pair) and the bye.
    ``balance``: weigh first-player preferences (the alternate rule)."""
    ranked = _ranked(seeds, active, records)
    if len(ranked) < 2:
        return [], ranked[0].name if ranked else None
    byes: list[_Player | None] = [None]
    if len(ranked) % 2 == 1:
        byes = [p for p in reversed(ranked) if p.bye_ok]
    for bye in byes:
        rest = [p for p in ranked if p is not bye]
        steps = sorted({abs(a.half_points - b.half_points) for i, a in enumerate(rest)
                        for b in rest[i + 1:] if b.name not in a.met})
        for step in steps:
            found = _match(rest, bye, balance, strict=True, step=step)
            if found is not None:
                return found
    return _match(ranked, None, balance, strict=False, step=None) or ([], None)


def _ranked(seeds: Mapping[str, int], active: Sequence[str],
            records: Mapping[str, tuple[Entry, ...]]) -> list[_Player]:
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
            not any(e.kind in (Kind.BYE, Kind.FORFEIT_WIN) for e in entries),
            _floated(entries, records), Firsts.of(entries)))
    return players


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


_BYE = "\x00bye"


def _match(players: list[_Player], bye: _Player | None, balance: bool, strict: bool,
           step: int | None) -> tuple[list[Pair], str | None] | None:
    """The best perfect matching of ``players`` (plus the bye node when
    ``bye`` is given or, not strict, when the field is odd), or None if there is none
    within the rules ``strict`` keeps (no repeats, no second bye, score differences
    up to ``step`` half-points)."""
    lowest = min(p.half_points for p in players)
    count = len(players) + (1 if len(players) % 2 and not strict else 0)
    base = count // 2 + 1
    edges: list[tuple[str, str, tuple[int, ...]]] = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            repeat = b.name in a.met
            d = abs(a.half_points - b.half_points)
            if strict and (repeat or (step is not None and d > step)):
                continue
            edges.append((a.name, b.name, _tiers(a, b, int(repeat), 0, base ** d, balance)))
        if not strict and len(players) % 2 == 1:
            d = a.half_points - lowest + 2
            edges.append((a.name, _BYE, (int(not a.bye_ok), len(players) - 1 - a.rank,
                                         base ** d, 0, 0, int(a.floated > 0), 0)))
    graph: nx.Graph[str] = nx.Graph()
    for u, v, w in _weights(edges, count // 2):
        graph.add_edge(u, v, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != count:
        return None
    by_name = {p.name: p for p in players}
    pairs: list[Pair] = []
    bye_name = bye.name if bye is not None else None
    for u, v in matching:
        if _BYE in (u, v):
            bye_name = v if u == _BYE else u
            continue
        a, b = sorted((by_name[u], by_name[v]), key=lambda p: p.rank)
        pairs.append((a.name, b.name))
    pairs.sort(key=lambda ab: (-by_name[ab[0]].half_points, by_name[ab[0]].rank))
    return pairs, bye_name


def _tiers(a: _Player, b: _Player, repeat: int, bye_rank: int, psd: int,
           balance: bool) -> tuple[int, ...]:
    absolute, unmet = violation(a.firsts, b.firsts) if balance else (0, 0)
    high, low = (a, b) if (a.half_points, -a.rank) >= (b.half_points, -b.rank) else (b, a)
    floats = 0
    if high.half_points > low.half_points:
        floats = int(high.floated > 0) + int(low.floated < 0)
        order = low.group_pos + (high.group_size - 1 - high.group_pos)
    else:
        order = abs(abs(a.group_pos - b.group_pos) - a.group_size // 2)
    return repeat, bye_rank, psd, absolute, unmet, floats, order


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
