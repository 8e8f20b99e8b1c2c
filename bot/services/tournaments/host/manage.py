"""Tournaments on a server, as hosts run them and players enter them: the requests
of ``/tournament …``. Each checks who may, changes the tournament under its lock
(``Flow.run``), writes before it announces, and answers with a ``Response``."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from sqlalchemy import func, select

from bot.core import buttons
from bot.core.clock import Clock
from bot.core.messages import Actor, Button, Image, Post, Response
from bot.core.requests import Asker
from bot.services import events, ratings
from bot.services.games import offered_game
from bot.services.matches import MatchEnd, Matches, startable
from bot.services.permissions import HostRoles
from bot.services.tournaments import (
    Dropped,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Rejoined,
    Reopened,
    Reported,
    State,
)
from bot.services.tournaments.host import views
from bot.services.tournaments.host.corrections import Rulings
from bot.services.tournaments.host.flow import Flow
from bot.services.tournaments.host.records import (
    CANCELLED,
    OPEN,
    RUNNING,
    Loaded,
    Setup,
    TournamentRefusal,
    TournamentSettings,
    choices,
    core_of,
    entrants,
    find,
    series_of,
)
from bot.services.tournaments.model import LOSS
from bot.services.users import remember
from bot.services.web import WebLink, linked, no_link
from bot.store.db import Database
from bot.store.models import Event as EventRow
from bot.store.models import Rating, TournamentPlayer
from bot.store.models import Tournament as TournamentRow
from bot.store.numbers import next_number
from bot.store.queries import user_names
from bot.store.season import eliminations
from bot.texts import rulings
from bot.texts import tournaments as say

MAX_PLAYERS = 128
MAX_BEST_OF = 9
MAX_PRIZE_PLACES = 16
MAX_PRIZE = 1_000_000
MAX_NAME = 50
RESULTS = {"1-0": Outcome.FIRST, "0-1": Outcome.SECOND, "draw": Outcome.DRAW,
           "½-½": Outcome.DRAW, "1/2-1/2": Outcome.DRAW, "+/-": Outcome.FIRST_BY_FORFEIT,
           "-/+": Outcome.SECOND_BY_FORFEIT, "-/-": Outcome.DOUBLE_FORFEIT}


def parse_prizes(text: str | None) -> tuple[int, ...]:
    """``10,5,3`` (garnets for 1st, 2nd, 3rd place), bounded."""
    if text is None or not text.strip():
        return ()
    try:
        prizes = tuple(int(p.strip()) for p in text.replace(";", ",").split(","))
    except ValueError:
        raise TournamentRefusal(say.bad_prizes(text=text,
                                               most_places=MAX_PRIZE_PLACES)) from None
    if len(prizes) > MAX_PRIZE_PLACES or any(not 0 <= p <= MAX_PRIZE for p in prizes):
        raise TournamentRefusal(say.bad_prizes(text=text, most_places=MAX_PRIZE_PLACES))
    return prizes


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME or name.lstrip("#").isdigit():
        raise TournamentRefusal(say.bad_name())
    return name


class Tournaments:
    """Every server's tournaments: built once by ``bot.app`` on the match host, whose
    ends it watches (``match_ended``) and whose start and stop it follows."""

    def __init__(self, db: Database, clock: Clock, matches: Matches, roles: HostRoles,
                 rng: random.Random | None = None, web_link: WebLink = no_link) -> None:
        self.db = db
        self.clock = clock
        self.matches = matches
        self.roles = roles
        self.rng = rng or random.Random()
        self.flow = Flow(db, clock, matches, web_link)
        self.rulings = Rulings(db, clock, matches, self.flow)
        self.web_link = web_link  # a tournament's web page (``bot.services.web``)

    # ---- what the composition root wires ---------------------------------------------------

    async def match_ended(self, end: MatchEnd) -> list[Post]:
        return await self.flow.match_ended(end)

    async def restore(self) -> None:
        await self.flow.restore()

    async def stop(self) -> None:
        self.flow.disarm_all()

    # ---- creating and entering -------------------------------------------------------------

    async def create(self, asker: Asker, settings: TournamentSettings) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        setup, event = settings.setup, settings.event
        name = check_name(settings.name)
        game = await offered_game(self.db, asker.guild_id, settings.game)
        options = game.check_options(setup.game_options)
        startable(game, 2, options)
        form = Format(settings.fmt)
        if settings.rounds is not None and form is not Format.SWISS:
            raise TournamentRefusal(say.rounds_only_swiss())
        if settings.double and form is not Format.ROUND_ROBIN:
            raise TournamentRefusal(say.double_only_round_robin())
        if settings.third_place and form is not Format.SINGLE:
            raise TournamentRefusal(say.third_only_single())
        if not 1 <= settings.best_of <= MAX_BEST_OF:
            raise TournamentRefusal(say.best_of_bounds(MAX_BEST_OF))
        rule = FirstRule(settings.first) if settings.first else FirstRule.ALTERNATE
        core = Options(rounds=settings.rounds, double=settings.double,
                       best_of=settings.best_of, first=rule, third_place=settings.third_place,
                       seed=self.rng.randrange(1, 2**31))
        setup = Setup(setup.time_control, options, setup.hints, setup.thread, setup.deadline,
                      setup.no_show, setup.prizes, setup.checkin, setup.auto, setup.show_up)
        async with self.db.session() as s, s.begin():
            # Left out: the server's open event (as every ``event:`` option); ``none``: none.
            event_row = (await events.resolve(s, asker.guild_id, event)).event
            if event_row is not None and not event_row.open:
                raise TournamentRefusal(say.event_closed(event_row.name))
            same = await s.scalar(select(TournamentRow.number).where(
                TournamentRow.guild_id == asker.guild_id,
                func.lower(TournamentRow.name) == name.lower()))
            if same is not None:
                raise TournamentRefusal(say.name_exists(name=name, number=same))
            await remember(s, asker.guild_id, [asker.actor])
            row = TournamentRow(
                guild_id=asker.guild_id, number=await next_number(s, asker.guild_id, "tournament"),
                name=name, game=game.key, format=form.value, options=core.to_json(),
                settings=setup.to_json(), status=OPEN, channel_id=asker.channel_id,
                event_id=event_row.id if event_row else None, created_by=asker.actor.id,
                created_at=self.clock.now())
            s.add(row)
            await s.flush()
            number = row.number
            rules = views.rules_text(row, setup, event_row.name if event_row else None)
        entry = [Button(say.join_button(), buttons.tournament_join(number), "success")]
        if setup.checkin:
            entry.append(Button(say.checkin_button(), buttons.tournament_checkin(number)))
        created = Response(reply=Post(say.created(name=name, number=number,
                                                  host_id=asker.actor.id, rules=rules,
                                                  checkin=setup.checkin),
                                      asker.channel_id, buttons=tuple(entry)))
        return linked(created, await self.web_link(asker.guild_id, f"/t/{number}"))

    async def join(self, asker: Asker, tournament: str | None = None) -> Response:
        return await self._enter(asker, [asker.actor], tournament, by_host=False)

    async def add(self, asker: Asker, people: Sequence[Actor],
                  tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        if not people:
            raise TournamentRefusal(say.name_player_or_role())
        return await self._enter(asker, people, tournament, by_host=True)

    async def _enter(self, asker: Asker, people: Sequence[Actor], tournament: str | None,
                     by_host: bool) -> Response:
        """Entries, as the event treats its eliminated players: they cannot enter its
        tournament themselves; a host who adds them is told (they play, as added)."""
        async with self.db.session() as s, s.begin():
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
            if row.status != OPEN:
                raise TournamentRefusal(say.entries_closed(name=row.name))
            have = {p.user_id for p in await entrants(s, row.id)}
            fresh = [p for p in dict.fromkeys(people) if p.id not in have]
            already = list(dict.fromkeys(p.id for p in people if p.id in have))
            if not fresh:
                raise TournamentRefusal(say.already_in(user_ids=already, name=row.name))
            if len(have) + len(fresh) > MAX_PLAYERS:
                raise TournamentRefusal(say.full(name=row.name, most=MAX_PLAYERS))
            event = await s.get(EventRow, row.event_id) if row.event_id else None
            out = (list(await eliminations(s, event.id, [p.id for p in fresh]))
                   if event is not None else [])
            if out and event is not None and not by_host:
                raise TournamentRefusal(rulings.eliminated_cannot_join(event=event.name))
            await remember(s, asker.guild_id, [asker.actor, *fresh])
            now = self.clock.now()
            for person in fresh:
                s.add(TournamentPlayer(tournament_id=row.id, user_id=person.id,
                                       checked_in=False, joined_at=now))
            count = len(have) + len(fresh)
        text = say.joined(user_ids=[p.id for p in fresh], name=row.name, count=count,
                          already=already)
        if out and event is not None:
            text += "\n" + rulings.eliminated_added(user_ids=out, event=event.name)
        return Response(reply=Post(text, row.channel_id, pings=()))

    async def checkin(self, asker: Asker, tournament: str | None = None) -> Response:
        async with self.db.session() as s, s.begin():
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
            if row.status != OPEN:
                raise TournamentRefusal(say.entries_closed(name=row.name))
            if not Setup.from_json(row.settings).checkin:
                raise TournamentRefusal(say.no_checkin())
            people = await entrants(s, row.id)
            mine = next((p for p in people if p.user_id == asker.actor.id), None)
            if mine is None:
                raise TournamentRefusal(say.not_entered(user_id=asker.actor.id, name=row.name))
            mine.checked_in = True
            ready = sum(1 for p in people if p.checked_in)
        return Response(reply=Post(say.checked_in(user_id=asker.actor.id, name=row.name,
                                                  ready=ready, count=len(people)),
                                   row.channel_id,
                                   pings=()))

    async def leave(self, asker: Asker, tournament: str | None = None) -> Response:
        return await self._withdraw(asker, asker.actor, tournament)

    async def drop(self, asker: Asker, person: Actor, tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        return await self._withdraw(asker, person, tournament)

    async def _withdraw(self, asker: Asker, person: Actor, tournament: str | None) -> Response:
        """Before the start, out of the entries; after it, withdrawn: not paired again,
        and an unfinished pairing of theirs is lost by forfeit."""
        async with self.db.session() as s, s.begin():
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
            if row.status == OPEN:
                people = await entrants(s, row.id)
                mine = next((p for p in people if p.user_id == person.id), None)
                if mine is None:
                    raise TournamentRefusal(say.not_entered(user_id=person.id, name=row.name))
                await s.delete(mine)
                text = (say.left(user_id=person.id, name=row.name, count=len(people) - 1)
                        if asker.actor.id == person.id
                        else say.removed(user_id=person.id, name=row.name,
                                         count=len(people) - 1))
                return Response(reply=Post(text, row.channel_id, pings=()))
            tid = row.id
        return await self.flow.run(tid, lambda: self._drop_running(tid, asker.actor, person))

    async def _drop_running(self, tid: int, actor: Actor, person: Actor) -> Response:
        loaded = await self._running(tid)
        if person.id not in loaded.players:
            raise TournamentRefusal(say.not_entered(user_id=person.id, name=loaded.row.name))
        state = loaded.core.state(loaded.events)
        if person.id in state.withdrawn:
            raise TournamentRefusal(say.already_withdrawn(user_id=person.id,
                                                          name=loaded.row.name))
        posts: list[Post] = []
        forfeit_to = None
        reports: list[Event] = []
        rnd = state.rounds[-1] if state.rounds else None
        pairing = rnd.of(person.id) if rnd is not None else None
        if rnd is not None and pairing is not None and state.outcome(rnd.number,
                                                                     pairing) is None:
            for game in loaded.games_of(rnd.number, pairing.board):
                if game.active:
                    posts += (await self.matches.close(game.match_id,
                                                       say.void_reason_withdrawn())).posts
            # A series its games decided before the drop keeps its result; otherwise the
            # forfeit is the pairing's end: no further game of it is started (the drop,
            # its forfeit and any result go to the log together, before anything more).
            loaded = await self._running(tid)
            reports = self.flow.decided(loaded, boards={pairing.board})
            if not reports:
                forfeit_to = pairing.opponent(person.id)
                reports.append(Reported(rnd.number, pairing.board,
                                        pairing.outcome(forfeit_to, forfeit=True)))
        reports.append(Dropped(person.id))
        posts += await self.flow.record(loaded, reports, actor.id, "withdrawn")
        said = Post(say.dropped(user_id=person.id, name=loaded.row.name, host_id=actor.id,
                                forfeit_to=forfeit_to), loaded.row.channel_id)
        return Response(reply=said, posts=posts)

    # ---- running it -------------------------------------------------------------------------

    async def start(self, asker: Asker, tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
        return await self.flow.run(row.id, lambda: self._start(row.id))

    async def _start(self, tid: int) -> Response:
        async with self.db.session() as s, s.begin():
            row = await s.get(TournamentRow, tid)
            assert row is not None
            if row.status != OPEN:
                raise TournamentRefusal(say.not_open(name=row.name, status=row.status))
            setup = Setup.from_json(row.settings)
            people = await entrants(s, tid)
            playing = [p for p in people if p.checked_in or not setup.checkin]
            if len(playing) < 2:
                raise TournamentRefusal(say.too_few(name=row.name, count=len(playing),
                                                    checkin=setup.checkin))
            rated = {r.user_id: r.ordinal for r in (await s.scalars(select(Rating).where(
                Rating.guild_id == row.guild_id, Rating.game == row.game,
                Rating.user_id.in_([p.user_id for p in playing])))).all()}
            fresh = ratings.ordinal(ratings.MODEL.mu, ratings.MODEL.sigma)
            # Seeds: by rating in the game (newcomers at a newcomer's rating), then entry.
            playing.sort(key=lambda p: (-rated.get(p.user_id, fresh), p.id))
            core_of(row, [p.user_id for p in playing])  # refuses what cannot be played
            for seed, p in enumerate(playing, start=1):
                p.seed = seed
            gone = [p for p in people if p not in playing]
            for p in gone:
                await s.delete(p)
            row.status = RUNNING
            row.started_at = self.clock.now()
            names = await user_names(s, row.guild_id, [p.user_id for p in people])
            text = say.started(name=row.name, number=row.number,
                               seeds=[names.get(p.user_id, p.user_id) for p in playing],
                               dropped=[names.get(p.user_id, p.user_id) for p in gone])
            event = await s.get(EventRow, row.event_id) if row.event_id else None
            out = (list(await eliminations(s, event.id, [p.user_id for p in playing]))
                   if event is not None else [])
            if out and event is not None:  # eliminated since they entered, or added so
                text += "\n" + rulings.eliminated_playing(user_ids=out, event=event.name)
            channel = row.channel_id
        loaded = await self.flow.load(tid)
        posts = await self.flow.begin_round(loaded)
        return Response(reply=Post(text, channel, pings=()), posts=posts)

    async def next_round(self, asker: Asker, tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
        return await self.flow.run(row.id, lambda: self._next(row.id))

    async def _next(self, tid: int) -> Response:
        loaded = await self._running(tid)
        state = loaded.core.state(loaded.events)
        if not state.round_complete:
            rnd = state.rounds[-1]
            raise TournamentRefusal(say.round_unfinished(
                number=rnd.number, boards=[p.board for p in state.pending()]))
        if loaded.core.finished(loaded.events):
            return Response(posts=await self.flow.advance(tid))
        return Response(posts=await self.flow.begin_round(loaded))

    async def reinstate(self, asker: Asker, person: Actor,
                        tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)

        async def work() -> Response:
            loaded = await self._running(row.id)
            state = loaded.core.state(loaded.events)
            if person.id not in state.withdrawn:
                raise TournamentRefusal(say.not_withdrawn(user_id=person.id, name=row.name))
            reports: list[Event] = [Rejoined(person.id)]
            board, stands = self._undo_forfeit(state, person.id)
            if board is not None:
                reports.append(Reopened(len(state.rounds), board))
            posts = await self.flow.record(loaded, reports, asker.actor.id, "reinstated")
            if board is not None:
                posts += await self.flow.advance(row.id)  # the pairing's game starts
            return Response(reply=Post(say.reinstated(user_id=person.id, name=row.name,
                                                      board=board, stands=stands),
                                       row.channel_id), posts=posts)

        return await self.flow.run(row.id, work)

    @staticmethod
    def _undo_forfeit(state: State, player: str) -> tuple[int | None, str | None]:
        """A drop undone within its round: the board whose forfeit the player lost and
        whose game can still be played; else why the forfeit stands (None: none to undo)."""
        if not state.rounds:
            return None, None
        rnd = state.rounds[-1]
        pairing = rnd.of(player)
        outcome = state.outcome(rnd.number, pairing) if pairing is not None else None
        if pairing is None or outcome is None or not outcome.forfeit:
            return None, None
        if outcome.points[pairing.players.index(player)] != LOSS:
            return None, None
        if state.round_complete:
            return None, say.forfeit_stands_round_over(number=rnd.number)
        opponent = pairing.opponent(player)
        if opponent in state.withdrawn:
            return None, say.forfeit_stands_opponent_out(user_id=opponent)
        return pairing.board, None

    async def adjudicate(self, asker: Asker, board: int, result: str, number: int | None = None,
                         reason: str = "", tournament: str | None = None) -> Response:
        """A host decides a pairing, or corrects a result of any round, also after the
        end (see ``corrections``)."""
        await self.roles.require_host(asker.guild_id, asker.actor)
        outcome = RESULTS.get(result.strip().lower().replace(" ", ""))
        if outcome is None:
            raise TournamentRefusal(say.bad_result())
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
        return await self.flow.run(row.id, functools.partial(
            self.rulings.decide, asker, row.id, board, outcome, number, reason))

    async def cancel(self, asker: Asker, tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)

        async def work() -> Response:
            async with self.db.session() as s, s.begin():
                fresh = await s.get(TournamentRow, row.id)
                assert fresh is not None
                if fresh.status not in (OPEN, RUNNING):
                    raise TournamentRefusal(say.not_open(name=fresh.name, status=fresh.status))
                fresh.status = CANCELLED
                fresh.finished_at = self.clock.now()
                fresh.deadline_at = None
            self.flow.disarm(row.id)
            self.flow.waiting.pop(row.id, None)
            loaded = await self.flow.load(row.id)
            posts: list[Post] = []
            for game in loaded.games:
                if game.active:
                    posts += (await self.matches.close(game.match_id,
                                                       say.void_reason_cancelled())).posts
            return Response(reply=Post(say.cancelled(name=row.name, host_id=asker.actor.id),
                                       row.channel_id), posts=posts)

        return await self.flow.run(row.id, work)

    # ---- reading it -------------------------------------------------------------------------

    async def _loaded(self, guild_id: str, channel_id: str, tournament: str | None) -> Loaded:
        async with self.db.session() as s:
            row = await find(s, guild_id, tournament, channel_id)
        return await self.flow.load(row.id)

    async def _running(self, tid: int) -> Loaded:
        loaded = await self.flow.load(tid)
        if loaded.row.status != RUNNING:
            raise TournamentRefusal(say.not_running(name=loaded.row.name,
                                                    status=loaded.row.status))
        return loaded

    async def standings(self, asker: Asker, tournament: str | None = None) -> Response:
        loaded = await self._loaded(asker.guild_id, asker.channel_id, tournament)
        if not loaded.events:
            raise TournamentRefusal(say.no_rounds_yet(name=loaded.row.name))
        post = await self.flow.standings_post(loaded)
        post.text = views.standings_text(loaded, limit=40)
        post.channel_id, post.ephemeral = None, True
        return linked(Response(reply=post), await self._page(loaded.row))

    async def pairings(self, asker: Asker, number: int | None = None,
                       tournament: str | None = None) -> Response:
        loaded = await self._loaded(asker.guild_id, asker.channel_id, tournament)
        played = len(loaded.core.state(loaded.events).rounds) if loaded.events else 0
        if not played:
            raise TournamentRefusal(say.no_rounds_yet(name=loaded.row.name))
        wanted = number or played
        if not 1 <= wanted <= played:
            raise TournamentRefusal(say.no_such_round(number=wanted, played=played))
        return linked(Response.say(views.pairings_text(loaded, wanted, asker.actor.id)),
                      await self._page(loaded.row))

    async def info(self, asker: Asker, tournament: str | None = None) -> Response:
        async with self.db.session() as s:
            row = await find(s, asker.guild_id, tournament, asker.channel_id)
            people = await entrants(s, row.id)
            names = await user_names(s, asker.guild_id, [p.user_id for p in people[:60]]
                                     + [row.created_by])
            event = await views.event_name(s, row.event_id)
        setup = Setup.from_json(row.settings)
        round_line = None
        if row.status == RUNNING:
            loaded = await self.flow.load(row.id)
            state = loaded.core.state(loaded.events)
            if state.rounds:
                round_line = say.now_playing(number=state.rounds[-1].number,
                                             of=loaded.core.rounds, left=len(state.pending()),
                                             deadline=row.deadline_at)
        return linked(Response.say(say.info(
            name=row.name, number=row.number, status=row.status,
            host=names.get(row.created_by, row.created_by),
            rules=views.rules_text(row, setup, event),
            entrants=[names.get(p.user_id, p.user_id) for p in people[:60]],
            checked=[p.checked_in and setup.checkin for p in people[:60]],
            count=len(people), round_line=round_line)), await self._page(row))

    async def _page(self, row: TournamentRow) -> str | None:
        return await self.web_link(row.guild_id, f"/t/{row.number}")

    async def export(self, asker: Asker, tournament: str | None = None) -> Response:
        await self.roles.require_host(asker.guild_id, asker.actor)
        loaded = await self._loaded(asker.guild_id, asker.channel_id, tournament)
        if not loaded.events:
            raise TournamentRefusal(say.no_rounds_yet(name=loaded.row.name))
        files: list[Image] = views.export(loaded)
        return Response(reply=Post(say.export_ready(name=loaded.row.name), ephemeral=True,
                                   attachments=tuple(files)))

    async def choices(self, guild_id: str, current: str) -> list[tuple[str, str]]:
        async with self.db.session() as s:
            return await choices(s, guild_id, current)


__all__ = ["Tournaments", "series_of"]
