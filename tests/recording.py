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
