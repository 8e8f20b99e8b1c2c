"""``/review``: a finished match judged move by move by the computer player.

The analysis is seconds of CPU: it runs in the computer player's worker
(``bot.services.workers``), in a fair queue per server and user with caps on
each, within ``REVIEW_SECONDS`` (then its worker is killed and replaced). The
reading is ``history_queries.match_record``: scoped to the server, by the server's
own match number.

A review is stored once computed (``MatchReview``, in its own transaction, before it is
answered): a second ``/review`` of the match, and the match's web page, read it there
and nothing analyses the match again. The web pages only ever read it (``stored``);
``reviewed`` tells them a match has one now (their kept copy goes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import MatchStatus, MoveKind
from bot.core.messages import Image, Post, Response, mention
from bot.core.refusal import Refusal
from bot.services.history_queries import MatchRecord, match_record, position_of
from bot.services.history_view import ended_by
from bot.services.jobs import JobTooLong
from bot.services.matches.refusals import NoSuchMatch
from bot.services.render import described
from bot.services.workers import Workers
from bot.store.db import Database
from bot.store.idempotent import insert_once
from bot.store.models import MatchReview
from bot.texts import history as say_history
from bot.texts import languages as joined
from bot.texts import match as texts
from bot.texts import practice as say
from engine.ai import player_for
from engine.ai.plot import plot
from engine.ai.review import Review
from engine.game import EngineError
from engine.registry import get_game

WORST = 3  # the biggest mistakes named


class ReviewTooLong(Refusal):
    def __init__(self) -> None:
        super().__init__(say.review_too_long())


async def reviewable(db: Database, guild_id: str, number: int) -> MatchRecord:
    record = await match_record(db, guild_id, number)
    if record is None:
        raise NoSuchMatch(number)
    if record.status != MatchStatus.FINISHED:
        raise Refusal(say.not_finished(record.number))
    if not can_review(record.game):
        raise Refusal(say.no_review(get_game(record.game).title))
    return record


def can_review(game_key: str) -> bool:
    """Whether the game has a computer player to review it."""
    try:
        player_for(game_key, 1)
    except EngineError:
        return False
    return True


def review_notations(record: MatchRecord) -> list[str]:
    """The moves as the review reads them: a seat that left a game of more than two
    is ``out N`` (1-based)."""
    return [f"out {m.seat + 1}" if m.kind == MoveKind.OUT
            else m.notation for m in record.moves
            if m.kind == MoveKind.MOVE or (m.kind == MoveKind.OUT and record.seats > 2)]


def move_numbers(record: MatchRecord) -> Callable[[int], int]:
    """The match's number of the review's move ``n``: the review numbers moves only, the
    match a seat's leaving too."""
    plies = [m.ply for m in record.moves if m.kind == MoveKind.MOVE]
    return lambda move: plies[move - 1] if 0 < move <= len(plies) else move


def verdict_of(record: MatchRecord, data: Review) -> str | None:
    """How the game was decided: the exact verdict where the solver reached, else the
    move after which the winner stayed ahead (seats named by their colours)."""
    number_of = move_numbers(record)
    if data.exact_from is not None and data.exact_margin is not None:
        won = data.exact_result
        winner = None if won == 0 else data.names[0 if won > 0 else 1]
        lines = [say.exact_verdict(data.exact_from, winner, data.exact_margin,
                                   data.unit or "points")]
        if len(data.decisive) == 1:
            number = data.decisive[0]
            lines.append(say.decisive(number_of(number), data.plies[number - 1].move,
                                      *data.turned[number]))
        elif data.decisive:
            # Said once: each later throw of the result is the same story again.
            first, last = data.decisive[0], data.decisive[-1]
            lines.append(say.changed_hands(
                (number_of(first), data.plies[first - 1].move, *data.turned[first]),
                (number_of(last), data.plies[last - 1].move), len(data.decisive) - 1))
        return joined.lines(*lines)
    if (decided := data.decided_by()) is not None:
        return say.decided(number_of(decided), data.plies[decided - 1].move)
    return None


def review_text(record: MatchRecord, data: Review) -> str:
    game = get_game(record.game)
    by_seat = sorted(record.players, key=lambda p: p.seat if p.seat is not None else 9)
    who = [mention(p.user_id) for p in by_seat]
    number_of = move_numbers(record)
    players = [(who[i], data.names[i], data.accuracy[i]) for i in range(data.seats)]
    worst = [say.Mistake(number_of(ply.number), who[ply.seat], ply.move, ply.label, ply.best,
                         ply.before, ply.after, say.loss_in_unit(ply.loss, data.unit))
             for ply in data.worst(WORST)]
    label = texts.match_label(record.number, record.kind)
    return say.review(label, game.title, players, data.counts(), worst,
                      verdict_of(record, data))


async def stored(db: Database, guild_id: str, match_id: int) -> Review | None:
    """The match's stored review, if it has one (reading only: never an analysis)."""
    async with db.session() as s:
        return await stored_in(s, guild_id, match_id)


async def stored_in(s: AsyncSession, guild_id: str, match_id: int) -> Review | None:
    """``stored`` in session ``s``."""
    data = await s.scalar(select(MatchReview.data).where(
        MatchReview.guild_id == guild_id, MatchReview.match_id == match_id))
    return None if data is None else Review.from_data(data)


def _nothing(_guild_id: str, _number: int) -> None:
    return None


class Reviews:
    def __init__(self, db: Database, workers: Workers) -> None:
        self.db = db
        self.workers = workers
        # Told once a match's review is stored (the web pages drop their copy).
        self.reviewed: Callable[[str, int], None] = _nothing

    async def review(self, guild_id: str, number: int, user_id: str | None = None
                     ) -> Response:
        """The match's stored review, else a review in the computer player's review
        worker: in the fair queue of the server and of ``user_id`` who asked (None: the
        event's automatic review), refused past their caps, stopped (its worker
        replaced) past ``REVIEW_SECONDS``; stored before it is answered."""
        record = await reviewable(self.db, guild_id, number)
        seated = sorted((p for p in record.players if p.seat is not None),
                        key=lambda p: p.seat or 0)
        names = [p.name for p in seated] if len(seated) == record.seats else None
        data = await stored(self.db, guild_id, record.id)
        if data is not None:  # reviewed before: its plot drawn again, off the event loop
            png = await asyncio.to_thread(plot, data, names)
        else:
            try:
                data, png = await self.workers.review(
                    record.game, review_notations(record), record.seats,
                    dict(record.options), seed=record.id, server=guild_id, user=user_id,
                    names=names)
            except JobTooLong:
                raise ReviewTooLong() from None
            async with self.db.session() as s, s.begin():
                # Once: a review computed twice at once (an event's and a player's) is
                # the same review.
                await insert_once(s, MatchReview, {"guild_id": guild_id,
                                                   "match_id": record.id,
                                                   "data": data.to_data()},
                                  ("guild_id", "match_id"))
            self.reviewed(guild_id, record.number)
        game = get_game(record.game)
        final = position_of(record)
        about = say_history.review_description(
            label=texts.match_label(record.number, record.kind), game=game.title,
            players=[(p.name, p.colour) for p in record.players],
            final=described(game, final, record.names, ended_by(record, final)))
        image = Image(png, f"review-{record.number}-{record.game}.png", about)
        return Response(reply=Post(review_text(record, data), image=image))
