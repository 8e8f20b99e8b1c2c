"""A host's decision on a pairing, and its correction at any later time, as arbiters
make them.

- The running round: its unfinished match is voided and the result stands.
- An earlier round, while later ones run: the result is replaced in the log; the
  standings, tie-breaks, byes' points and first-player history are counted again from
  every round's results, the pairings already made stand, and the host is told which
  later rounds were paired with the old result. In a bracket a result that would change
  who plays in a match already paired is refused, naming that match (its players have
  played on); one that changes no advancement (a forfeit for a win) is taken.
- After the end: the final standings are counted again, and every prize that changes is
  reversed and booked again in the ledger, each entry keyed by the correction's place in
  the log (``tournament:N:correction:SEQ:…``), in the same transaction as the log, so it
  is booked exactly once. Not in a closed event (its garnets no longer change).
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.clock import Clock
from bot.core.messages import Post, Response
from bot.core.requests import Asker
from bot.services import ledger
from bot.services.matches import Matches
from bot.services.tournaments import Format, Outcome, PlayedOn, Reported, TournamentError
from bot.services.tournaments.host import views
from bot.services.tournaments.host.flow import Flow
from bot.services.tournaments.host.records import (
    FINISHED,
    RUNNING,
    Loaded,
    TournamentRefusal,
    append,
)
from bot.store.db import Database
from bot.store.models import Event as EventRow
from bot.store.models import LedgerEntry, TournamentLog
from bot.store.models import Tournament as TournamentRow
from bot.texts import rulings
from bot.texts import tournaments as say


class Rulings:
    """``/host tournament adjudicate``: built by ``Tournaments`` on its flow."""

    def __init__(self, db: Database, clock: Clock, matches: Matches, flow: Flow) -> None:
        self.db = db
        self.clock = clock
        self.matches = matches
        self.flow = flow

    async def decide(self, asker: Asker, tournament_id: int, board: int, outcome: Outcome,
                     number: int | None, reason: str) -> Response:
        """Under the tournament's lock (``Flow.run``)."""
        loaded = await self.flow.load(tournament_id)
        row = loaded.row
        if row.status not in (RUNNING, FINISHED):
            raise TournamentRefusal(say.not_running(name=row.name, status=row.status))
        core = loaded.core
        state = core.state(loaded.events)
        played = len(state.rounds)
        wanted = number or played
        if not 1 <= wanted <= played:
            raise TournamentRefusal(say.no_such_round(number=wanted, played=played))
        try:
            pairing = state.rounds[wanted - 1].pairing(board)
        except TournamentError:
            raise TournamentRefusal(say.no_such_board(number=wanted, board=board)) from None
        was = state.outcome(wanted, pairing)
        if was is outcome:
            raise TournamentRefusal(rulings.same_result(number=wanted, board=board,
                                                        outcome=outcome.value))
        report = Reported(wanted, board, outcome)
        try:
            core.state([*loaded.events, report])
        except PlayedOn as exc:
            raise TournamentRefusal(rulings.played_on(
                number=wanted, board=board, spot=pairing.match, later=exc.later,
                later_round=exc.round)) from None
        except TournamentError as exc:
            raise TournamentRefusal(say.cannot_run(reason=str(exc))) from None
        if row.status == FINISHED:
            return await self._after_end(asker, loaded, report, was, reason)
        posts: list[Post] = []
        for game in loaded.games_of(wanted, board):
            if game.active:
                posts += (await self.matches.close(game.match_id,
                                                   say.void_reason_decided())).posts
        text = say.adjudicated(name=row.name, number=wanted, board=board, first=pairing.first,
                               second=pairing.second, outcome=outcome.value,
                               host_id=asker.actor.id, reason=reason)
        if core.format is Format.SWISS and wanted < played:
            text += "\n" + rulings.paired_on_old_result(later=list(range(wanted + 1,
                                                                          played + 1)))
        loaded = await self.flow.load(tournament_id)
        posts += await self.flow.record(loaded, [report], asker.actor.id, reason)
        return Response(reply=Post(text, row.channel_id), posts=posts)

    async def _after_end(self, asker: Asker, loaded: Loaded, report: Reported,
                         was: Outcome | None, reason: str) -> Response:
        """A finished tournament corrected: the log, the prizes reversed and booked
        again where they change, in one transaction; then the final standings again."""
        row, core = loaded.row, loaded.core
        rounds = core.state(loaded.events).rounds
        pairing = rounds[report.round - 1].pairing(report.board)
        if core.format.elimination and not core.finished([*loaded.events, report]):
            raise TournamentRefusal(rulings.needs_more_play(name=row.name))
        shares = views.prize_shares(core.standings([*loaded.events, report]),
                                    loaded.setup.prizes)
        now = self.clock.now()
        async with self.db.session() as s, s.begin():
            stored = await s.get(TournamentRow, row.id)
            assert stored is not None
            if stored.status != FINISHED:
                raise TournamentRefusal(say.not_running(name=row.name, status=stored.status))
            event = await s.get(EventRow, row.event_id) if row.event_id else None
            if event is not None and not event.open and (await _paid(s, row.id) or shares):
                raise TournamentRefusal(rulings.event_closed(name=row.name, event=event.name))
            await append(s, row.id, [report], now, asker.actor.id, reason)
            seq = int(await s.scalar(select(func.max(TournamentLog.seq)).where(
                TournamentLog.tournament_id == row.id)) or 0)
            changes = await _rebook(s, row, report, (loaded.name(pairing.first),
                                                     loaded.name(pairing.second)),
                                    shares, (seq, asker.actor.id, now))
        head = rulings.corrected_after_end(
            name=row.name, number=report.round, board=report.board, first=pairing.first,
            second=pairing.second, was=was.value if was else "…",
            outcome=report.outcome.value, host_id=asker.actor.id, reason=reason)
        if core.format is Format.SWISS and report.round < len(rounds):
            head += "\n" + rulings.paired_on_old_result(
                later=list(range(report.round + 1, len(rounds) + 1)))
        if loaded.setup.prizes:
            head += "\n" + rulings.prizes_rebooked(changes=changes,
                                                   event=event.name if event else None)
        final = await self.flow.standings_post(await self.flow.load(row.id), final=True)
        final.text = head + "\n" + final.text
        final.pings = tuple(u for u, _, _ in changes)
        return Response(reply=final)


async def _paid(s: AsyncSession, tournament_id: int) -> dict[str, int]:
    """Each player's net garnets from the tournament's prizes and their corrections."""
    rows = await s.execute(
        select(LedgerEntry.user_id, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.key.like(f"tournament:{tournament_id}:%"))
        .group_by(LedgerEntry.user_id))
    return {user: int(total) for user, total in rows.all() if total}


async def _rebook(s: AsyncSession, row: TournamentRow, report: Reported,
                 names: tuple[str, str], shares: list[tuple[str, int, str]],
                 at: tuple[int, str, float]) -> list[tuple[str, int, int]]:
    """Every prize that changes reversed, then booked again: (user, before, now).
    ``names``: the pairing's players; ``at``: the correction's place in the log, its
    author and time."""
    seq, author, now = at
    paid = await _paid(s, row.id)
    wanted = {user: (amount, place) for user, amount, place in shares}
    changes = []
    key = f"tournament:{row.id}:correction:{seq}"
    result = f"{names[0]} {report.outcome.value} {names[1]}"
    for user in [*paid, *(u for u in wanted if u not in paid)]:
        before = paid.get(user, 0)
        amount, place = wanted.get(user, (0, ""))
        if before == amount:
            continue
        if before:
            await ledger.book(s, guild_id=row.guild_id, event_id=row.event_id, user_id=user,
                              amount=-before, kind="correction", author_id=author,
                              note=rulings.prize_reversed_note(
                                  name=row.name, number=report.round, board=report.board,
                                  result=result),
                              key=f"{key}:reverse:{user}", at=now)
        if amount:
            await ledger.book(s, guild_id=row.guild_id, event_id=row.event_id, user_id=user,
                              amount=amount, kind="prize", author_id=author,
                              note=rulings.prize_rebooked_note(
                                  name=row.name, place=place, number=report.round,
                                  board=report.board),
                              key=f"{key}:prize:{user}", at=now)
        changes.append((user, before, amount))
    return changes


__all__ = ["Rulings"]
