"""The computer player's work off the event loop: its moves and the reviews.

A search is seconds of pure Python: on the event loop it would stop every match, in
a thread it would hold the GIL. So it runs in worker processes of its own (apart
from the board renderer's, so that a thinking computer never delays a board), with
``loop.run_in_executor``; the event loop only awaits the result. Tests use a thread
(no process start-up cost); the call goes through the same executor either way.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from engine.ai import level_budget, player_with
from engine.ai.player import Decision
from engine.ai.review import Review, review
from engine.registry import get_game


def think_job(game_key: str, state: Any, level: int, seed: int, seconds: float) -> Decision:
    """The computer player's move at ``level``, its move time capped at ``seconds``."""
    budget = level_budget(level)
    if seconds > 0:
        budget = replace(budget, seconds=min(budget.seconds or seconds, seconds))
    decision: Decision = player_with(game_key, budget).decide(state, seed)
    return decision


def review_job(game_key: str, notations: list[str], seats: int, options: dict[str, Any],
               seed: int) -> tuple[Review, bytes]:
    """A finished game's review and its evaluation plot (PNG)."""
    from engine.ai.plot import plot

    data = review(get_game(game_key), notations, seats, options, seed=seed)
    return data, plot(data)


class Workers:
    """``processes`` worker processes for the computer player (0: one thread)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: Executor | None = None

    @property
    def executor(self) -> Executor:
        if self._pool is None:
            if self.processes > 0:
                # "spawn": a fork of a process running an event loop could inherit
                # held locks (see bot.services.render).
                self._pool = ProcessPoolExecutor(
                    max_workers=self.processes,
                    mp_context=multiprocessing.get_context("spawn"))
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
        return self._pool

    async def think(self, game_key: str, state: Any, level: int, seed: int,
                    seconds: float) -> Decision:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, think_job, game_key, state, level,
                                          seed, seconds)

    async def review(self, game_key: str, notations: list[str], seats: int,
                     options: dict[str, Any], seed: int) -> tuple[Review, bytes]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, review_job, game_key, notations,
                                          seats, options, seed)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
