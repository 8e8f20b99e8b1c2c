"""Garnets: balances, transfers between players, hosts' grants and fines, ledgers."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from sqlalchemy import select

from bot.core import buttons
from bot.core.messages import Actor, Post, Response
from bot.services import events, ledger
from bot.services.economy.base import (
    LEDGER_PAGE,
    EconomyBase,
    name_of,
    page_buttons,
    season_line,
)
from bot.services.events import EventError, Scope
from bot.services.users import remember
from bot.store.models import Event, LedgerEntry
from bot.store.queries import user_names
from bot.texts import economy as say


def where(scope: Scope) -> str:
    """Where a balance counts, as said after it."""
    return say.where(event=scope.event.name if scope.event is not None else None,
                     overall=scope.overall)


class Garnets(EconomyBase):
    async def garnets(self, guild_id: str, actor: Actor, person: Actor | None = None,
                      event: str | None = None) -> Response:
        who = person or actor
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event, allow_overall=True)
            have = await ledger.balance(s, guild_id, scope, who.id)
            name = await name_of(s, guild_id, who)
            priority: tuple[int, int] | None = None
            extra = ""
            if scope.event is not None:
                row = await events.player(s, scope.event.id, who.id)
                count = len(await events.players(s, scope.event.id))
                priority = (row.priority, count) if row is not None else None
                extra = await season_line(s, scope.event.id, who.id)
        text = say.balance(name=name, amount=have, where=where(scope),
                           in_event=scope.event is not None, priority=priority)
        return Response.say(text.removesuffix(".") + extra + "." if extra else text)

    async def transfer(self, guild_id: str, actor: Actor, to: Actor, amount: int | None,
                       reason: str = "", event: str | None = None) -> Response:
        amount = ledger.check_amount(amount)
        if to.id == actor.id:
            raise EventError(say.give_to_yourself())
        reason = " ".join(reason.split())
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event)
        chosen = scope.event
        if chosen is None:
            raise EventError(say.transfer_needs_event())
        if not chosen.transfers:
            raise EventError(say.no_transfers(event=chosen.name))
        if not chosen.open:
            raise EventError(say.event_closed(event=chosen.name))
        lock = self.locks.setdefault((chosen.id, actor.id), asyncio.Lock())
        async with lock, self.db.session() as s, s.begin():
            await remember(s, guild_id, [actor, to])
            if await events.player(s, chosen.id, to.id) is None:
                raise EventError(say.not_playing(user_id=to.id, event=chosen.name))
            done = await ledger.transfer(
                s, guild_id, chosen.id, actor.id, to.id, amount,
                note_out=say.transfer_note_out(to=to.name, reason=reason),
                note_in=say.transfer_note_in(sender=actor.name, reason=reason),
                at=self.now())
        return Response(reply=Post(say.transferred(
            sender_id=actor.id, sender=actor.name, recipient_id=to.id, recipient=to.name,
            amount=amount, event=chosen.name, reason=reason, sender_left=done.sender_left,
            recipient_now=done.recipient_now)))

    async def grant(self, guild_id: str, actor: Actor, person: Actor | Sequence[Actor],
                    amount: int | None, reason: str, event: str | None = None) -> Response:
        """A host gives garnets to a player, or the same to each of several."""
        return await self._adjust(guild_id, actor, person, amount, reason, event, fine=False)

    async def fine(self, guild_id: str, actor: Actor, person: Actor | Sequence[Actor],
                   amount: int | None, reason: str, event: str | None = None) -> Response:
        return await self._adjust(guild_id, actor, person, amount, reason, event, fine=True)

    async def _adjust(self, guild_id: str, actor: Actor, person: Actor | Sequence[Actor],
                      amount: int | None, reason: str, event: str | None,
                      fine: bool) -> Response:
        """A host's grant or fine, to one player or the same to each of several, in one
        transaction (all or none). A fine may take a balance below zero: a debt the
        host decided on, unlike a transfer, which never can."""
        await self.roles.require_host(guild_id, actor)
        people = [person] if isinstance(person, Actor) else list(dict.fromkeys(person))
        if not people:
            raise EventError(say.name_players_to_adjust())
        amount = ledger.check_amount(amount)
        reason = " ".join(reason.split())
        if not reason:
            raise EventError(say.reason_missing())
        async with self.db.session() as s, s.begin():
            scope = await events.resolve(s, guild_id, event)
            if scope.event is not None:
                outside = [p.id for p in people
                           if await events.player(s, scope.event.id, p.id) is None]
                if outside:
                    raise EventError(say.not_playing(user_id=outside, event=scope.event.name))
            await remember(s, guild_id, [actor, *people])
            for one in people:
                await ledger.book(s, guild_id=guild_id, event_id=scope.event_id,
                                  user_id=one.id, amount=-amount if fine else amount,
                                  kind="fine" if fine else "grant", note=reason,
                                  author_id=actor.id, at=self.now())
            now_has = await ledger.balance(s, guild_id, scope, people[0].id)
        if len(people) > 1:
            return Response(reply=Post(say.adjusted_each(
                fine=fine, host_id=actor.id, user_ids=[p.id for p in people], amount=amount,
                where=where(scope), reason=reason)))
        return Response(reply=Post(say.adjusted(
            fine=fine, host_id=actor.id, user_id=people[0].id, amount=amount,
            where=where(scope), reason=reason, balance=now_has)))

    async def ledger(self, guild_id: str, actor: Actor, person: Actor | None = None,
                     event: str | None = None, page: int = 1) -> Response:
        who = person or actor
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event, allow_overall=True)
            total, rows = await ledger.entries(s, guild_id, scope, who.id,
                                               (max(1, page) - 1) * LEDGER_PAGE, LEDGER_PAGE)
            pages = max(1, -(-total // LEDGER_PAGE))
            if page > pages:
                page = pages
                total, rows = await ledger.entries(s, guild_id, scope, who.id,
                                                   (page - 1) * LEDGER_PAGE, LEDGER_PAGE)
            have = await ledger.balance(s, guild_id, scope, who.id)
            after = (await ledger.balance_through(s, guild_id, scope, who.id, rows[0].id)
                     if rows else have)
            name = await name_of(s, guild_id, who)
            authors = await user_names(s, guild_id, {r.author_id for r in rows if r.author_id})
            event_names = {}
            if scope.overall:
                event_names = {e.id: e.name for e in (await s.scalars(select(Event).where(
                    Event.id.in_({r.event_id for r in rows if r.event_id})))).all()}
        here = where(scope)
        if not total:
            return Response.say(say.ledger_empty(name=name, where=here, balance=have))
        text = say.ledger_page(name=name, where=here, balance=have, page=max(1, page),
                               pages=pages, total=total,
                               lines=_lines(rows, after, authors, event_names))
        return Response(reply=Post(text, ephemeral=True, buttons=page_buttons(
            lambda n: buttons.ledger(who.id, scope.key, n), max(1, page), pages)))


def _lines(rows: Sequence[LedgerEntry], after: int, authors: Mapping[str, str],
           event_names: Mapping[int, str]) -> list[str]:
    """A page's lines, newest first, each with the balance it left: ``after`` is the
    balance after the page's newest entry."""
    lines = []
    for e in rows:
        line = say.ledger_line(
            at=e.at, amount=e.amount, kind=e.kind, note=e.note,
            author=authors.get(e.author_id, e.author_id)
            if e.author_id and e.kind in ("grant", "fine") else None,
            event=str(event_names.get(e.event_id, e.event_id))
            if e.event_id is not None and event_names else None)
        lines.append(say.ledger_balance(line=line, after=after))
        after -= e.amount
    return lines
