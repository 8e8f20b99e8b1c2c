"""Standings of Swiss and round-robin tournaments, with FIDE's tie-breaks (C.07).

Points: a win (also by forfeit) 1, a draw ½, a loss (also by forfeit, and both
sides of a double forfeit) 0, a Swiss pairing-allocated bye what the options say
(1 by default), a round-robin rest 0 (everybody rests once), a round missed after
withdrawing 0.

Tie-breaks:

- **Buchholz**: the sum of the opponents' scores.
- **Median Buchholz** (Buchholz Median-1): Buchholz without the lowest and the
  highest opponent's score.
- **Sonneborn-Berger**: the sum, over the rounds, of the points scored times the
  opponent's score (a win against a strong opponent counts for more).
- **Head-to-head** (direct encounter): among the players still tied when it is
  applied, the points each scored against the others — only when they have all met
  each other; otherwise it leaves the tie as it is.
- **Wins**: rounds won, by play or by forfeit (a pairing-allocated bye of a full
  point counts as one too), FIDE's "WIN".

Rounds without a game follow FIDE C.07 article 16 in Swiss tournaments (in round
robins, whose pairings are fixed in advance, forfeits count as the games they
replace, art. 15.2):

- for *the opponents' tie-breaks*, a player's score counts every round as awarded,
  except that rounds missed after withdrawing for good (and not followed by any
  game) count as draws — so a player's Buchholz does not fall because an opponent
  left the tournament;
- for *the player's own tie-breaks*, each round without a game (bye, forfeit win or
  loss, round missed) is a game against a "dummy" whose score is the player's own,
  capped at the scheduled opponent's score for forfeits and at half the rounds
  played for byes and missed rounds;
- Median Buchholz cuts, instead of the lowest score, the lowest contribution of a
  round the player chose not to play (a forfeit loss or a missed round), if any.

Players equal on points and on every tie-break share a rank; they are listed by
seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.services.tournaments.model import DRAW, WIN, Standing, Tiebreak
from bot.services.tournaments.state import Entry, Kind, score

Records = Mapping[str, tuple[Entry, ...]]
_VOLUNTARY = (Kind.FORFEIT_LOSS, Kind.ABSENT)


@dataclass(frozen=True)
class _Contribution:
    value: float  # the opponent's (or the dummy's) score
    points: float  # what the player scored in that round
    voluntary: bool  # a round the player did not play by their own doing


def table(players: Sequence[str], records: Records, order: Sequence[Tiebreak], *,
          swiss: bool, withdrawn: frozenset[str] = frozenset()) -> tuple[Standing, ...]:
    """The standings: by points, then each tie-break of ``order`` in turn."""
    seeds = {p: i for i, p in enumerate(players)}
    done = {p: tuple(e for e in records[p] if e.kind is not Kind.PENDING) for p in players}
    rounds = max((len(e) for e in done.values()), default=0)
    scores = {p: score(done[p]) for p in players}
    adjusted = {p: _adjusted(done[p]) for p in players} if swiss else scores
    values: dict[str, dict[str, float]] = {}
    for p in players:
        parts = (_swiss_parts(done[p], scores[p], adjusted, rounds) if swiss
                 else _fixed_parts(done[p], scores))
        values[p] = {
            Tiebreak.BUCHHOLZ.value: sum(c.value for c in parts),
            Tiebreak.MEDIAN_BUCHHOLZ.value: _median(parts),
            Tiebreak.SONNEBORN_BERGER.value: sum(c.value * c.points for c in parts),
            Tiebreak.HEAD_TO_HEAD.value: 0.0,
            Tiebreak.WINS.value: float(sum(1 for e in done[p] if e.points == WIN)),
        }
    groups = _split([sorted(players, key=lambda p: (-scores[p], seeds[p]))],
                    lambda p: scores[p])
    for tiebreak in order:
        if tiebreak is Tiebreak.HEAD_TO_HEAD:
            for group in groups:
                for p, v in _head_to_head(group, done).items():
                    values[p][tiebreak.value] = v
        groups = _split(groups, _by(values, tiebreak.value))
    out: list[Standing] = []
    for group in groups:
        rank = len(out) + 1
        for p in sorted(group, key=lambda q: seeds[q]):
            out.append(Standing(rank, p, scores[p], values[p], str(rank),
                                p not in withdrawn))
    return tuple(out)


def _by(values: Mapping[str, Mapping[str, float]], name: str) -> Callable[[str], float]:
    return lambda p: values[p][name]


def _split(groups: list[list[str]], key: Callable[[str], float]) -> list[list[str]]:
    """Each group ordered by ``key`` (highest first) and cut where it changes."""
    out: list[list[str]] = []
    for group in groups:
        ordered = sorted(group, key=lambda p: -key(p))
        current: list[str] = []
        for p in ordered:
            if current and key(current[-1]) != key(p):
                out.append(current)
                current = []
            current.append(p)
        out.append(current)
    return out


def _terminal(entries: tuple[Entry, ...], index: int) -> bool:
    """A missed round followed only by rounds not played by the player's choice
    (FIDE 16.2.5)."""
    return all(e.kind in _VOLUNTARY for e in entries[index + 1:])


def _adjusted(entries: tuple[Entry, ...]) -> float:
    """The score the player's opponents count (FIDE 16.3)."""
    return sum(DRAW if e.kind is Kind.ABSENT and _terminal(entries, i) else e.points
               for i, e in enumerate(entries))


def _swiss_parts(entries: tuple[Entry, ...], own: float, adjusted: Mapping[str, float],
                 rounds: int) -> list[_Contribution]:
    parts = []
    for e in entries:
        voluntary = e.kind in _VOLUNTARY
        if e.kind is Kind.PLAYED and e.opponent is not None:
            value = adjusted[e.opponent]
        elif e.opponent is not None:  # a forfeit: the dummy, capped by the opponent
            value = min(own, adjusted[e.opponent])
        else:  # a bye or a missed round
            value = min(own, DRAW * rounds)
        parts.append(_Contribution(value, e.points, voluntary))
    return parts


def _fixed_parts(entries: tuple[Entry, ...], scores: Mapping[str, float]) -> list[_Contribution]:
    return [_Contribution(scores[e.opponent], e.points, e.kind in _VOLUNTARY)
            for e in entries if e.opponent is not None]


def _median(parts: list[_Contribution]) -> float:
    if len(parts) <= 2:
        return 0.0
    rest = sorted(parts, key=lambda c: c.value)
    voluntary = [c for c in rest if c.voluntary]
    rest.remove(voluntary[0] if voluntary else rest[0])
    rest.pop()  # the highest
    return sum(c.value for c in rest)


def _head_to_head(group: list[str], done: Records) -> dict[str, float]:
    if len(group) < 2:
        return {p: 0.0 for p in group}
    members = set(group)
    met: dict[str, set[str]] = {p: set() for p in group}
    points = dict.fromkeys(group, 0.0)
    for p in group:
        for e in done[p]:
            if e.opponent in members:
                met[p].add(e.opponent)
                points[p] += e.points
    if any(len(met[p]) < len(group) - 1 for p in group):
        return {p: 0.0 for p in group}
    return points
