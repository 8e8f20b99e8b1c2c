"""The ladder: the levels and the baselines rated against each other.

Players meet in paired games (the seats swapped, from the same short random opening,
so neither the first move nor a fixed opening decides the pairing) and are rated by
Bradley-Terry, as KataQuoridor rates its engines: the strength ``p`` of each player is
fitted so that ``p_i / (p_i + p_j)`` is the chance that i beats j (a draw is half a
win), by Hunter's minorisation-maximisation. One virtual draw per pairing keeps a
clean sweep finite. Ratings are on the Elo scale (400 log10 p) with ``random`` at 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.ai import player_from_spec
from engine.ai.duel import duel
from engine.game import JSON, EngineError, Game

DEFAULT_PLAYERS = ("random", "greedy", "ai:1", "ai:2", "ai:3", "ai:4", "ai:5")


def pairings(count: int, how: str) -> list[tuple[int, int]]:
    """Which players meet: ``adjacent`` (each with the next), ``skip`` (also with the
    one after) or ``all``."""
    if how == "adjacent":
        return [(i, i + 1) for i in range(count - 1)]
    if how == "skip":
        return [(i, j) for i in range(count) for j in (i + 1, i + 2) if j < count]
    if how == "all":
        return [(i, j) for i in range(count) for j in range(i + 1, count)]
    raise EngineError(f"pairings are adjacent, skip or all, not '{how}'")


def bradley_terry(count: int, results: Sequence[tuple[int, int, float, float]],
                  prior: float = 0.5, iterations: int = 2000) -> list[float]:
    """Strengths (geometric mean 1) from (i, j, wins of i, wins of j) results; every
    pairing also counts ``prior`` wins each way."""
    wins = [0.0] * count
    games: dict[tuple[int, int], float] = {}
    for i, j, a, b in results:
        wins[i] += a + prior
        wins[j] += b + prior
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + a + b + 2 * prior
    p = [1.0] * count
    for _ in range(iterations):
        new = []
        for i in range(count):
            denominator = sum(n / (p[i] + p[j if k == i else k])
                              for (k, j), n in games.items() if i in (k, j))
            new.append(wins[i] / denominator if denominator else p[i])
        scale = math.exp(sum(math.log(x) for x in new) / count)
        new = [x / scale for x in new]
        done = max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-10
        p = new
        if done:
            break
    return p


def ladder(game: Game[Any, Any], specs: Sequence[str] = DEFAULT_PLAYERS, games: int = 20,
           how: str = "skip", openings: int = 2, seed: int = 1,
           options: Mapping[str, Any] | None = None,
           progress: Callable[[str, str, Any], None] | None = None,
           fixed: bool = False) -> JSON:
    """Play the pairings and rate the players; ``random`` (or the first player) is 0."""
    if len(specs) < 2:
        raise EngineError("a ladder needs two players or more")
    if games < 2 or games % 2:
        raise EngineError(f"games per pairing must be even (pairs of games), not {games}")
    players = [player_from_spec(game, spec, fixed) for spec in specs]
    results: list[tuple[int, int, float, float]] = []
    rows: list[JSON] = []
    for number, (i, j) in enumerate(pairings(len(specs), how)):
        result = duel(game, players[i], players[j], games, seed=seed + 1000 * number,
                      swap=True, options=options, openings=openings)
        a = result.wins[0] + result.draws / 2
        b = result.wins[1] + result.draws / 2
        results.append((i, j, a, b))
        rows.append({"first": specs[i], "second": specs[j], **result.to_json()})
        if progress:
            progress(specs[i], specs[j], result)
    strengths = bradley_terry(len(specs), results)
    anchor = specs.index("random") if "random" in specs else 0
    ratings = {spec: round(400 * math.log10(strengths[k] / strengths[anchor]))
               for k, spec in enumerate(specs)}
    return {"game": game.key, "games_per_pairing": games, "openings": openings,
            "pairings": rows, "ratings": ratings}
