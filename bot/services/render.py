"""Board images off the event loop: in worker processes, or threads where asked.

Rendering is CPU work in Python and Pillow. In a thread it holds the GIL for
stretches, which delays every other thread (the database driver's included) and so
every other match; in a pool of processes it runs on the other cores while the
event loop keeps answering. Tests use threads (no process start-up cost).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.animation import WIDTH, Ply, animate
from engine.game import Game
from engine.registry import get_game


def _render_job(game_key: str, state: Any, hints: bool, names: list[str],
                banner: str | None = None) -> bytes:
    # A match ended by time, a resignation or a host: the board says how, in place of
    # whose turn it is.
    return get_game(game_key).render(state, hints=hints, names=names, verdict=banner)


def _animate_job(game_key: str, plies: list[Ply], seats: int, options: dict[str, Any],
                 names: list[str], result: str | None, width: int) -> bytes:
    return animate(get_game(game_key), plies, seats, options, names, result, width=width)


def _exit_with_parent(parent: int) -> None:
    # A killed bot cannot shut its pool down; without this its workers would live on
    # (holding each other's queue pipes open) and keep the bot's output pipes open.
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def _warm_up() -> None:
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    # Import the games and build their cached artwork (static layers, palettes, fonts)
    # before the first real job: a board of each game's start, with a name.
    from engine.registry import game_keys

    for key in game_keys():
        game = get_game(key)
        game.render(game.new_state(game.seat_counts[0]), names=["Garnet"])


class Renderer:
    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._replays: ProcessPoolExecutor | None = None
        if processes > 0:
            # "spawn": a fork of a process running an event loop and driver threads
            # could inherit held locks.
            self._pool = ProcessPoolExecutor(
                max_workers=processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up)

    async def render(self, game: Game[Any, Any], state: Any, names: Sequence[str],
                     hints: bool, banner: str | None = None) -> bytes:
        """The board; ``banner``: how a match ended that the rules do not see, shown
        in place of whose turn it is."""
        if self._pool is None:
            return await asyncio.to_thread(_render_job, game.key, state, hints, list(names),
                                           banner)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _render_job, game.key, state, hints,
                                          list(names), banner)

    async def animate(self, game: Game[Any, Any], plies: Sequence[Ply], seats: int,
                      options: dict[str, Any], names: Sequence[str], result: str | None,
                      width: int = WIDTH) -> bytes:
        """A replay GIF (``engine.animation``): a frame per ply, seconds of work for a
        long game, so never on the event loop."""
        args = (game.key, list(plies), seats, dict(options), list(names), result, width)
        if self.processes <= 0:
            return await asyncio.to_thread(_animate_job, *args)
        if self._replays is None:
            # A process of their own, started on first use: replays queue behind each
            # other, never in front of the boards of matches being played.
            self._replays = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._replays, _animate_job, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._replays is not None:
            self._replays.shutdown(wait=True, cancel_futures=True)
            self._replays = None
