"""What garnet says when a host corrects a tournament's result after the fact: a round
long over, a bracket that has moved on, a tournament already finished and its prizes
booked again; and when an eliminated player enters an event's tournament."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.words import garnets


def _rounds(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"Round {numbers[0]} was"
    if len(numbers) == 2:
        return f"Rounds {numbers[0]} and {numbers[1]} were"
    return f"Rounds {numbers[0]}–{numbers[-1]} were"


def paired_on_old_result(*, later: Sequence[int]) -> str:
    """A Swiss round's result corrected after later rounds were paired on it."""
    return (f"{_rounds(later)} paired with the old result: "
            f"{'its' if len(later) == 1 else 'their'} pairings stand, as arbiters keep them; "
            "standings, tie-breaks and colours count the new one.")


def same_result(*, number: int, board: int, outcome: str) -> str:
    return f"Round {number}, board {board} is already {outcome}: nothing to correct."


def played_on(*, number: int, board: int, spot: str | None, later: str,
              later_round: int) -> str:
    """A bracket result that would change who plays in a match already paired."""
    where = spot or f"board {board}"
    return (f"Round {number}'s {where} cannot get a different winner: its players have "
            f"played on, and {later} (round {later_round}) was paired with the result "
            "as it stands. A result that changes no one's advancement (a forfeit for a "
            "win by the same player) can still be corrected.")


def corrected_after_end(*, name: str, number: int, board: int, first: str, second: str,
                        was: str, outcome: str, host_id: str, reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    return (f"⚖ {mention(host_id)} corrected **{plain(name)}** after its end: round {number}, "
            f"board {board} is now {mention(first)} {outcome} {mention(second)}, not "
            f"{was}{why}. The final standings and prizes are counted again.")


def prizes_rebooked(*, changes: Sequence[tuple[str, int, int]], event: str | None) -> str:
    """``changes``: (user id, garnets paid before, garnets now) of each player whose
    prize changed; each was reversed and booked again in the ledger."""
    if not changes:
        return "No prize changes."
    where = f" in **{plain(event)}**" if event else ""
    parts = [f"{mention(u)} {before} → {garnets(now)}" for u, before, now in changes]
    return "Prizes booked again" + where + ": " + ", ".join(parts) + "."


def prize_reversed_note(*, name: str, number: int, board: int, result: str) -> str:
    """``result``: the corrected result with its players' names ("ann 0-1 ben")."""
    return f"{name}: prize reversed, round {number} board {board} corrected to {result}"


def prize_rebooked_note(*, name: str, place: str, number: int, board: int) -> str:
    return f"{name}: place {place} after round {number} board {board} was corrected"


def event_closed(*, name: str, event: str) -> str:
    return (f"{plain(name)} paid its prizes in **{plain(event)}**, which is closed: its "
            "garnets no longer change, so the result stands.")


def needs_more_play(*, name: str) -> str:
    """A finished bracket's result corrected so that it would need another match (the
    grand final won by the losers' side: a reset never played)."""
    return (f"{plain(name)} is over, and that result would need a match that was never "
            "played (the grand final's replay): it cannot be corrected to it.")


def eliminated_cannot_join(*, event: str) -> str:
    """To a player eliminated from the event who tries to enter its tournament."""
    return (f"You were eliminated from **{plain(event)}**, which this tournament counts "
            "for: only a host can enter you (`/host tournament add`), or reinstate you in "
            "the event (`/host event reinstate`).")


def eliminated_added(*, user_ids: Sequence[str], event: str) -> str:
    """The host's warning when they add players eliminated from the event."""
    who = ", ".join(mention(u) for u in user_ids)
    return (f"⚠ {who} {'was' if len(user_ids) == 1 else 'were'} eliminated from "
            f"**{plain(event)}**: they play this "
            "tournament because a host added them (`/host tournament drop` takes a player "
            "out before the start).")
