"""A running tournament's flow: rounds paired and announced, a match of the host for
every game of every pairing, results taken from the matches as they end, the round's
end with its standings and image, the next round, the final standings and prizes.

Everything that changes a tournament runs under its lock (``run``) and is written to
its log before it is announced; ``advance`` reads the tournament and its matches
afresh and does what is due, so it is safe to call again at any time (after a match
ends, after a restart). A match that ends while the tournament is locked (a host's
action voids it, say) only marks the tournament to be looked at again when the lock
is released: the holder of the lock may be waiting for that match's own lock.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.clock import Clock, Handle
from bot.core.messages import Actor, Image, Pace, Post, Response
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services import ledger
from bot.services.matches import Busy, HostedMatch, MatchEnd, Matches
from bot.services.tournaments import (
    Dropped,
    Event,
    Pairing,
    Reported,
    Round,
    Series,
    State,
    Tournament,
    TournamentError,
)
from bot.services.tournaments.host import views
from bot.services.tournaments.host.records import (
    FINISHED,
    RUNNING,
    Loaded,
    TournamentRefusal,
    append,
    load,
    series_of,
    split,
)
from bot.services.vitals import CANNOT_SAVE
from bot.services.web import WebLink, no_link
from bot.store.db import Database
from bot.store.models import Tournament as TournamentRow
from bot.store.models import TournamentGame
from bot.texts import tournaments as say

log = logging.getLogger(__name__)
MAX_STEPS = 64  # a bound on what one look at a tournament may do in a row
NOT_BEGUN_AGAIN = 60.0  # a window due before its game began: looked at again this later
Job = Callable[[], Awaitable[None]]  # what a timer runs
class Flow:
    def __init__(self, db: Database, clock: Clock, matches: Matches,
                 web_link: WebLink = no_link) -> None:
        self.db, self.clock, self.matches = db, clock, matches
        self.web_link = web_link  # its page under each round's pairings and standings
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._timers: dict[int, list[Handle]] = {}
        matches.watch_timers(self.sweep)  # a round's deadline never goes without a timer
        # Tournaments with a board that could not start (a player busy in the channel),
        # by server: looked at again whenever a match of that server ends.
        self.waiting: dict[int, str] = {}
        self._noted: set[tuple[int, int, int]] = set()
        self._shows: dict[int, Handle] = {}  # no-show windows, by match id

    def now(self) -> float:
        return self.clock.now()

    async def load(self, tournament_id: int) -> Loaded:
        async with self.db.session() as s:
            return await load(s, tournament_id)

    # ==== the lock ==========================================================================

    def _spoken(self, tournament_id: int, job: Job) -> Job:
        """A timer's ``job``, its posts in the language of the tournament's server."""
        return lambda: self.matches.kit.spoken(TournamentRow, tournament_id, job)

    async def run(self, tournament_id: int, work: Callable[[], Awaitable[Response]]) -> Response:
        """``work`` under the tournament's lock, then whatever fell due meanwhile."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            response = await work()
            for _ in range(MAX_STEPS):
                if tournament_id not in self._dirty:
                    break
                self._dirty.discard(tournament_id)
                response.posts.extend(await self.advance(tournament_id))
        return response

    async def match_ended(self, end: MatchEnd) -> list[Post]:
        """A match ended: the tournament it belongs to catches up (or one waiting to
        start a board on that server)."""
        async with self.db.session() as s:
            owner = await s.scalar(select(TournamentGame.tournament_id).where(
                TournamentGame.match_id == end.id))
        # Its own tournament, and those whose boards wait for a player of that server.
        targets = ([owner] if owner is not None else []) + [
            t for t, guild in self.waiting.items() if guild == end.guild_id and t != owner]
        posts: list[Post] = []
        for tid in targets:
            lock = self._locks.setdefault(tid, asyncio.Lock())
            if lock.locked():  # its holder looks again when done (see the module's doc)
                self._dirty.add(tid)
                continue
            posts.extend((await self.run(tid, functools.partial(self._advanced, tid))).posts)
        return posts

    async def _advanced(self, tournament_id: int) -> Response:
        return Response(posts=await self.advance(tournament_id))

    # ==== catching up ========================================================================

    async def advance(self, tournament_id: int) -> list[Post]:
        """Record the series that are decided, start the games that are due, and at the
        end of a round go on. Call it with the lock held."""
        posts: list[Post] = []
        for _ in range(MAX_STEPS):
            loaded = await self.load(tournament_id)
            if loaded.row.status != RUNNING:
                break
            core = loaded.core
            state = core.state(loaded.events)
            if not state.rounds:
                break
            if state.round_complete:
                # Only after a restart between a round's last result and what follows.
                posts += await self._after_round(loaded, announce_next=False)
                break
            rnd = state.rounds[-1]
            reports, due = self._due(loaded, core, state, rnd)
            if reports:
                posts += await self.record(loaded, reports)
                continue
            posts += await self._start_games(loaded, rnd.number, due)
            break
        return posts

    def decided(self, loaded: Loaded, boards: set[int]) -> list[Event]:
        """The results of those boards of the running round that their games have
        decided and the log does not hold yet (nothing is started)."""
        state = loaded.core.state(loaded.events)
        if not state.rounds:
            return []
        reports, _ = self._due(loaded, loaded.core, state, state.rounds[-1], boards)
        return reports

    def _due(self, loaded: Loaded, core: Tournament, state: State, rnd: Round,
             boards: set[int] | None = None) -> tuple[list[Event], list[tuple[Pairing, Series]]]:
        reports: list[Event] = []
        due: list[tuple[Pairing, Series]] = []
        for pairing in rnd.pairings:
            if state.outcome(rnd.number, pairing) is not None:
                continue
            if boards is not None and pairing.board not in boards:
                continue
            games = loaded.games_of(rnd.number, pairing.board)
            if any(g.active for g in games):
                continue
            series, first = series_of(core, pairing, games)
            if series.finished:
                reports.append(Reported(rnd.number, pairing.board, series.outcome(pairing),
                                        first if pairing.chooser else None))
            else:
                due.append((pairing, series))
        return reports, due

    async def record(self, loaded: Loaded, reports: list[Event], author_id: str | None = None,
                     note: str = "") -> list[Post]:
        """Write events to the log (checked by the core first); if that completes the
        round, announce its end and go on."""
        core = loaded.core
        before = core.state(loaded.events)
        try:
            after = core.state([*loaded.events, *reports])
        except TournamentError as exc:
            raise TournamentRefusal(say.cannot_run(reason=str(exc))) from None
        async with self.db.session() as s, s.begin():
            await append(s, loaded.row.id, reports, self.now(), author_id, note)
        if after.round_complete and not before.round_complete:
            return await self._round_over(loaded.row.id)
        return []

    # ==== games ============================================================================

    async def _start_games(self, loaded: Loaded, number: int,
                           due: list[tuple[Pairing, Series]]) -> list[Post]:
        posts: list[Post] = []
        blocked = False
        for pairing, series in due:
            made, waits = await self._start_game(loaded, number, pairing, series)
            posts += made
            blocked = blocked or waits
        if blocked:
            self.waiting[loaded.row.id] = loaded.row.guild_id
        else:
            self.waiting.pop(loaded.row.id, None)
        return posts

    async def _start_game(self, loaded: Loaded, number: int, pairing: Pairing,
                          series: Series) -> tuple[list[Post], bool]:
        """The pairing's next game as a match of the host: posts, and whether it has to
        wait (a player is still in another match in that channel)."""
        row, setup = loaded.row, loaded.setup
        game_no = len(series.winners) + 1
        chooser = pairing.chooser if game_no == 1 and pairing.chooser else None
        first = None if chooser else series.first_of(game_no)
        earlier = loaded.games_of(number, pairing.board)
        channel, abandon = row.channel_id, None
        if setup.thread and earlier:
            channel = earlier[-1].channel_id
        elif setup.thread and self.matches.threads is not None:
            channel, abandon = await self.matches.threads(row.channel_id, say.thread_name(
                name=row.name, number=number, board=pairing.board,
                first=loaded.name(pairing.first), second=loaded.name(pairing.second)))
        points = series.score if series.first == pairing.first else series.score[::-1]
        note = say.game_note(name=row.name, number=number, board=pairing.board,
                             spot=views.spot_named(loaded.core, pairing.match), game=game_no,
                             best_of=loaded.core.options.best_of,
                             score=(loaded.name(pairing.first), points[0], points[1],
                                    loaded.name(pairing.second)) if series.winners else None)

        async def link(s: AsyncSession, match_id: int) -> None:
            s.add(TournamentGame(tournament_id=row.id, round=number, board=pairing.board,
                                 game_no=game_no, match_id=match_id))

        players = [Actor(u, loaded.name(u)) for u in pairing.players]
        # Clocked, a pairing's first game waits for both players a while from its start:
        # whoever has not moved by then forfeits (``no_show``); a player's first turn
        # runs its clock only after it (or from their move).
        window = (setup.show_up if game_no == 1 and first is not None
                  and setup.time_control.enabled else 0.0)
        if window:
            note += "\n" + say.show_up_note(seconds=window)
        try:
            match_id, started = await self.matches.lobby.host_match(
                Asker(row.guild_id, channel, Actor(row.created_by, loaded.name(row.created_by))),
                HostedMatch(row.game, players, first=first, chooser=chooser,
                            options=setup.game_options, tc=setup.time_control,
                            hints=setup.hints, event_id=row.event_id, note=note,
                            show_up=window),
                link=link)
        except Refusal as refused:
            if abandon is not None:
                await abandon()
            if not isinstance(refused, Busy):
                raise
            key = (row.id, number, pairing.board)
            if key in self._noted:
                return [], True
            self._noted.add(key)
            # Whom it waits for, and where they play (its window starts once they are free).
            return [Post(say.waiting_for_start(board=pairing.board, user_id=refused.user,
                                               number=refused.number, channel=refused.channel),
                         row.channel_id, pace=Pace.LOW)], True
        if window:
            self.arm_no_show(row.id, match_id, self.now() + window)
        return started.posts, False

    # ==== a player who does not show ======================================================

    def arm_no_show(self, tournament_id: int, match_id: int, at: float) -> None:
        self.disarm_no_show(match_id)
        self._shows[match_id] = self.clock.call_at(max(at, self.now()), self._spoken(
            tournament_id, lambda: self._no_show_due(tournament_id, match_id)))

    async def _no_show_due(self, tournament_id: int, match_id: int) -> None:
        """The window's end (tried again by the clock when the database refuses)."""
        try:
            response = await self.run(tournament_id,
                                      lambda: self.no_show(tournament_id, match_id))
        except CANNOT_SAVE:
            raise
        except Exception:
            log.exception("the no-show of match %s failed", match_id)
            return
        self._shows.pop(match_id, None)
        for post in response.posts:
            await self.matches.deliver(post)

    async def no_show(self, tournament_id: int, match_id: int) -> Response:
        """A player who has not made their first move when the window closes (counted
        from the pairing's start for both) loses the pairing by forfeit and is
        withdrawn; the match is voided (never rated)."""
        loaded = await self.load(tournament_id)
        game = next((g for g in loaded.games if g.match_id == match_id), None)
        live = self.matches.live.get(match_id)
        ply = max(game.plies if game else 0, live.ply if live else 0)
        if loaded.row.status == RUNNING and game is not None and game.active and not game.begun:
            # Its start is tried again (a first board not drawn in time): the window
            # runs from when it begins, so look again then.
            self.arm_no_show(tournament_id, match_id, self.now() + NOT_BEGUN_AGAIN)
            return Response()
        if (loaded.row.status != RUNNING or game is None or not game.active
                or game.show_up_by is None or ply >= len(game.users)):
            return Response()  # both have moved
        if game.show_up_by > self.now() + 1e-6:  # not yet (a restart moved it)
            self.arm_no_show(tournament_id, match_id, game.show_up_by)
            return Response()
        if ply == 1 and live is not None and live.ply == 1:
            # The second player always has one turn's time to answer the first move: a
            # First Player moving in the window's last seconds cannot make them forfeit.
            answer_by = live.board_from + live.tc.turn
            if answer_by > self.now() + 1e-6:
                self.arm_no_show(tournament_id, match_id, answer_by)
                return Response()
        state = loaded.core.state(loaded.events)
        rnd = state.rounds[-1]
        pairing = rnd.pairing(game.board) if rnd.number == game.round else None
        if pairing is None or state.outcome(rnd.number, pairing) is not None:
            return Response()
        absent = game.users[ply]  # the First Player, or the second who never answered
        present = pairing.opponent(absent)
        posts = (await self.matches.close(match_id, say.void_reason_no_show(), ply)).posts
        if match_id in self.matches.live:  # they moved meanwhile: they showed up
            return Response()
        posts.append(Post(say.no_show(name=loaded.row.name, number=rnd.number,
                                      board=pairing.board, absent=absent, present=present,
                                      seconds=loaded.setup.show_up), loaded.row.channel_id))
        loaded = await self.load(tournament_id)
        report = Reported(rnd.number, pairing.board, pairing.outcome(present, forfeit=True))
        posts += await self.record(loaded, [report, Dropped(absent)], note="no-show")
        return Response(posts=posts)

    def arm_no_shows(self, loaded: Loaded) -> None:
        """After a restart: every window still open (or closed meanwhile) armed again."""
        for game in loaded.games:
            if game.active and game.plies < len(game.users) and game.show_up_by is not None:
                self.arm_no_show(loaded.row.id, game.match_id, game.show_up_by)

    # ==== rounds ===========================================================================

    async def begin_round(self, loaded: Loaded) -> list[Post]:
        """Pair the next round (off the event loop: a big Swiss takes a moment), write
        it, start its games, and announce it."""
        row, setup = loaded.row, loaded.setup
        core = loaded.core
        try:
            rnd = await asyncio.to_thread(core.pair_next, list(loaded.events))
        except TournamentError:
            return await self._finish(loaded)  # a Swiss that cannot go on ends here
        deadline = self.now() + setup.deadline if setup.deadline else None
        async with self.db.session() as s, s.begin():
            await append(s, row.id, [rnd], self.now())
            stored = await s.get(TournamentRow, row.id)
            assert stored is not None
            stored.deadline_at = deadline
            stored.reminded = False
        self.arm(row.id, deadline, False, rnd.number, setup.remind_before)
        loaded = await self.load(row.id)
        due = [(p, series_of(core, p, [])[0]) for p in rnd.pairings if p.decided is None]
        games = await self._start_games(loaded, rnd.number, due)
        loaded = await self.load(row.id)
        page = await self.web_link(row.guild_id, f"/t/{row.number}")
        posts = [*split(views.with_page(views.round_announcement(loaded, rnd, deadline), page,
                                        room=10**6), row.channel_id, pings=()), *games]
        if core.state(loaded.events).round_complete:  # every pairing decided already
            posts += await self._round_over(row.id)
        return posts

    async def _round_over(self, tournament_id: int) -> list[Post]:
        async with self.db.session() as s, s.begin():
            stored = await s.get(TournamentRow, tournament_id)
            assert stored is not None
            stored.deadline_at = None
        self.disarm(tournament_id)  # once written: a failed write is tried again
        loaded = await self.load(tournament_id)
        state = loaded.core.state(loaded.events)
        posts = split(views.round_results(loaded, state), loaded.row.channel_id, pings=())
        return posts + await self._after_round(loaded, announce_next=True)

    async def _after_round(self, loaded: Loaded, announce_next: bool) -> list[Post]:
        """After a complete round: the end, the next round, or a word to the hosts."""
        core = loaded.core
        if core.finished(loaded.events):
            return await self._finish(loaded)
        if loaded.setup.auto:
            return [await self.standings_post(loaded), *await self.begin_round(loaded)]
        if not announce_next:
            return []
        posts = [await self.standings_post(loaded)]
        done = len(core.state(loaded.events).rounds)
        posts[0].text += "\n" + say.next_by_host(number=done + 1)
        return posts

    async def standings_post(self, loaded: Loaded, final: bool = False) -> Post:
        text = views.with_page(views.standings_text(loaded, final=final), await self.web_link(
            loaded.row.guild_id, f"/t/{loaded.row.number}"))
        png = await asyncio.to_thread(views.image, loaded)
        return Post(text, loaded.row.channel_id, image=Image(png, views.image_name(loaded)),
                    pings=(), pace=Pace.LOW)

    async def _finish(self, loaded: Loaded) -> list[Post]:
        """The tournament is over: final standings, prizes booked once, the image."""
        row, core = loaded.row, loaded.core
        table = core.standings(loaded.events)
        paid = views.prize_shares(table, loaded.setup.prizes)
        now = self.now()
        self.disarm(row.id)
        async with self.db.session() as s, s.begin():
            stored = await s.get(TournamentRow, row.id)
            assert stored is not None
            if stored.status != RUNNING:
                return []
            stored.status = FINISHED
            stored.finished_at = now
            stored.deadline_at = None
            for user_id, amount, place in paid:
                await ledger.book(s, guild_id=row.guild_id, event_id=row.event_id,
                                  user_id=user_id, amount=amount, kind="prize",
                                  note=say.prize_note(name=row.name, place=place),
                                  author_id=None, key=f"tournament:{row.id}:prize:{user_id}",
                                  at=now)
            event_name = await views.event_name(s, row.event_id)
        self.waiting.pop(row.id, None)
        loaded = await self.load(row.id)
        leftovers: list[Post] = []
        for game in loaded.games:  # nothing of a finished tournament plays on
            if game.active:
                leftovers += (await self.matches.close(game.match_id,
                                                       say.void_reason_over())).posts
        first = [t.player for t in table if t.rank == table[0].rank]
        head = (say.finished(name=row.name, winner_id=first[0]) if len(first) == 1
                else say.finished_shared(name=row.name, winner_ids=first))
        if paid:
            head += "\n" + say.prizes_line(paid=[(u, a) for u, a, _ in paid], event=event_name)
        final = await self.standings_post(loaded, final=True)
        final.text = head + "\n" + final.text
        final.pings = tuple(u for u, _, _ in paid[:1]) or (table[0].player,)
        return [*leftovers, final]

    # ==== the round's deadline ===============================================================

    def arm(self, tournament_id: int, deadline: float | None, reminded: bool, number: int,
            remind_before: float) -> None:
        self.disarm(tournament_id)
        if deadline is None:
            return
        handles = []
        if not reminded and remind_before > 0 and deadline - remind_before > self.now():
            handles.append(self.clock.call_at(deadline - remind_before, self._spoken(
                tournament_id, lambda: self._fire(tournament_id, number, False))))
        handles.append(self.clock.call_at(max(deadline, self.now()), self._spoken(
            tournament_id, lambda: self._fire(tournament_id, number, True))))
        self._timers[tournament_id] = handles

    def disarm(self, tournament_id: int) -> None:
        for handle in self._timers.pop(tournament_id, []):
            handle.cancel()

    def disarm_all(self) -> None:
        for tournament_id in list(self._timers):
            self.disarm(tournament_id)
        for match_id in list(self._shows):
            self.disarm_no_show(match_id)

    def disarm_no_show(self, match_id: int) -> None:
        if (handle := self._shows.pop(match_id, None)) is not None:
            handle.cancel()

    async def _fire(self, tournament_id: int, number: int, deadline: bool) -> None:
        """A round's reminder or deadline. One the database refused is tried again (the
        clock's backoff): both reread the tournament, and the deadline's timer stays
        armed until its first write is committed."""
        try:
            work = self.deadline if deadline else self.remind
            response = await self.run(tournament_id, lambda: work(tournament_id, number))
        except CANNOT_SAVE:
            log.warning("tournament %s: the round %s %s could not be saved; trying again",
                        tournament_id, number, "deadline" if deadline else "reminder")
            raise
        except Exception:
            log.exception("tournament %s: the round %s %s failed", tournament_id, number,
                          "deadline" if deadline else "reminder")
            return
        for post in response.posts:
            try:
                await self.matches.deliver(post)
            except Exception:
                log.exception("tournament %s: a post could not be delivered", tournament_id)

    def armed(self, tournament_id: int) -> bool:
        return any(h.armed for h in self._timers.get(tournament_id, []))

    async def sweep(self) -> int:
        """The watchdog's round: every running tournament with a deadline and no armed
        timer is caught up (a deadline passed is settled) and armed again."""
        async with self.db.session() as s:
            ids = list((await s.scalars(select(TournamentRow.id).where(
                TournamentRow.status == RUNNING,
                TournamentRow.deadline_at.is_not(None)))).all())
        rearmed = 0
        for tournament_id in ids:
            if self.armed(tournament_id):
                continue
            rearmed += 1
            log.error("WATCHDOG: tournament %s had no timer for its round's deadline; "
                      "armed again", tournament_id)
            response = await self.run(tournament_id,
                                      functools.partial(self._catch_up, tournament_id))
            for post in response.posts:
                await self.matches.deliver(post)
        return rearmed

    async def remind(self, tournament_id: int, number: int) -> Response:
        """Before the deadline: who still has to play, pinged."""
        loaded = await self.load(tournament_id)
        row = loaded.row
        if row.status != RUNNING or row.deadline_at is None or row.reminded:
            return Response()
        state = loaded.core.state(loaded.events)
        if state.rounds[-1].number != number or state.round_complete:
            return Response()
        async with self.db.session() as s, s.begin():
            stored = await s.get(TournamentRow, tournament_id)
            assert stored is not None
            stored.reminded = True
        text = views.reminder(loaded, state, row.deadline_at - self.now(), row.deadline_at)
        return Response(posts=split(text, row.channel_id))

    async def deadline(self, tournament_id: int, number: int) -> Response:
        """The round's time is up: a pairing whose game is being played goes on; every
        other unfinished pairing is settled by the organiser's rule, and its match
        that never began is voided."""
        loaded = await self.load(tournament_id)
        row = loaded.row
        if row.status != RUNNING or row.deadline_at is None:
            return Response()
        state = loaded.core.state(loaded.events)
        rnd = state.rounds[-1]
        if rnd.number != number or state.round_complete:
            return Response()
        if row.deadline_at > self.now() + 1e-6:  # moved (a restart): not yet
            self.arm(tournament_id, row.deadline_at, row.reminded, number,
                     loaded.setup.remind_before)
            return Response()
        async with self.db.session() as s, s.begin():
            stored = await s.get(TournamentRow, tournament_id)
            assert stored is not None
            stored.deadline_at = None
        self.disarm(tournament_id)  # once written: a failed write is tried again
        reports, lines, unplayed, playing = views.no_shows(loaded, state, rnd)
        posts: list[Post] = []
        for match_id in unplayed:
            posts += (await self.matches.close(match_id, say.void_reason_deadline())).posts
        loaded = await self.load(tournament_id)
        notice = say.deadline_passed(name=row.name, number=number, lines=lines,
                                     playing=playing)
        if reports and loaded.core.options.forfeit_drops:
            notice += "\n" + say.withdrawn_note()
        posts += split(notice, row.channel_id)
        if reports:
            posts += await self.record(loaded, reports, note="round deadline")
        return Response(posts=posts)

    # ==== restarts =========================================================================

    async def restore(self) -> None:
        """After a start: every running tournament's deadline re-armed, and whatever its
        matches did while the bot was down taken in (a deadline that passed is settled)."""
        async with self.db.session() as s:
            rows = list((await s.scalars(select(TournamentRow).where(
                TournamentRow.status == RUNNING))).all())
        for row in rows:
            try:
                response = await self.run(row.id, functools.partial(self._catch_up, row.id))
                for post in response.posts:
                    await self.matches.deliver(post)
            except Exception:
                log.exception("tournament %s could not be restored", row.id)

    async def _catch_up(self, tournament_id: int) -> Response:
        posts = await self.advance(tournament_id)
        loaded = await self.load(tournament_id)
        row = loaded.row
        if row.status == RUNNING:
            self.arm_no_shows(loaded)
        state = loaded.core.state(loaded.events) if row.status == RUNNING else None
        if state is None or not state.rounds or row.deadline_at is None:
            return Response(posts=posts)
        number = state.rounds[-1].number
        if row.deadline_at <= self.now():
            posts += (await self.deadline(tournament_id, number)).posts
        else:
            self.arm(tournament_id, row.deadline_at, row.reminded, number,
                     loaded.setup.remind_before)
        return Response(posts=posts)
