"""The sentences of garnets: balances, grants and fines, transfers, the ledger, and what
a result changes (moved out of economy.py, which re-exports them)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import N_, _, moment, n_, numeral, text
from bot.texts.words import garnets

OUTSIDE_EVENTS = N_("outside events")


KINDS = {  # ledger entries' kinds as players read them
    "match-reward": N_("DM reward"),
    "grant": N_("host grant"),
    "fine": N_("host fine"),
    "transfer": N_("transfer"),
    "confiscation": N_("confiscation"),
    "correction": N_("result corrected"),
    "prize": N_("tournament prize")}


@text
def stamp(at: float) -> str:
    return moment(at, "%b %d %H:%M", "MMMd", "Hm")


@text
def where(*, event: str | None, overall: bool) -> str:
    """Where a balance counts, as said after it."""
    event = plain(event) if event is not None else None
    if event is not None:
        return _("in **{event}**").format(event=event)
    return _("across all events") if overall else _(OUTSIDE_EVENTS)


MENTIONED = 40  # people named in one post (Discord allows 2,000 characters)


@text
def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:MENTIONED])
    return shown + (
        _(" and {items} more").format(items=len(items) - MENTIONED)
        if len(items) > MENTIONED
        else "")


@text
def amount_missing() -> str:
    return _("Say how many garnets, e.g. `amount:5`.")


@text
def bad_amount(*, most: int) -> str:
    return _("The amount is a whole number of garnets from 1 to {most}.").format(most=numeral(most))


@text
def balance(
    *, name: str, amount: int, where: str, in_event: bool, priority: tuple[int, int] | None) -> str:
    """``priority``: (the player's, of how many) in the event."""
    name = plain(name)
    # TRANSLATORS: {where}: "in **Season 1**" or "across all events"
    line = _("{name} has **{garnets}** {where}").format(
        name=name, garnets=garnets(amount), where=where)
    if in_event:
        line += (
            _(" · priority {priority} of {count}").format(
                priority=priority[0], count=priority[1])
            if priority
            else _(" · not playing in it"))
    return line + "."


@text
def give_to_yourself() -> str:
    return _("You cannot give garnets to yourself.")


@text
def transfer_needs_event() -> str:
    return _("Garnets change hands within an event that allows it; name it with `event:`.")


@text
def no_transfers(*, event: str) -> str:
    event = plain(event)
    return _("{event} does not allow transfers.").format(event=event)


@text
def sender_not_playing() -> str:
    return _("You are not playing in that event.")


@text
def too_few_to_give(*, have: int, amount: int) -> str:
    return _("You have {garnets} there; you cannot give {amount}.").format(
        garnets=garnets(have), amount=numeral(amount))


@text
def transfer_note_out(*, to: str, reason: str) -> str:
    return _("to {to}").format(to=to) + (f": {reason}" if reason else "")


@text
def transfer_note_in(*, sender: str, reason: str) -> str:
    return _("from {sender}").format(sender=sender) + (f": {reason}" if reason else "")


@text
def transferred(
    *,
    sender_id: str,
    sender: str,
    recipient_id: str,
    recipient: str,
    amount: int,
    event: str,
    reason: str,
    sender_left: int,
    recipient_now: int) -> str:
    sender = plain(sender)
    recipient = plain(recipient)
    event = plain(event)
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
    # TRANSLATORS: {sender_left} and {recipient_now}: the two balances after the transfer
    return _(
        "💎 {sender_id} gave {recipient_id} {garnets} in **{event}**{why}. {sender}: "
        "{sender_left}, {recipient}: {recipient_now}.").format(
        sender_id=mention(sender_id), recipient_id=mention(recipient_id),
        garnets=garnets(amount), event=event, why=why, sender=sender,
        sender_left=garnets(sender_left), recipient=recipient,
        recipient_now=garnets(recipient_now))


@text
def reason_missing() -> str:
    return _("Give a reason: it is written in the ledger.")


@text
def adjusted(
    *, fine: bool, host_id: str, user_id: str, amount: int, where: str, reason: str, balance: int
) -> str:
    """A host's grant or fine, said in the channel."""
    reason = plain(reason)
    if fine:
        head = _("⚖️ {host_id} fined {user_id} {garnets}").format(
            host_id=mention(host_id), user_id=mention(user_id), garnets=garnets(amount))
    else:
        head = _("💎 {host_id} granted {user_id} {garnets}").format(
            host_id=mention(host_id), user_id=mention(user_id), garnets=garnets(amount))
    return _("{head} {where}: {reason}. Balance: {garnets}.").format(
        head=head, where=where, reason=reason, garnets=garnets(balance))


@text
def adjusted_each(
    *, fine: bool, host_id: str, user_ids: Sequence[str], amount: int, where: str, reason: str
) -> str:
    """The same grant or fine to each of several players, said in the channel."""
    reason = plain(reason)
    people = _listed([mention(u) for u in user_ids])
    if fine:
        head = _("⚖️ {host_id} fined {people} {garnets} each").format(
            host_id=mention(host_id), people=people, garnets=garnets(amount))
    else:
        head = _("💎 {host_id} granted {people} {garnets} each").format(
            host_id=mention(host_id), people=people, garnets=garnets(amount))
    return _("{head} {where}: {reason}. `/garnets` shows a balance.").format(
        head=head, where=where, reason=reason)


@text
def name_players_to_adjust() -> str:
    return _("Name a player (`player:@x`) or several (`players:@a @b`).")


@text
def ledger_empty(*, name: str, where: str, balance: int) -> str:
    name = plain(name)
    return _("**Ledger of {name}** {where} — balance {garnets}. No entries yet.").format(
        name=name, where=where, garnets=garnets(balance))


@text
def ledger_page(
    *, name: str, where: str, balance: int, page: int, pages: int, total: int, lines: Sequence[str]
) -> str:
    name = plain(name)
    head = n_(
        "**Ledger of {name}** {where} — balance {garnets} (page {page}/{pages}, {total} entry)",
        "**Ledger of {name}** {where} — balance {garnets} (page {page}/{pages}, {total} entries)",
        total).format(
        name=name,
        where=where,
        garnets=garnets(balance),
        page=numeral(page),
        pages=numeral(pages),
        total=numeral(total))
    return "\n".join([head, *lines])


@text
def ledger_line(
    *, at: float, amount: int, kind: str, note: str, author: str | None, event: str | None) -> str:
    """One entry: ``author`` for a host's grant or fine, ``event`` on overall ledgers."""
    note = plain(note)
    author = plain(author) if author is not None else None
    event = plain(event) if event is not None else None
    sign = "+" if amount >= 0 else "−"
    by = _(" (by {author})").format(author=author) if author else ""
    about = f" — {note}" if note else ""
    where = f" [{event}]" if event is not None else ""
    amount_shown = f"{sign}{numeral(abs(amount))}"
    return f"`{stamp(at)}` **{amount_shown}** {_(KINDS.get(kind, kind))}{about}{by}{where}"


@text
def ledger_balance(*, line: str, after: int) -> str:
    """An entry's line with the balance it left (the same on every page)."""
    return _("{line} · balance {after}").format(line=line, after=numeral(after))


@text
def reward_note(*, label: str) -> str:
    return _("won {label}").format(label=label)


@text
def reward_said(*, user_id: str, reward: int) -> str:
    return _(" {user_id} receives {garnets}.").format(
        user_id=mention(user_id), garnets=garnets(reward))


@text
def confiscation_note(*, label: str, to_winner: bool) -> str:
    return _("lost {label}").format(label=label) + (_(" (to the winner)") if to_winner else "")


@text
def confiscation_won_note(*, label: str) -> str:
    return _("won {label}: the loser's garnets").format(label=label)


@text
def confiscated(*, loser_id: str, amount: int, winner_id: str | None) -> str:
    """The loser's garnets taken, and given to ``winner_id`` where the event says so."""
    if winner_id is not None:
        return n_(
            " {loser}'s {garnets} is confiscated and goes to {winner}.",
            " {loser}'s {garnets} are confiscated and go to {winner}.",
            amount,
        ).format(loser=mention(loser_id), garnets=garnets(amount), winner=mention(winner_id))
    return n_(
        " {loser}'s {garnets} is confiscated.", " {loser}'s {garnets} are confiscated.", amount
    ).format(loser=mention(loser_id), garnets=garnets(amount))


@text
def rating_changes(*, game: str, changes: Sequence[tuple[str, str, str]]) -> str:
    """``changes``: (name, rating now, change) of each player."""
    parts = [f"{plain(name)} {now} ({change})" for name, now, change in changes]
    return _("\nRatings ({game}): {listed}.").format(game=game, listed=", ".join(parts))
