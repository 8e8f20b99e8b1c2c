"""The match host: every rule of a match, once, for every chat platform.

Adapters (Discord, console) translate what people do into calls here and deliver
what comes back (a ``Response``), plus the posts the host makes on its own
(reminders, time-outs) through ``deliver``. The host never talks to a platform.

Order of work for anything that changes a match: check, compute the new state,
render the image (in a worker thread), commit to the database, and only then change
memory and announce. A crash at any point leaves either the old or the new match,
never half of one.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot import texts
from bot.core.clock import Clock, Handle
from bot.core.messages import Actor, Button, Image, Post, Response, mention
from bot.core.refusal import Refusal
from bot.core.timecontrol import TimeControl, clock_text
from bot.live import LiveMatch
from bot.services.events import EventError, plan_dm
from bot.services.permissions import HostRoles
from bot.services.render import Renderer
from bot.services.results import settle
from bot.services.users import remember
from bot.store.db import Database
from bot.store.models import (
    Heartbeat,
    HostAction,
    Match,
    MatchPlayer,
    Move,
)
from bot.store.movelog import MoveRecord, MoveWriter
from bot.store.queries import user_names
from engine.animation import Ply, final_position
from engine.game import EngineError, Game, GameOverError, MoveError, NotAMove, Outcome
from engine.registry import get_game

log = logging.getLogger(__name__)
P = ParamSpec("P")

ACTIVE = ("pending", "choosing", "running", "paused")
PLAYING = ("running", "paused")
CHALLENGE_TTL = 15 * 60.0  # an unanswered challenge lapses after this long
HEARTBEAT_EVERY = 2.0

Deliver = Callable[[Post], Awaitable[None]]


class HostError(Refusal):
    """A request the host refuses; the message is for the person who asked."""


@dataclass(frozen=True)
class HostConfig:
    instance: str = "main"
    default_host_role: str = "Host"
    dm_reward: int = 3
    heartbeat_every: float = HEARTBEAT_EVERY
    render_processes: int = 0  # 0: render in threads (tests); the bot uses processes


async def _nothing(_post: Post) -> None:
    return None


def _refusals(fn: Callable[Concatenate[Host, P], Awaitable[Response]]
              ) -> Callable[Concatenate[Host, P], Awaitable[Response]]:
    """A request the host refuses (HostError) is answered to the asker, privately."""
    @functools.wraps(fn)
    async def wrapper(self: Host, /, *args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return await fn(self, *args, **kwargs)
        except Refusal as exc:
            return Response.error(str(exc))

    return wrapper


class Host:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        config: HostConfig | None = None,
        deliver: Deliver | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.config = config or HostConfig()
        self.deliver: Deliver = deliver or _nothing
        self.rng = rng or random.Random()
        self.renderer = Renderer(self.config.render_processes)
        self.roles = HostRoles(db, self.config.default_host_role)
        self.moves = MoveWriter(db.engine)
        self.live: dict[int, LiveMatch] = {}
        # (channel, user) -> running match: how a typed message finds its match.
        self._by_seat: dict[tuple[str, str], LiveMatch] = {}
        self._pending_timers: dict[int, Handle] = {}
        self._heartbeat: Handle | None = None
        self._create_lock = asyncio.Lock()
        self._pending_locks: dict[int, asyncio.Lock] = {}
        # Observers for the benchmark: reminder lateness in seconds.
        self.on_reminder: Callable[[float], None] | None = None

    # ==== lifecycle ======================================================================

    async def start(self) -> None:
        """Restore every match that was running, with its clock as it stood."""
        now = self.clock.now()
        async with self.db.session() as s, s.begin():
            beat = await s.get(Heartbeat, self.config.instance)
            last_alive = beat.at if beat else None
            rows = (await s.scalars(select(Match).where(Match.status.in_(ACTIVE)))).all()
            for match in rows:
                if match.status == "running" and match.turn_resumed_at is not None:
                    # Count the turn up to when the bot was last known alive, never the
                    # outage: a restart must not cost a player time.
                    ran = (
                        max(0.0, last_alive - match.turn_resumed_at)
                        if last_alive is not None
                        else 0.0
                    )
                    match.turn_elapsed += ran
                    match.turn_resumed_at = now
            await self._beat(s, now)
        for match in rows:
            if match.status in PLAYING:
                live = await self._load_live(match)
                self._register(live)
                self._arm(live)
            elif match.status == "pending":
                self._arm_expiry(match.id, match.created_at + CHALLENGE_TTL)
        self._schedule_heartbeat()
        log.info("host started: %d matches restored", len(self.live))

    async def stop(self) -> None:
        """Stop timers and record the moment, so that the next start is exact."""
        for live in self.live.values():
            if live.timer:
                live.timer.cancel()
        for handle in self._pending_timers.values():
            handle.cancel()
        if self._heartbeat:
            self._heartbeat.cancel()
        async with self.db.session() as s, s.begin():
            await self._beat(s, self.clock.now())
        self.renderer.close()

    async def _beat(self, s: AsyncSession, now: float) -> None:
        beat = await s.get(Heartbeat, self.config.instance)
        if beat is None:
            s.add(Heartbeat(instance=self.config.instance, at=now))
        else:
            beat.at = now

    def _schedule_heartbeat(self) -> None:
        async def tick() -> None:
            # Only a running clock needs to know when the bot was last alive.
            if any(not live.paused for live in self.live.values()):
                async with self.db.engine.begin() as conn:
                    await conn.execute(
                        update(Heartbeat)
                        .where(Heartbeat.instance == self.config.instance)
                        .values(at=self.clock.now())
                    )
            self._schedule_heartbeat()

        self._heartbeat = self.clock.call_at(
            self.clock.now() + self.config.heartbeat_every, tick
        )

    async def _load_live(self, match: Match) -> LiveMatch:
        game = get_game(match.game)
        moves = (
            await self._scalars(
                select(Move).where(Move.match_id == match.id).order_by(Move.ply)
            )
        )
        state = final_position(game, [Ply(m.kind, m.seat, m.notation) for m in moves],
                               match.seats, match.options)
        players = sorted(match.players, key=lambda p: p.seat if p.seat is not None else 99)
        names = await self._names([p.user_id for p in players])
        live = LiveMatch(
            id=match.id,
            guild_id=match.guild_id,
            channel_id=match.channel_id,
            kind=match.kind,
            game=game,
            state=state,
            users=[p.user_id for p in players],
            names=names,
            tc=TimeControl.from_json(match.time_control),
            banks_left=[p.banks_left for p in players],
            time_used=[p.time_used for p in players],
            out=[p.out for p in players],
            ply=len(moves),
            turn_elapsed=match.turn_elapsed,
            resumed_at=match.turn_resumed_at if match.status == "running" else None,
            extra=match.turn_extra,
            hints=match.hints,
            reward=self._reward_of(match),
        )
        live.plan_reminders()
        return live

    def _reward_of(self, match: Match) -> int:
        tc = match.time_control
        return int(tc.get("reward", self.config.dm_reward)) if match.kind == "dm" else 0

    async def _scalars(self, stmt: Any) -> list[Any]:
        async with self.db.session() as s:
            return list((await s.scalars(stmt)).all())

    async def _names(self, user_ids: Sequence[str]) -> list[str]:
        async with self.db.session() as s:
            found = await user_names(s, user_ids)
        return [found.get(uid, uid) for uid in user_ids]

    # ==== permissions ====================================================================

    async def host_role(self, guild_id: str) -> str:
        return await self.roles.host_role(guild_id)

    async def is_host(self, guild_id: str, actor: Actor) -> bool:
        return await self.roles.is_host(guild_id, actor)

    async def _require_host(self, guild_id: str, actor: Actor) -> None:
        await self.roles.require_host(guild_id, actor)

    async def set_host_role(self, guild_id: str, actor: Actor, role: str) -> Response:
        try:
            role = await self.roles.set_host_role(guild_id, actor, role)
        except Refusal as exc:
            return Response.error(exc.text)
        return Response.say(f"Members with the role **{role}** can host matches now.", False)

    # ==== starting matches ===============================================================

    async def start_dm(
        self,
        guild_id: str,
        channel_id: str,
        actor: Actor,
        game_name: str,
        players: Sequence[Actor],
        chooser: str | None = None,
        options: dict[str, Any] | None = None,
        tc: TimeControl | None = None,
        hints: bool = False,
        reward: int | None = None,
        event: str | None = None,
    ) -> Response:
        """A host starts a Death Match between two players.

        ``chooser`` is a player's id (the one with higher priority chooses the First
        Player), "host" (the host chooses) or "lots" (the bot draws). ``event`` (a
        number or a name) is the event the DM counts for; without it the server's one
        open event if both play in it (see ``bot.events.plan_dm``).
        """
        try:
            await self._require_host(guild_id, actor)
            game = get_game(game_name)
            if len(players) != 2:
                raise HostError("A Death Match is between exactly two players.")
            ids = [p.id for p in players]
            if ids[0] == ids[1]:
                raise HostError("The two players of a Death Match must be different people.")
            options = game.check_options(options)
            game.new_state(2, options)
            tc = tc or TimeControl()
            plan = await plan_dm(self.db, guild_id, event, ids, chooser, reward,
                                 self.config.dm_reward)
            chooser = plan.chooser
            if chooser not in ("host", "lots") and chooser not in ids:
                raise HostError("The chooser is one of the two players, `host` or `lots`.")
            if reward is not None and not 0 <= reward <= 1_000_000:
                raise HostError("The reward is a number of garnets from 0 up.")
        except (Refusal, EngineError, EventError) as exc:
            return Response.error(str(exc))
        tc_json = tc.to_json() | {"reward": plan.reward}
        async with self._create_lock:
            busy = await self._busy_players(channel_id, ids)
            if busy:
                return Response.error(busy)
            async with self.db.session() as s, s.begin():
                await remember(s, [actor, *players])
                match = Match(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game.key,
                    kind="dm",
                    status="choosing",
                    seats=2,
                    options=options,
                    time_control=tc_json,
                    hints=hints,
                    rated=True,
                    host_id=actor.id,
                    chooser=chooser,
                    created_at=self.clock.now(),
                    event_id=plan.event_id,
                )
                s.add(match)
                await s.flush()
                for order, player in enumerate(players):
                    s.add(MatchPlayer(match_id=match.id, user_id=player.id, order=order,
                                      accepted=True, banks_left=tc.banks))
                match_id = match.id
        intro = (
            f"**{texts.match_label(match_id, 'dm')}: {game.title}** — "
            f"{mention(ids[0])} vs {mention(ids[1])}\n"
            f"{texts.options_line(game, options, tc)}.{plan.note}"
        )
        if chooser == "lots":
            started = await self._choose(match_id, None, self.rng.choice(ids), by_lots=True)
            started.posts.insert(0, Post(intro, channel_id))
            return Response(reply=Post(f"{texts.match_label(match_id, 'dm')} is set up.",
                                       ephemeral=True), posts=started.posts)
        who = "the host" if chooser == "host" else mention(chooser)
        buttons = tuple(
            Button(f"{p.name} goes first", f"garnet:first:{match_id}:{p.id}", "primary")
            for p in players
        )
        text = (
            f"{intro}\n{who}, choose the First Player: press a button or use "
            f"`/first player:@name`."
        )
        return Response(reply=Post(f"{texts.match_label(match_id, 'dm')} is set up.",
                                   ephemeral=True),
                        posts=[Post(text, channel_id, buttons=buttons)])

    async def challenge(
        self,
        guild_id: str,
        channel_id: str,
        actor: Actor,
        game_name: str,
        opponents: Sequence[Actor],
        first: str = "random",
        options: dict[str, Any] | None = None,
        tc: TimeControl | None = None,
        hints: bool = False,
        rated: bool = True,
    ) -> Response:
        """A casual game: the challenger names opponents, who each accept or decline."""
        try:
            game = get_game(game_name)
            ids = [actor.id, *[o.id for o in opponents]]
            if not opponents:
                raise HostError("Name who you challenge, e.g. `/challenge opponent:@name`.")
            if len(set(ids)) != len(ids):
                raise HostError("Every player of a match must be a different person "
                                "(and you cannot challenge yourself).")
            game.check_seats(len(ids))
            options = game.check_options(options)
            game.new_state(len(ids), options)
            first = first.strip().lower()
            if first not in ("me", "them", "random"):
                raise HostError("`first` is `me`, `them` or `random`.")
        except (HostError, EngineError) as exc:
            return Response.error(str(exc))
        tc = tc or TimeControl()
        async with self._create_lock:
            busy = await self._busy_players(channel_id, ids)
            if busy:
                return Response.error(busy)
            now = self.clock.now()
            async with self.db.session() as s, s.begin():
                await remember(s, [actor, *opponents])
                match = Match(
                    guild_id=guild_id, channel_id=channel_id, game=game.key, kind="casual",
                    status="pending", seats=len(ids), options=options,
                    time_control=tc.to_json(), hints=hints, rated=rated, host_id=None,
                    chooser=first, created_at=now,
                )
                s.add(match)
                await s.flush()
                for order, uid in enumerate(ids):
                    s.add(MatchPlayer(match_id=match.id, user_id=uid, order=order,
                                      accepted=order == 0, banks_left=tc.banks))
                match_id = match.id
        self._arm_expiry(match_id, now + CHALLENGE_TTL)
        others = ", ".join(mention(o.id) for o in opponents)
        text = (
            f"**{texts.match_label(match_id, 'casual')}: {game.title}** — {mention(actor.id)} "
            f"challenges {others}.\n{texts.options_line(game, options, tc)}"
            f"{' · hints on' if hints else ''}{'' if rated else ' · unrated'}.\n"
            f"Accept or decline with the buttons, or `/accept` / `/decline` "
            f"(open for {int(CHALLENGE_TTL // 60)} minutes)."
        )
        buttons = (
            Button("Accept", f"garnet:accept:{match_id}", "success"),
            Button("Decline", f"garnet:decline:{match_id}", "danger"),
        )
        return Response(reply=Post(text, channel_id, buttons=buttons))

    async def _busy_players(self, channel_id: str, user_ids: Sequence[str]) -> str | None:
        """Typed moves are routed by (channel, player), so one active match each."""
        async with self.db.session() as s:
            rows = (
                await s.execute(
                    select(MatchPlayer.user_id, Match.id)
                    .join(Match, Match.id == MatchPlayer.match_id)
                    .where(
                        Match.channel_id == channel_id,
                        Match.status.in_(ACTIVE),
                        MatchPlayer.user_id.in_(user_ids),
                    )
                )
            ).all()
        if not rows:
            return None
        user_id, match_id = rows[0]
        return (
            f"{mention(user_id)} is already in match #{match_id} in this channel; "
            f"finish it first or play in another channel or thread."
        )

    def _pending_lock(self, match_id: int) -> asyncio.Lock:
        return self._pending_locks.setdefault(match_id, asyncio.Lock())

    async def answer(self, match_id: int | None, guild_id: str, channel_id: str,
                     actor: Actor, accept: bool) -> Response:
        """Accept or decline a challenge."""
        try:
            match_id = await self._find(match_id, guild_id, channel_id, actor, ("pending",))
        except Refusal as exc:
            return Response.error(str(exc))
        async with self._pending_lock(match_id):
            async with self.db.session() as s, s.begin():
                match = await s.get(Match, match_id)
                if match is None or match.status != "pending":
                    return Response.error("That challenge is no longer open.")
                me = next((p for p in match.players if p.user_id == actor.id), None)
                if me is None or me.order == 0:
                    return Response.error("Only the challenged players can answer this "
                                          "challenge.")
                label = texts.match_label(match.id, match.kind)
                if not accept:
                    match.status = "declined"
                    match.finished_at = self.clock.now()
                    self._cancel_expiry(match.id)
                    return Response(reply=Post(
                        f"{mention(actor.id)} declined {label}.", match.channel_id))
                await remember(s, [actor])
                me.accepted = True
                waiting = [p.user_id for p in match.players if not p.accepted]
                first = match.chooser or "random"
            if waiting:
                return Response(reply=Post(
                    f"{mention(actor.id)} accepted {label}. Waiting for "
                    f"{', '.join(mention(w) for w in waiting)}.", match.channel_id))
            self._cancel_expiry(match_id)
            order = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
            if first == "random":
                self.rng.shuffle(order)
            elif first == "them":
                order = order[1:] + order[:1]
            result = await self._start(match_id, order, note="")
            result.reply = Post(f"{mention(actor.id)} accepted {label}.", match.channel_id)
            return result

    async def cancel(self, match_id: int | None, guild_id: str, channel_id: str,
                     actor: Actor) -> Response:
        """The challenger withdraws a challenge not yet accepted by all."""
        try:
            match_id = await self._find(match_id, guild_id, channel_id, actor, ("pending",))
        except Refusal as exc:
            return Response.error(str(exc))
        async with self._pending_lock(match_id), self.db.session() as s, s.begin():
            match = await s.get(Match, match_id)
            if match is None or match.status != "pending":
                return Response.error("That challenge is no longer open.")
            challenger = next(p for p in match.players if p.order == 0)
            if challenger.user_id != actor.id:
                return Response.error("Only the challenger can withdraw a challenge.")
            match.status = "cancelled"
            match.finished_at = self.clock.now()
            where = match.channel_id
        self._cancel_expiry(match_id)
        return Response(reply=Post(f"{mention(actor.id)} withdrew match #{match_id}.", where))

    def _arm_expiry(self, match_id: int, when: float) -> None:
        async def expire() -> None:
            self._pending_timers.pop(match_id, None)
            async with self._pending_lock(match_id), self.db.session() as s, s.begin():
                match = await s.get(Match, match_id)
                if match is None or match.status != "pending":
                    return
                match.status = "expired"
                match.finished_at = self.clock.now()
                channel = match.channel_id
            await self.deliver(Post(f"Match #{match_id} lapsed: the challenge was not "
                                    "accepted in time.", channel))

        self._pending_timers[match_id] = self.clock.call_at(when, expire)

    def _cancel_expiry(self, match_id: int) -> None:
        handle = self._pending_timers.pop(match_id, None)
        if handle:
            handle.cancel()

    async def choose_first(self, match_id: int | None, guild_id: str, channel_id: str,
                           actor: Actor, first_user: str) -> Response:
        """The chooser (or a host) names the First Player of a Death Match."""
        try:
            match_id = await self._find(match_id, guild_id, channel_id, actor, ("choosing",))
        except Refusal as exc:
            return Response.error(str(exc))
        return await self._choose(match_id, actor, first_user)

    async def _choose(self, match_id: int, actor: Actor | None, first_user: str,
                      by_lots: bool = False) -> Response:
        async with self._pending_lock(match_id):
            async with self.db.session() as s:
                match = await s.get(Match, match_id)
            if match is None or match.status != "choosing":
                return Response.error("The First Player of that match is already chosen.")
            ids = [p.user_id for p in sorted(match.players, key=lambda p: p.order)]
            # Hosts may always choose: they stand in for a chooser who is away.
            if (actor is not None and actor.id != match.chooser
                    and not await self.is_host(match.guild_id, actor)):
                    chooser = "The host" if match.chooser == "host" else mention(
                        match.chooser or "")
                    return Response.error(
                        f"{chooser} chooses the First Player of this match, not you.")
            if first_user not in ids:
                return Response.error("The First Player must be one of the two players.")
            order = [first_user] + [u for u in ids if u != first_user]
            if by_lots:
                note = f"Lots were drawn: {mention(first_user)} is the First Player."
            elif actor is not None:
                note = f"{mention(actor.id)} chose {mention(first_user)} as the First Player."
            else:
                note = ""
            return await self._start(match_id, order, note)

    async def _start(self, match_id: int, order: list[str], note: str) -> Response:
        """Seat the players (seat 0 first), post the board and start the clock."""
        async with self.db.session() as s:
            match = await s.get(Match, match_id)
        assert match is not None
        game = get_game(match.game)
        state = game.new_state(match.seats, match.options)
        names = await self._names(order)
        tc = TimeControl.from_json(match.time_control)
        image = await self._render(game, state, names, match.hints)
        now = self.clock.now()
        async with self.db.session() as s, s.begin():
            row = await s.get(Match, match_id)
            assert row is not None
            for player in row.players:
                player.seat = order.index(player.user_id)
                player.banks_left = tc.banks
            row.status = "running"
            row.started_at = now
            row.turn_elapsed = 0.0
            row.turn_resumed_at = now
            row.turn_extra = 0.0
        live = LiveMatch(
            id=match.id, guild_id=match.guild_id, channel_id=match.channel_id,
            kind=match.kind, game=game, state=state, users=order, names=names, tc=tc,
            banks_left=[tc.banks] * len(order), time_used=[0.0] * len(order),
            out=[False] * len(order), ply=0, turn_elapsed=0.0, resumed_at=now, extra=0.0,
            hints=match.hints, reward=self._reward_of(match),
        )
        live.plan_reminders()
        self._register(live)
        self._arm(live)
        label = texts.match_label(match.id, match.kind)
        lines = [note] if note else []
        lines.append(f"**{label} begins: {game.title}** — {texts.seat_line(game, state, order)}")
        if len(order) > 2:
            lines.append("Turn order: " + " → ".join(names))
        lines.append(self._turn_line(live))
        return Response(posts=[Post("\n".join(lines), match.channel_id, image=image)])

    # ==== moves ==========================================================================

    async def typed(self, channel_id: str, actor: Actor, text: str,
                    message_id: str | None = None) -> Response:
        """A message in a channel. Only a player's message can touch their match, and
        only one that reads as a move; everything else is ignored."""
        received = self.clock.now()
        live = self._live_for(channel_id, actor.id)
        if live is None:
            return Response()
        return await self._submit(live, actor, text, message_id, explicit=False,
                                  received=received, ply_seen=live.ply)

    async def move(self, match_id: int | None, guild_id: str, channel_id: str,
                   actor: Actor, text: str) -> Response:
        """``/move``: the same as typing the move, with every problem reported."""
        received = self.clock.now()
        try:
            live = await self._find_live(match_id, channel_id, actor, player=True)
        except Refusal as exc:
            return Response.error(str(exc))
        return await self._submit(live, actor, text, None, explicit=True, received=received,
                                  ply_seen=live.ply)

    def _register(self, live: LiveMatch) -> None:
        self.live[live.id] = live
        for user in live.users:
            self._by_seat[(live.channel_id, user)] = live

    def _live_for(self, channel_id: str, user_id: str) -> LiveMatch | None:
        live = self._by_seat.get((channel_id, user_id))
        return live if live is not None and not live.finished else None

    async def _submit(self, live: LiveMatch, actor: Actor, text: str,
                      message_id: str | None, explicit: bool, received: float,
                      ply_seen: int) -> Response:
        """Apply a player's move if it is their first valid submission of their turn.

        ``ply_seen`` is the move number when the message arrived: a message that
        arrived before another move was applied was not sent on its sender's turn
        and never counts, even if the turn is theirs by the time it is read.
        """
        async with live.lock:
            if live.finished:
                return Response.error("That match is over.") if explicit else Response()
            if message_id is not None:
                if message_id in live.seen:
                    return Response()
                live.seen.append(message_id)
            seat = live.seat_of(actor.id)
            game, state = live.game, live.state
            if seat is None or live.out[seat]:
                return Response.error("You are not playing in that match.") if explicit \
                    else Response()
            try:
                move = game.parse_move(state, text)
            except NotAMove as exc:
                if explicit:
                    return Response.error(f"{exc} {game.move_help}".strip())
                return Response()
            except GameOverError as exc:
                return Response.error(str(exc))
            except MoveError as exc:
                if seat != live.to_move:
                    return self._not_your_turn(live, explicit)
                return Response.error(f"{exc}")
            if live.ply != ply_seen:
                if seat == live.to_move:
                    return Response.error("Your message arrived before the last move was "
                                          "in; it is your turn now: send your move again.")
                return self._not_your_turn(live, explicit)
            if seat != live.to_move:
                return self._not_your_turn(live, explicit)
            if live.paused:
                return Response.error("The match is paused; wait for the host to resume it.")
            elapsed = live.elapsed(received)
            if live.tc.enabled and elapsed >= live.flag_at() - 1e-9:
                return await self._timeout(live)
            return await self._apply(live, seat, move, elapsed, received, message_id)

    def _not_your_turn(self, live: LiveMatch, explicit: bool) -> Response:
        seat = live.to_move
        if seat is None:
            return Response.error("That match is over.")
        return Response.error(f"It is {live.names[seat]}'s turn, not yours.")

    async def _apply(self, live: LiveMatch, seat: int, move: Any, elapsed: float,
                     received: float, message_id: str | None) -> Response:
        game = live.game
        new_state = game.apply(live.state, move)
        notation = game.notation(move)
        spent = live.tc.banks_spent(elapsed, live.extra) if live.tc.enabled else 0
        outcome = game.outcome(new_state)
        image = await self._render(game, new_state, live.names, live.hints and outcome is None)
        now = self.clock.now()
        banks_left = list(live.banks_left)
        banks_left[seat] -= spent
        time_used = list(live.time_used)
        time_used[seat] += elapsed
        result_text = None
        try:
            if outcome is None:
                # The common case goes through the batching writer (see movelog).
                await self.moves.write(MoveRecord(
                    match_id=live.id, ply=live.ply + 1, seat=seat, notation=notation,
                    elapsed=elapsed, banks_spent=spent, at=received, message_id=message_id,
                    banks_left=banks_left[seat], time_used=time_used[seat],
                    turn_starts_at=now))
                # The next clock starts once the move is safe, never earlier.
                now = max(now, self.clock.now())
            else:
                async with self.db.session() as s, s.begin():
                    await s.execute(insert(Move).values(
                        match_id=live.id, ply=live.ply + 1, seat=seat, kind="move",
                        notation=notation, elapsed=elapsed, banks_spent=spent, at=received,
                        message_id=message_id))
                    await s.execute(
                        update(MatchPlayer)
                        .where(MatchPlayer.match_id == live.id, MatchPlayer.seat == seat)
                        .values(banks_left=banks_left[seat], time_used=time_used[seat])
                    )
                    result_text = await self._book_result(
                        s, live, outcome.winner, outcome.draw, outcome.scores, "rules",
                        outcome.reason, now)
        except IntegrityError:
            log.warning("match %s: ply %s was already written", live.id, live.ply + 1)
            return Response.error("That move could not be saved; please send it again.")
        live.state = new_state
        live.ply += 1
        live.banks_left = banks_left
        live.time_used = time_used
        label = texts.match_label(live.id, live.kind)
        head = (f"{label} · move {live.ply}: {mention(live.users[seat])} "
                f"({game.seat_name(new_state, seat)}) played **{notation}**")
        if spent:
            head += f" (used {texts.banks(spent)}, {texts.banks(banks_left[seat])} left)"
        if outcome is not None:
            self._end_live(live)
            assert result_text is not None
            return Response(posts=[Post(f"{head}\n{result_text}", live.channel_id, image=image)])
        live.new_turn(now)
        self._arm(live)
        return Response(posts=[Post(f"{head}\n{self._turn_line(live)}", live.channel_id,
                                    image=image)])

    def _turn_line(self, live: LiveMatch) -> str:
        seat = live.to_move
        status = live.game.status(live.state)
        extra = f"\n{status}" if status else ""
        if seat is None:
            return status
        clock = ""
        if live.tc.enabled:
            clock = " — " + texts.clock_left(live.tc, live.elapsed(self.clock.now()),
                                             live.banks_left[seat], live.extra)
        return (f"{mention(live.users[seat])} ({live.game.seat_name(live.state, seat)}) "
                f"to move{clock}.{extra}")

    async def _render(self, game: Game[Any, Any], state: Any, names: Sequence[str],
                      hints: bool, banner: str | None = None) -> Image:
        data = await self.renderer.render(game, state, names, hints, banner)
        return Image(data, f"{game.key}.png")

    # ==== clocks =========================================================================

    def _arm(self, live: LiveMatch) -> None:
        """Set the one timer of a match: the next reminder or the flag, whichever first."""
        if live.timer:
            live.timer.cancel()
            live.timer = None
        if live.finished or live.paused or not live.tc.enabled or live.to_move is None:
            return
        assert live.resumed_at is not None
        due = live.flag_at()
        if live.next_reminder < len(live.reminders):
            due = min(due, live.reminders[live.next_reminder].at)
        when = live.resumed_at + (due - live.turn_elapsed)
        live.timer = self.clock.call_at(when, lambda: self._tick(live))

    async def _tick(self, live: LiveMatch) -> None:
        async with live.lock:
            live.timer = None
            if live.finished or live.paused:
                return
            now = self.clock.now()
            elapsed = live.elapsed(now)
            if elapsed >= live.flag_at() - 1e-6:
                response = await self._timeout(live)
                for post in response.posts:
                    await self.deliver(post)
                return
            due = None
            while (live.next_reminder < len(live.reminders)
                   and live.reminders[live.next_reminder].at <= elapsed + 1e-6):
                due = live.reminders[live.next_reminder]
                live.next_reminder += 1
            self._arm(live)
            seat = live.to_move
        if due is not None and seat is not None:
            # Several overdue at once (the loop was stalled) post only the newest.
            if self.on_reminder is not None:
                self.on_reminder(elapsed - due.at)
            await self.deliver(Post(texts.reminder(live.users[seat], due, live.tc),
                                    live.channel_id))

    async def _timeout(self, live: LiveMatch) -> Response:
        """The player to move ran out of reserve: an instant loss (caller holds the lock)."""
        seat = live.to_move
        assert seat is not None
        now = self.clock.now()
        elapsed = live.elapsed(now)
        who = mention(live.users[seat])
        if self._active_seats(live) > 2:
            return await self._eliminate(live, seat, elapsed, f"{who} ran out of time.")
        winner = next(i for i in range(len(live.users)) if i != seat and not live.out[i])
        reason = f"{live.names[seat]} ran out of time"
        return await self._finish_by(live, winner, "timeout", reason, elapsed_of=seat,
                                     elapsed=elapsed)

    def _active_seats(self, live: LiveMatch) -> int:
        return sum(1 for o in live.out if not o)

    async def _eliminate(self, live: LiveMatch, seat: int, elapsed: float,
                         why: str) -> Response:
        """A seat leaves a game of more than two; the others play on."""
        game = live.game
        new_state = game.eliminate(live.state, seat)
        outcome = game.outcome(new_state)
        image = await self._render(game, new_state, live.names, live.hints and outcome is None)
        now = self.clock.now()
        moved = live.to_move == seat
        async with self.db.session() as s, s.begin():
            s.add(Move(match_id=live.id, ply=live.ply + 1, seat=seat, kind="out",
                       notation="out", elapsed=elapsed if moved else 0.0, banks_spent=0,
                       at=now))
            await s.execute(update(MatchPlayer).where(
                MatchPlayer.match_id == live.id, MatchPlayer.seat == seat).values(out=True))
            if moved:
                await s.execute(update(Match).where(Match.id == live.id).values(
                    turn_elapsed=0.0, turn_resumed_at=now, turn_extra=0.0))
            result_text = None
            if outcome is not None:
                result_text = await self._book_result(
                    s, live, outcome.winner, outcome.draw, outcome.scores, "rules",
                    outcome.reason, now)
        live.state = new_state
        live.ply += 1
        live.out[seat] = True
        if outcome is not None:
            self._end_live(live)
            return Response(posts=[Post(f"{why}\n{result_text}", live.channel_id, image=image)])
        if moved:
            live.new_turn(now)
        self._arm(live)
        return Response(posts=[Post(f"{why} They are out of the game.\n{self._turn_line(live)}",
                                    live.channel_id, image=image)])

    async def _finish_by(self, live: LiveMatch, winner: int | None, how: str, reason: str,
                         elapsed_of: int | None = None, elapsed: float = 0.0,
                         draw: bool = False,
                         action: tuple[Actor, str, str] | None = None) -> Response:
        """End a match by something other than the rules (time, resignation, host).

        ``action`` is a host action to log in the same transaction as the result."""
        now = self.clock.now()
        verdict = "Draw" if winner is None else f"{live.names[winner]} wins"
        image = await self._render(live.game, live.state, live.names, False,
                                   banner=f"{verdict}: {reason}")
        time_used, banks_left = list(live.time_used), list(live.banks_left)
        async with self.db.session() as s, s.begin():
            if elapsed_of is not None:
                time_used[elapsed_of] += elapsed
                if how == "timeout":  # the whole reserve went with the clock
                    banks_left[elapsed_of] = 0
                await s.execute(update(MatchPlayer).where(
                    MatchPlayer.match_id == live.id, MatchPlayer.seat == elapsed_of
                ).values(time_used=time_used[elapsed_of], banks_left=banks_left[elapsed_of]))
            if action is not None:
                await self._log(s, live.id, *action)
            text = await self._book_result(s, live, winner, draw, None, how, reason, now)
        live.time_used, live.banks_left = time_used, banks_left
        self._end_live(live)
        return Response(posts=[Post(text, live.channel_id, image=image)])

    async def _book_result(self, s: AsyncSession, live: LiveMatch, winner: int | None,
                           draw: bool, scores: tuple[int, ...] | None, how: str,
                           reason: str, now: float) -> str:
        """Write the result and pay the reward, in the caller's transaction, once."""
        match = await s.get(Match, live.id)
        assert match is not None
        match.status = "finished"
        match.finished_at = now
        match.winner_seat = winner
        match.draw = draw
        match.scores = list(scores) if scores is not None else None
        match.end_reason = how
        match.turn_resumed_at = None
        label = texts.match_label(live.id, live.kind)
        if winner is None:
            text = f"**{label} ends in a draw** — {reason}."
        else:
            text = f"🏆 **{mention(live.users[winner])} wins {label}** — {reason}."
        # The reward, an event's confiscation and the ratings, each booked once.
        text += await settle(s, match, live.users, winner, live.reward, now)
        match.result_text = text
        return text

    def _end_live(self, live: LiveMatch) -> None:
        live.finished = True
        if live.timer:
            live.timer.cancel()
            live.timer = None
        self.live.pop(live.id, None)
        for user in live.users:
            if self._by_seat.get((live.channel_id, user)) is live:
                del self._by_seat[(live.channel_id, user)]

    # ==== players' other requests ========================================================

    async def resign(self, match_id: int | None, guild_id: str, channel_id: str,
                     actor: Actor) -> Response:
        try:
            live = await self._find_live(match_id, channel_id, actor, player=True)
        except Refusal as exc:
            return Response.error(str(exc))
        async with live.lock:
            if live.finished:
                return Response.error("That match is over.")
            seat = live.seat_of(actor.id)
            assert seat is not None
            now = self.clock.now()
            on_turn = live.to_move == seat
            elapsed = live.elapsed(now) if on_turn else 0.0
            if self._active_seats(live) > 2:
                return await self._eliminate(live, seat, elapsed,
                                             f"{mention(actor.id)} resigned.")
            winner = next(i for i in range(len(live.users)) if i != seat and not live.out[i])
            return await self._finish_by(live, winner, "resign",
                                         f"{live.names[seat]} resigned",
                                         elapsed_of=seat if on_turn else None, elapsed=elapsed)

    async def board(self, match_id: int | None, guild_id: str, channel_id: str,
                    actor: Actor, public: bool = False) -> Response:
        """The current board: to the asker, or to the channel (``/repost``, hosts only)."""
        try:
            if public:
                await self._require_host(guild_id, actor)
            live = await self._find_live(match_id, channel_id, actor, player=False)
        except Refusal as exc:
            return Response.error(str(exc))
        image = await self._render(live.game, live.state, live.names,
                                   live.hints and not live.finished)
        label = texts.match_label(live.id, live.kind)
        seats = texts.seat_line(live.game, live.state, live.users)
        text = f"**{label}: {live.game.title}** — {seats}"
        text += f"\nMove {live.ply}. {'Paused. ' if live.paused else ''}{self._turn_line(live)}"
        if public:
            return Response(reply=Post("Board posted.", ephemeral=True),
                            posts=[Post(text, live.channel_id, image=image)])
        return Response(reply=Post(text, image=image, ephemeral=True))

    async def time(self, match_id: int | None, guild_id: str, channel_id: str,
                   actor: Actor) -> Response:
        try:
            live = await self._find_live(match_id, channel_id, actor, player=False)
        except Refusal as exc:
            return Response.error(str(exc))
        if not live.tc.enabled:
            return Response.say("This match has no clock.")
        now = self.clock.now()
        lines = []
        for seat in range(len(live.users)):
            if live.out[seat]:
                continue
            if seat == live.to_move:
                left = texts.clock_left(live.tc, live.elapsed(now), live.banks_left[seat],
                                        live.extra)
                lines.append(f"▶ {live.names[seat]}: {left}")
            else:
                lines.append(f"  {live.names[seat]}: {texts.banks(live.banks_left[seat])} "
                             f"({clock_text(live.banks_left[seat] * live.tc.bank)}) of reserve")
        if live.paused:
            lines.append("The clock is paused.")
        return Response.say("\n".join(lines))

    # ==== host controls ==================================================================

    @asynccontextmanager
    async def _controlled(self, match_id: int | None, guild_id: str, channel_id: str,
                          actor: Actor) -> AsyncIterator[LiveMatch]:
        """A host's hold on a running match: checked, found, locked, not yet over."""
        await self._require_host(guild_id, actor)
        live = await self._find_live(match_id, channel_id, actor, player=False)
        async with live.lock:
            if live.finished:
                raise HostError("That match is over.")
            yield live

    async def _log(self, s: AsyncSession, match_id: int, actor: Actor, action: str,
                   detail: str) -> None:
        await remember(s, [actor])
        s.add(HostAction(match_id=match_id, actor_id=actor.id, action=action, detail=detail,
                         at=self.clock.now()))

    @_refusals
    async def pause(self, match_id: int | None, guild_id: str, channel_id: str,
                    actor: Actor, reason: str = "") -> Response:
        async with self._controlled(match_id, guild_id, channel_id, actor) as live:
            if live.paused:
                raise HostError("That match is already paused.")
            elapsed = live.elapsed(self.clock.now())
            async with self.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    status="paused", turn_elapsed=elapsed, turn_resumed_at=None))
                await self._log(s, live.id, actor, "pause", reason)
            live.turn_elapsed = elapsed
            live.resumed_at = None
            self._arm(live)
        why = f" ({reason})" if reason else ""
        return Response(reply=Post(
            f"⏸ {texts.match_label(live.id, live.kind)} is paused by {mention(actor.id)}{why}. "
            f"The clock stands still until `/resume`.", live.channel_id))

    @_refusals
    async def resume(self, match_id: int | None, guild_id: str, channel_id: str,
                     actor: Actor) -> Response:
        async with self._controlled(match_id, guild_id, channel_id, actor) as live:
            if not live.paused:
                raise HostError("That match is not paused.")
            now = self.clock.now()
            async with self.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    status="running", turn_resumed_at=now))
                await self._log(s, live.id, actor, "resume", "")
            live.resumed_at = now
            self._arm(live)
            line = self._turn_line(live)
        return Response(reply=Post(
            f"▶ {texts.match_label(live.id, live.kind)} resumes. {line}", live.channel_id))

    @_refusals
    async def extend(self, match_id: int | None, guild_id: str, channel_id: str,
                     actor: Actor, seconds: float) -> Response:
        """Add seconds to the turn time of the player to move, for this turn."""
        if not 1 <= seconds <= 86_400:
            raise HostError("Extend by 1 s to 24 h.")
        async with self._controlled(match_id, guild_id, channel_id, actor) as live:
            if not live.tc.enabled:
                raise HostError("That match has no clock.")
            extra = live.extra + seconds
            async with self.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    turn_extra=extra))
                await self._log(s, live.id, actor, "extend", f"{seconds:g} s")
            live.extra = extra
            if not live.paused:
                now = self.clock.now()
                live.turn_elapsed, live.resumed_at = live.elapsed(now), now
            live.plan_reminders()
            self._arm(live)
            line = self._turn_line(live)
        return Response(reply=Post(
            f"⏱ {mention(actor.id)} added {seconds:g} s to this turn. {line}", live.channel_id))

    @_refusals
    async def void(self, match_id: int | None, guild_id: str, channel_id: str,
                   actor: Actor, reason: str) -> Response:
        """Cancel a match without a result (no reward, no rating)."""
        if not reason.strip():
            raise HostError("Give a reason: it is logged with the match.")
        async with self._controlled(match_id, guild_id, channel_id, actor) as live:
            async with self.db.session() as s, s.begin():
                await s.execute(update(Match).where(Match.id == live.id).values(
                    status="voided", finished_at=self.clock.now(), end_reason="void",
                    turn_resumed_at=None, result_text=f"voided by the host: {reason}"))
                await self._log(s, live.id, actor, "void", reason)
            self._end_live(live)
        return Response(reply=Post(
            f"🚫 {texts.match_label(live.id, live.kind)} is void ({reason}). "
            "No result is recorded.", live.channel_id))

    @_refusals
    async def adjudicate(self, match_id: int | None, guild_id: str, channel_id: str,
                         actor: Actor, winner: str | None, reason: str) -> Response:
        """The host decides the result: a player wins, or (``winner`` None) a draw."""
        if not reason.strip():
            raise HostError("Give a reason: it is logged with the match.")
        async with self._controlled(match_id, guild_id, channel_id, actor) as live:
            seat = live.seat_of(winner) if winner else None
            if winner and seat is None:
                raise HostError("The winner must be a player of that match.")
            return await self._finish_by(
                live, seat, "adjudicated", f"adjudicated by the host: {reason}",
                draw=seat is None,
                action=(actor, "adjudicate", f"winner {winner or 'none (draw)'}: {reason}"))

    # ==== finding the match a request is about ===========================================

    async def _find(self, match_id: int | None, guild_id: str, channel_id: str,
                    actor: Actor, statuses: Sequence[str]) -> int:
        """The match a request means: the one named, else the asker's in this channel."""
        async with self.db.session() as s:
            if match_id is not None:
                match = await s.get(Match, match_id)
                if match is None or match.guild_id != guild_id:
                    raise HostError(f"There is no match #{match_id} on this server.")
                if match.status not in statuses:
                    raise HostError(f"Match #{match_id} is {match.status}.")
                return match.id
            rows = (await s.execute(
                select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id).where(
                    Match.channel_id == channel_id, Match.status.in_(statuses),
                    MatchPlayer.user_id == actor.id))).scalars().all()
            if len(rows) == 1:
                return int(rows[0])
            if not rows:
                # A chooser who is not playing (the host) names the match by channel.
                only = (await s.execute(select(Match.id).where(
                    Match.channel_id == channel_id, Match.status.in_(statuses)))).scalars().all()
                if len(only) == 1:
                    return int(only[0])
                if not only:
                    raise HostError("There is no such match in this channel.")
            raise HostError("Several matches could be meant here; add `match:` with its "
                            "number.")

    async def _find_live(self, match_id: int | None, channel_id: str, actor: Actor,
                         player: bool) -> LiveMatch:
        if match_id is not None:
            live = self.live.get(match_id)
            if live is None:
                raise HostError(f"Match #{match_id} is not being played now.")
        else:
            live = self._live_for(channel_id, actor.id)
            if live is None and not player:
                here = [m for m in self.live.values() if m.channel_id == channel_id]
                if len(here) == 1:
                    live = here[0]
                elif len(here) > 1:
                    raise HostError("Several matches are running here; add `match:` with "
                                    "its number.")
            if live is None:
                raise HostError("There is no match of yours running in this channel.")
        if player and live.seat_of(actor.id) is None:
            raise HostError("You are not playing in that match.")
        return live

    async def outcome_of(self, match_id: int) -> Outcome | None:
        live = self.live.get(match_id)
        return live.game.outcome(live.state) if live else None

    # ==== for autocomplete =================================================================

    def suggest_moves(self, channel_id: str, user_id: str, prefix: str,
                      limit: int = 25) -> list[str]:
        """Legal moves starting with ``prefix`` for the asker's running match, if on turn.

        Casual matches with hints only: in a Death Match, listing the legal moves
        would give away which cells are critical.
        """
        live = self._live_for(channel_id, user_id)
        if live is None or not live.hints or live.to_move != live.seat_of(user_id):
            return []
        wanted = prefix.strip().lower().replace(" ", "")
        moves = sorted(live.game.notation(m) for m in live.game.legal_moves(live.state))
        return [m for m in moves if m.lower().startswith(wanted)][:limit]

    async def open_matches(self, guild_id: str, user_id: str | None = None,
                           limit: int = 25) -> list[tuple[int, str]]:
        """Active matches on a server (of one user, if given), as (id, label), newest first."""
        async with self.db.session() as s:
            query = select(Match).where(Match.guild_id == guild_id, Match.status.in_(ACTIVE))
            if user_id is not None:
                query = query.join(MatchPlayer, MatchPlayer.match_id == Match.id).where(
                    MatchPlayer.user_id == user_id)
            rows = (await s.scalars(query.order_by(Match.id.desc()).limit(limit))).all()
            names = await user_names(s, [p.user_id for m in rows for p in m.players])
        result = []
        for m in rows:
            players = " vs ".join(names.get(p.user_id, p.user_id) for p in m.players)
            result.append((m.id, f"#{m.id} {get_game(m.game).title}: {players} ({m.status})"))
        return result
