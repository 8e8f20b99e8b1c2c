"""What garnet says when a host corrects a tournament's result after the fact: a round
long over, a bracket that has moved on, a tournament already finished and its prizes
booked again; and when an eliminated player enters an event's tournament."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, n_, text
from bot.texts.words import garnets


@text
def _rounds(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return _("Round {number}").format(number=numbers[0])
    if len(numbers) == 2:
        return _("Rounds {first} and {second}").format(first=numbers[0], second=numbers[1])
    return _("Rounds {first}–{last}").format(first=numbers[0], last=numbers[-1])


@text
def paired_on_old_result(*, later: Sequence[int], over: bool) -> str:
    """A Swiss round's result corrected after later rounds were paired on it (``over``:
    after the end, when no round is left to pair)."""
    counts = (_("the standings and tie-breaks count the new one") if over else
              _("the standings, tie-breaks and the rounds still to pair count the new one"))
    # TRANSLATORS: {rounds} is "Round 3", "Rounds 3 and 4" or "Rounds 3–5"
    return (n_("{rounds} was paired with the old result: its pairings stand, as arbiters "
               "keep them; {counts}.",
               "{rounds} were paired with the old result: their pairings stand, as arbiters "
               "keep them; {counts}.", len(later)).format(
                rounds=_rounds(later), counts=counts))


@text
def same_result(*, number: int, board: int, outcome: str) -> str:
    return _("Round {number}, board {board} is already {outcome}: nothing to correct.").format(
               number=number, board=board, outcome=outcome)


@text
def played_on(*, number: int, board: int, spot: str | None, later: str,
              later_round: int) -> str:
    """A bracket result that would change who plays in a match already paired."""
    where = spot or _("board {board}").format(board=board)
    # TRANSLATORS: {where}: the pairing ("board 2", or a bracket's match); {later}: the match its
    # winner went on to
    return (_("Round {number}'s {where} cannot get another winner: {later} (round "
              "{later_round}) was paired with its result, and a bracket is not played back. "
              "A correction that changes no one's advancement is taken (say, a win corrected "
              "to a win by forfeit).").format(
                number=number, where=where, later=later, later_round=later_round))


@text
def corrected(*, name: str, number: int, board: int, first: str, second: str, was: str,
              outcome: str, host_id: str, reason: str) -> str:
    """A result that was in corrected while the tournament runs."""
    why = f" ({plain(reason)})" if reason.strip() else ""
    return (_("⚖ {host_id} corrected **{name}** round {number}, board {board}: {first} "
              "{outcome} {second}, not {was}{why}.").format(
                host_id=mention(host_id), name=plain(name), number=number, board=board,
                first=mention(first), outcome=outcome, second=mention(second), was=was, why=why))


@text
def corrected_after_end(*, name: str, number: int, board: int, first: str, second: str,
                        was: str, outcome: str, host_id: str, reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    return (_("⚖ {host_id} corrected **{name}** after its end: round {number}, board {board} "
              "is now {first} {outcome} {second}, not {was}{why}. The final standings and "
              "prizes are counted again.").format(
                host_id=mention(host_id), name=plain(name), number=number, board=board,
                first=mention(first), outcome=outcome, second=mention(second), was=was, why=why))


@text
def prizes_rebooked(*, changes: Sequence[tuple[str, int, int]], event: str | None) -> str:
    """``changes``: (user id, garnets paid before, garnets now) of each player whose
    prize changed; each was reversed and booked again in the ledger."""
    if not changes:
        return _("No prize changes.")
    where = _(" in **{event}**").format(event=plain(event)) if event else ""
    parts = [f"{mention(u)} {before} → {garnets(now)}" for u, before, now in changes]
    return _("Prizes booked again") + where + ": " + ", ".join(parts) + "."


@text
def prize_reversed_note(*, name: str, number: int, board: int, result: str) -> str:
    """``result``: the corrected result with its players' names ("ann 0-1 ben")."""
    return _("{name}: prize reversed, round {number} board {board} corrected to {result}").format(
               name=name, number=number, board=board, result=result)


@text
def prize_rebooked_note(*, name: str, place: str, number: int, board: int) -> str:
    return _("{name}: place {place} after round {number} board {board} was corrected").format(
               name=name, place=place, number=number, board=board)


@text
def event_closed(*, name: str, event: str) -> str:
    return (_("{name} paid its prizes in **{event}**, which is closed: its garnets no longer "
              "change, so the result stands.").format(
                name=plain(name), event=plain(event)))


@text
def needs_more_play(*, name: str) -> str:
    """A finished bracket's result corrected so that it would need another match (the
    grand final won by the losers' side: a reset never played)."""
    return (_("{name} is over, and that result would need a match that was never played (the "
              "grand final's replay): it cannot be corrected to it.").format(
                name=plain(name)))


@text
def eliminated_cannot_join(*, event: str) -> str:
    """To a player eliminated from the event who tries to enter its tournament."""
    return (_("You were eliminated from **{event}**, which this tournament counts for: only "
              "a host can enter you (`/host tournament add`), or reinstate you in the event "
              "(`/host event reinstate`).").format(event=plain(event)))


@text
def eliminated_added(*, user_ids: Sequence[str], event: str) -> str:
    """The host's warning when they add players eliminated from the event."""
    who = ", ".join(mention(u) for u in user_ids)
    return n_(
        "⚠ {who} was eliminated from **{event}**: they play this tournament because a "
        "host added them (`/host tournament drop` takes a player out before the start).",
        "⚠ {who} were eliminated from **{event}**: they play this tournament because a "
        "host added them (`/host tournament drop` takes a player out before the start).",
        len(user_ids)).format(who=who, event=plain(event))


@text
def eliminated_playing(*, user_ids: Sequence[str], event: str) -> str:
    """At the start: entrants who are out of the tournament's event (eliminated since
    they entered, or added by a host)."""
    who = ", ".join(mention(u) for u in user_ids)
    return n_(
        "⚠ {who} is eliminated from **{event}** and plays as entered (`/host "
        "tournament drop` withdraws a player).",
        "⚠ {who} are eliminated from **{event}** and play as entered (`/host "
        "tournament drop` withdraws a player).",
        len(user_ids)).format(who=who, event=plain(event))
