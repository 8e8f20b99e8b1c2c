"""What garnet says about events, priority, garnets and results: every sentence, as a
function of named values. Standings and ratings are in ``bot.texts.standings``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.texts.garnets import KINDS as KINDS
from bot.texts.garnets import MENTIONED as MENTIONED
from bot.texts.garnets import OUTSIDE_EVENTS as OUTSIDE_EVENTS
from bot.texts.garnets import _listed as _listed
from bot.texts.garnets import adjusted as adjusted
from bot.texts.garnets import adjusted_each as adjusted_each
from bot.texts.garnets import amount_missing as amount_missing
from bot.texts.garnets import bad_amount as bad_amount
from bot.texts.garnets import balance as balance
from bot.texts.garnets import confiscated as confiscated
from bot.texts.garnets import confiscation_note as confiscation_note
from bot.texts.garnets import confiscation_won_note as confiscation_won_note
from bot.texts.garnets import give_to_yourself as give_to_yourself
from bot.texts.garnets import ledger_balance as ledger_balance
from bot.texts.garnets import ledger_empty as ledger_empty
from bot.texts.garnets import ledger_line as ledger_line
from bot.texts.garnets import ledger_page as ledger_page
from bot.texts.garnets import name_players_to_adjust as name_players_to_adjust
from bot.texts.garnets import no_transfers as no_transfers
from bot.texts.garnets import rating_changes as rating_changes
from bot.texts.garnets import reason_missing as reason_missing
from bot.texts.garnets import reward_note as reward_note
from bot.texts.garnets import reward_said as reward_said
from bot.texts.garnets import sender_not_playing as sender_not_playing
from bot.texts.garnets import stamp as stamp
from bot.texts.garnets import too_few_to_give as too_few_to_give
from bot.texts.garnets import transfer_needs_event as transfer_needs_event
from bot.texts.garnets import transfer_note_in as transfer_note_in
from bot.texts.garnets import transfer_note_out as transfer_note_out
from bot.texts.garnets import transferred as transferred
from bot.texts.garnets import where as where
from bot.texts.language import N_, _, n_, text
from bot.texts.words import all_of, garnets

PREV, NEXT = N_("◀ Prev"), N_("Next ▶")  # a page's buttons: ``page_button``
CONFISCATION = {
    "no": N_("the loser keeps their garnets"),
    "winner": N_("the loser's garnets go to the winner"),
    "remove": N_("the loser's garnets are confiscated")}
ELIMINATION = N_("a DM's loser is eliminated")
REVIEWED = N_("each DM is reviewed by the computer when it ends")
#: (label, value) offered besides events where a scope may be wider than one event
WIDER_CHOICES = ((N_("Overall (every event)"), "all"), (N_("Outside events"), "none"))




@text
def page_button(label: str) -> str:
    """``PREV`` or ``NEXT`` in the language spoken now."""
    return _(label)


def wider_choices() -> tuple[tuple[str, str], ...]:
    """``WIDER_CHOICES`` with their labels in the language spoken now."""
    return tuple((_(label), value) for label, value in WIDER_CHOICES)


@text
def scope_label(*, event: str | None, overall: bool) -> str:
    event = plain(event) if event is not None else None
    if event is not None:
        return f"**{event}**"
    return _("overall") if overall else _(OUTSIDE_EVENTS)




# ---- naming events ---------------------------------------------------------------------


@text
def event_name_missing() -> str:
    return _("Name the event, e.g. `/host event create name:Season 1`.")


@text
def event_name_too_long(*, limit: int) -> str:
    return _("An event's name has at most {limit} characters.").format(limit=limit)


@text
def event_name_is_number() -> str:
    return _("An event's name cannot be a number: numbers name events by id.")


@text
def event_name_reserved(*, name: str) -> str:
    name = plain(name)
    return _("'{name}' means something else to `event:`; choose another name.").format(name=name)


@text
def bad_confiscate(*, value: str) -> str:
    value = plain(value)
    return _("`confiscate` is no, winner or remove, not '{typed}'.").format(typed=value)


@text
def no_such_event(*, number: str) -> str:
    number = plain(number)
    return _("There is no event #{number} on this server.").format(number=number)


@text
def no_event_called(*, name: str, known: Sequence[str]) -> str:
    name = plain(name)
    known = plains(known)
    listed = (
        _(" Events here: {listed}.").format(listed=", ".join(known))
        if known
        else _(" There are no events yet."))
    return _("There is no event called '{name}' on this server.{listed}").format(
        name=name, listed=listed)


@text
def name_one_event() -> str:
    return _("Name one event here (or `none` for garnets outside events).")


@text
def several_open(*, names: Sequence[str]) -> str:
    names = plains(names)
    return _("Several events are open ({listed}); add `event:` with one of them.").format(
        listed=", ".join(names))


@text
def no_open_event() -> str:
    return _(
        "No event is open on this server: name one with `event:`, or create one with "
        "`/host event create`.")


@text
def event_choice(*, name: str, event_id: int, open: bool) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    state = _("open") if open else _("closed")
    return f"{name} (#{event_id}, {state})"


# ---- Death Matches of an event -----------------------------------------------------------


@text
def event_closed_for_dm(*, event: str) -> str:
    event = plain(event)
    return _("The event {event} is closed.").format(event=event)


@text
def not_in_event_for_dm(*, user_ids: Sequence[str], event: str) -> str:
    event = plain(event)
    return n_(
        "{listed} is not playing in {event}; add them with `/host event add`, or start "
        "the DM with `event:none`.",
        "{listed} are not playing in {event}; add them with `/host event add`, or "
        "start the DM with `event:none`.",
        len(user_ids)).format(listed=all_of(mention(m) for m in user_ids), event=event)


@text
def half_in_event_for_dm(*, playing: Sequence[str], missing: Sequence[str], event: str) -> str:
    """A DM between a player of the open event and someone not in it."""
    event = plain(event)
    ins = all_of(mention(m) for m in playing)
    outs = all_of(mention(m) for m in missing)
    # TRANSLATORS: {ins} are in the event {event}, {outs} are not.
    plays = n_("{ins} plays in {event}", "{ins} play in {event}", len(playing)).format(
        ins=ins, event=event)
    return n_(
        "{plays} but {outs} does not: add {outs} with `/host event add` and start the "
        "DM again, or start it with `event:none` to play it outside the event.",
        "{plays} but {outs} do not: add {outs} with `/host event add` and start the DM "
        "again, or start it with `event:none` to play it outside the event.",
        len(missing)).format(plays=plays, outs=outs)


@text
def which_event_for_dm(*, events: Sequence[str]) -> str:
    events = plains(events)
    return _(
        "These players are in several open events ({listed}): say which this DM counts "
        "for with `event:`, or `event:none` for none.").format(listed=", ".join(events))


@text
def dm_event_note(
    *, event: str, chooser_id: str | None = None, priority: int = 0, other_priority: int = 0
) -> str:
    """The line of a DM's announcement that names its event (and who chooses, by
    priority, when the host did not say)."""
    event = plain(event)
    note = _("\nEvent: **{event}**").format(event=event)
    if chooser_id is not None:
        note += _(
            " · {chooser_id} has the higher priority ({priority} vs {other_priority}) "
            "and chooses the First Player"
        ).format(chooser_id=mention(chooser_id), priority=priority, other_priority=other_priority)
    return note + "."


# ---- events ------------------------------------------------------------------------------


@text
def bad_reward() -> str:
    return _("The reward is a number of garnets from 0 up.")


@text
def event_exists(*, name: str, event_id: int | None = None) -> str:
    name = plain(name)
    number = f" (#{event_id})" if event_id is not None else ""
    return _("There is already an event called {name}{number}.").format(name=name, number=number)


@text
def event_created(
    *,
    name: str,
    event_id: int,
    reward: int,
    transfers: bool,
    confiscate: str,
    eliminate: bool = False,
    review: bool = False) -> str:
    name = plain(name)
    rules = [
        _("{garnets} per DM win").format(garnets=garnets(reward)),
        _("transfers allowed") if transfers else _("no transfers"),
        _(CONFISCATION[confiscate])]
    if eliminate:
        rules.append(_(ELIMINATION))
    if review:
        rules.append(_(REVIEWED))
    return _(
        "🏁 Event **{name}** (#{event_id}) is open: {listed}.\nHosts add players with "
        "`/host event add`; DMs between its players count for it."
    ).format(name=name, event_id=event_id, listed=" · ".join(rules))


@text
def name_player_to_add() -> str:
    return _(
        "Name the players to add, e.g. `/host event add players:@a @b`, or a role: "
        "`/host event add role:@Players`.")


@text
def event_closed(*, event: str) -> str:
    event = plain(event)
    return _("{event} is closed.").format(event=event)


@text
def event_already_closed(*, event: str) -> str:
    event = plain(event)
    return _("{event} is already closed.").format(event=event)






@text
def players_added(
    *,
    event: str,
    added: Sequence[tuple[str, int]],
    total: int,
    already: Sequence[tuple[str, int]] = ()) -> str:
    """``added``: (user id, priority) of each new player, in order; ``already``: (name,
    priority) of those named who were playing already."""
    event = plain(event)
    if len(added) == 1:
        who = _("{player} joins **{event}** with priority {priority}").format(
            player=mention(added[0][0]), event=event, priority=added[0][1])
    else:
        who = _("{players} join **{event}** with priorities {first}–{last}").format(
            players=_listed([mention(user) for user, _joined in added]),
            event=event,
            first=added[0][1],
            last=added[-1][1])
    count = n_("{total} player", "{total} players", total).format(total=total)
    text = f"{who} — {count}."
    if already:
        text += (
            _(" Already playing: ")
            + _listed([f"{plain(name)} ({priority})" for name, priority in already])
            + ".")
    return text + _(" Hosts reorder priority with `/host priority set`.")


@text
def all_already_playing(*, event: str, players: Sequence[tuple[str, int]]) -> str:
    """``players``: (name, priority) of those named, all playing already."""
    event = plain(event)
    listed = _listed(
        [
            _("{name} (priority {priority})").format(name=plain(name), priority=priority)
            for name, priority in players])
    return n_(
        "{listed} is already playing in {event}: nobody was added.",
        "{listed} are all already playing in {event}: nobody was added.",
        len(players)).format(listed=listed, event=event)


@text
def too_many_to_add(*, most: int) -> str:
    return _("Add at most {most} players at once.").format(most=most)


@text
def role_without_members(*, role: str) -> str:
    role = plain(role)
    return _(
        "The role {role} has no members that garnet can see (on Discord the bot needs "
        "the Server Members intent: `MEMBERS_INTENT=yes`); name the players with "
        "`players:@a @b`.").format(role=role)


@text
def not_playing(*, user_id: str | Sequence[str], event: str) -> str:
    event = plain(event)
    if isinstance(user_id, str):
        return _("{user_id} is not playing in {event}.").format(
            user_id=mention(user_id), event=event)
    return n_(
        "{listed} is not playing in {event}.", "{listed} are not playing in {event}.", len(user_id)
    ).format(listed=_listed([mention(u) for u in user_id]), event=event)


@text
def not_playing_add_them(*, user_id: str, event: str) -> str:
    event = plain(event)
    return _("{user_id} is not playing in {event}; add them with `/host event add`.").format(
        user_id=mention(user_id), event=event)


@text
def player_removed(*, user_id: str, event: str) -> str:
    event = plain(event)
    return _(
        "{user_id} leaves **{event}**; the priorities below moved up. Their garnets "
        "stay in the event's ledger.").format(user_id=mention(user_id), event=event)


@text
def event_closed_now(*, event: str, event_id: int) -> str:
    event = plain(event)
    return _(
        "🏁 **{event}** is closed. Its standings stay: `/leaderboard event:{event_id}`; "
        "hosts get its books with `/export event:{event_id}`."
    ).format(event=event, event_id=event_id)


@text
def event_info(
    *,
    name: str,
    event_id: int,
    closed_at: float | None,
    creator: str,
    created_at: float,
    reward: int,
    transfers: bool,
    confiscate: str,
    count: int,
    eliminate: bool = False,
    review: bool = False,
    players: Sequence[tuple[int, str, int]],
    notes: Sequence[str] = (),
    out: int = 0) -> str:
    """``players``: (priority, name, garnets) of those listed, of ``count`` in all;
    ``notes``: what follows each line (Tokens of Life, an elimination); ``out``: how
    many are eliminated."""
    name = plain(name)
    creator = plain(creator)
    state = _("open") if closed_at is None else _("closed {stamp}").format(stamp=stamp(closed_at))
    lines = [
        _("**{name}** (#{event_id}) — {state} · created by {creator} on {stamp}").format(
            name=name, event_id=event_id, state=state, creator=creator, stamp=stamp(created_at)),
        _("{garnets} per DM win · {transfers} · {confiscation}").format(
            garnets=garnets(reward),
            transfers=_("transfers allowed") if transfers else _("no transfers"),
            confiscation=_(CONFISCATION[confiscate]))
        + (f" · {_(ELIMINATION)}" if eliminate else "")
        + (f" · {_(REVIEWED)}" if review else "")]
    still = _(", {count} still in").format(count=count - out) if out else ""
    lines.append(
        _("Players by priority ({count}{still}):").format(count=count, still=still)
        if count
        else _("No players yet: hosts add them with `/host event add`."))
    for i, (priority, player, have) in enumerate(players):
        note = notes[i] if i < len(notes) else ""
        lines.append(f"{priority}. {plain(player)} — {garnets(have)}{note}")
    if count > len(players):
        lines.append(
            _("… and {count} more (see `/leaderboard`).").format(count=count - len(players)))
    return "\n".join(lines)


@text
def export_ready(*, event: str) -> str:
    event = plain(event)
    return _(
        "📄 The books of **{event}**: the ledger, the standings and the matches (CSV)."
    ).format(event=event)


# ---- priority ----------------------------------------------------------------------------


@text
def bad_rank() -> str:
    return _("Priority 1 is the highest; give a rank from 1 up.")


@text
def priority_set(*, user_id: str, rank: int, was: int, event: str, count: int) -> str:
    """A player moved from priority ``was`` to ``rank`` (of ``count``)."""
    event = plain(event)
    if rank == was:
        return _("{user_id} already has priority {rank} in **{event}**.").format(
            user_id=mention(user_id), rank=rank, event=event)
    shifted = abs(was - rank)
    others = n_("1 player moves", "{shifted} players move", shifted).format(shifted=shifted)
    way = _("down") if rank < was else _("up")
    return _(
        "↕ {user_id} now has priority {rank} of {count} in **{event}** (was {was}); "
        "{others} {way} one place. `/priority show` lists the order.").format(
        user_id=mention(user_id),
        rank=rank,
        count=count,
        event=event,
        was=was,
        others=others,
        way=way)


@text
def priority_ordered(*, event: str, named: int, first: str, last: str, others: int) -> str:
    """The order set at once: ``named`` players from ``first`` (1) to ``last``."""
    event = plain(event)
    if named == 1:
        head = _("↕ {first} now has priority 1 in **{event}**").format(
            first=plain(first), event=event)
    else:
        head = _(
            "↕ The priority of **{event}** is set for the {named} players named: 1. "
            "{first} … {named}. {last}"
        ).format(event=event, named=named, first=plain(first), last=plain(last))
    tail = (
        n_(
            "; the {others} other follows", "; the {others} others follow in their order", others
        ).format(others=others)
        if others
        else "")
    return _("{head}{tail}. `/priority show` lists it.").format(head=head, tail=tail)


@text
def name_the_order() -> str:
    return _("Name the players in order, e.g. `/host priority order players:@a @b @c`.")


@text
def named_twice() -> str:
    return _("Name each player once.")


@text
def priority_list(
    *, event: str, count: int, mine: int | None, order: Sequence[tuple[int, str, bool]]) -> str:
    """``order``: (priority, name, is the asker) of those listed, of ``count`` in all;
    ``mine`` the asker's priority (None if not playing)."""
    event = plain(event)
    if not count:
        return _("**{event}** has no players yet.").format(event=event)
    lines = [
        _(
            "**Priority in {event}** (1 is the highest; the higher of two DM players "
            "chooses the First Player):").format(event=event)]
    you = _(" ← you")
    for priority, name, me in order:
        lines.append(f"{priority}. {plain(name)}{you if me else ''}")
    if count > len(order):
        lines.append(
            _("… and {count} more.").format(count=count - len(order))
            + (
                _(" You: {mine}.").format(mine=mine)
                if mine is not None and mine > len(order)
                else ""))
    return "\n".join(lines)


# ---- garnets -----------------------------------------------------------------------------








































# ---- what a result changes ---------------------------------------------------------------












