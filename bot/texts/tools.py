"""What garnet says about hosts' corrections, the overview of matches, and the
courtesies of casual play (draws, aborts, rematches, lapses)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, n_, numeral, text
from bot.texts.words import span

# ==== taking back a move ================================================================


@text
def nothing_to_take_back(label: str) -> str:
    return _("No move of {label} has been played yet: there is nothing to take back.").format(
               label=label)


@text
def cannot_take_back_a_leave() -> str:
    return (_("The last entry is a player leaving the game, not a move: it cannot be taken "
              "back (void the match instead)."))


@text
def took_back_log(ply: int, notation: str, name: str, reason: str) -> str:
    return _("move {ply}, {notation} by {name}: {reason}").format(
               ply=ply, notation=notation, name=name, reason=reason)


@text
def took_back(host: str, label: str, ply: int, notation: str, mover: str, reason: str,
              turn: str) -> str:
    reason = plain(reason)
    return (_("↩ {host} took back move {ply} of {label} ({notation} by {mover}): {reason}. "
              "The clock is as it stood before the move.\n{turn}").format(
                host=mention(host), ply=ply, label=label, notation=notation,
                mover=mention(mover), reason=reason, turn=turn))


# ==== correcting a result ===============================================================


@text
def not_finished(label: str, done: bool) -> str:
    if done:
        return _("{label} was voided: it has no result to correct.").format(label=label)
    return (_("{label} is not finished: decide it with `/adjudicate`, or take a move back "
              "with `/takeback`.").format(label=label))


@text
def practice_has_no_result(label: str) -> str:
    return _(
        "{label} was a practice match against the computer: it has no result to correct."
    ).format(label=label)


@text
def tournament_game(label: str) -> str:
    return _(
        "{label} is a game of a tournament: its result is the tournament's, corrected "
        "with `/host tournament adjudicate`.").format(label=label)


@text
def same_result(label: str) -> str:
    return _("{label} already has that result.").format(label=label)


@text
def event_closed(label: str, event: str) -> str:
    return _("{label} counts for {event}, which is closed: its books are final.").format(
        label=label, event=plain(event))


@text
def corrected(host: str, label: str, winner: str | None, reason: str, was: str) -> str:
    reason = plain(reason)
    now = _("{winner} wins").format(winner=mention(winner)) if winner is not None else _("a draw")
    # TRANSLATORS: {now} and {was}: the result after and before ("@a wins", "a draw")
    return _("✏️ {host} corrected the result of {label}: {now} (before: {was}) — {reason}.").format(
        host=mention(host), label=label, now=now, was=plain(was), reason=reason)


@text
def corrected_log(was: str, now: str, reason: str) -> str:
    """A correction in the match's log (``/match``: "host — correct: from …")."""
    return _("from {was} to {now}: {reason}").format(was=was, now=now, reason=reason)


@text
def elimination_undone(label: str) -> str:
    return _("undone: the result of {label} was corrected to a draw").format(label=label)


@text
def elimination_moved(label: str) -> str:
    return _("after the correction of {label}'s result").format(label=label)


@text
def back_in(user: str, event: str) -> str:
    return _("\n↩ {user} is back in **{event}**.").format(user=mention(user), event=plain(event))


@text
def reversal_note(label: str) -> str:
    return _("result of {label} corrected: its earlier garnets reversed").format(label=label)


@text
def reversed_garnets(undone: Sequence[tuple[str, int]]) -> str:
    """``undone``: (user id, amount booked) of each reversing entry."""
    if not undone:
        return ""
    parts = ", ".join(
        f"{mention(user)} {'+' if amount > 0 else '−'}{numeral(abs(amount))}"
        for user, amount in undone)
    return _(" Reversed: {parts}.").format(parts=parts)


# ==== courtesies of casual play =========================================================


@text
def rematch_button() -> str:
    return _("Rematch (colours swapped)")


@text
def accept_draw_button() -> str:
    return _("Accept the draw")


@text
def not_in_a_dm(what: str) -> str:
    if what == "draw":
        return _(
            "A Death Match is not drawn by agreement: its result is the rules' or a "
            "host's (`/adjudicate draw:true`).")
    return _("A Death Match is not aborted by its players: a host may `/void` it.")


@text
def hosted_game(what: str) -> str:
    if what == "draw":
        return _(
            "A game a host set up (a tournament's) is not drawn by agreement: a host "
            "decides its result.")
    return _(
        "A game a host set up (a tournament's) is not aborted by its players: a host "
        "decides its result.")


@text
def no_draw_with_the_computer() -> str:
    return _("The computer does not take draw offers; `/resign` ends a practice match.")


@text
def draw_for_two() -> str:
    return _("Draws by agreement are for games of two; resign to leave a game of four.")


@text
def offered_already(other: str) -> str:
    return _("You have offered a draw; it stands until {other} accepts it or moves.").format(
        other=plain(other))


@text
def draw_offered(user: str, other: str, label: str) -> str:
    return _(
        "🤝 {user} offers a draw in {label}. {other}: press the button or use `/draw` "
        "to accept; a move declines it."
    ).format(user=mention(user), label=label, other=mention(other))


@text
def agreed_draw() -> str:
    return _("the players agreed to a draw")


@text
def too_late_to_abort(label: str) -> str:
    return _(
        "{label} can no longer be aborted: that is only before its second move. "
        "`/resign` ends it, or offer a `/draw`.").format(label=label)


@text
def aborted_record(user: str, ply: int) -> str:
    return n_(
        "aborted by {user} after {ply} move", "aborted by {user} after {ply} moves", ply
    ).format(user=mention(user), ply=ply)


@text
def aborted(user: str, label: str) -> str:
    return _("✋ {user} aborted {label} before its second move: no result, no rating.").format(
        user=mention(user), label=label)


@text
def lapsed_record(idle: float) -> str:
    return _("lapsed: no move for {span}").format(span=span(idle))


@text
def lapsed(label: str, idle: float) -> str:
    return _("💤 {label} lapsed: no move for {span}. No result is recorded.").format(
        label=label, span=span(idle))


@text
def not_your_match(label: str) -> str:
    return _("Only the players of {label} can ask for a rematch.").format(label=label)


@text
def no_rematch(label: str) -> str:
    return _(
        "{label} is not a casual game of two: a rematch is a new `/challenge` (or a host's `/dm`)."
    ).format(label=label)


@text
def not_over(label: str) -> str:
    return _("{label} is not over yet.").format(label=label)
