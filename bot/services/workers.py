"""The computer player's work off the event loop: its moves and the reviews.

A search is seconds of pure Python: on the event loop it would stop every match, in
a thread it would hold the GIL. So it runs in worker processes of its own (apart
from the board renderer's, so that a thinking computer never delays a board); the event
loop only awaits the result. Tests use threads (no process start-up cost); the call
goes through the same fair queue either way.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import replace
from typing import Any

from bot.services.jobs import Lane, Slots
from engine.ai import level_budget, player_with
from engine.ai.player import Decision
from engine.ai.review import CHECK_BUDGET, REVIEW_BUDGET, Review, review
from engine.registry import get_game


def think_job(game_key: str, state: Any, level: int, seed: int, seconds: float) -> Decision:
    """The computer player's move at ``level``, its move time capped at ``seconds``
    (0: no cap, its level's node budget alone: ``Workers.fixed``)."""
    budget = level_budget(level)
    budget = replace(budget, seconds=min(budget.seconds or seconds, seconds)
                     if seconds > 0 else 0.0)
    decision: Decision = player_with(game_key, budget).decide(state, seed)
    return decision


def review_job(game_key: str, notations: list[str], seats: int, options: dict[str, Any],
               seed: int, names: list[str] | None = None, fixed: bool = False
               ) -> tuple[Review, bytes]:
    """A finished game's review and its evaluation plot (PNG), whose legend names the
    players (``names``, by seat); ``fixed``: its searches without their move-time caps
    (``Workers.fixed``)."""
    from engine.ai.plot import plot

    budget, check = REVIEW_BUDGET, CHECK_BUDGET
    if fixed:
        budget, check = replace(budget, seconds=0.0), replace(check, seconds=0.0)
    data = review(get_game(game_key), notations, seats, options, seed=seed, budget=budget,
                  check=check)
    return data, plot(data, names)


GRACE = 5.0  # seconds past its move time before a search is stopped (its worker killed)
REVIEW_SECONDS = 120.0  # the longest a review may take before it is stopped
FIXED_SECONDS = 120.0  # and a move searched to its node budget alone (``fixed``): wedged
REVIEWS_PER_SERVER = 3  # reviews a server may have waiting or running at once
REVIEWS_PER_USER = 2  # and one user


class Workers:
    """The computer player's workers, in two lanes so that a long review never
    delays a move: ``moves`` (``processes`` workers, at least one) and ``reviews`` (one).
    Each lane is a fair queue (``bot.services.jobs``): round robin between servers and
    their users, one server never on every worker of a lane, and a job past its time
    limit has its worker killed and replaced. ``processes`` 0: threads (tests).

    ``fixed``: every search stops at its node budget alone, never at its move time (a
    cap against a slow machine), so that the same moves and reviews come whatever the
    machine's load: the console on its virtual clock (``--script --virtual-clock``,
    the golden transcripts), where a script waits for the computer whatever it takes.
    Players on a real clock always have the caps."""

    def __init__(self, processes: int = 0, fixed: bool = False) -> None:
        self.processes = processes
        self.fixed = fixed
        spawn = processes > 0
        # Two at least: one server never holds every worker of the moves.
        self.moves = Lane(Slots(max(2, processes), spawn, "ai-moves"))
        self.reviews = Lane(Slots(1, spawn, "ai-reviews"))

    def use(self, executor: Executor) -> None:
        """Run every job in ``executor`` (tests: one that records what it ran)."""
        for lane in (self.moves, self.reviews):
            lane.slots._executors = [executor] * lane.slots.size

    async def think(self, game_key: str, state: Any, level: int, seed: int,
                    seconds: float, server: str = "", user: str | None = None) -> Decision:
        """A move, in its server's turn (never refused: the match waits for it), stopped
        ``GRACE`` seconds past its move time (``JobTooLong``); ``fixed``: searched to
        its node budget, stopped only past ``FIXED_SECONDS``."""
        if self.fixed:
            return await self.moves.run(server, FIXED_SECONDS, think_job, game_key, state,
                                        level, seed, 0.0, user=user)
        return await self.moves.run(server, seconds + GRACE, think_job, game_key, state,
                                    level, seed, seconds, user=user)

    async def review(self, game_key: str, notations: list[str], seats: int,
                     options: dict[str, Any], seed: int, server: str = "",
                     user: str | None = None, names: list[str] | None = None
                     ) -> tuple[Review, bytes]:
        """A review, in its server's turn; refused when the server or the user already
        has their share waiting (``Busy``, ``UserBusy``), stopped after
        ``REVIEW_SECONDS`` (``JobTooLong``)."""
        return await self.reviews.run(server, REVIEW_SECONDS, review_job, game_key,
                                      notations, seats, options, seed, names, self.fixed,
                                      user=user,
                                      server_cap=REVIEWS_PER_SERVER,
                                      user_cap=REVIEWS_PER_USER)

    def close(self) -> None:
        self.moves.close(wait=False)
        self.reviews.close(wait=False)
