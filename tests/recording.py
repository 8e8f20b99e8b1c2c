"""An executor for the tests of work done in a worker (the computer player's moves,
reviews): it runs each job in a thread, as ``Workers(0)`` does, and names the jobs it
ran."""

from __future__ import annotations

from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any


class Recording(Executor):
    """An executor that runs jobs in a thread and remembers which it ran."""

    def __init__(self) -> None:
        self.jobs: list[str] = []
        self._pool = ThreadPoolExecutor(max_workers=1)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs.append(fn.__name__)
        return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def judged_review_job(game_key: str, notations: list[str], seats: int, options: Any,
                      seed: int, names: list[str] | None = None, fixed: bool = False
                      ) -> tuple[Any, bytes]:
    """A review of known judgements, in place of the computer's (whose own work is
    tested in tests/engine and tests/bot/test_review.py): the first move a blunder
    (better: the second move), the rest as good as the best; seat 0 falling from 60 %
    to 20 %, then level."""
    from engine.ai.plot import plot
    from engine.ai.review import Ply, Review
    from engine.registry import get_game

    game = get_game(game_key)
    start = game.new_state(seats, options)
    plies = [Ply(n, (n - 1) % seats, move, 0.5, 0.5, move, 0.0)
             for n, move in enumerate(notations, start=1)]
    if plies:
        plies[0] = Ply(1, 0, notations[0], 0.6, 0.2, notations[-1], 3.0, label="blunder")
    curve = [0.6] + [0.2] * len(plies)
    data = Review(game_key, seats, [game.seat_name(start, s) for s in range(seats)], plies,
                  curve, [41.0, 96.0, 100.0, 100.0][:seats], unit="points", winner=1,
                  wins=[curve, *([0.3] * len(curve) for _ in range(seats - 1))]
                  if seats > 2 else [])
    return data, plot(data, names)


class Judged(Recording):
    """A recording executor whose reviews are ``judged_review_job``'s: a page's notes
    are known in advance."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn.__name__ == "review_job":
            self.jobs.append(fn.__name__)
            return self._pool.submit(judged_review_job, *args, **kwargs)
        return super().submit(fn, *args, **kwargs)
