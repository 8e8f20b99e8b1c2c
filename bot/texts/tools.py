"""What garnet says about hosts' corrections, the overview of matches, and the
courtesies of casual play (draws, aborts, rematches, lapses)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.words import span

# ==== taking back a move ================================================================


def nothing_to_take_back(label: str) -> str:
    return f"No move of {label} has been played yet: there is nothing to take back."


def cannot_take_back_a_leave() -> str:
    return ("The last entry is a player leaving the game, not a move: it cannot be taken "
            "back (void the match instead).")


def took_back_log(ply: int, notation: str, name: str, reason: str) -> str:
    return f"move {ply}, {notation} by {name}: {reason}"


def took_back(host: str, label: str, ply: int, notation: str, mover: str, reason: str,
              turn: str) -> str:
    reason = plain(reason)
    return (f"↩ {mention(host)} took back move {ply} of {label} ({notation} by "
            f"{mention(mover)}): {reason}. The clock is as it stood before the move.\n{turn}")


# ==== correcting a result ===============================================================


def not_finished(label: str, done: bool) -> str:
    if done:
        return f"{label} was voided: it has no result to correct."
    return (f"{label} is not finished: decide it with `/adjudicate`, or take a move back "
            "with `/takeback`.")


def practice_has_no_result(label: str) -> str:
    return f"{label} was a practice match against the computer: it has no result to correct."


def tournament_game(label: str) -> str:
    return (f"{label} is a game of a tournament: its result is the tournament's, corrected "
            "with `/host tournament adjudicate`.")


def same_result(label: str) -> str:
    return f"{label} already has that result."


def event_closed(label: str, event: str) -> str:
    return f"{label} counts for {plain(event)}, which is closed: its books are final."


def corrected(host: str, label: str, winner: str | None, reason: str, was: str) -> str:
    reason = plain(reason)
    now = f"{mention(winner)} wins" if winner is not None else "a draw"
    return (f"✏️ {mention(host)} corrected the result of {label}: {now} (before: "
            f"{plain(was)}) — {reason}.")


def corrected_log(was: str, now: str, reason: str) -> str:
    """A correction in the match's log (``/match``: "host — correct: from …")."""
    return f"from {was} to {now}: {reason}"


def elimination_undone(label: str) -> str:
    return f"undone: the result of {label} was corrected to a draw"


def elimination_moved(label: str) -> str:
    return f"after the correction of {label}'s result"


def back_in(user: str, event: str) -> str:
    return f"\n↩ {mention(user)} is back in **{plain(event)}**."


def reversal_note(label: str) -> str:
    return f"result of {label} corrected: its earlier garnets reversed"


def reversed_garnets(undone: Sequence[tuple[str, int]]) -> str:
    """``undone``: (user id, amount booked) of each reversing entry."""
    if not undone:
        return ""
    parts = ", ".join(f"{mention(user)} {'+' if amount > 0 else '−'}{abs(amount):,}"
                      for user, amount in undone)
    return f" Reversed: {parts}."


# ==== courtesies of casual play =========================================================


def rematch_button() -> str:
    return "Rematch (colours swapped)"


def accept_draw_button() -> str:
    return "Accept the draw"


def not_in_a_dm(what: str) -> str:
    if what == "draw":
        return ("A Death Match is not drawn by agreement: its result is the rules' or a "
                "host's (`/adjudicate draw:true`).")
    return "A Death Match is not aborted by its players: a host may `/void` it."


def hosted_game(what: str) -> str:
    verb = "drawn by agreement" if what == "draw" else "aborted by its players"
    return (f"A game a host set up (a tournament's) is not {verb}: a host decides its "
            "result.")


def no_draw_with_the_computer() -> str:
    return "The computer does not take draw offers; `/resign` ends a practice match."


def draw_for_two() -> str:
    return "Draws by agreement are for games of two; resign to leave a game of four."


def offered_already(other: str) -> str:
    return (f"You have offered a draw; it stands until {plain(other)} accepts it or "
            "moves.")


def draw_offered(user: str, other: str, label: str) -> str:
    return (f"🤝 {mention(user)} offers a draw in {label}. {mention(other)}: press the "
            "button or use `/draw` to accept; a move declines it.")


def agreed_draw() -> str:
    return "the players agreed to a draw"


def too_late_to_abort(label: str) -> str:
    return (f"{label} can no longer be aborted: that is only before its second move. "
            "`/resign` ends it, or offer a `/draw`.")


def aborted_record(user: str, ply: int) -> str:
    return f"aborted by {mention(user)} after {ply} move{'' if ply == 1 else 's'}"


def aborted(user: str, label: str) -> str:
    return f"✋ {mention(user)} aborted {label} before its second move: no result, no rating."


def lapsed_record(idle: float) -> str:
    return f"lapsed: no move for {span(idle)}"


def lapsed(label: str, idle: float) -> str:
    return f"💤 {label} lapsed: no move for {span(idle)}. No result is recorded."


def not_your_match(label: str) -> str:
    return f"Only the players of {label} can ask for a rematch."


def no_rematch(label: str) -> str:
    return (f"{label} is not a casual game of two: a rematch is a new `/challenge` (or a "
            "host's `/dm`).")


def not_over(label: str) -> str:
    return f"{label} is not over yet."
