"""The load bench's games started near their end (``--near-end``), stored, not typed.

A game is played out at random in the engine from the DM's first position (the
shortest of ``SIMULATIONS``); all but its last ``--plies-left`` plies are written
straight into the database by the store's own move writer (``MoveWriter``: the move
rows, the players' clocks and the match's turn, as a played move leaves them), while
the bot is stopped; the bot started again restores them as running matches (as after
a restart), each turn's clock from then on. The players type the plies left in the run.

Typing those plies through the bot instead (as the bench did) took the set-up minutes
at Discord's global limit (a board a ply), and the DMs' clocks lapsed meanwhile.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.store.movelog import MoveRecord, MoveWriter

SIMULATIONS = 24  # random games played out in the engine: the shortest is stored
LONGEST = 400  # plies: a random game longer than this is not taken


def played_out(game: Any, state: Any, rng: random.Random) -> list[str] | None:
    """The plies (notation) of the shortest of ``SIMULATIONS`` random games from
    ``state`` to an end, or None if none ended within ``LONGEST`` plies."""
    best: list[str] | None = None
    for _ in range(SIMULATIONS):
        plies: list[str] = []
        at = state
        while not game.is_over(at) and len(plies) < LONGEST:
            move = rng.choice(game.legal_moves(at))
            plies.append(game.notation(move))
            at = game.apply(at, move)
        if game.is_over(at) and (best is None or len(plies) < len(best)):
            best = plies
    return best


def records(live: Any, plies: list[str], at: float) -> list[MoveRecord]:
    """The rows of ``plies`` played from ``live``'s position (its match, seats and
    clocks as they stand), each at ``at`` and taking no time: the mover's banks and
    time used unchanged, the next turn starting at ``at``."""
    game, state, out = live.game, live.state, []
    for n, notation in enumerate(plies):
        seat = game.to_move(state)
        move = next(m for m in game.legal_moves(state) if game.notation(m) == notation)
        out.append(MoveRecord(
            match_id=live.id, ply=live.ply + n + 1, seat=seat, notation=notation,
            elapsed=0.0, banks_spent=0, at=at, message_id=None,
            banks_left=live.banks_left[seat], time_used=live.time_used[seat],
            turn_starts_at=at))
        state = game.apply(state, move)
    return out


async def store(engine: Any, rows: list[MoveRecord]) -> None:
    """Every row committed, many matches' moves a transaction (in order: a match's
    plies, and its players' clocks, as they were played)."""
    writer = MoveWriter(engine, max_batch=1024)
    await asyncio.gather(*(writer.write(row) for row in rows))
