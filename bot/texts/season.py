"""What garnet says about a season's Death Match flow: Tokens of Life, nominations and
eliminations. Every sentence as a function of named values; user text is escaped."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, n_, text
from bot.texts.words import all_of

TOKEN = "🛡"


@text
def tokens(n: int) -> str:
    return n_("{n} Token of Life",
              "{n} Tokens of Life", n).format(n=n)


# ---- Tokens of Life ----------------------------------------------------------------------


@text
def token_reason_missing() -> str:
    return _("Say why, e.g. `reason:won the main match`; it is written with the token.")


@text
def token_given(*, host_id: str, user_id: str, event: str, reason: str, held: int) -> str:
    event, reason = plain(event), plain(reason)
    return (_("🛡 {host_id} gave {user_id} a Token of Life in **{event}** ({reason}). "
              "They hold {tokens}: they cannot be nominated for a Death Match.").format(
                host_id=mention(host_id), user_id=mention(user_id), event=event,
                reason=reason, tokens=tokens(held)))


@text
def token_taken(*, host_id: str, user_id: str, event: str, reason: str, held: int) -> str:
    event, reason = plain(event), plain(reason)
    after = (_("They still hold {tokens}.").format(tokens=tokens(held)) if held
             else _("They hold none now and can be nominated."))
    return (_("🛡 {host_id} took a Token of Life from {user_id} in **{event}** "
              "({reason}). {after}").format(
                host_id=mention(host_id), user_id=mention(user_id), event=event,
                reason=reason, after=after))


@text
def no_token(*, user_id: str, event: str) -> str:
    return _("{user_id} holds no Token of Life in {event}.").format(
               user_id=mention(user_id), event=plain(event))


@text
def too_many_tokens(*, user_id: str, most: int) -> str:
    return _("{user_id} already holds {tokens}, the most one player may hold.").format(
               user_id=mention(user_id), tokens=tokens(most))


@text
def token_line(*, held: int) -> str:
    """Said after a balance or a player's line of an event."""
    return f" · {TOKEN} {tokens(held)}" if held else ""


# ---- eliminations ------------------------------------------------------------------------


@text
def eliminated(*, user_id: str, event: str) -> str:
    """Said with a Death Match's result."""
    return _("\n💀 {user_id} is eliminated from **{event}**.").format(
               user_id=mention(user_id), event=plain(event))


@text
def out_line(*, match_number: int | None) -> str:
    """Said after an eliminated player's balance or line of an event."""
    return (
        _(" · 💀 eliminated (DM #{match_number})").format(match_number=match_number)
        if match_number
        else _(" · 💀 eliminated"))


@text
def eliminated_cannot_play(*, user_ids: Sequence[str], event: str) -> str:
    who = all_of(mention(u) for u in user_ids)
    return n_(
        "{who} was eliminated from {event}: a host can bring them back with `/host "
        "event reinstate`, or start the DM with `event:none`.",
        "{who} were eliminated from {event}: a host can bring them back with `/host "
        "event reinstate`, or start the DM with `event:none`.",
        len(user_ids)).format(who=who, event=plain(event))


@text
def not_eliminated(*, user_id: str, event: str) -> str:
    return _("{user_id} is not eliminated from {event}.").format(
        user_id=mention(user_id), event=plain(event))


@text
def reinstated(*, host_id: str, user_id: str, event: str, reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    # TRANSLATORS: {why}: " (the host's reason)" or nothing
    return _("↩ {host_id} reinstated {user_id} in **{event}**{why}: they play on.").format(
        host_id=mention(host_id), user_id=mention(user_id), event=plain(event), why=why)


# ---- nominations -------------------------------------------------------------------------


@text
def nominator_not_playing(*, user_id: str, event: str) -> str:
    return _("{user_id} is not playing in {event}; add them with `/host event add`.").format(
        user_id=mention(user_id), event=plain(event))


@text
def nominator_out(*, user_id: str, event: str) -> str:
    return _(
        "{user_id} is eliminated from {event} and cannot nominate; `/host event "
        "reinstate` brings them back.").format(user_id=mention(user_id), event=plain(event))


@text
def nomination_open_already(*, user_id: str, event: str) -> str:
    return _(
        "{user_id}'s nomination in {event} is still open: they pick with `/nomination "
        "pick`, or a host ends it with `/host nomination cancel`."
    ).format(user_id=mention(user_id), event=plain(event))


@text
def nobody_to_nominate(*, event: str) -> str:
    return _(
        "Nobody in {event} can be nominated: every other player holds a Token of Life "
        "or is eliminated.").format(event=plain(event))


@text
def nomination(
    *,
    host_id: str,
    user_id: str,
    event: str,
    game: str,
    eligible: Sequence[str],
    protected: Sequence[str],
    out: Sequence[str],
    picker: str) -> str:
    """The post that asks the nominator to pick: everyone who may be picked, and why
    the others may not."""
    lines = [
        _(
            "⚔ **{event}: Death Match nomination** ({game}) — {host_id} named {user_id} "
            "to nominate an opponent."
        ).format(event=plain(event), game=game, host_id=mention(host_id), user_id=mention(user_id)),
        _("May be nominated: ") + ", ".join(mention(u) for u in eligible) + "."]
    if protected:
        lines.append(
            _("🛡 Protected by a Token of Life: ") + ", ".join(mention(u) for u in protected) + ".")
    if out:
        lines.append(_("💀 Eliminated: ") + ", ".join(mention(u) for u in out) + ".")
    how = _("press a name or use") if picker == "buttons" else _("choose a name in the menu or use")
    lines.append(
        _(
            "{user_id}: {how} `/nomination pick opponent:@name`. The player with the "
            "higher priority then chooses the First Player."
        ).format(user_id=mention(user_id), how=how))
    return "\n".join(lines)


@text
def pick_button(*, name: str) -> str:
    return name[:80]


@text
def pick_placeholder(*, first: int, last: int, total: int) -> str:
    """A menu of the players a nominator may pick: which of them it holds."""
    return _("Pick your opponent ({first}–{last} of {total}, by priority)").format(
        first=first, last=last, total=total)


@text
def no_open_nomination() -> str:
    return _("There is no open Death Match nomination here.")


@text
def several_nominations(*, events: Sequence[str]) -> str:
    return (
        _("Several nominations are open (")
        + ", ".join(plain(e) for e in events)
        + _("); add `event:` with one of them."))


@text
def not_the_nominator(*, user_id: str) -> str:
    return _("Only {user_id} (or a host) picks the opponent of this Death Match.").format(
        user_id=mention(user_id))


@text
def cannot_pick_self() -> str:
    return _("The nominator cannot nominate themselves; pick another player.")


@text
def pick_not_playing(*, user_id: str, event: str) -> str:
    return _("{user_id} is not playing in {event}; pick one of its players.").format(
        user_id=mention(user_id), event=plain(event))


@text
def pick_protected(*, user_id: str, event: str) -> str:
    return _(
        "{user_id} holds a Token of Life in {event} and cannot be nominated; pick another player."
    ).format(user_id=mention(user_id), event=plain(event))


@text
def pick_eliminated(*, user_id: str, event: str) -> str:
    return _(
        "{user_id} is eliminated from {event} and cannot be nominated; pick another player."
    ).format(user_id=mention(user_id), event=plain(event))


@text
def nominated(*, nominator_id: str, user_id: str) -> str:
    """The line of the Death Match's intro that says how it came about."""
    return _("\n⚔ {nominator_id} nominated {user_id}.").format(
        nominator_id=mention(nominator_id), user_id=mention(user_id))


@text
def nomination_cancelled(*, host_id: str, user_id: str, event: str) -> str:
    return _("{host_id} cancelled {user_id}'s Death Match nomination in **{event}**.").format(
        host_id=mention(host_id), user_id=mention(user_id), event=plain(event))


@text
def dm_thread(*, event: str, first: str, second: str) -> str:
    return _("DM: {first} vs {second} ({event})").format(first=first, second=second, event=event)[
        :100]
