"""What garnet says about a season's Death Match flow: Tokens of Life, nominations and
eliminations. Every sentence as a function of named values; user text is escaped."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention

TOKEN = "🛡"


def tokens(n: int) -> str:
    return f"{n} Token of Life" if n == 1 else f"{n} Tokens of Life"


# ---- Tokens of Life ----------------------------------------------------------------------


def token_reason_missing() -> str:
    return "Say why, e.g. `reason:won the main match`; it is written with the token."


def token_given(*, host_id: str, user_id: str, event: str, reason: str, held: int) -> str:
    event, reason = plain(event), plain(reason)
    return (f"{TOKEN} {mention(host_id)} gave {mention(user_id)} a Token of Life in "
            f"**{event}** ({reason}). They hold {tokens(held)}: they cannot be nominated "
            "for a Death Match.")


def token_taken(*, host_id: str, user_id: str, event: str, reason: str, held: int) -> str:
    event, reason = plain(event), plain(reason)
    after = (f"They still hold {tokens(held)}." if held
             else "They hold none now and can be nominated.")
    return (f"{TOKEN} {mention(host_id)} took a Token of Life from {mention(user_id)} in "
            f"**{event}** ({reason}). {after}")


def no_token(*, user_id: str, event: str) -> str:
    return f"{mention(user_id)} holds no Token of Life in {plain(event)}."


def too_many_tokens(*, user_id: str, most: int) -> str:
    return f"{mention(user_id)} already holds {tokens(most)}, the most one player may hold."


def token_line(*, held: int) -> str:
    """Said after a balance or a player's line of an event."""
    return f" · {TOKEN} {tokens(held)}" if held else ""


# ---- eliminations ------------------------------------------------------------------------


def eliminated(*, user_id: str, event: str) -> str:
    """Said with a Death Match's result."""
    return f"\n💀 {mention(user_id)} is eliminated from **{plain(event)}**."


def out_line(*, match_number: int | None) -> str:
    """Said after an eliminated player's balance or line of an event."""
    return f" · 💀 eliminated (DM #{match_number})" if match_number else " · 💀 eliminated"


def eliminated_cannot_play(*, user_ids: Sequence[str], event: str) -> str:
    who = " and ".join(mention(u) for u in user_ids)
    verb = "was" if len(user_ids) == 1 else "were"
    return (f"{who} {verb} eliminated from {plain(event)}: a host can bring them back with "
            "`/host event reinstate`, or start the DM with `event:none`.")


def not_eliminated(*, user_id: str, event: str) -> str:
    return f"{mention(user_id)} is not eliminated from {plain(event)}."


def reinstated(*, host_id: str, user_id: str, event: str, reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    return (f"↩ {mention(host_id)} reinstated {mention(user_id)} in **{plain(event)}**"
            f"{why}: they play on.")


# ---- nominations -------------------------------------------------------------------------


def nominator_not_playing(*, user_id: str, event: str) -> str:
    return f"{mention(user_id)} is not playing in {plain(event)}; add them with `/host event add`."


def nominator_out(*, user_id: str, event: str) -> str:
    return (f"{mention(user_id)} is eliminated from {plain(event)} and cannot nominate; "
            "`/host event reinstate` brings them back.")


def nomination_open_already(*, user_id: str, event: str) -> str:
    return (f"{mention(user_id)}'s nomination in {plain(event)} is still open: they pick "
            "with `/nomination pick`, or a host ends it with `/host nomination cancel`.")


def nobody_to_nominate(*, event: str) -> str:
    return (f"Nobody in {plain(event)} can be nominated: every other player holds a Token "
            "of Life or is eliminated.")


def nomination(*, host_id: str, user_id: str, event: str, game: str,
               eligible: Sequence[str], protected: Sequence[str], out: Sequence[str],
               picker: str) -> str:
    """The post that asks the nominator to pick: everyone who may be picked, and why
    the others may not."""
    lines = [f"⚔ **{plain(event)}: Death Match nomination** ({game}) — {mention(host_id)} "
             f"named {mention(user_id)} to nominate an opponent.",
             "May be nominated: " + ", ".join(mention(u) for u in eligible) + "."]
    if protected:
        lines.append(f"{TOKEN} Protected by a Token of Life: "
                     + ", ".join(mention(u) for u in protected) + ".")
    if out:
        lines.append("💀 Eliminated: " + ", ".join(mention(u) for u in out) + ".")
    how = "press a name or use" if picker == "buttons" else "choose a name in the menu or use"
    lines.append(f"{mention(user_id)}: {how} `/nomination pick opponent:@name`. The player "
                 "with the higher priority then chooses the First Player.")
    return "\n".join(lines)


def pick_button(*, name: str) -> str:
    return name[:80]


def pick_placeholder(*, first: int, last: int, total: int) -> str:
    """A menu of the players a nominator may pick: which of them it holds."""
    return f"Pick your opponent ({first}–{last} of {total}, by priority)"


def no_open_nomination() -> str:
    return "There is no open Death Match nomination here."


def several_nominations(*, events: Sequence[str]) -> str:
    return ("Several nominations are open (" + ", ".join(plain(e) for e in events)
            + "); add `event:` with one of them.")


def not_the_nominator(*, user_id: str) -> str:
    return f"Only {mention(user_id)} (or a host) picks the opponent of this Death Match."


def cannot_pick_self() -> str:
    return "The nominator cannot nominate themselves; pick another player."


def pick_not_playing(*, user_id: str, event: str) -> str:
    return f"{mention(user_id)} is not playing in {plain(event)}; pick one of its players."


def pick_protected(*, user_id: str, event: str) -> str:
    return (f"{mention(user_id)} holds a Token of Life in {plain(event)} and cannot be "
            "nominated; pick another player.")


def pick_eliminated(*, user_id: str, event: str) -> str:
    return (f"{mention(user_id)} is eliminated from {plain(event)} and cannot be nominated; "
            "pick another player.")


def nominated(*, nominator_id: str, user_id: str) -> str:
    """The line of the Death Match's intro that says how it came about."""
    return f"\n⚔ {mention(nominator_id)} nominated {mention(user_id)}."


def nomination_cancelled(*, host_id: str, user_id: str, event: str) -> str:
    return (f"{mention(host_id)} cancelled {mention(user_id)}'s Death Match nomination in "
            f"**{plain(event)}**.")


def dm_thread(*, event: str, first: str, second: str) -> str:
    return f"DM: {first} vs {second} ({event})"[:100]
