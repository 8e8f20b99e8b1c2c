"""A season's Death Match flow, as online Genius events run it: Tokens of Life,
the nomination of the Death Match opponent, and reinstating an eliminated player.

- A **Token of Life** is an event item: hosts give and take them, each an entry with
  its reason and author (like the ledger); a player holding one cannot be nominated.
- A **nomination**: a host names the nominator (the main match's loser), who picks an
  opponent among the event's players still in it who hold no Token of Life; the
  Death Match then starts as ``/dm`` starts it (the higher priority chooses the First
  Player). The nomination is stored, so it survives a restart.
- **Elimination**: the loser of a Death Match of an event is out of it, written with
  the result (``bot.services.results``); out, they can be neither nominated nor play
  the event's DMs, until a host reinstates them here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from bot.core import buttons
from bot.core.clock import Clock
from bot.core.messages import Actor, Button, Choice, Post, Response, Select
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services import events
from bot.services.events import EventError
from bot.services.games import offered_game
from bot.services.matches import DMSetup, Matches, startable
from bot.services.permissions import HostRoles
from bot.services.users import remember
from bot.store import season as store
from bot.store.db import Database
from bot.store.models import Event, EventPlayer, LifeToken, Match, MatchPlayer, Nomination
from bot.store.queries import user_names
from bot.texts import economy as economy_say
from bot.texts import match as match_say
from bot.texts import season as say

MAX_TOKENS = 9  # Tokens of Life one player may hold
MAX_BUTTONS = 20  # names offered as buttons under a nomination (Discord shows 25)
PER_MENU, MENUS = 25, 5  # beyond: menus of 25 names, five in a message (Discord's limits)
OPEN, DONE, CANCELLED = "open", "done", "cancelled"


class SeasonError(EventError):
    """A request about tokens, nominations or eliminations that is refused."""


@dataclass(frozen=True)
class DmSettings:
    """How the nominated Death Match is played, as ``/dm`` takes it."""

    options: dict[str, Any]
    tc: TimeControl
    hints: bool = False
    reward: int | None = None
    thread: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options, "time_control": self.tc.to_json(),
                "hints": self.hints, "reward": self.reward, "thread": self.thread}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DmSettings:
        return cls(dict(data.get("options") or {}),
                   TimeControl.from_json(data.get("time_control") or {}),
                   bool(data.get("hints", False)), data.get("reward"),
                   bool(data.get("thread", False)))


class Season:
    def __init__(self, db: Database, clock: Clock, roles: HostRoles, matches: Matches) -> None:
        self.db = db
        self.clock = clock
        self.roles = roles
        self.matches = matches
        self._locks: dict[int, asyncio.Lock] = {}

    # ==== Tokens of Life ===================================================================

    async def token(self, guild_id: str, actor: Actor, person: Actor, reason: str,
                    event: str | None = None, give: bool = True) -> Response:
        """A host gives (or takes) one Token of Life, with the reason written beside it."""
        await self.roles.require_host(guild_id, actor)
        reason = " ".join(reason.split())
        if not reason:
            raise SeasonError(say.token_reason_missing())
        async with self.db.session() as s, s.begin():
            chosen = await self._event(s, guild_id, event, person.id)
            await remember(s, guild_id, [actor, person])
            held = (await store.tokens(s, chosen.id, [person.id])).get(person.id, 0)
            if not give and held <= 0:
                raise SeasonError(say.no_token(user_id=person.id, event=chosen.name))
            if give and held >= MAX_TOKENS:
                raise SeasonError(say.too_many_tokens(user_id=person.id, most=MAX_TOKENS))
            s.add(LifeToken(guild_id=guild_id, event_id=chosen.id, user_id=person.id,
                            amount=1 if give else -1, reason=reason, author_id=actor.id,
                            at=self.clock.now()))
            held += 1 if give else -1
        said = say.token_given if give else say.token_taken
        return Response(reply=Post(said(host_id=actor.id, user_id=person.id,
                                        event=chosen.name, reason=reason, held=held),
                                   pings=(person.id,)))

    # ==== eliminations ====================================================================

    async def reinstate(self, guild_id: str, actor: Actor, person: Actor,
                        event: str | None = None, reason: str = "") -> Response:
        """A host undoes an elimination: the player is back in the event."""
        await self.roles.require_host(guild_id, actor)
        reason = " ".join(reason.split())
        async with self.db.session() as s, s.begin():
            chosen = await self._event(s, guild_id, event, person.id)
            row = await store.active_elimination(s, chosen.id, person.id)
            if row is None:
                raise SeasonError(say.not_eliminated(user_id=person.id, event=chosen.name))
            await remember(s, guild_id, [actor])
            row.undone_at = self.clock.now()
            row.undone_by = actor.id
            row.note = reason
        return Response(reply=Post(say.reinstated(host_id=actor.id, user_id=person.id,
                                                  event=chosen.name, reason=reason)))

    # ==== nominations =====================================================================

    async def nominate(self, asker: Asker, nominator: Actor, game_name: str, settings: DmSettings,
                       event: str | None = None) -> Response:
        """A host names the nominator; they are asked to pick an opponent."""
        await self.roles.require_host(asker.guild_id, asker.actor)
        if settings.hints:  # refused now, not when the nominator picks an opponent
            raise SeasonError(match_say.no_hints_in_dm())
        game = await offered_game(self.db, asker.guild_id, game_name)
        options = game.check_options(settings.options)
        startable(game, 2, options)
        settings = DmSettings(options, settings.tc, settings.hints, settings.reward,
                              settings.thread)
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, asker.guild_id, event)
            if not chosen.open:
                raise SeasonError(economy_say.event_closed(event=chosen.name))
            if await events.player(s, chosen.id, nominator.id) is None:
                raise SeasonError(say.nominator_not_playing(user_id=nominator.id,
                                                            event=chosen.name))
            if await store.active_elimination(s, chosen.id, nominator.id) is not None:
                raise SeasonError(say.nominator_out(user_id=nominator.id, event=chosen.name))
            waiting = await s.scalar(select(Nomination).where(
                Nomination.event_id == chosen.id, Nomination.status == OPEN))
            if waiting is not None:
                raise SeasonError(say.nomination_open_already(user_id=waiting.nominator_id,
                                                              event=chosen.name))
            eligible, protected, out = await self._field(s, chosen, nominator.id)
            if not eligible:
                raise SeasonError(say.nobody_to_nominate(event=chosen.name))
            await remember(s, asker.guild_id, [asker.actor, nominator])
            s.add(Nomination(guild_id=asker.guild_id, event_id=chosen.id, nominator_id=nominator.id,
                             host_id=asker.actor.id, channel_id=asker.channel_id, game=game.key,
                             settings=settings.to_json(), status=OPEN,
                             created_at=self.clock.now()))
            names = await user_names(s, asker.guild_id, eligible)
        offered = eligible if len(eligible) <= MAX_BUTTONS else []
        choices = tuple(Button(say.pick_button(name=names.get(u, u)),
                               buttons.nominate(chosen.number, u), "primary") for u in offered)
        menus = () if offered else _menus(chosen.number, eligible, names)
        text = say.nomination(host_id=asker.actor.id, user_id=nominator.id, event=chosen.name,
                              game=game.title, eligible=eligible, protected=protected,
                              out=out, picker="buttons" if choices else "menus")
        return Response(reply=Post(text, asker.channel_id, buttons=choices, selects=menus,
                                   pings=(nominator.id,)))

    async def pick(self, asker: Asker, opponent: Actor, event: str | None = None) -> Response:
        """The nominator (or a host in their place) picks the opponent: the Death Match
        starts as ``/dm`` starts it, in the event, the higher priority choosing."""
        async with self.db.session() as s:
            row, chosen = await self._open(s, asker.guild_id, asker.actor, event)
        if (asker.actor.id != row.nominator_id
                and not await self.roles.is_host(asker.guild_id, asker.actor)):
            raise SeasonError(say.not_the_nominator(user_id=row.nominator_id))
        async with self._locks.setdefault(row.id, asyncio.Lock()):
            async with self.db.session() as s:
                fresh = await s.get(Nomination, row.id)
                if fresh is None or fresh.status != OPEN:
                    raise SeasonError(say.no_open_nomination())
                await self._check_pick(s, chosen, fresh.nominator_id, opponent.id)
                names = await user_names(s, asker.guild_id, [fresh.host_id, fresh.nominator_id,
                                                       opponent.id])
            if opponent.name == opponent.id:  # a button names the opponent by id only
                opponent = Actor(opponent.id, names.get(opponent.id, opponent.id))
            settings = DmSettings.from_json(fresh.settings)
            host = Actor(fresh.host_id, names.get(fresh.host_id, fresh.host_id))
            nominator = Actor(fresh.nominator_id, names.get(fresh.nominator_id,
                                                            fresh.nominator_id))
            where, abandon = fresh.channel_id, None
            if settings.thread and self.matches.threads is not None:
                where, abandon = await self.matches.threads(fresh.channel_id, say.dm_thread(
                    event=chosen.name, first=nominator.name, second=opponent.name))
            try:
                started = await self.matches.choosing.create_dm(
                    Asker(asker.guild_id, where, host),
                    DMSetup(fresh.game, [nominator, opponent], None, settings.options,
                            settings.tc, settings.hints, settings.reward, str(chosen.number),
                            note=say.nominated(nominator_id=nominator.id,
                                               user_id=opponent.id)))
            except BaseException:
                if abandon is not None:
                    await abandon()
                raise
            async with self.db.session() as s, s.begin():
                done = await s.get(Nomination, row.id)
                assert done is not None
                done.status = DONE
                done.match_id = await s.scalar(
                    select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id)
                    .where(Match.guild_id == asker.guild_id, Match.channel_id == where,
                           MatchPlayer.user_id == opponent.id)
                    .order_by(Match.id.desc()).limit(1))
        return started

    async def cancel(self, guild_id: str, actor: Actor, event: str | None = None) -> Response:
        """A host ends a nomination without a Death Match."""
        await self.roles.require_host(guild_id, actor)
        async with self.db.session() as s, s.begin():
            row, chosen = await self._open(s, guild_id, actor, event)
            fresh = await s.get(Nomination, row.id)
            assert fresh is not None
            fresh.status = CANCELLED
        return Response(reply=Post(say.nomination_cancelled(
            host_id=actor.id, user_id=row.nominator_id, event=chosen.name), row.channel_id))

    # ==== helpers =========================================================================

    async def _event(self, s: Any, guild_id: str, event: str | None, user_id: str) -> Event:
        chosen = await events.require_event(s, guild_id, event)
        if await events.player(s, chosen.id, user_id) is None:
            raise SeasonError(say.pick_not_playing(user_id=user_id, event=chosen.name))
        return chosen

    async def _field(self, s: Any, chosen: Event,
                     nominator: str) -> tuple[list[str], list[str], list[str]]:
        """The event's other players by priority: who may be nominated, who holds a
        Token of Life, who is out."""
        rows: list[EventPlayer] = await events.players(s, chosen.id)
        held = await store.tokens(s, chosen.id)
        gone = await store.eliminations(s, chosen.id)
        eligible, protected, out = [], [], []
        for r in rows:
            if r.user_id == nominator:
                continue
            if r.user_id in gone:
                out.append(r.user_id)
            elif held.get(r.user_id, 0) > 0:
                protected.append(r.user_id)
            else:
                eligible.append(r.user_id)
        return eligible, protected, out

    async def _check_pick(self, s: Any, chosen: Event, nominator: str, pick: str) -> None:
        if pick == nominator:
            raise SeasonError(say.cannot_pick_self())
        if await events.player(s, chosen.id, pick) is None:
            raise SeasonError(say.pick_not_playing(user_id=pick, event=chosen.name))
        if await store.active_elimination(s, chosen.id, pick) is not None:
            raise SeasonError(say.pick_eliminated(user_id=pick, event=chosen.name))
        if (await store.tokens(s, chosen.id, [pick])).get(pick, 0) > 0:
            raise SeasonError(say.pick_protected(user_id=pick, event=chosen.name))

    async def _open(self, s: Any, guild_id: str, actor: Actor,
                    event: str | None) -> tuple[Nomination, Event]:
        """The open nomination meant: the named event's, else the asker's own, else the
        server's only one."""
        query = (select(Nomination, Event).join(Event, Event.id == Nomination.event_id)
                 .where(Nomination.guild_id == guild_id, Nomination.status == OPEN))
        if event is not None and event.strip():
            chosen = await events.find_event(s, guild_id, event)
            query = query.where(Nomination.event_id == chosen.id)
        found = [(n, e) for n, e in (await s.execute(query.order_by(Nomination.id))).all()]
        mine = [pair for pair in found if pair[0].nominator_id == actor.id]
        if len(mine) == 1:
            return mine[0]
        if len(found) == 1:
            return found[0]
        if not found:
            raise SeasonError(say.no_open_nomination())
        raise SeasonError(say.several_nominations(events=[e.name for _, e in found]))


__all__ = ["DmSettings", "Season", "SeasonError"]


def _menus(event: int, eligible: list[str], names: dict[str, str]) -> tuple[Select, ...]:
    """The players the nominator may pick as select menus of 25, in priority order (the
    first 125; any of them can be named with ``/nomination pick`` too)."""
    shown = eligible[:PER_MENU * MENUS]
    return tuple(
        Select(buttons.nominate_menu(event, row // PER_MENU),
               say.pick_placeholder(first=row + 1, last=row + len(chunk), total=len(eligible)),
               tuple(Choice(say.pick_button(name=names.get(u, u)), u) for u in chunk))
        for row in range(0, len(shown), PER_MENU)
        for chunk in [shown[row:row + PER_MENU]])
