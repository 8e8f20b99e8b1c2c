"""Events, priority, garnets, ratings, leaderboards and exports: the commands.

Like the match host, this layer decides everything (who may, what changes, what is
said) and returns a ``Response``; the Discord and console adapters only translate.
Host-only commands ask ``Host.is_host``. Everything a player reads is answered to
them alone; what changes the game for others (an event opens, a grant, a transfer)
is said in the channel.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Concatenate, ParamSpec

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot import events, leaderboard, ledger, ratings
from bot.core.messages import Actor, Button, Post, Response, mention
from bot.event_export import export_event
from bot.events import EventError, Scope
from bot.services.matches import Matches
from bot.services.users import remember
from bot.store.db import Database
from bot.store.models import Event, EventPlayer, LedgerEntry, Rating, User
from bot.store.queries import user_names
from engine.game import EngineError
from engine.registry import game_keys, get_game

P = ParamSpec("P")
LEDGER_PAGE = 10
MAX_LISTED = 60  # players listed in one message (Discord allows 2,000 characters)
CONFISCATION = {
    "no": "the loser keeps their garnets",
    "winner": "the loser's garnets go to the winner",
    "remove": "the loser's garnets are confiscated",
}

# Per host: one lock per (event, player) that spends garnets (see ledger).
_LOCKS: weakref.WeakKeyDictionary[Matches, dict[tuple[int, str], asyncio.Lock]] = (
    weakref.WeakKeyDictionary())


def _refusals(fn: Callable[Concatenate[Economy, P], Awaitable[Response]]
              ) -> Callable[Concatenate[Economy, P], Awaitable[Response]]:
    """A refused request (EventError, a bad game name) is answered to the asker."""
    @functools.wraps(fn)
    async def wrapper(self: Economy, /, *args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return await fn(self, *args, **kwargs)
        except (EventError, EngineError) as exc:
            return Response.error(str(exc))

    return wrapper


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%b %d %H:%M")


def game_key(game: str | None) -> str | None:
    return get_game(game).key if game is not None and game.strip() else None


def page_buttons(prefix: str, page: int, pages: int) -> tuple[Button, ...]:
    buttons = []
    if page > 1:
        buttons.append(Button("◀ Prev", f"{prefix}:{page - 1}"))
    if page < pages:
        buttons.append(Button("Next ▶", f"{prefix}:{page + 1}"))
    return tuple(buttons)


async def _name(s: AsyncSession, user_id: str) -> str:
    user = await s.get(User, user_id)
    return user.name if user is not None else user_id


class Economy:
    """The commands of issue 4 for one Host (cheap to make: state lives in the database)."""

    def __init__(self, host: Matches) -> None:
        self.host = host
        self.db: Database = host.db
        self._locks = _LOCKS.setdefault(host, {})

    def now(self) -> float:
        return self.host.clock.now()

    async def _require_host(self, guild_id: str, actor: Actor) -> None:
        if await self.host.is_host(guild_id, actor):
            return
        role = await self.host.host_role(guild_id)
        raise EventError(f"Only hosts can do that (the '{role}' role or Manage Server).")

    # ==== events =========================================================================

    @_refusals
    async def event_create(self, guild_id: str, actor: Actor, name: str,
                           reward: int | None = None, transfers: bool = False,
                           confiscate: str | bool | None = None) -> Response:
        await self._require_host(guild_id, actor)
        name = events.check_name(name)
        paid = self.host.config.dm_reward if reward is None else reward
        if not 0 <= paid <= ledger.MAX_AMOUNT:
            raise EventError("The reward is a number of garnets from 0 up.")
        taking = events.check_confiscate(confiscate)
        try:
            async with self.db.session() as s, s.begin():
                same = await s.scalar(select(Event.id).where(
                    Event.guild_id == guild_id, func.lower(Event.name) == name.lower()))
                if same is not None:
                    raise EventError(f"There is already an event called {name} (#{same}).")
                await remember(s, [actor])
                event = Event(guild_id=guild_id, name=name, reward=paid, transfers=transfers,
                              confiscate=taking, open=True, created_by=actor.id,
                              created_at=self.now())
                s.add(event)
                await s.flush()
                event_id = event.id
        except IntegrityError:
            raise EventError(f"There is already an event called {name}.") from None
        rules = [f"{ledger.garnets(paid)} per DM win",
                 "transfers allowed" if transfers else "no transfers",
                 CONFISCATION[taking]]
        return Response(reply=Post(
            f"🏁 Event **{name}** (#{event_id}) is open: {' · '.join(rules)}.\n"
            f"Hosts add players with `/event add`; DMs between its players count for it.",
        ))

    @_refusals
    async def event_add(self, guild_id: str, actor: Actor, people: Sequence[Actor],
                        event: str | None = None) -> Response:
        await self._require_host(guild_id, actor)
        if not people:
            raise EventError("Name the player to add, e.g. `/event add player:@name`.")
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            if not chosen.open:
                raise EventError(f"{chosen.name} is closed.")
            await remember(s, [actor, *people])
            ordered = await events.players(s, chosen.id)
            have = {row.user_id: row for row in ordered}
            added = []
            for person in dict.fromkeys(people):
                if person.id in have:
                    raise EventError(f"{mention(person.id)} is already playing in "
                                     f"{chosen.name} (priority {have[person.id].priority}).")
                row = EventPlayer(event_id=chosen.id, user_id=person.id,
                                  priority=len(ordered) + 1, added_at=self.now())
                s.add(row)
                ordered.append(row)
                have[person.id] = row
                added.append(row)
            total = len(ordered)
        if len(added) == 1:
            who = f"{mention(added[0].user_id)} joins **{chosen.name}** with priority " \
                f"{added[0].priority}"
        else:
            who = (f"{', '.join(mention(r.user_id) for r in added)} join **{chosen.name}** "
                   f"with priorities {added[0].priority}–{added[-1].priority}")
        count = "1 player" if total == 1 else f"{total} players"
        return Response(reply=Post(f"{who} — {count}. "
                                   "Hosts reorder priority with `/priority set`."))

    @_refusals
    async def event_remove(self, guild_id: str, actor: Actor, person: Actor,
                           event: str | None = None) -> Response:
        await self._require_host(guild_id, actor)
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            row = next((r for r in ordered if r.user_id == person.id), None)
            if row is None:
                raise EventError(f"{mention(person.id)} is not playing in {chosen.name}.")
            ordered.remove(row)
            await s.delete(row)
            await s.flush()
            events.renumber(ordered)
        return Response(reply=Post(
            f"{mention(person.id)} leaves **{chosen.name}**; the priorities below moved up. "
            "Their garnets stay in the event's ledger."))

    @_refusals
    async def event_close(self, guild_id: str, actor: Actor,
                          event: str | None = None) -> Response:
        await self._require_host(guild_id, actor)
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            if not chosen.open:
                raise EventError(f"{chosen.name} is already closed.")
            chosen.open = False
            chosen.closed_at = self.now()
        return Response(reply=Post(
            f"🏁 **{chosen.name}** is closed. Its standings stay: `/leaderboard "
            f"event:{chosen.id}`; hosts get its books with `/export event:{chosen.id}`."))

    @_refusals
    async def event_info(self, guild_id: str, actor: Actor,
                         event: str | None = None) -> Response:
        async with self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            totals = await ledger.balances(s, guild_id, Scope(chosen))
            names = await user_names(
                s, [r.user_id for r in ordered[:MAX_LISTED]] + [chosen.created_by])
        state = "open" if chosen.open else f"closed {stamp(chosen.closed_at or 0)}"
        lines = [
            f"**{chosen.name}** (#{chosen.id}) — {state} · created by "
            f"{names.get(chosen.created_by, chosen.created_by)} on {stamp(chosen.created_at)}",
            f"{ledger.garnets(chosen.reward)} per DM win · "
            f"{'transfers allowed' if chosen.transfers else 'no transfers'} · "
            f"{CONFISCATION[chosen.confiscate]}",
        ]
        lines.append(f"Players by priority ({len(ordered)}):" if ordered
                     else "No players yet: hosts add them with `/event add`.")
        for row in ordered[:MAX_LISTED]:
            lines.append(f"{row.priority}. {names.get(row.user_id, row.user_id)} — "
                         f"{ledger.garnets(totals.get(row.user_id, 0))}")
        if len(ordered) > MAX_LISTED:
            lines.append(f"… and {len(ordered) - MAX_LISTED} more (see `/leaderboard`).")
        return Response.say("\n".join(lines))

    # ==== priority =======================================================================

    @_refusals
    async def priority_set(self, guild_id: str, actor: Actor, person: Actor, rank: int,
                           event: str | None = None) -> Response:
        await self._require_host(guild_id, actor)
        if rank < 1:
            raise EventError("Priority 1 is the highest; give a rank from 1 up.")
        async with self.db.session() as s, s.begin():
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            row = next((r for r in ordered if r.user_id == person.id), None)
            if row is None:
                raise EventError(f"{mention(person.id)} is not playing in {chosen.name}; "
                                 "add them with `/event add`.")
            placed = events.move_to(ordered, row, rank)
            names = await user_names(s, [r.user_id for r in ordered[:MAX_LISTED]])
        order = ", ".join(f"{r.priority}. {names.get(r.user_id, r.user_id)}"
                          for r in ordered[:MAX_LISTED])
        more = f", … {len(ordered) - MAX_LISTED} more" if len(ordered) > MAX_LISTED else ""
        return Response(reply=Post(
            f"↕ {mention(person.id)} now has priority {placed} in **{chosen.name}**.\n"
            f"Priority: {order}{more}."))

    @_refusals
    async def priority_show(self, guild_id: str, actor: Actor,
                            event: str | None = None) -> Response:
        async with self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            ordered = await events.players(s, chosen.id)
            names = await user_names(s, [r.user_id for r in ordered[:MAX_LISTED]])
        if not ordered:
            return Response.say(f"**{chosen.name}** has no players yet.")
        lines = [f"**Priority in {chosen.name}** (1 is the highest; the higher of two DM "
                 "players chooses the First Player):"]
        for row in ordered[:MAX_LISTED]:
            me = " ← you" if row.user_id == actor.id else ""
            lines.append(f"{row.priority}. {names.get(row.user_id, row.user_id)}{me}")
        if len(ordered) > MAX_LISTED:
            mine = next((r for r in ordered if r.user_id == actor.id), None)
            lines.append(f"… and {len(ordered) - MAX_LISTED} more."
                         + (f" You: {mine.priority}." if mine and mine.priority > MAX_LISTED
                            else ""))
        return Response.say("\n".join(lines))

    # ==== garnets ========================================================================

    @_refusals
    async def garnets(self, guild_id: str, actor: Actor, person: Actor | None = None,
                      event: str | None = None) -> Response:
        who = person or actor
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event, allow_overall=True)
            have = await ledger.balance(s, guild_id, scope, who.id)
            name = await _name(s, who.id)
            line = f"{name} has **{ledger.garnets(have)}** {self._where(scope)}"
            if scope.event is not None:
                row = await events.player(s, scope.event.id, who.id)
                count = len(await events.players(s, scope.event.id))
                line += (f" · priority {row.priority} of {count}" if row
                         else " · not playing in it")
        return Response.say(line + ".")

    @staticmethod
    def _where(scope: Scope) -> str:
        if scope.event is not None:
            return f"in {scope.label}"
        return "across all events" if scope.overall else "outside events"

    @_refusals
    async def transfer(self, guild_id: str, actor: Actor, to: Actor, amount: int | None,
                       reason: str = "", event: str | None = None) -> Response:
        amount = ledger.check_amount(amount)
        if to.id == actor.id:
            raise EventError("You cannot give garnets to yourself.")
        reason = " ".join(reason.split())
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event)
        chosen = scope.event
        if chosen is None:
            raise EventError("Garnets change hands within an event that allows it; name it "
                             "with `event:`.")
        if not chosen.transfers:
            raise EventError(f"{chosen.name} does not allow transfers.")
        if not chosen.open:
            raise EventError(f"{chosen.name} is closed.")
        lock = self._locks.setdefault((chosen.id, actor.id), asyncio.Lock())
        async with lock, self.db.session() as s, s.begin():
            await remember(s, [actor, to])
            if await events.player(s, chosen.id, to.id) is None:
                raise EventError(f"{mention(to.id)} is not playing in {chosen.name}.")
            why = f": {reason}" if reason else ""
            done = await ledger.transfer(
                s, guild_id, chosen.id, actor.id, to.id, amount,
                note_out=f"to {to.name}{why}", note_in=f"from {actor.name}{why}",
                at=self.now())
        why = f" ({reason})" if reason else ""
        return Response(reply=Post(
            f"💎 {mention(actor.id)} gave {mention(to.id)} {ledger.garnets(amount)} in "
            f"**{chosen.name}**{why}. {actor.name}: {ledger.garnets(done.sender_left)}, "
            f"{to.name}: {ledger.garnets(done.recipient_now)}."))

    @_refusals
    async def grant(self, guild_id: str, actor: Actor, person: Actor, amount: int | None,
                    reason: str, event: str | None = None) -> Response:
        return await self._adjust(guild_id, actor, person, amount, reason, event, fine=False)

    @_refusals
    async def fine(self, guild_id: str, actor: Actor, person: Actor, amount: int | None,
                   reason: str, event: str | None = None) -> Response:
        return await self._adjust(guild_id, actor, person, amount, reason, event, fine=True)

    async def _adjust(self, guild_id: str, actor: Actor, person: Actor, amount: int | None,
                      reason: str, event: str | None, fine: bool) -> Response:
        """A host's grant or fine. A fine may take a balance below zero: a debt the
        host decided on, unlike a transfer, which never can."""
        await self._require_host(guild_id, actor)
        amount = ledger.check_amount(amount)
        reason = " ".join(reason.split())
        if not reason:
            raise EventError("Give a reason: it is written in the ledger.")
        async with self.db.session() as s, s.begin():
            scope = await events.resolve(s, guild_id, event)
            if scope.event is not None and await events.player(s, scope.event.id,
                                                               person.id) is None:
                raise EventError(f"{mention(person.id)} is not playing in {scope.event.name}.")
            await remember(s, [actor, person])
            await ledger.book(s, guild_id=guild_id, event_id=scope.event_id,
                              user_id=person.id, amount=-amount if fine else amount,
                              kind="fine" if fine else "grant", note=reason,
                              author_id=actor.id, at=self.now())
            now_has = await ledger.balance(s, guild_id, scope, person.id)
        if fine:
            head = (f"⚖️ {mention(actor.id)} fined {mention(person.id)} "
                    f"{ledger.garnets(amount)}")
        else:
            head = (f"💎 {mention(actor.id)} granted {mention(person.id)} "
                    f"{ledger.garnets(amount)}")
        return Response(reply=Post(f"{head} {self._where(scope)}: {reason}. "
                                   f"Balance: {ledger.garnets(now_has)}."))

    @_refusals
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
            name = await _name(s, who.id)
            authors = await user_names(s, {r.author_id for r in rows if r.author_id})
            event_names = {}
            if scope.overall:
                event_names = {e.id: e.name for e in (await s.scalars(select(Event).where(
                    Event.id.in_({r.event_id for r in rows if r.event_id})))).all()}
        head = (f"**Ledger of {name}** {self._where(scope)} — balance "
                f"{ledger.garnets(have)}")
        if not total:
            return Response.say(f"{head}. No entries yet.")
        lines = [f"{head} (page {max(1, page)}/{pages}, {total} "
                 f"entr{'y' if total == 1 else 'ies'})"]
        for entry in rows:
            lines.append(self._entry_line(entry, authors, event_names))
        prefix = f"garnet:ledger:{who.id}:{scope.key}"
        return Response(reply=Post("\n".join(lines), ephemeral=True,
                                   buttons=page_buttons(prefix, max(1, page), pages)))

    @staticmethod
    def _entry_line(entry: LedgerEntry, authors: dict[str, str],
                    event_names: dict[int, str]) -> str:
        sign = "+" if entry.amount >= 0 else "−"
        kind = ledger.KINDS.get(entry.kind, entry.kind)
        by = (f" (by {authors.get(entry.author_id, entry.author_id)})"
              if entry.author_id and entry.kind in ("grant", "fine") else "")
        note = f" — {entry.note}" if entry.note else ""
        where = (f" [{event_names.get(entry.event_id, entry.event_id)}]"
                 if entry.event_id is not None and event_names else "")
        return f"`{stamp(entry.at)}` **{sign}{abs(entry.amount)}** {kind}{note}{by}{where}"

    # ==== leaderboards and ratings =======================================================

    @_refusals
    async def leaderboard(self, guild_id: str, actor: Actor, by: str = "garnets",
                          game: str | None = None, event: str | None = None,
                          page: int = 1) -> Response:
        by = (by or "garnets").strip().lower()
        if by not in leaderboard.BY:
            raise EventError(f"`by` is {', '.join(leaderboard.BY)}, not '{by}'.")
        key = game_key(game)
        async with self.db.session() as s:
            scope = await events.resolve(s, guild_id, event, allow_overall=True)
            if by == "rating" and key is None:
                key = await leaderboard.default_game(s, guild_id, scope) or game_keys()[0]
            table = await leaderboard.board(s, guild_id, by, scope, key)
        title = {"garnets": "Garnets", "wins": "Wins", "rating": "Rating"}[by]
        where = scope.label if scope.event is not None or scope.overall else "outside events"
        head = f"🏆 **{title}** — {where}"
        if key is not None:
            head += f" · {get_game(key).title}"
        if not table.rows:
            return Response.say(f"{head}\nNobody is on this board yet.")
        number, pages, rows = table.page(page)
        count = len(table.rows)
        lines = [f"{head} (page {number}/{pages}, {count} player{'' if count == 1 else 's'})"]
        for rank, st in rows:
            line = f"{rank}. {st.name} — {st.text}"
            lines.append(f"**{line}**" if st.user_id == actor.id else line)
        mine = table.of(actor.id)
        if mine is None:
            lines.append("You are not on this board.")
        else:
            lines.append(f"You: #{mine[0]} of {len(table.rows)} — {mine[1].text}")
        if by == "rating":
            lines.append("Rating ± uncertainty; ranked by the lower end.")
        prefix = f"garnet:lb:{by}:{key or '-'}:{scope.key}"
        return Response(reply=Post("\n".join(lines), ephemeral=True,
                                   buttons=page_buttons(prefix, number, pages)))

    @_refusals
    async def rating(self, guild_id: str, actor: Actor, person: Actor | None = None,
                     game: str | None = None) -> Response:
        who = person or actor
        key = game_key(game)
        async with self.db.session() as s:
            name = await _name(s, who.id)
            query = select(Rating).where(Rating.guild_id == guild_id, Rating.user_id == who.id,
                                         Rating.games > 0)
            if key is not None:
                query = query.where(Rating.game == key)
            mine = list((await s.scalars(query.order_by(Rating.game))).all())
            lines = [f"**Ratings of {name}** (rating ± uncertainty):"]
            for row in mine:
                table = await leaderboard.by_rating(s, guild_id, Scope(None, overall=True),
                                                    row.game)
                place = table.of(who.id)
                rank = f", #{place[0]} of {len(table.rows)}" if place else ""
                lines.append(f"{get_game(row.game).title}: {ratings.shown(row.mu, row.sigma)} "
                             f"({row.games} rated game{'' if row.games == 1 else 's'}{rank})")
        if not mine:
            title = f" of {get_game(key).title}" if key else ""
            start = ratings.shown(ratings.MODEL.mu, ratings.MODEL.sigma)
            return Response.say(f"{name} has played no rated games{title} yet; a newcomer "
                                f"starts at {start}.")
        return Response.say("\n".join(lines))

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
        found = [(f"{e.name} (#{e.id}, {'open' if e.open else 'closed'})", str(e.id))
                 for e in rows if wanted in e.name.lower() or wanted == str(e.id)]
        if wider:
            found += [(label, value) for label, value in
                      (("Overall (every event)", "all"), ("Outside events", "none"))
                      if wanted in label.lower() or wanted == value]
        return found[:25]

    # ==== export =========================================================================

    @_refusals
    async def export(self, guild_id: str, actor: Actor, event: str | None = None) -> Response:
        await self._require_host(guild_id, actor)
        async with self.db.session() as s:
            chosen = await events.require_event(s, guild_id, event)
            files = await export_event(s, chosen)
        return Response(reply=Post(
            f"📄 The books of **{chosen.name}**: the ledger, the standings and the matches "
            "(CSV).", ephemeral=True, attachments=tuple(files)))
