"""Ratings: OpenSkill's Plackett-Luce model, per player, game and server.

A rating is a belief about skill: ``mu`` (the estimate) and ``sigma`` (how unsure it
is). It is shown as ``mu ± 3·sigma`` and leaderboards sort by the lower end of that,
``mu - 3·sigma`` (OpenSkill's ordinal): a newcomer starts at 25.0 ± 25.0 and climbs
by winning and by playing, so a lucky first win does not top the board.

Every rated match (a DM, a casual match with ``rated``) updates its players by their
finishing order: the winner first; in a game of more than two, those still standing
share the next place and those eliminated follow, the last one out best. A draw
ranks everyone alike. A voided match changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import MoveKind
from bot.store.idempotent import insert_all_once
from bot.store.models import Match, Move, Rating, RatingChange

MODEL = PlackettLuce()
Z = 3.0  # the ± shown, and the ordinal's distance below mu, in sigmas


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def shown(mu: float, sigma: float) -> str:
    """A rating as players read it: ``27.4 ± 18.2``."""
    return f"{mu:.1f} ± {Z * sigma:.1f}"


def delta(before: float, after: float) -> str:
    change = after - before
    return f"{'+' if change >= 0 else '−'}{abs(change):.1f}"


@dataclass(frozen=True)
class Change:
    user_id: str
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def finishing_ranks(seats: int, winner: int | None, out_order: Sequence[int]) -> list[int]:
    """Each seat's place (1 is best): the winner, then who still stands (sharing a
    place), then the eliminated from the last out to the first."""
    out = list(dict.fromkeys(out_order))
    ranks = [0] * seats
    place = 1
    if winner is not None:
        ranks[winner] = place
        place += 1
    standing = [seat for seat in range(seats) if seat != winner and seat not in out]
    for seat in standing:
        ranks[seat] = place
    if standing:
        place += 1
    for seat in reversed(out):
        ranks[seat] = place
        place += 1
    return ranks


async def rate_match(s: AsyncSession, match: Match, users: Sequence[str], winner: int | None,
                     at: float) -> list[Change]:
    """Update the ratings of a finished match's players (``users`` by seat), once.

    Runs in the caller's transaction. Returns the changes, or [] when the match was
    rated before (a retried booking) or is not rated.
    """
    # Each statement here is a trip to the database while the match's last move waits
    # (and, on SQLite, every other move behind it): as few as give the same ratings.
    if not match.rated or len(users) < 2:
        return []
    # With two players and a winner the loser is second, whoever dropped out.
    outs = [] if len(users) == 2 and winner is not None else (await s.scalars(select(
        Move.seat).where(Move.match_id == match.id, Move.kind == MoveKind.OUT)
        .order_by(Move.ply))).all()
    ranks = finishing_ranks(len(users), winner, outs)
    # Created by insert-or-nothing, so that two first matches of a newcomer finishing at
    # once on PostgreSQL do not collide on the unique key.
    await insert_all_once(s, Rating, [dict(
        guild_id=match.guild_id, user_id=user_id, game=match.game, mu=MODEL.mu,
        sigma=MODEL.sigma, ordinal=ordinal(MODEL.mu, MODEL.sigma), games=0, updated_at=at)
        for user_id in users], ["guild_id", "game", "user_id"])
    rows = {r.user_id: r for r in (await s.scalars(
        select(Rating).where(Rating.guild_id == match.guild_id, Rating.game == match.game,
                             Rating.user_id.in_(users)).with_for_update())).all()}
    before = [MODEL.rating(mu=rows[u].mu, sigma=rows[u].sigma) for u in users]
    after = MODEL.rate([[r] for r in before], ranks=[float(r) for r in ranks])
    changes = [Change(u, ranks[i], before[i].mu, before[i].sigma, after[i][0].mu,
                      after[i][0].sigma) for i, u in enumerate(users)]
    records = [dict(match_id=match.id, user_id=c.user_id, game=match.game, rank=c.rank,
                    mu_before=c.mu_before, sigma_before=c.sigma_before, mu_after=c.mu_after,
                    sigma_after=c.sigma_after, at=at) for c in changes]
    if not await insert_all_once(s, RatingChange, records, ["match_id", "user_id"]):
        return []  # rated before: a twin booking of this result, or a retried one
    for change in changes:
        row = rows[change.user_id]
        row.mu, row.sigma = change.mu_after, change.sigma_after
        row.ordinal = ordinal(change.mu_after, change.sigma_after)
        row.games += 1
        row.updated_at = at
    return changes


async def rerate_match(s: AsyncSession, match: Match, users: Sequence[str],
                       winner: int | None, at: float) -> list[Change]:
    """A corrected result: this match's rating changes taken back and made again for
    the new result, in the caller's transaction (which holds the match's row, so a
    correction is applied once). Returns the new changes; [] for an unrated match.

    Each player's rating loses exactly what this match gave it (with no rated game
    since, that is the rating before the match; games since keep their effect), and
    is rated again from there. The match's change records are rewritten."""
    records = {c.user_id: c for c in (await s.scalars(
        select(RatingChange).where(RatingChange.match_id == match.id))).all()}
    if not records or any(u not in records for u in users):
        return []
    rows = {r.user_id: r for r in (await s.scalars(
        select(Rating).where(Rating.guild_id == match.guild_id, Rating.game == match.game,
                            Rating.user_id.in_(users)).with_for_update())).all()}
    before = []
    for user in users:
        gave, row = records[user], rows[user]
        before.append(MODEL.rating(
            mu=row.mu - (gave.mu_after - gave.mu_before),
            sigma=max(1e-6, row.sigma - (gave.sigma_after - gave.sigma_before))))
    outs = (await s.scalars(select(Move.seat).where(
        Move.match_id == match.id, Move.kind == MoveKind.OUT).order_by(Move.ply))).all()
    ranks = finishing_ranks(len(users), winner, outs)
    after = MODEL.rate([[r] for r in before], ranks=[float(r) for r in ranks])
    changes = [Change(u, ranks[i], before[i].mu, before[i].sigma, after[i][0].mu,
                      after[i][0].sigma) for i, u in enumerate(users)]
    for change in changes:
        record, row = records[change.user_id], rows[change.user_id]
        record.rank, record.at = change.rank, at
        record.mu_before, record.sigma_before = change.mu_before, change.sigma_before
        record.mu_after, record.sigma_after = change.mu_after, change.sigma_after
        row.mu, row.sigma = change.mu_after, change.sigma_after
        row.ordinal = ordinal(change.mu_after, change.sigma_after)
        row.updated_at = at
    return changes
