"""``python -m bot bench --queries``: leaderboards and history on a season-sized database.

Builds, by bulk inserts into a fresh SQLite file, one event of 500 players with
10,000 finished Death Matches of Cairo Corridor (real games with every move, drawn
from a pool of random complete games), their rewards in the ledger plus grants,
fines and transfers, and the ratings those results give. Then it times, over many
runs with random askers, what players ask most:

- ``/leaderboard`` by garnets, wins and rating: page 1 and the last page, each with
  the asker's own rank (the whole command, as the adapters call it);
- ``/ledger`` page 1 of a player;
- a history page:
  ``bot.services.history_queries.player_history(db, guild, user, page=1, per_page=10)``.

It reports p50 and p99 in milliseconds; the target is a p99 under 50 ms.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuceRating
from sqlalchemy import insert

from bot.app import build_services
from bot.core.clock import VirtualClock
from bot.core.messages import Actor
from bot.services import ratings
from bot.store.db import Database, open_database
from bot.store.models import (
    Counter,
    Event,
    EventPlayer,
    LedgerEntry,
    Match,
    MatchPlayer,
    MatchResult,
    MemberName,
    Move,
    Rating,
    RatingChange,
    User,
)
from bot.store.sequences import reset_sequences
from engine.registry import get_game

GUILD = "bench-guild"
PLAYERS = 500
MATCHES = 10_000
GAME_POOL = 60
START = 1_700_000_000.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def random_games(n: int, rng: random.Random) -> list[tuple[list[str], int | None]]:
    """Complete random games of Cairo Corridor: (moves in notation, winner seat)."""
    game = get_game("cairo")
    games = []
    for _ in range(n):
        state = game.new_state(2, {"tie": "first-player-loses"})
        moves: list[str] = []
        while (outcome := game.outcome(state)) is None:
            move = rng.choice(list(game.legal_moves(state)))
            moves.append(game.notation(move))
            state = game.apply(state, move)
        games.append((moves, outcome.winner))
    return games


async def build(db: Database, rng: random.Random) -> dict[str, Any]:
    """Fill the database; how many rows of each kind."""
    users = [f"u{n:03d}" for n in range(1, PLAYERS + 1)]
    pool = random_games(GAME_POOL, rng)
    model = ratings.MODEL
    current: dict[str, PlackettLuceRating] = {u: model.rating() for u in users}
    played = dict.fromkeys(users, 0)
    matches: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for match_id in range(1, MATCHES + 1):
        a, b = rng.sample(users, 2)
        notation, winner = pool[rng.randrange(GAME_POOL)]
        at = START + match_id * 600.0
        matches.append(dict(
            id=match_id, number=match_id, guild_id=GUILD, channel_id=f"c{match_id % 40}",
            game="cairo",
            kind="dm", status="finished", seats=2, options={"tie": "first-player-loses"},
            time_control={"turn": 60.0, "banks": 36, "bank": 5.0, "reward": 3}, hints=False,
            rated=True, host_id="host", chooser="host", created_at=at - 900,
            started_at=at - 880, finished_at=at, turn_elapsed=0.0, turn_resumed_at=None,
            turn_extra=0.0, winner_seat=winner, draw=False, scores=None, end_reason="rules",
            result_text=f"DM #{match_id} result", event_id=1))
        for seat, user in enumerate((a, b)):
            seats.append(dict(match_id=match_id, user_id=user, order=seat, seat=seat,
                              accepted=True, banks_left=36, time_used=30.0 * len(notation),
                              out=False))
            results.append(dict(match_id=match_id, user_id=user, guild_id=GUILD, event_id=1,
                                game="cairo", at=at, outcome="drawn" if winner is None
                                else "won" if seat == winner else "lost"))
        moves.extend(dict(match_id=match_id, ply=ply, seat=(ply - 1) % 2, kind="move",
                          notation=text, elapsed=rng.uniform(2, 60), banks_spent=0,
                          at=at - 880 + ply * 15, message_id=None)
                     for ply, text in enumerate(notation, start=1))
        if winner is not None:
            champion = (a, b)[winner]
            entries.append(dict(guild_id=GUILD, event_id=1, user_id=champion, amount=3,
                                kind="match-reward", note=f"won DM #{match_id}",
                                author_id=None, match_id=match_id,
                                key=f"match:{match_id}:reward", at=at))
            before = [current[a], current[b]]
            ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
            after = model.rate([[before[0]], [before[1]]], ranks=ranks)
            for i, user in enumerate((a, b)):
                changes.append(dict(match_id=match_id, user_id=user, game="cairo",
                                    rank=int(ranks[i]), mu_before=before[i].mu,
                                    sigma_before=before[i].sigma, mu_after=after[i][0].mu,
                                    sigma_after=after[i][0].sigma, at=at))
                current[user] = after[i][0]
                played[user] += 1
    for n in range(2_000):  # hosts' grants and fines, players' transfers
        who, other = rng.sample(users, 2)
        at = START + n * 3000.0
        if n % 4 == 0:
            entries.append(dict(guild_id=GUILD, event_id=1, user_id=who, amount=-1,
                                kind="fine", note="late", author_id="host", match_id=None,
                                key=None, at=at))
        elif n % 4 == 1:
            entries.append(dict(guild_id=GUILD, event_id=1, user_id=who, amount=5,
                                kind="grant", note="bonus", author_id="host", match_id=None,
                                key=None, at=at))
        else:
            entries += [dict(guild_id=GUILD, event_id=1, user_id=who, amount=-1,
                             kind="transfer", note="to a friend", author_id=who,
                             match_id=None, key=None, at=at),
                        dict(guild_id=GUILD, event_id=1, user_id=other, amount=1,
                             kind="transfer", note="from a friend", author_id=who,
                             match_id=None, key=None, at=at)]
    async with db.engine.begin() as conn:
        await conn.execute(insert(User), [dict(id=u, name=u) for u in [*users, "host"]])
        await conn.execute(insert(MemberName), [
            dict(guild_id=GUILD, user_id=u, name=f"Player {u[1:]}") for u in users]
            + [dict(guild_id=GUILD, user_id="host", name="Host")])
        await conn.execute(insert(Event).values(
            id=1, number=1, guild_id=GUILD, name="Season 1", reward=3, transfers=True,
            confiscate="no", open=True, created_by="host", created_at=START))
        await conn.execute(insert(EventPlayer), [
            dict(event_id=1, user_id=u, priority=i, added_at=START)
            for i, u in enumerate(users, start=1)])
        await conn.execute(insert(Match), matches)
        await conn.execute(insert(Counter), [
            dict(guild_id=GUILD, kind="match", last=len(matches)),
            dict(guild_id=GUILD, kind="event", last=1)])
        await conn.execute(insert(MatchPlayer), seats)
        await conn.execute(insert(MatchResult), results)
        await conn.execute(insert(Move), moves)
        await conn.execute(insert(LedgerEntry), entries)
        await conn.execute(insert(RatingChange), changes)
        await conn.execute(insert(Rating), [
            dict(guild_id=GUILD, user_id=u, game="cairo", mu=r.mu, sigma=r.sigma,
                 ordinal=ratings.ordinal(r.mu, r.sigma), games=played[u],
                 updated_at=START + MATCHES * 600.0) for u, r in current.items()])
        await reset_sequences(conn)  # the ids above were given: numbering goes on after them
    async with db.engine.begin() as conn:
        await conn.exec_driver_sql("ANALYZE")
    return {"players": PLAYERS, "matches": len(matches), "moves": len(moves),
            "ledger_entries": len(entries), "rating_changes": len(changes)}


async def _time(call: Callable[[], Awaitable[Any]], runs: int) -> dict[str, float]:
    await call()  # warm: statement caches, the first connection
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        took.append((time.perf_counter() - start) * 1000)
    return {"p50": round(statistics.median(took), 2), "p99": round(_pct(took, 0.99), 2),
            "max": round(max(took), 2)}


async def run(runs: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="garnet-queries-"))
    db = await open_database(f"sqlite+aiosqlite:///{workdir / 'bench.db'}")
    started = time.perf_counter()
    sizes = await build(db, rng)
    built = time.perf_counter() - started
    services = build_services(db, VirtualClock(start=START + MATCHES * 600.0))
    host, eco = services.matches, services.economy
    askers = [Actor(f"u{n:03d}", f"Player {n:03d}") for n in range(1, PLAYERS + 1)]
    last_page = PLAYERS // 10
    timings: dict[str, Any] = {}
    try:
        for by in ("garnets", "wins", "rating"):
            for label, page in (("page 1", 1), (f"page {last_page}", last_page)):
                async def board(by: str = by, page: int = page) -> None:
                    response = await eco.leaderboard(GUILD, rng.choice(askers), by, None,
                                                     None, page)
                    assert response.reply is not None and "You: #" in response.reply.text
                timings[f"leaderboard {by}, {label}"] = await _time(board, runs)

        async def ledger_page() -> None:
            await eco.ledger(GUILD, rng.choice(askers))
        timings["ledger page 1"] = await _time(ledger_page, runs)
        try:
            from bot.services.history_queries import player_history
        except ImportError:
            timings["history page 1"] = "missing: bot.services.history_queries.player_history"
        else:
            async def history_page() -> None:
                await player_history(db, GUILD, rng.choice(askers).id, page=1, per_page=10)
            timings["history page 1"] = await _time(history_page, runs)
    finally:
        host.renderer.close()
        await db.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return {"database": sizes, "build_seconds": round(built, 1), "runs": runs,
            "timings_ms": timings}


def main(as_json: bool = False, runs: int = 300) -> int:
    result = asyncio.run(run(runs))
    if as_json:
        print(json.dumps(result, indent=2))
        return 0
    sizes = result["database"]
    print(f"one event: {sizes['players']} players, {sizes['matches']:,} finished DMs, "
          f"{sizes['moves']:,} moves, {sizes['ledger_entries']:,} ledger entries, "
          f"{sizes['rating_changes']:,} rating changes (built in {result['build_seconds']} s)")
    print(f"{result['runs']} runs each, random askers:")
    for name, figures in result["timings_ms"].items():
        if isinstance(figures, str):
            print(f"  {name}: {figures}")
        else:
            print(f"  {name}: p50 {figures['p50']} ms, p99 {figures['p99']} ms, "
                  f"max {figures['max']} ms")
    sys.stdout.flush()
    return 0
