"""Events and priority: what hosts organise (``/event ...``, ``/priority ...``), what
anyone may read of it, and an event's books for its hosts."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from bot.core.messages import Actor, Post, Response
from bot.services import events, ledger
from bot.services.economy.base import MAX_LISTED, EconomyBase
from bot.services.events import EventError, Scope
from bot.services.exports import export_event
from bot.services.users import remember
from bot.store import season
from bot.store.models import Event, EventPlayer
from bot.store.numbers import next_number
from bot.store.queries import user_names
from bot.texts import economy as say
from bot.texts import season as season_say

MAX_ADDED = 200  # players added by one command (a role's members included)


class Organising(EconomyBase):
    # ==== events =========================================================================

    async def event_create(self, guild_id: str, actor: Actor, name: str,
                           reward: int | None = None, transfers: bool = False,
                           confiscate: str | bool | None = None,
                           eliminate: bool = True, review: bool = False) -> Response:
        await self.roles.require_host(guild_id, actor)
        name = events.check_name(name)
        paid = self.dm_reward if reward is None else reward
        if not 0 <= paid <= ledger.MAX_AMOUNT:
            raise EventError(say.bad_reward())
        taking = events.check_confiscate(confiscate)
        try:
            async with self.db.session() as s, s.begin():
                same = await s.scalar(select(Event.number).where(
                    Event.guild_id == guild_id, func.lower(Event.name) == name.lower()))
                if same is not None:
                    raise EventError(say.event_exists(name=name, event_id=same))
                await remember(s, guild_id, [actor])
                event = Event(guild_id=guild_id, number=await next_number(s, guild_id, "event"),
                              name=name, reward=paid, transfers=transfers,
                              confiscate=taking, eliminate=eliminate, review=review,
                              open=True,
                              created_by=actor.id,
                              created_at=self.now())
                s.add(event)
                await s.flush()
                event_id = event.number
        except IntegrityError:
            raise EventError(say.event_exists(name=name)) from None
        return Response(reply=Post(say.event_created(
            name=name, event_id=event_id, reward=paid, transfers=transfers,
            confiscate=taking, eliminate=eliminate, review=review)))

    async def event_add(self, guild_id: str, actor: Actor, people: Sequence[Actor],
                        event: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        if not people:
            raise EventError(say.name_player_to_add())
        if len(people) > MAX_ADDED:
            raise EventError(say.too_many_to_add(most=MAX_ADDED))
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            if not chosen.open:
                raise EventError(say.event_closed(event=chosen.name))
            await remember(s, guild_id, [actor, *people])
            ordered = await events.players(s, chosen.id)
            have = {row.user_id: row for row in ordered}
            new = [p for p in dict.fromkeys(people) if p.id not in have]
            already = [have[p.id] for p in dict.fromkeys(people) if p.id in have]
            names = await user_names(s, guild_id, [r.user_id for r in already])
            there = [(names.get(r.user_id, r.user_id), r.priority) for r in already]
            if not new:
                raise EventError(say.all_already_playing(event=chosen.name, players=there))
            added = []
            for person in new:
                row = EventPlayer(event_id=chosen.id, user_id=person.id,
                                  priority=len(ordered) + 1, added_at=self.now())
                s.add(row)
                ordered.append(row)
                added.append(row)
            total = len(ordered)
        # Who joined, and (by name: they are not pinged again) who was in already.
        return Response(reply=Post(say.players_added(
            event=chosen.name, added=[(r.user_id, r.priority) for r in added], total=total,
            already=there)))

    async def event_remove(self, guild_id: str, actor: Actor, person: Actor,
                           event: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            row = next((r for r in ordered if r.user_id == person.id), None)
            if row is None:
                raise EventError(say.not_playing(user_id=person.id, event=chosen.name))
            ordered.remove(row)
            await s.delete(row)
            await s.flush()
            events.renumber(ordered)
        return Response(reply=Post(say.player_removed(user_id=person.id, event=chosen.name)))

    async def event_close(self, guild_id: str, actor: Actor,
                          event: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            if not chosen.open:
                raise EventError(say.event_already_closed(event=chosen.name))
            chosen.open = False
            chosen.closed_at = self.now()
        return Response(reply=Post(say.event_closed_now(event=chosen.name,
                                                        event_id=chosen.number)))

    async def event_info(self, guild_id: str, actor: Actor,
                         event: str | None = None) -> Response:
        async with self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            totals = await ledger.balances(s, guild_id, Scope(chosen))
            names = await user_names(
                s, guild_id, [r.user_id for r in ordered[:MAX_LISTED]] + [chosen.created_by])
            held = await season.tokens(s, chosen.id)
            out = await season.eliminations(s, chosen.id)
        return Response.say(say.event_info(
            name=chosen.name, event_id=chosen.number, closed_at=None if chosen.open
            else chosen.closed_at or 0, creator=names.get(chosen.created_by, chosen.created_by),
            created_at=chosen.created_at, reward=chosen.reward, transfers=chosen.transfers,
            confiscate=chosen.confiscate, eliminate=chosen.eliminate, review=chosen.review,
            count=len(ordered),
            players=[(r.priority, names.get(r.user_id, r.user_id), totals.get(r.user_id, 0))
                     for r in ordered[:MAX_LISTED]],
            notes=[season_say.token_line(held=held.get(r.user_id, 0))
                   + (season_say.out_line(match_number=out[r.user_id]) if r.user_id in out
                      else "") for r in ordered[:MAX_LISTED]],
            out=len(out)))

    # ==== priority =======================================================================

    async def priority_set(self, guild_id: str, actor: Actor, person: Actor, rank: int,
                           event: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        if rank < 1:
            raise EventError(say.bad_rank())
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            row = next((r for r in ordered if r.user_id == person.id), None)
            if row is None:
                raise EventError(say.not_playing_add_them(user_id=person.id,
                                                          event=chosen.name))
            was = row.priority
            placed = events.move_to(ordered, row, rank)
        # Said in the channel without the whole order (40 names each time is noise):
        # who moved, from where, and how many others shifted; `/priority show` lists it.
        return Response(reply=Post(say.priority_set(
            user_id=person.id, rank=placed, was=was, event=chosen.name,
            count=len(ordered))))

    async def priority_order(self, guild_id: str, actor: Actor, people: Sequence[Actor],
                             event: str | None = None) -> Response:
        """The whole order at once: the players named take priorities 1, 2, 3, ... in
        that order; any not named keep their order after them."""
        await self.roles.require_host(guild_id, actor)
        named = list(dict.fromkeys(people))
        if not named:
            raise EventError(say.name_the_order())
        if len(named) < len(people):
            raise EventError(say.named_twice())
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            rows = {r.user_id: r for r in ordered}
            outside = [p.id for p in named if p.id not in rows]
            if outside:
                raise EventError(say.not_playing(user_id=outside, event=chosen.name))
            first = [rows[p.id] for p in named]
            rest = [r for r in ordered if r.user_id not in {p.id for p in named}]
            events.renumber([*first, *rest])
            names = await user_names(s, guild_id, [first[0].user_id, first[-1].user_id])
        return Response(reply=Post(say.priority_ordered(
            event=chosen.name, named=len(first), first=names.get(first[0].user_id, ""),
            last=names.get(first[-1].user_id, ""), others=len(rest))))

    async def priority_show(self, guild_id: str, actor: Actor,
                            event: str | None = None) -> Response:
        async with self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            names = await user_names(s, guild_id, [r.user_id for r in ordered[:MAX_LISTED]])
        mine = next((r.priority for r in ordered if r.user_id == actor.id), None)
        return Response.say(say.priority_list(
            event=chosen.name, count=len(ordered), mine=mine,
            order=[(r.priority, names.get(r.user_id, r.user_id), r.user_id == actor.id)
                   for r in ordered[:MAX_LISTED]]))

    # ==== for autocomplete ================================================================

    async def event_choices(self, guild_id: str, current: str,
                            wider: bool = False) -> list[tuple[str, str]]:
        """(label, value) of the server's events matching ``current``, open ones first;
        ``wider`` adds "overall" and "outside events" (for balances and boards)."""
        wanted = current.strip().lower()
        async with self.db.session() as s:
            rows = (await s.scalars(select(Event).where(Event.guild_id == guild_id)
                                    .order_by(Event.open.desc(), Event.id.desc())
                                    .limit(100))).all()
        found = [(say.event_choice(name=e.name, event_id=e.number, open=e.open), str(e.number))
                 for e in rows if wanted in e.name.lower() or wanted == str(e.number)]
        if wider:
            found += [(label, value) for label, value in say.wider_choices()
                      if wanted in label.lower() or wanted == value]
        return found[:25]

    # ==== export =========================================================================

    async def export(self, guild_id: str, actor: Actor, event: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        async with self.queues.slot(guild_id), self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            files = await export_event(s, chosen)
        return Response(reply=Post(say.export_ready(event=chosen.name), ephemeral=True,
                                   attachments=tuple(files)))
