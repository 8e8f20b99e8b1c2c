"""Speed figures for ``python -m engine bench`` and ``perft``.

Measures, for any game through its interface only: analysing random mid-game
positions (legal moves, outcome, status; and the game's ``analyze`` hook when it has
one), applying a move, random complete games per
second on one core, and rendering. Positions come from seeded random play, so two
runs measure the same work.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from engine.game import EngineError, Game


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Number of move sequences of length ``depth`` (ending early where a game ends)."""
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.apply(state, m), depth - 1) for m in moves)


def random_game(game: Game[Any, Any], seats: int, rng: random.Random) -> list[Any]:
    """The states of one random game from the start to its end."""
    state = game.new_state(seats)
    states = [state]
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        state = game.apply(state, rng.choice(moves))
        states.append(state)
    return states


def _median_us(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e6, 1)


def run_bench(
    game: Game[Any, Any], seats: int | None = None, seconds: float = 2.0, seed: int = 1
) -> dict[str, Any]:
    seats = seats or game.seat_counts[0]
    rng = random.Random(seed)

    # A pool of mid-game positions: from random games, the states between a quarter
    # and three quarters of the way through.
    positions: list[Any] = game.sample_positions(seats, rng, 200) or []
    while len(positions) < 200:
        states = random_game(game, seats, rng)
        n = len(states)
        positions.extend(states[n // 4 : max(n // 4 + 1, 3 * n // 4)])
    positions = [p for p in positions if game.outcome(p) is None][:200] or positions[:200]

    analyse: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for state in positions:
            t0 = time.perf_counter()
            game.legal_moves(state)
            game.outcome(state)
            game.status(state)
            analyse.append(time.perf_counter() - t0)

    # The game's own analysis hook (for Cairo Corridor: corridor, critical cells, legal
    # moves, end and running score), when it offers one.
    analysing: list[float] = []
    try:
        game.analyze(positions[0])
    except EngineError:
        pass
    else:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for state in positions:
                t0 = time.perf_counter()
                game.analyze(state)
                analysing.append(time.perf_counter() - t0)

    applying: list[float] = []
    live = [(p, game.legal_moves(p)) for p in positions if game.outcome(p) is None]
    deadline = time.perf_counter() + seconds
    while live and time.perf_counter() < deadline:
        for state, moves in live:
            move = moves[len(applying) % len(moves)]
            t0 = time.perf_counter()
            after = game.apply(state, move)
            game.outcome(after)
            applying.append(time.perf_counter() - t0)

    games = 0
    plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        plies += len(random_game(game, seats, rng)) - 1
        games += 1
    game_seconds = time.perf_counter() - t0

    # Boards as a match posts them (players' names on), after a first board has built
    # the cached artwork, as the bot's render workers do at start: wall time and the
    # process's CPU time per board, three times over 40 positions.
    renders: list[float] = []
    render_cpu: list[float] = []
    sizes: list[int] = []
    samples = positions[:: max(1, len(positions) // 40)][:40]
    names = ["Alice", "Bob", "Carol", "Dave"][:seats]
    game.render(samples[0], names=names)
    for _ in range(3):
        for state in samples:
            t0, c0 = time.perf_counter(), time.process_time()
            png = game.render(state, names=names)
            render_cpu.append(time.process_time() - c0)
            renders.append(time.perf_counter() - t0)
            sizes.append(len(png))

    from engine.ai import bench_figures

    searching = bench_figures(game, positions, seconds, seed)

    return {
        "game": game.key,
        "players": seats,
        "analyse_median_us": _median_us(analyse),
        "analyse_per_second": round(len(analyse) / max(sum(analyse), 1e-9)),
        "analyze_median_us": _median_us(analysing) if analysing else None,
        "apply_and_outcome_median_us": _median_us(applying) if applying else None,
        "random_games_per_second": round(games / game_seconds, 1),
        "mean_plies_per_game": round(plies / max(games, 1), 1),
        "render_median_ms": round(statistics.median(renders) * 1e3, 2),
        "render_cpu_median_ms": round(statistics.median(render_cpu) * 1e3, 2),
        "board_png_median_kb": round(statistics.median(sizes) / 1024, 1),
        **searching,
    }
