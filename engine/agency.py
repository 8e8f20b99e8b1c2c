"""How much each seat's play counts on a Sigma Escape deck: ``deck balance --agency``.

A deck can be even between strong players and still a poor game: on the third
reconstruction a random White escapes level 5's Black almost as often as level 5's
White does, so a Death Match is decided by Black's play alone (docs/sigma-deck.md §8).
Two measures say so:

- **Agency** of a seat: how many more games a strong player of that seat wins than a
  random player of it, against the same strong opponent, from the same openings (one
  game an opening: the strong players search without chance, so an opening played
  twice by them is one game twice). The difference of two shares, with Newcombe's
  95 % interval for it (the hybrid of the two Wilson intervals, method 10 of Newcombe
  1998; it ignores the pairing by opening, so it errs wide).
- **Choices that matter**: in the strong players' games, every decision with two
  placements or more is solved to the end, each placement within one node budget
  (``engine.sigma.endgame``): *every placement wins*, *every placement loses*,
  *mixed* (one wins where another loses: the choice decides the game) or *unknown*
  (out of the budget before a win and a loss were both found). Per seat.

Beside the meter (``engine.balance``) for the reason it gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.sigma.deck import BLACK, WHITE, Deck

#: Node budget of the solve of one decision's placements (all of them together).
DEFAULT_CHOICE_NODES = 100_000
KINDS = ("wins", "loses", "mixed", "unknown")
SEATS = ("White", "Black")


_Z = 1.959964  # two-sided 95 %


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share ``wins`` of ``games``."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = _Z * _Z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = _Z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Agency:
    """One seat: ``strong`` in it against ``strong`` won ``strong_wins`` of ``games``;
    ``random`` in it against ``strong`` won ``random_wins`` of the same openings."""

    seat: int
    strong: str
    games: int
    strong_wins: int
    random_wins: int

    @property
    def gap(self) -> float:
        return (self.strong_wins - self.random_wins) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Newcombe's 95 % interval of the gap."""
        n = self.games
        if not n:
            return -1.0, 1.0
        p1, p2 = self.strong_wins / n, self.random_wins / n
        l1, u1 = wilson(self.strong_wins, n)
        l2, u2 = wilson(self.random_wins, n)
        low = p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
        return max(-1.0, low), min(1.0, high)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"seat": SEATS[self.seat].lower(), "strong": self.strong, "games": self.games,
                "strong_wins": self.strong_wins, "random_wins": self.random_wins,
                "gap": round(self.gap, 4), "interval": [round(low, 4), round(high, 4)]}

    def line(self) -> str:
        low, high = self.interval
        return (f"agency of {SEATS[self.seat]}: {self.strong} wins {self.strong_wins}/"
                f"{self.games}, random {self.random_wins}/{self.games} against "
                f"{self.strong}: {100 * self.gap:+.0f} points [{100 * low:+.0f} to "
                f"{100 * high:+.0f}]")


@dataclass(frozen=True)
class Choices:
    """The decisions of one seat in the strong players' games, by kind."""

    seat: int
    nodes: int
    wins: int = 0
    loses: int = 0
    mixed: int = 0
    unknown: int = 0

    @property
    def decided(self) -> int:
        """The decisions whose kind is known."""
        return self.wins + self.loses + self.mixed

    @property
    def share(self) -> float:
        """The share of the known decisions where the choice matters."""
        return self.mixed / self.decided if self.decided else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"seat": SEATS[self.seat].lower(), "nodes": self.nodes, "wins": self.wins,
                "loses": self.loses, "mixed": self.mixed, "unknown": self.unknown,
                "share": round(self.share, 4)}

    def line(self) -> str:
        return (f"{SEATS[self.seat]}'s choices: {self.mixed} of {self.decided} solved "
                f"decisions matter ({self.wins} every placement wins, {self.loses} every "
                f"placement loses; {self.unknown} beyond {self.nodes:,} nodes)")


def choice(state: Any, nodes: int) -> str | None:
    """The kind of the decision at ``state`` (one of ``KINDS``), None when the seat to
    move has one placement or none (or the table is beyond the search's model)."""
    from engine.sigma import ai
    from engine.sigma.endgame import proofs

    model = ai._Model(state.deck)
    try:
        root = ai.node_of(state)
    except ai.OutOfModel:
        return None
    search = ai._searcher(model, state.deck, nodes, 0.0)
    _, result, moves = search.start(root)
    if result is not None or len(moves) < 2:
        return None
    seen: set[bool] = set()
    solved = 0
    for won in proofs(search, moves, sum(root[5][0]) + sum(root[5][1])):
        seen.add(won)
        solved += 1
        if len(seen) == 2:
            return "mixed"
    if solved < len(moves):
        return "unknown"
    return "wins" if True in seen else "loses"


def _play(deck: Deck, players: Sequence[Any], seed: int, number: int, start: Any,
          nodes: int, counts: list[dict[str, int]] | None) -> int:
    """One game (as ``engine.ai.duel.play_game``), each decision classed into
    ``counts[seat]`` when given; the winning seat."""
    from engine.ai.duel import _seed
    from engine.sigma.game import SigmaEscape

    game = SigmaEscape()
    state, ply = start, 0
    while (outcome := game.outcome(state)) is None:
        seat = game.to_move(state)
        assert seat is not None
        if counts is not None and (kind := choice(state, nodes)) is not None:
            counts[seat][kind] += 1
        state = game.play(state, players[seat].decide(state, _seed(seed, number, ply)).move)
        ply += 1
    assert outcome.winner is not None
    return outcome.winner


def measure_agency(deck: Deck, strong: str, starts: Sequence[Any], seed: int = 1,
                   choice_nodes: int = DEFAULT_CHOICE_NODES, played: Sequence[int] = ()
                   ) -> tuple[tuple[Agency, Agency], tuple[Choices, Choices] | None]:
    """Both seats' agency with ``strong`` (a spec as ``duel`` takes it) from
    ``starts``, and the kinds of the strong players' decisions (None when
    ``choice_nodes`` is 0). ``played``: the winners of ``strong`` against itself
    from ``starts``, already played (the meter's games), which are not played again
    unless their decisions are to be solved."""
    from engine.ai import player_from_spec
    from engine.sigma.game import SigmaEscape

    game = SigmaEscape()
    best = player_from_spec(game, strong, True)
    chance = player_from_spec(game, "random", True)
    counts = [dict.fromkeys(KINDS, 0) for _ in (WHITE, BLACK)] if choice_nodes else None
    won = {key: [0, 0] for key in ("strong", "random")}
    for number, start in enumerate(starts):
        if counts is None and len(played) == len(starts):
            won["strong"][played[number]] += 1
        else:
            won["strong"][_play(deck, [best, best], seed, number, start, choice_nodes,
                                counts)] += 1
        won["random"][WHITE] += _play(deck, [chance, best], seed, number, start, 0,
                                      None) == WHITE
        won["random"][BLACK] += _play(deck, [best, chance], seed, number, start, 0,
                                      None) == BLACK
    agency = tuple(Agency(seat, strong, len(starts), won["strong"][seat], won["random"][seat])
                   for seat in (WHITE, BLACK))
    choices = None if counts is None else tuple(
        Choices(seat, choice_nodes, **counts[seat]) for seat in (WHITE, BLACK))
    return agency, choices  # type: ignore[return-value]
