"""Events (a season of a game on one server), their players and their priority.

An event is named by its number (``3``, ``#3``) or its name in any case. Where a
command leaves the event out, the one open event of the server is meant; with none
open, garnets outside events (and overall standings) are meant; with several open,
the asker must say which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.options import record_number
from bot.core.refusal import Refusal
from bot.store import season
from bot.store.db import Database
from bot.store.models import Event, EventPlayer
from bot.texts import economy as say
from bot.texts import season as season_say

NO_EVENT = ("none", "no", "casual")
OVERALL = ("all", "overall")
CONFISCATE = ("no", "winner", "remove")
MAX_NAME = 50


class EventError(Refusal):
    """A request about events, garnets or ratings that is refused; the message says why."""


class NoSuchEvent(EventError):
    """No event of this server has that number."""

    def __init__(self, number: str) -> None:
        super().__init__(say.no_such_event(number=number))
        self.number = number


class UnknownEvent(EventError):
    """No event of this server has that name."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(say.no_event_called(name=name, known=known))
        self.name = name
        self.known = tuple(known)


@dataclass(frozen=True)
class Scope:
    """Where garnets and standings count: one event, outside every event, or overall."""

    event: Event | None
    overall: bool = False

    @property
    def event_id(self) -> int | None:
        return self.event.id if self.event is not None else None

    @property
    def key(self) -> str:
        """The scope in a button's custom_id: an event's number, ``none`` or ``all``."""
        if self.event is not None:
            return str(self.event.number)
        return "all" if self.overall else "none"

    @property
    def label(self) -> str:
        return say.scope_label(event=self.event.name if self.event is not None else None,
                               overall=self.overall)


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise EventError(say.event_name_missing())
    if len(name) > MAX_NAME:
        raise EventError(say.event_name_too_long(limit=MAX_NAME))
    if name.lstrip("#").isdigit():
        raise EventError(say.event_name_is_number())
    if name.lower() in NO_EVENT + OVERALL:
        raise EventError(say.event_name_reserved(name=name))
    return name


def check_confiscate(value: str | bool | None) -> str:
    if value is None or value == "":
        return "no"
    if isinstance(value, bool):
        return "winner" if value else "no"
    text = value.strip().lower()
    if text in ("yes", "y", "true", "on", "1"):
        return "winner"
    if text in ("off", "false", "n", "0"):
        return "no"
    if text not in CONFISCATE:
        raise EventError(say.bad_confiscate(value=value))
    return text


async def find_event(s: AsyncSession, guild_id: str, text: str) -> Event:
    """The event of this server named by ``text`` (its number or its name)."""
    wanted = " ".join(text.split())
    number = record_number(wanted)
    if number is not None:
        event = await s.scalar(select(Event).where(Event.guild_id == guild_id,
                                                   Event.number == number))
        if event is None:
            raise NoSuchEvent(wanted.lstrip("#"))
        return event
    found = await s.scalar(select(Event).where(
        Event.guild_id == guild_id, func.lower(Event.name) == wanted.lower()))
    if found is None:
        raise UnknownEvent(wanted, await event_names(s, guild_id))
    return found


async def event_names(s: AsyncSession, guild_id: str, limit: int = 10) -> list[str]:
    rows = await s.scalars(select(Event).where(Event.guild_id == guild_id)
                           .order_by(Event.open.desc(), Event.id.desc()).limit(limit))
    return [e.name for e in rows]


async def open_events(s: AsyncSession, guild_id: str) -> list[Event]:
    rows = await s.scalars(select(Event).where(Event.guild_id == guild_id, Event.open)
                           .order_by(Event.id))
    return list(rows)


async def resolve(s: AsyncSession, guild_id: str, text: str | None,
                  allow_overall: bool = False) -> Scope:
    """The scope a command means. Without ``text``: the one open event; with none open,
    overall (where allowed) or outside events."""
    if text is not None and text.strip():
        word = text.strip().lower()
        if word in NO_EVENT:
            return Scope(None)
        if word in OVERALL:
            if not allow_overall:
                raise EventError(say.name_one_event())
            return Scope(None, overall=True)
        return Scope(await find_event(s, guild_id, text))
    opened = await open_events(s, guild_id)
    if len(opened) == 1:
        return Scope(opened[0])
    if len(opened) > 1:
        raise EventError(say.several_open(names=[e.name for e in opened]))
    return Scope(None, overall=allow_overall)


async def require_event(s: AsyncSession, guild_id: str, text: str | None) -> Event:
    scope = await resolve(s, guild_id, text)
    if scope.event is None:
        raise EventError(say.no_open_event())
    return scope.event


# ---- players and priority -------------------------------------------------------------


async def players(s: AsyncSession, event_id: int) -> list[EventPlayer]:
    """The players of an event by priority, the highest (1) first."""
    rows = await s.scalars(select(EventPlayer).where(EventPlayer.event_id == event_id)
                           .order_by(EventPlayer.priority, EventPlayer.id))
    return list(rows)


async def player(s: AsyncSession, event_id: int, user_id: str) -> EventPlayer | None:
    return await s.scalar(select(EventPlayer).where(EventPlayer.event_id == event_id,
                                                    EventPlayer.user_id == user_id))


def renumber(ordered: Sequence[EventPlayer]) -> None:
    """Priorities 1..n in the given order (no gaps, no two alike)."""
    for rank, row in enumerate(ordered, start=1):
        if row.priority != rank:
            row.priority = rank


def move_to(ordered: list[EventPlayer], row: EventPlayer, rank: int) -> int:
    """Put ``row`` at ``rank`` (1 = highest, clamped to the list) and shift the others."""
    ordered.remove(row)
    rank = max(1, min(rank, len(ordered) + 1))
    ordered.insert(rank - 1, row)
    renumber(ordered)
    return rank


# ---- Death Matches of an event ----------------------------------------------------------


@dataclass(frozen=True)
class DmPlan:
    """What an event changes about a new DM: whose it is, who chooses, what it pays."""

    event_id: int | None
    chooser: str
    reward: int
    note: str  # a line for the DM's announcement ("" outside events), starting "\n"


async def _their_event(s: AsyncSession, guild_id: str, ids: Sequence[str]) -> Event | None:
    """The open event a DM between ``ids`` counts for when the host names none."""
    theirs = []  # open events where at least one of them plays
    for event in await open_events(s, guild_id):
        playing = [uid for uid in ids if await player(s, event.id, uid) is not None]
        if playing:
            theirs.append((event, playing))
    if not theirs:
        return None  # neither plays in an open event: a DM outside events
    if len(theirs) > 1:
        raise EventError(say.which_event_for_dm(events=[e.name for e, _ in theirs]))
    event, playing = theirs[0]
    if len(playing) < len(ids):
        raise EventError(say.half_in_event_for_dm(
            playing=playing, missing=[uid for uid in ids if uid not in playing],
            event=event.name))
    return event


async def plan_dm(db: Database, guild_id: str, event: str | None, ids: Sequence[str],
                  chooser: str | None, reward: int | None, default_reward: int) -> DmPlan:
    """Resolve the event of a DM between ``ids``.

    Named: it must be open and have both players. Not named: the open event both play
    in; none when neither plays in an open event. When only one of them plays in it
    (or they play in several), the host is asked to say which (``event:none`` for
    none) rather than the DM silently counting for no event. A player eliminated from
    the event cannot play its DMs (until a host reinstates them). The event's reward
    replaces the
    default (an explicit ``reward`` replaces both); without an explicit chooser the
    player with the higher priority chooses the First Player.
    """
    async with db.session() as s:
        if event is not None and event.strip():
            scope = await resolve(s, guild_id, event)
            chosen = scope.event
            if chosen is not None and not chosen.open:
                raise EventError(say.event_closed_for_dm(event=chosen.name))
        else:
            chosen = await _their_event(s, guild_id, ids)
        seats: list[EventPlayer] = []
        if chosen is not None:
            found = [await player(s, chosen.id, uid) for uid in ids]
            missing = [uid for uid, row in zip(ids, found, strict=True) if row is None]
            if missing:
                raise EventError(say.not_in_event_for_dm(user_ids=missing, event=chosen.name))
            seats = [row for row in found if row is not None]
            out = await season.eliminations(s, chosen.id, ids)
            if out:
                raise EventError(season_say.eliminated_cannot_play(
                    user_ids=[u for u in ids if u in out], event=chosen.name))
    if chosen is None:
        picked = (chooser or "host").strip()
        return DmPlan(None, picked, default_reward if reward is None else reward, "")
    paid = chosen.reward if reward is None else reward
    if chooser is None or not chooser.strip():
        top = min(seats, key=lambda row: row.priority)
        other = next(row for row in seats if row is not top)
        picked = top.user_id
        note = say.dm_event_note(event=chosen.name, chooser_id=top.user_id,
                                 priority=top.priority, other_priority=other.priority)
    else:
        picked = chooser.strip()
        note = say.dm_event_note(event=chosen.name)
    return DmPlan(chosen.id, picked, paid, note)
