"""Board images off the event loop: in worker processes, or threads where asked.

Rendering is CPU work in Python and Pillow. In a thread it holds the GIL for
stretches, which delays every other thread (the database driver's included) and so
every other match; in a pool of processes it runs on the other cores while the
event loop keeps answering. Tests use threads (no process start-up cost). Every
drawing waits its server's turn and has a time limit that kills (``bot.services.jobs``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.refusal import Refusal
from bot.services.jobs import JobTooLong, Lane, Slots
from bot.texts import board_labels
from bot.texts import match as texts
from engine.animation import WIDTH, Ply, animate
from engine.game import Game
from engine.labels import labelled
from engine.registry import get_game

BOARD_SECONDS = 20.0  # a board takes well under a second; past this its worker is killed
HEAVY_SECONDS = 120.0  # a replay GIF (a frame per ply)
SHEET_SECONDS = 30.0  # a deck's sheet
SHEETS_PER_SERVER = 2  # deck sheets a server may have on the way at once
BOARDS_A_WORKER = 2  # the one drawn and the next, already in the worker's pipe


def described(game: Game[Any, Any], state: Any, names: Sequence[str] | None,
              verdict: str | None = None) -> str:
    """A board's description (its alt text, ``Game.describe``) in the language spoken:
    the engine's words through the same labels as its image."""
    with labelled(board_labels.labels()):
        return game.describe(state, names, verdict)


def _sheet_job(draw: Callable[[Any], bytes], deck: Any, words: dict[str, str]) -> bytes:
    """A deck's sheet, its words in the language asked for (``words``)."""
    with labelled(words):
        return draw(deck)


def _render_job(game_key: str, state: Any, hints: bool, names: list[str],
                banner: str | None = None, words: dict[str, str] | None = None) -> bytes:
    # A match ended by time, a resignation or a host: the board says how, in place of
    # whose turn it is. ``words``: its labels in the server's language.
    with labelled(words):
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
    # Import the games and build their cached artwork (static layers, palettes, fonts,
    # tiles) in every variant before the first real job, so that no first board of a
    # kind waits for it (a first four-player Quoridor board took 33 ms).
    from engine.imaging import warm_up

    warm_up()


class TooLongToDraw(Refusal):
    """A drawing ran past its time limit: its worker was killed and replaced."""

    def __init__(self) -> None:
        super().__init__(texts.job_too_long())


class Renderer:
    """Boards in ``processes`` workers of their own; replays and deck sheets in one
    more (started on first use), so that they never queue in front of the boards of
    matches being played. Each is a fair queue (``bot.services.jobs``): round robin
    between servers, one server never on every board worker, and a drawing past its
    limit has its worker killed and replaced (``TooLongToDraw``). Boards are never
    refused, only ordered; sheets are capped per server and per user. A board worker
    holds two boards at once, the next already in its pipe, so that it never idles
    while the event loop hands it one."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        spawn = processes > 0
        warm = _warm_up if spawn else None
        # Two boards a worker: the next waits in its pipe (``bot.services.jobs``).
        self.boards = Lane(Slots(max(1, processes) if spawn else 2, spawn, "render", warm),
                           depth=BOARDS_A_WORKER)
        # One worker: a server's replays and sheets queue behind each other's.
        self.heavy = Lane(Slots(1, spawn, "replays", warm))

    async def render(self, game: Game[Any, Any], state: Any, names: Sequence[str],
                     hints: bool, banner: str | None = None, server: str = "") -> bytes:
        """The board, its labels in the language spoken; ``banner``: how a match ended
        that the rules do not see, shown in place of whose turn it is; ``server``: whose
        turn in the queue it takes."""
        try:
            return await self.boards.run(server, BOARD_SECONDS, _render_job, game.key, state,
                                         hints, list(names), banner, board_labels.labels())
        except JobTooLong:
            raise TooLongToDraw() from None

    async def animate(self, game: Game[Any, Any], plies: Sequence[Ply], seats: int,
                      options: dict[str, Any], names: Sequence[str], result: str | None,
                      width: int = WIDTH, server: str = "") -> bytes:
        """A replay GIF (``engine.animation``): a frame per ply, seconds of work for a
        long game, so never on the event loop."""
        try:
            return await self.heavy.run(server, HEAVY_SECONDS, _animate_job, game.key,
                                        list(plies), seats, dict(options), list(names),
                                        result, width)
        except JobTooLong:
            raise TooLongToDraw() from None

    async def sheet(self, draw: Callable[[Any], bytes], deck: Any, server: str,
                    user: str | None = None) -> bytes:
        """A deck's sheet (``draw(deck)``, a function of the engine's: picklable), in the
        replays' worker: refused when the server (``SHEETS_PER_SERVER``) or the user
        (one) already has one on the way."""
        try:
            return await self.heavy.run(server, SHEET_SECONDS, _sheet_job, draw, deck,
                                        board_labels.labels(), user=user,
                                        server_cap=SHEETS_PER_SERVER, user_cap=1)
        except JobTooLong:
            raise TooLongToDraw() from None

    def close(self) -> None:
        self.boards.close()
        self.heavy.close()
