"""What garnet says about events, priority, garnets and results: every sentence, as a
function of named values. Standings and ratings are in ``bot.texts.standings``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.texts.words import garnets

PREV, NEXT = "◀ Prev", "Next ▶"
OUTSIDE_EVENTS = "outside events"
CONFISCATION = {
    "no": "the loser keeps their garnets",
    "winner": "the loser's garnets go to the winner",
    "remove": "the loser's garnets are confiscated",
}
KINDS = {  # ledger entries' kinds as players read them
    "match-reward": "DM reward",
    "grant": "host grant",
    "fine": "host fine",
    "transfer": "transfer",
    "confiscation": "confiscation",
    "correction": "result corrected",
    "prize": "tournament prize",
}
ELIMINATION = "a DM's loser is eliminated"
REVIEWED = "each DM is reviewed by the computer when it ends"
#: (label, value) offered besides events where a scope may be wider than one event
WIDER_CHOICES = (("Overall (every event)", "all"), ("Outside events", "none"))


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%b %d %H:%M")


def scope_label(*, event: str | None, overall: bool) -> str:
    event = plain(event) if event is not None else None
    if event is not None:
        return f"**{event}**"
    return "overall" if overall else OUTSIDE_EVENTS


def where(*, event: str | None, overall: bool) -> str:
    """Where a balance counts, as said after it."""
    event = plain(event) if event is not None else None
    if event is not None:
        return f"in **{event}**"
    return "across all events" if overall else OUTSIDE_EVENTS


# ---- naming events ---------------------------------------------------------------------


def event_name_missing() -> str:
    return "Name the event, e.g. `/host event create name:Season 1`."


def event_name_too_long(*, limit: int) -> str:
    return f"An event's name has at most {limit} characters."


def event_name_is_number() -> str:
    return "An event's name cannot be a number: numbers name events by id."


def event_name_reserved(*, name: str) -> str:
    name = plain(name)
    return f"'{name}' means something else to `event:`; choose another name."


def bad_confiscate(*, value: str) -> str:
    value = plain(value)
    return f"`confiscate` is no, winner or remove, not '{value}'."


def no_such_event(*, number: str) -> str:
    number = plain(number)
    return f"There is no event #{number} on this server."


def no_event_called(*, name: str, known: Sequence[str]) -> str:
    name = plain(name)
    known = plains(known)
    listed = f" Events here: {', '.join(known)}." if known else " There are no events yet."
    return f"There is no event called '{name}' on this server.{listed}"


def name_one_event() -> str:
    return "Name one event here (or `none` for garnets outside events)."


def several_open(*, names: Sequence[str]) -> str:
    names = plains(names)
    return f"Several events are open ({', '.join(names)}); add `event:` with one of them."


def no_open_event() -> str:
    return ("No event is open on this server: name one with `event:`, or "
            "create one with `/host event create`.")


def event_choice(*, name: str, event_id: int, open: bool) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"{name} (#{event_id}, {'open' if open else 'closed'})"


# ---- Death Matches of an event -----------------------------------------------------------


def event_closed_for_dm(*, event: str) -> str:
    event = plain(event)
    return f"The event {event} is closed."


def not_in_event_for_dm(*, user_ids: Sequence[str], event: str) -> str:
    event = plain(event)
    return (f"{' and '.join(mention(m) for m in user_ids)} "
            f"{'is' if len(user_ids) == 1 else 'are'} not playing in {event}; "
            "add them with `/host event add`, or start the DM with `event:none`.")


def half_in_event_for_dm(*, playing: Sequence[str], missing: Sequence[str],
                         event: str) -> str:
    """A DM between a player of the open event and someone not in it."""
    event = plain(event)
    ins = " and ".join(mention(m) for m in playing)
    outs = " and ".join(mention(m) for m in missing)
    return (f"{ins} {'plays' if len(playing) == 1 else 'play'} in {event} but {outs} "
            f"{'does' if len(missing) == 1 else 'do'} not: add {outs} with `/host event add` "
            "and start the DM again, or start it with `event:none` to play it outside "
            "the event.")


def which_event_for_dm(*, events: Sequence[str]) -> str:
    events = plains(events)
    return (f"These players are in several open events ({', '.join(events)}): say which "
            "this DM counts for with `event:`, or `event:none` for none.")


def dm_event_note(*, event: str, chooser_id: str | None = None, priority: int = 0,
                  other_priority: int = 0) -> str:
    """The line of a DM's announcement that names its event (and who chooses, by
    priority, when the host did not say)."""
    event = plain(event)
    note = f"\nEvent: **{event}**"
    if chooser_id is not None:
        note += (f" · {mention(chooser_id)} has the higher priority ({priority} vs "
                 f"{other_priority}) and chooses the First Player")
    return note + "."


# ---- events ------------------------------------------------------------------------------


def bad_reward() -> str:
    return "The reward is a number of garnets from 0 up."


def event_exists(*, name: str, event_id: int | None = None) -> str:
    name = plain(name)
    number = f" (#{event_id})" if event_id is not None else ""
    return f"There is already an event called {name}{number}."


def event_created(*, name: str, event_id: int, reward: int, transfers: bool,
                  confiscate: str, eliminate: bool = False, review: bool = False) -> str:
    name = plain(name)
    rules = [f"{garnets(reward)} per DM win",
             "transfers allowed" if transfers else "no transfers",
             CONFISCATION[confiscate]]
    if eliminate:
        rules.append(ELIMINATION)
    if review:
        rules.append(REVIEWED)
    return (f"🏁 Event **{name}** (#{event_id}) is open: {' · '.join(rules)}.\n"
            f"Hosts add players with `/host event add`; DMs between its players count for it.")


def name_player_to_add() -> str:
    return ("Name the players to add, e.g. `/host event add players:@a @b`, or a role: "
            "`/host event add role:@Players`.")


def event_closed(*, event: str) -> str:
    event = plain(event)
    return f"{event} is closed."


def event_already_closed(*, event: str) -> str:
    event = plain(event)
    return f"{event} is already closed."


MENTIONED = 40  # people named in one post (Discord allows 2,000 characters)


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:MENTIONED])
    return shown + (f" and {len(items) - MENTIONED} more" if len(items) > MENTIONED else "")


def players_added(*, event: str, added: Sequence[tuple[str, int]], total: int,
                  already: Sequence[tuple[str, int]] = ()) -> str:
    """``added``: (user id, priority) of each new player, in order; ``already``: (name,
    priority) of those named who were playing already."""
    event = plain(event)
    if len(added) == 1:
        who = f"{mention(added[0][0])} joins **{event}** with priority {added[0][1]}"
    else:
        who = (f"{_listed([mention(user) for user, _ in added])} join **{event}** "
               f"with priorities {added[0][1]}–{added[-1][1]}")
    count = "1 player" if total == 1 else f"{total} players"
    text = f"{who} — {count}."
    if already:
        text += (" Already playing: "
                 + _listed([f"{plain(name)} ({priority})" for name, priority in already]) + ".")
    return text + " Hosts reorder priority with `/host priority set`."


def all_already_playing(*, event: str, players: Sequence[tuple[str, int]]) -> str:
    """``players``: (name, priority) of those named, all playing already."""
    event = plain(event)
    listed = _listed([f"{plain(name)} (priority {priority})" for name, priority in players])
    verb = "is" if len(players) == 1 else "are all"
    return f"{listed} {verb} already playing in {event}: nobody was added."


def too_many_to_add(*, most: int) -> str:
    return f"Add at most {most} players at once."


def role_without_members(*, role: str) -> str:
    role = plain(role)
    return (f"The role {role} has no members that garnet can see (on Discord the bot "
            "needs the Server Members intent: `MEMBERS_INTENT=yes`); name the players with "
            "`players:@a @b`.")


def not_playing(*, user_id: str | Sequence[str], event: str) -> str:
    event = plain(event)
    if isinstance(user_id, str):
        return f"{mention(user_id)} is not playing in {event}."
    verb = "is" if len(user_id) == 1 else "are"
    return f"{_listed([mention(u) for u in user_id])} {verb} not playing in {event}."


def not_playing_add_them(*, user_id: str, event: str) -> str:
    event = plain(event)
    return f"{mention(user_id)} is not playing in {event}; add them with `/host event add`."


def player_removed(*, user_id: str, event: str) -> str:
    event = plain(event)
    return (f"{mention(user_id)} leaves **{event}**; the priorities below moved up. "
            "Their garnets stay in the event's ledger.")


def event_closed_now(*, event: str, event_id: int) -> str:
    event = plain(event)
    return (f"🏁 **{event}** is closed. Its standings stay: `/leaderboard "
            f"event:{event_id}`; hosts get its books with `/export event:{event_id}`.")


def event_info(*, name: str, event_id: int, closed_at: float | None, creator: str,
               created_at: float, reward: int, transfers: bool, confiscate: str,
               count: int, eliminate: bool = False, review: bool = False,
               players: Sequence[tuple[int, str, int]], notes: Sequence[str] = (),
               out: int = 0) -> str:
    """``players``: (priority, name, garnets) of those listed, of ``count`` in all;
    ``notes``: what follows each line (Tokens of Life, an elimination); ``out``: how
    many are eliminated."""
    name = plain(name)
    creator = plain(creator)
    state = "open" if closed_at is None else f"closed {stamp(closed_at)}"
    lines = [
        f"**{name}** (#{event_id}) — {state} · created by {creator} on {stamp(created_at)}",
        f"{garnets(reward)} per DM win · "
        f"{'transfers allowed' if transfers else 'no transfers'} · {CONFISCATION[confiscate]}"
        + (f" · {ELIMINATION}" if eliminate else "") + (f" · {REVIEWED}" if review else ""),
    ]
    still = f", {count - out} still in" if out else ""
    lines.append(f"Players by priority ({count}{still}):" if count
                 else "No players yet: hosts add them with `/host event add`.")
    for i, (priority, player, have) in enumerate(players):
        note = notes[i] if i < len(notes) else ""
        lines.append(f"{priority}. {plain(player)} — {garnets(have)}{note}")
    if count > len(players):
        lines.append(f"… and {count - len(players)} more (see `/leaderboard`).")
    return "\n".join(lines)


def export_ready(*, event: str) -> str:
    event = plain(event)
    return f"📄 The books of **{event}**: the ledger, the standings and the matches (CSV)."


# ---- priority ----------------------------------------------------------------------------


def bad_rank() -> str:
    return "Priority 1 is the highest; give a rank from 1 up."


def priority_set(*, user_id: str, rank: int, was: int, event: str, count: int) -> str:
    """A player moved from priority ``was`` to ``rank`` (of ``count``)."""
    event = plain(event)
    if rank == was:
        return f"{mention(user_id)} already has priority {rank} in **{event}**."
    shifted = abs(was - rank)
    others = "1 player moves" if shifted == 1 else f"{shifted} players move"
    way = "down" if rank < was else "up"
    return (f"↕ {mention(user_id)} now has priority {rank} of {count} in **{event}** "
            f"(was {was}); {others} {way} one place. `/priority show` lists the order.")


def priority_ordered(*, event: str, named: int, first: str, last: str, others: int) -> str:
    """The order set at once: ``named`` players from ``first`` (1) to ``last``."""
    event = plain(event)
    if named == 1:
        head = f"↕ {plain(first)} now has priority 1 in **{event}**"
    else:
        head = (f"↕ The priority of **{event}** is set for the {named} players named: "
                f"1. {plain(first)} … {named}. {plain(last)}")
    tail = (f"; the {others} others follow in their order" if others > 1
            else "; the 1 other follows" if others == 1 else "")
    return f"{head}{tail}. `/priority show` lists it."


def name_the_order() -> str:
    return "Name the players in order, e.g. `/host priority order players:@a @b @c`."


def named_twice() -> str:
    return "Name each player once."


def priority_list(*, event: str, count: int, mine: int | None,
                  order: Sequence[tuple[int, str, bool]]) -> str:
    """``order``: (priority, name, is the asker) of those listed, of ``count`` in all;
    ``mine`` the asker's priority (None if not playing)."""
    event = plain(event)
    if not count:
        return f"**{event}** has no players yet."
    lines = [f"**Priority in {event}** (1 is the highest; the higher of two DM "
             "players chooses the First Player):"]
    for priority, name, me in order:
        lines.append(f"{priority}. {plain(name)}{' ← you' if me else ''}")
    if count > len(order):
        lines.append(f"… and {count - len(order)} more."
                     + (f" You: {mine}." if mine is not None and mine > len(order) else ""))
    return "\n".join(lines)


# ---- garnets -----------------------------------------------------------------------------


def amount_missing() -> str:
    return "Say how many garnets, e.g. `amount:5`."


def bad_amount(*, most: int) -> str:
    return f"The amount is a whole number of garnets from 1 to {most:,}."


def balance(*, name: str, amount: int, where: str, in_event: bool,
            priority: tuple[int, int] | None) -> str:
    """``priority``: (the player's, of how many) in the event."""
    name = plain(name)
    line = f"{name} has **{garnets(amount)}** {where}"
    if in_event:
        line += (f" · priority {priority[0]} of {priority[1]}" if priority
                 else " · not playing in it")
    return line + "."


def give_to_yourself() -> str:
    return "You cannot give garnets to yourself."


def transfer_needs_event() -> str:
    return "Garnets change hands within an event that allows it; name it with `event:`."


def no_transfers(*, event: str) -> str:
    event = plain(event)
    return f"{event} does not allow transfers."


def sender_not_playing() -> str:
    return "You are not playing in that event."


def too_few_to_give(*, have: int, amount: int) -> str:
    return f"You have {garnets(have)} there; you cannot give {amount:,}."


def transfer_note_out(*, to: str, reason: str) -> str:
    return f"to {to}" + (f": {reason}" if reason else "")


def transfer_note_in(*, sender: str, reason: str) -> str:
    return f"from {sender}" + (f": {reason}" if reason else "")


def transferred(*, sender_id: str, sender: str, recipient_id: str, recipient: str,
                amount: int, event: str, reason: str, sender_left: int,
                recipient_now: int) -> str:
    sender = plain(sender)
    recipient = plain(recipient)
    event = plain(event)
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
    return (f"💎 {mention(sender_id)} gave {mention(recipient_id)} {garnets(amount)} in "
            f"**{event}**{why}. {sender}: {garnets(sender_left)}, "
            f"{recipient}: {garnets(recipient_now)}.")


def reason_missing() -> str:
    return "Give a reason: it is written in the ledger."


def adjusted(*, fine: bool, host_id: str, user_id: str, amount: int, where: str, reason: str,
             balance: int) -> str:
    """A host's grant or fine, said in the channel."""
    reason = plain(reason)
    if fine:
        head = f"⚖️ {mention(host_id)} fined {mention(user_id)} {garnets(amount)}"
    else:
        head = f"💎 {mention(host_id)} granted {mention(user_id)} {garnets(amount)}"
    return f"{head} {where}: {reason}. Balance: {garnets(balance)}."


def adjusted_each(*, fine: bool, host_id: str, user_ids: Sequence[str], amount: int,
                  where: str, reason: str) -> str:
    """The same grant or fine to each of several players, said in the channel."""
    reason = plain(reason)
    people = _listed([mention(u) for u in user_ids])
    if fine:
        head = f"⚖️ {mention(host_id)} fined {people} {garnets(amount)} each"
    else:
        head = f"💎 {mention(host_id)} granted {people} {garnets(amount)} each"
    return f"{head} {where}: {reason}. `/garnets` shows a balance."


def name_players_to_adjust() -> str:
    return "Name a player (`player:@x`) or several (`players:@a @b`)."


def ledger_empty(*, name: str, where: str, balance: int) -> str:
    name = plain(name)
    return f"**Ledger of {name}** {where} — balance {garnets(balance)}. No entries yet."


def ledger_page(*, name: str, where: str, balance: int, page: int, pages: int, total: int,
                lines: Sequence[str]) -> str:
    name = plain(name)
    head = (f"**Ledger of {name}** {where} — balance {garnets(balance)} "
            f"(page {page:,}/{pages:,}, {total:,} entr{'y' if total == 1 else 'ies'})")
    return "\n".join([head, *lines])


def ledger_line(*, at: float, amount: int, kind: str, note: str, author: str | None,
                event: str | None) -> str:
    """One entry: ``author`` for a host's grant or fine, ``event`` on overall ledgers."""
    note = plain(note)
    author = plain(author) if author is not None else None
    event = plain(event) if event is not None else None
    sign = "+" if amount >= 0 else "−"
    by = f" (by {author})" if author else ""
    about = f" — {note}" if note else ""
    where = f" [{event}]" if event is not None else ""
    return f"`{stamp(at)}` **{sign}{abs(amount):,}** {KINDS.get(kind, kind)}{about}{by}{where}"


def ledger_balance(*, line: str, after: int) -> str:
    """An entry's line with the balance it left (the same on every page)."""
    return f"{line} · balance {after:,}"


# ---- what a result changes ---------------------------------------------------------------


def reward_note(*, label: str) -> str:
    return f"won {label}"


def reward_said(*, user_id: str, reward: int) -> str:
    return f" {mention(user_id)} receives {garnets(reward)}."


def confiscation_note(*, label: str, to_winner: bool) -> str:
    return f"lost {label}" + (" (to the winner)" if to_winner else "")


def confiscation_won_note(*, label: str) -> str:
    return f"won {label}: the loser's garnets"


def confiscated(*, loser_id: str, amount: int, winner_id: str | None) -> str:
    """The loser's garnets taken, and given to ``winner_id`` where the event says so."""
    are, go = ("is", "goes") if amount == 1 else ("are", "go")
    if winner_id is not None:
        return (f" {mention(loser_id)}'s {garnets(amount)} {are} confiscated and {go} to "
                f"{mention(winner_id)}.")
    return f" {mention(loser_id)}'s {garnets(amount)} {are} confiscated."


def rating_changes(*, game: str, changes: Sequence[tuple[str, str, str]]) -> str:
    """``changes``: (name, rating now, change) of each player."""
    parts = [f"{plain(name)} {now} ({change})" for name, now, change in changes]
    return f"\nRatings ({game}): {', '.join(parts)}."
