"""Corrections by hosts, each logged with the match: taking back the last move of a
match being played, and correcting the result of a finished one.

A take-back deletes the move (the game is its moves replayed) and restores the
clocks to the instant before it: the mover's banks and time, the seconds the turn
had used, and any time a host had added to that turn.

A corrected result never rewrites the ledger: the match's garnets (its reward, an
event's confiscation, earlier corrections) are reversed by new entries, and the new
result is booked again, every entry with a key of its own (``match:17:correction:2:…``),
so each correction is booked exactly once. The match's row is written before its
result is read, which makes two corrections of one match wait for each other (the
second then finds the result the first left). Standings follow, and the
ratings: each player's rating loses what the match gave and is rated again.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import DONE, EndReason, MatchKind, MatchStatus, MoveKind
from bot.core.messages import Pace, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services import ledger, ratings
from bot.services.matches import menus
from bot.services.matches.ending import Ending, reward_of
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import extended_of
from bot.services.matches.lookup import Lookup
from bot.services.matches.refusals import MatchOver, NeedsReason, NoSuchMatch
from bot.services.matches.timing import BOARD_WAIT, Timing
from bot.services.results import DRAWN, LOST, WON, pay, rating_text
from bot.services.users import remember
from bot.store.models import (
    Elimination,
    Event,
    HostAction,
    LedgerEntry,
    Match,
    MatchPlayer,
    MatchResult,
    Move,
    TournamentGame,
)
from bot.store.queries import user_names
from bot.texts import match as texts
from bot.texts import refused
from bot.texts import season as season_say
from bot.texts import tools as say
from engine.animation import Ply, final_position


class Corrections:
    def __init__(self, kit: MatchKit, lookup: Lookup, timing: Timing, ending: Ending) -> None:
        self.kit = kit
        self.lookup = lookup
        self.timing = timing
        self.ending = ending

    # ==== taking back the last move =======================================================

    async def take_back(self, asker: Asker, match_id: int | None, reason: str) -> Response:
        """Undo the last move of a match being played; its mover is on turn again with
        the clock as it stood when the move came in."""
        if not reason.strip():
            raise NeedsReason()
        await self.kit.roles.require_host(asker.guild_id, asker.actor)
        live = await self.lookup.running(asker, match_id, player=False)
        async with live.lock:
            if live.finished:
                raise MatchOver()
            if live.ply == 0:
                raise Refusal(say.nothing_to_take_back(texts.match_label(live.number,
                                                                         live.kind)))
            now = self.kit.now()
            async with self.kit.db.session() as s, s.begin():
                moves = list((await s.scalars(select(Move).where(Move.match_id == live.id)
                                              .order_by(Move.ply))).all())
                last = moves[-1]
                if last.kind != MoveKind.MOVE:
                    raise Refusal(say.cannot_take_back_a_leave())
                state = final_position(live.game, [Ply(m.kind, m.seat, m.notation)
                                                   for m in moves[:-1]], len(live.users),
                                       live.options)
                # The move as the boards numbered it (passes counted).
                number = live.game.moves_played(state) + 1
                match = await s.get(Match, live.id)
                assert match is not None
                turn_began = moves[-2].at if len(moves) > 1 else match.started_at or 0.0
                kept = extended_of(match.time_control, live.ply - 1)
                # The turn's extension as it stood, with the banks it had started by
                # then; else (kept before there was this) what the log says was added.
                extra, banked = (kept if kept is not None else
                                 (await _extended(s, live.id, turn_began, last.at), 0))
                await s.execute(delete(Move).where(Move.id == last.id))
                await s.execute(update(MatchPlayer).where(
                    MatchPlayer.match_id == live.id, MatchPlayer.seat == last.seat).values(
                    banks_left=MatchPlayer.banks_left + last.banks_spent,
                    time_used=MatchPlayer.time_used - last.elapsed))
                # The mover's clock runs again once the board is out (``board_again``).
                await s.execute(update(Match).where(Match.id == live.id).values(
                    turn_elapsed=last.elapsed, turn_extra=extra,
                    turn_resumed_at=None if live.paused else now + BOARD_WAIT))
                detail = say.took_back_log(number, last.notation, live.names[last.seat],
                                           reason)
                await self.ending.log(s, live, asker.actor, "takeback", detail)
            live.state, live.ply = state, live.ply - 1
            live.banks_left[last.seat] += last.banks_spent
            live.time_used[last.seat] -= last.elapsed
            live.turn_elapsed, live.extra, live.banked = last.elapsed, extra, banked
            live.draw_offer = None
            turn = None
            if live.paused:
                live.waiting = None
                live.plan_reminders()
                self.timing.arm(live)
            else:
                live.plan_reminders()
                turn = self.timing.board_again(live, now)
            self.kit.on_turn(live)  # the computer's seat thinks again
            image = await self.kit.render(live.game, live.state, live.names, live.hints,
                                          server=live.guild_id)
            text = say.took_back(asker.actor.id, texts.match_label(live.number, live.kind),
                                 number, last.notation, live.users[last.seat], reason,
                                 self.kit.turn_line(live))
        return Response(reply=Post(text, live.channel_id, image=image,
                                   selects=menus.card_menu(live), turn=turn,
                                   pace=Pace.BOARD))

    # ==== correcting a result =============================================================

    async def correct(self, asker: Asker, number: int, winner: str | None,
                      reason: str) -> Response:
        """Give a finished match another result: ``winner`` a player's id, or None for a
        draw. Garnets, standings and ratings follow, each exactly once."""
        if not reason.strip():
            raise NeedsReason()
        await self.kit.roles.require_host(asker.guild_id, asker.actor)
        now = self.kit.now()
        async with self.kit.db.session() as s, s.begin():
            match = await s.scalar(select(Match).where(Match.guild_id == asker.guild_id,
                                                       Match.number == number))
            if match is None:
                raise NoSuchMatch(number)
            # The match's row first: a second correction of it waits here until this
            # one is committed, then reads the result this one left.
            await s.execute(update(Match).where(Match.id == match.id).values(
                number=Match.number))
            await s.refresh(match)
            label = texts.match_label(match.number, match.kind)
            if match.status != MatchStatus.FINISHED:
                raise Refusal(say.not_finished(label, match.status in DONE))
            if match.kind == MatchKind.PRACTICE:
                raise Refusal(say.practice_has_no_result(label))
            if await s.scalar(select(TournamentGame.id).where(
                    TournamentGame.match_id == match.id)) is not None:
                raise Refusal(say.tournament_game(label))
            users = [p.user_id for p in sorted(match.players, key=lambda p: p.seat or 0)]
            seat = users.index(winner) if winner in users else None
            if winner is not None and seat is None:
                raise Refusal(refused.winner_is_a_player())
            if (seat, seat is None) == (match.winner_seat, match.draw or
                                         match.winner_seat is None):
                raise Refusal(say.same_result(label))
            event = await s.get(Event, match.event_id) if match.event_id else None
            if event is not None and not event.open:
                raise Refusal(say.event_closed(label, event.name))
            match.end_reason = EndReason.CORRECTED
            n = 1 + int(await s.scalar(select(func.count()).select_from(HostAction).where(
                HostAction.match_id == match.id, HostAction.action == "correct")) or 0)
            key = f"match:{match.id}:correction:{n}"
            await remember(s, asker.guild_id, [asker.actor])
            names = await user_names(s, asker.guild_id, users)
            was = _result_words(match.winner_seat, match.draw, users, names)
            reversed_ = await _reverse(s, match, key, asker.actor.id, label, now)
            moved = await _move_elimination(s, match, event, users, seat, asker.actor.id, label,
                                            now)
            paid = await pay(s, match, users, seat, reward_of(match, self.kit.config.dm_reward),
                             now, key, author=asker.actor.id)
            for index, user in enumerate(users):
                await s.execute(update(MatchResult).where(
                    MatchResult.match_id == match.id, MatchResult.user_id == user).values(
                    outcome=DRAWN if seat is None else WON if index == seat else LOST))
            changes = await ratings.rerate_match(s, match, users, seat, now)
            now_text = _result_words(seat, seat is None, users, names)
            head = say.corrected(asker.actor.id, label, winner, reason, was)
            text = head + reversed_ + paid + moved + await rating_text(s, match, changes)
            match.winner_seat, match.draw = seat, seat is None
            match.result_text = texts.result(label, winner, texts.corrected(reason))
            played = int(await s.scalar(select(func.count()).select_from(Move).where(
                Move.match_id == match.id)) or 0)
            s.add(HostAction(match_id=match.id, actor_id=asker.actor.id, action="correct",
                             detail=say.corrected_log(was, now_text, reason), at=now,
                             ply=played))
            channel = match.channel_id
        return Response(reply=Post(text, channel))


async def _extended(s: AsyncSession, match_id: int, since: float, until: float) -> float:
    """Seconds hosts added to a turn between two instants (their logged extensions)."""
    details = (await s.scalars(select(HostAction.detail).where(
        HostAction.match_id == match_id, HostAction.action == "extend",
        HostAction.at >= since, HostAction.at <= until))).all()
    total = 0.0
    for detail in details:
        try:
            total += float(detail.split()[0])
        except (IndexError, ValueError):
            continue
    return total


async def _reverse(s: AsyncSession, match: Match, key: str, author: str, label: str,
                   now: float) -> str:
    """Entries that take back every garnet the match moved so far (its reward, a
    confiscation, earlier corrections): one per player, booked once; their words."""
    nets = (await s.execute(
        select(LedgerEntry.user_id, LedgerEntry.event_id, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.match_id == match.id)
        .group_by(LedgerEntry.user_id, LedgerEntry.event_id)
        .order_by(func.min(LedgerEntry.id)))).all()
    undone = []
    for user, event_id, total in nets:
        if not total:
            continue
        booked = await ledger.book(
            s, guild_id=match.guild_id, event_id=event_id, user_id=user, amount=-int(total),
            kind="correction", note=say.reversal_note(label), author_id=author,
            match_id=match.id, key=f"{key}:reverse:{user}", at=now)
        if booked:
            undone.append((user, -int(total)))
    return say.reversed_garnets(undone)


async def _move_elimination(s: AsyncSession, match: Match, event: Event | None,
                            users: list[str], seat: int | None, author: str, label: str,
                            now: float) -> str:
    """The match's elimination follows the corrected result: the new loser is out in
    the earlier one's place, or nobody is when it is now a draw (the row is the
    match's one elimination, so it is changed, never doubled). Its words."""
    row = await s.scalar(select(Elimination).where(Elimination.match_id == match.id))
    if row is None or event is None:
        return ""  # none was written; ``pay`` eliminates the new loser if the event does
    before = row.user_id if row.undone_at is None else None
    loser = users[1 - seat] if seat is not None and len(users) == 2 else None
    if loser is None:
        row.undone_at, row.undone_by, row.note = now, author, say.elimination_undone(label)
    else:
        row.user_id, row.at, row.note = loser, now, say.elimination_moved(label)
        row.undone_at = row.undone_by = None
    words = say.back_in(before, event.name) if before is not None and before != loser else ""
    if loser is not None and loser != before:
        words += season_say.eliminated(user_id=loser, event=event.name)
    return words


def _result_words(seat: int | None, draw: bool, users: list[str],
                  names: dict[str, str]) -> str:
    if draw or seat is None:
        return "a draw"
    return f"{names.get(users[seat], users[seat])} won"

