"""What a finished match changes besides itself: garnets, eliminations and ratings.

``settle`` runs inside the host's result transaction (the same one that marks the
match finished), so the result, the reward, a confiscation and the ratings are
committed together or not at all; the loser of a Death Match of an event is
eliminated from it in the same transaction. Each is booked once per match however often the
result is booked (a retry, a second process): ledger entries carry unique keys,
ratings a unique (match, player) change record.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import MatchKind
from bot.services import ledger, ratings
from bot.services.events import Scope
from bot.store.idempotent import insert_all_once, insert_once
from bot.store.models import Elimination, Event, Match, MatchResult
from bot.store.queries import user_names
from bot.texts import economy as say
from bot.texts import season as season_say
from bot.texts.match import match_label
from engine.registry import get_game

# A player's outcome of a finished match (MatchResult.outcome), for standings.
WON, LOST, DRAWN = "won", "lost", "drawn"


async def settle(s: AsyncSession, match: Match, users: Sequence[str], winner: int | None,
                 reward: int, now: float, rate: bool = True) -> str:
    """Book the result's garnets, standings and ratings; the text to add to the result
    post. ``users`` are the players by seat; ``winner`` None is a draw; ``rate`` False
    leaves the ratings alone (no game was played)."""
    if match.kind == MatchKind.PRACTICE:
        return ""  # against the computer: no garnets, standings, ratings or ledger
    text = await pay(s, match, users, winner, reward, now, key=f"match:{match.id}")
    await _record(s, match, users, winner, now)
    changes = await ratings.rate_match(s, match, users, winner, now) if rate else []
    return text + await rating_text(s, match, changes)


async def pay(s: AsyncSession, match: Match, users: Sequence[str], winner: int | None,
              reward: int, now: float, key: str, author: str | None = None) -> str:
    """A DM's reward, its event's confiscation and elimination, each booked once
    (garnets under ``key``: ``match:17`` for the result, a correction has keys of its
    own; an elimination once per match); the words for the result post."""
    label = match_label(match.number, match.kind)
    text = ""
    if winner is not None and match.kind == MatchKind.DM:
        champion = users[winner]
        if reward > 0:
            await ledger.book(s, guild_id=match.guild_id, event_id=match.event_id,
                              user_id=champion, amount=reward, kind="match-reward",
                              note=say.reward_note(label=label), author_id=author,
                              match_id=match.id, key=f"{key}:reward", at=now)
            text += say.reward_said(user_id=champion, reward=reward)
        if match.event_id is not None:
            event = await s.get(Event, match.event_id)
            loser = next(u for i, u in enumerate(users) if i != winner)
            if event is not None and event.confiscate != "no":
                text += await _confiscate(s, match, event, loser, champion, label, now, key)
            if event is not None and event.eliminate:
                text += await _eliminate(s, match, event, loser, now)
    return text


async def rating_text(s: AsyncSession, match: Match, changes: Sequence[ratings.Change]) -> str:
    if not changes:
        return ""
    names = await user_names(s, match.guild_id, [c.user_id for c in changes])
    parts = [(names.get(c.user_id, c.user_id), ratings.shown(c.mu_after, c.sigma_after),
              ratings.delta(c.mu_before, c.mu_after)) for c in changes]
    return say.rating_changes(game=get_game(match.game).title, changes=parts)


async def _record(s: AsyncSession, match: Match, users: Sequence[str], winner: int | None,
                  now: float) -> None:
    """Each player's result, for standings (see MatchResult), once."""
    rows = [dict(match_id=match.id, user_id=user, guild_id=match.guild_id,
                 event_id=match.event_id, game=match.game, at=now,
                 outcome=DRAWN if winner is None else WON if seat == winner else LOST)
            for seat, user in enumerate(users)]
    await insert_all_once(s, MatchResult, rows, ["match_id", "user_id"])


async def _eliminate(s: AsyncSession, match: Match, event: Event, loser: str,
                     now: float) -> str:
    """The loser of a Death Match of an event is out of it (a host may reinstate them)."""
    if not await insert_once(s, Elimination, dict(
            guild_id=match.guild_id, event_id=event.id, user_id=loser, match_id=match.id,
            at=now, note=""), ["match_id"]):
        return ""
    return season_say.eliminated(user_id=loser, event=event.name)


async def _confiscate(s: AsyncSession, match: Match, event: Event, loser: str, winner: str,
                      label: str, now: float, key: str) -> str:
    """The loser's whole balance in the event goes to the winner, or is taken away."""
    await ledger.lock_player(s, event.id, loser)
    have = await ledger.balance(s, match.guild_id, Scope(event), loser)
    if have <= 0:
        return ""
    to_winner = event.confiscate == "winner"
    booked = await ledger.book(
        s, guild_id=match.guild_id, event_id=event.id, user_id=loser, amount=-have,
        kind="confiscation", note=say.confiscation_note(label=label, to_winner=to_winner),
        author_id=None, match_id=match.id, key=f"{key}:confiscation:from", at=now)
    if not booked:
        return ""  # booked before, by an earlier attempt at this result
    if to_winner:
        await ledger.book(
            s, guild_id=match.guild_id, event_id=event.id, user_id=winner, amount=have,
            kind="confiscation", note=say.confiscation_won_note(label=label), author_id=None,
            match_id=match.id, key=f"{key}:confiscation:to", at=now)
    return say.confiscated(loser_id=loser, amount=have,
                           winner_id=winner if to_winner else None)
