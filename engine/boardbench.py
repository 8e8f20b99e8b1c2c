"""Boards side by side: this checkout's renderer and another commit's, in one run.

``python -m engine bench --boards --against REV`` takes the engine of commit ``REV``
(``git archive``, into a temporary directory) and runs two worker processes, one on
each engine. Each draws the same boards: for every game and variant (Cairo Corridor,
Quoridor with 2 and 4 players, Pathwayz, Sigma Escape), ``POSITIONS`` mid-game
positions of seeded random games, with the players' names. After one pass that builds
the cached artwork (unmeasured), the two take turns, a pass each per round, so that
whatever else runs on the machine weighs on both alike; the report gives each side's
median wall and CPU time per board and their ratio. Those positions are drawn again
and again, so whatever a renderer keeps of a position (its status line, its hands)
is found kept: each round also draws a whole new seeded random game of each kind,
every position once and in order, as a match posts them ("in play": the same games
on both sides), whose median CPU time per board is the figure a running match sees.

``--first N`` measures fresh workers instead: N of each side, started one after the
other, each doing its engine's warm-up (this one: ``engine.imaging.warm_up``; an engine
without it: what the bot's render workers did before, the start of each game's first
variant) and then drawing one mid-game board of each kind, timed (its first), and
another (its second, for comparison): each board's CPU time (what other work on the
machine does not change) and, of the first, its wall time too.

The workers import the engine from the directory given, so the other commit's code
runs as it was; only what the repository tracks under ``engine/`` is taken (Sigma
Escape's compiled search is not built there, which boards do not use).
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import IO, Any

KINDS = (("cairo", 2), ("quoridor", 2), ("quoridor", 4), ("pathwayz", 2), ("sigma", 2))
POSITIONS = 40
# The games drawn in play: a new one each round (the same on both sides).
PLAY_SEED = 4000
NAMES = ["Alice", "Bob", "Carol", "Dave"]

# The worker: self-contained (it must run on another commit's engine), on stdin/stdout.
_WORKER = r'''
import gc, json, random, sys, time
root, mode, kinds, count = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, root)
from engine.registry import get_game, game_keys
NAMES = ["Alice", "Bob", "Carol", "Dave"]

def positions(game, seats, seed, count):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state, states = game.new_state(seats), []
        while game.outcome(state) is None:
            states.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        n = len(states)
        out.extend(states[n // 4: max(n // 4 + 1, 3 * n // 4): 3])
    return out[:count]

def warm_up():
    try:
        from engine.imaging import warm_up as engine_warm_up
    except ImportError:  # before: the start of each game's first variant
        for key in game_keys():
            game = get_game(key)
            game.render(game.new_state(game.seat_counts[0]), names=["Garnet"])
    else:
        engine_warm_up()

def board(game, state, seats):
    t0, c0 = time.perf_counter(), time.process_time()
    game.render(state, names=NAMES[:seats])
    return time.perf_counter() - t0, time.process_time() - c0

cases = [(key, seats, get_game(key)) for key, seats in kinds]
if mode == "first":
    t0 = time.perf_counter()
    warm_up()
    out = {"warm_up_s": time.perf_counter() - t0}
    for key, seats, game in cases:
        first, second = positions(game, seats, 5, 2)
        out[f"{key} {seats}"] = [*board(game, first, seats), *board(game, second, seats)]
    print(json.dumps(out), flush=True)
    sys.exit(0)
pools = [positions(game, seats, 1, count) for _, seats, game in cases]
for (key, seats, game), pool in zip(cases, pools):
    for state in pool:
        game.render(state, names=NAMES[:seats])
gc.collect()
print("ready", flush=True)
def game_of(game, seats, seed):
    """Every position of a seeded random game, in order: boards as a match posts them."""
    rng, state, states = random.Random(seed), game.new_state(seats), []
    while game.outcome(state) is None:
        states.append(state)
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return states + [state]

for line in sys.stdin:
    seed = int(line.split()[1])
    out = {}
    for (key, seats, game), pool in zip(cases, pools):
        out[f"{key} {seats}"] = [board(game, state, seats) for state in pool]
        out[f"{key} {seats} play"] = [board(game, state, seats)
                                      for state in game_of(game, seats, seed)]
    print(json.dumps(out), flush=True)
'''


def _checkout(root: Path, rev: str, into: Path) -> Path:
    """The engine of commit ``rev`` under ``into``."""
    tar = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", rev, "engine"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    return into


def _worker(root: Path, mode: str, count: int = POSITIONS) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _WORKER, str(root), mode, json.dumps(KINDS), str(count)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _line(stream: IO[str] | None) -> str:
    assert stream is not None
    return stream.readline()


def _ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1e3, 3)


def side_by_side(against: str, rounds: int = 5, root: Path | None = None) -> dict[str, Any]:
    """Warm boards of this checkout and of commit ``against``, a pass each in turn."""
    here = root or Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"before": _worker(_checkout(here, against, Path(tmp)), "warm"),
                 "now": _worker(here, "warm")}
        try:
            for worker in sides.values():
                assert _line(worker.stdout).strip() == "ready"
            times: dict[str, dict[str, list[tuple[float, float]]]] = {
                side: {f"{k} {s}{play}": [] for k, s in KINDS for play in ("", " play")}
                for side in sides}
            for round_ in range(rounds):
                for side, worker in sides.items():
                    assert worker.stdin is not None
                    worker.stdin.write(f"go {PLAY_SEED + round_}\n")
                    worker.stdin.flush()
                    for kind, samples in json.loads(_line(worker.stdout)).items():
                        times[side][kind].extend(tuple(s) for s in samples)
        finally:
            for worker in sides.values():
                if worker.stdin is not None:
                    worker.stdin.close()
                worker.wait()
    rows = []
    for key, seats in KINDS:
        kind = f"{key} {seats}"
        before, now = times["before"][kind], times["now"][kind]
        before_ms, now_ms = _ms([w for w, _ in before]), _ms([w for w, _ in now])
        before_play, now_play = times["before"][f"{kind} play"], times["now"][f"{kind} play"]
        rows.append({
            "board": kind, "boards": len(now), "before_ms": before_ms, "now_ms": now_ms,
            "before_cpu_ms": _ms([c for _, c in before]), "now_cpu_ms": _ms([c for _, c in now]),
            "speedup": round(before_ms / max(now_ms, 1e-9), 2),
            "in_play": len(now_play),
            "before_play_cpu_ms": _ms([c for _, c in before_play]),
            "now_play_cpu_ms": _ms([c for _, c in now_play]),
        })
    return {"against": against, "rounds": rounds, "positions": POSITIONS, "boards": rows}


def first_boards(against: str, workers: int = 5, root: Path | None = None) -> dict[str, Any]:
    """Fresh workers' first board of each kind after their warm-up, ``workers`` of each
    side, started in turn."""
    here = root or Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "now": []}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {"before": _checkout(here, against, Path(tmp)), "now": here}
        for _ in range(workers):
            for side, where in roots.items():
                worker = _worker(where, "first")
                out, _ = worker.communicate()
                runs[side].append(json.loads(out))
    rows = []
    for key, seats in KINDS:
        kind = f"{key} {seats}"
        row: dict[str, Any] = {"board": kind}
        for side, found in runs.items():
            firsts = [run[kind][1] for run in found]  # CPU time: load does not count
            row[f"{side}_first_cpu_ms"] = _ms(firsts)
            row[f"{side}_first_cpu_max_ms"] = round(max(firsts) * 1e3, 3)
            row[f"{side}_first_wall_ms"] = _ms([run[kind][0] for run in found])
            row[f"{side}_second_cpu_ms"] = _ms([run[kind][3] for run in found])
        rows.append(row)
    warm = {side: round(statistics.median(run["warm_up_s"] for run in found), 2)
            for side, found in runs.items()}
    return {"against": against, "workers": workers, "warm_up_s": warm, "boards": rows}


def table(data: dict[str, Any]) -> str:
    """The figures as a table: a row per kind of board, a column per figure."""
    rows = data["boards"]
    columns = list(rows[0])
    widths = [max(len(c), *(len(str(r[c])) for r in rows)) for c in columns]
    head = {k: v for k, v in data.items() if k != "boards"}
    lines = [", ".join(f"{k}: {v}" for k, v in head.items())]
    lines.append("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    for row in rows:
        lines.append("  ".join(str(row[c]).ljust(w) for c, w in zip(columns, widths,
                                                                      strict=True)))
    return "\n".join(lines)
