"""What garnet says about hosts' corrections, the overview of matches, and the
courtesies of casual play (draws, aborts, rematches, lapses)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention

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


def same_result(label: str) -> str:
    return f"{label} already has that result."


def event_closed(label: str, event: str) -> str:
    return f"{label} counts for {plain(event)}, which is closed: its books are final."


def corrected(host: str, label: str, winner: str | None, reason: str, was: str) -> str:
    reason = plain(reason)
    now = f"{mention(winner)} wins" if winner is not None else "a draw"
    return (f"✏️ {mention(host)} corrected the result of {label}: {now} (it was "
            f"{plain(was)}) — {reason}.")


def corrected_log(was: str, now: str, reason: str) -> str:
    return f"was {was}; now {now}: {reason}"


def reversal_note(label: str) -> str:
    return f"result of {label} corrected: its earlier garnets reversed"


def reversed_garnets(undone: Sequence[tuple[str, int]]) -> str:
    """``undone``: (user id, amount booked) of each reversing entry."""
    if not undone:
        return ""
    parts = ", ".join(f"{mention(user)} {'+' if amount > 0 else '−'}{abs(amount):,}"
                      for user, amount in undone)
    return f" Reversed: {parts}."
