"""What garnet says about tournaments: every sentence, as a function of named values.

Players are named by mention where they should be pinged or can act, and by their
escaped name in tables; results are written from the first-named player's side as
arbiters write them (1-0, 0-1, ½-½, +/- and -/+ for forfeits, -/- for a double one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.match import live_time
from bot.texts.withdrawals import (
    dropped as dropped,
)
from bot.texts.withdrawals import (
    forfeit_stands_opponent_out as forfeit_stands_opponent_out,
)
from bot.texts.withdrawals import (
    forfeit_stands_round_over as forfeit_stands_round_over,
)
from bot.texts.withdrawals import (
    no_show as no_show,
)
from bot.texts.withdrawals import (
    reinstated as reinstated,
)
from bot.texts.withdrawals import (
    removed as removed,
)
from bot.texts.withdrawals import (
    show_up_note as show_up_note,
)
from bot.texts.withdrawals import (
    void_reason_cancelled as void_reason_cancelled,
)
from bot.texts.withdrawals import (
    void_reason_deadline as void_reason_deadline,
)
from bot.texts.withdrawals import (
    void_reason_decided as void_reason_decided,
)
from bot.texts.withdrawals import (
    void_reason_no_show as void_reason_no_show,
)
from bot.texts.withdrawals import (
    void_reason_over as void_reason_over,
)
from bot.texts.withdrawals import (
    void_reason_withdrawn as void_reason_withdrawn,
)
from bot.texts.words import garnets, listed, span

FORMATS = {"swiss": "Swiss", "roundrobin": "Round robin", "single": "Single elimination",
           "double": "Double elimination"}
FIRSTS = {"chooses": "the higher seed chooses who moves first",
          "alternate": "who moves first is balanced",
          "lots": "who moves first is drawn by lot"}
NO_SHOW = {"forfeit": "who did not show loses by forfeit",
           "double": "an unplayed pairing is lost by both"}
STATUS = {"open": "open for entries", "running": "running", "finished": "finished",
          "cancelled": "cancelled"}
TIEBREAKS = {"buchholz": "BH", "median_buchholz": "mBH", "sonneborn_berger": "SB",
             "head_to_head": "H2H", "wins": "W"}
TROPHY = "🏆"


def points(x: float) -> str:
    """2, 2½, ½ (Sonneborn-Berger may have quarters: 2.25)."""
    whole = int(x)
    if x == whole:
        return str(whole)
    if x * 2 == int(x * 2):
        return f"{whole}½" if whole else "½"
    return f"{x:.2f}".rstrip("0")


def points_word(x: float) -> str:
    return f"{points(x)} {'pt' if x in (0.5, 1) else 'pts'}"


def at(instant: float) -> str:
    return datetime.fromtimestamp(instant, UTC).strftime("%b %d %H:%M UTC")


def label(*, name: str, number: int) -> str:
    return f"**{plain(name)}** (tournament #{number})"


# ---- settings and entries ------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """What a tournament's rules say, as ``rules`` writes them: its format (``fmt``,
    ``double``, ``rounds``), game and games a pairing, who moves first (``FIRSTS``),
    how each match is played (``clock``), the round's ``deadline`` and what settles it,
    how rounds start, threads, check-in, prizes and the event."""

    fmt: str
    game: str
    first: str
    clock: str
    rounds: int | None = None
    best_of: int = 1
    double: bool = False
    third_place: bool = False
    deadline: float | None = None
    no_show: str = "forfeit"
    prizes: Sequence[int] = ()
    event: str | None = None
    checkin: bool = False
    auto: bool = True
    thread: bool = False
    show_up: float = 0.0  # clocked: each player's window for their first move


def rules(r: Rules) -> str:
    parts = [FORMATS[r.fmt] + (" (twice)" if r.double else "")]
    if r.rounds:
        parts.append(f"{r.rounds} rounds")
    parts.append(r.game)
    if r.best_of > 1:
        parts.append(f"best of {r.best_of}")
    if r.third_place:
        parts.append("a match for third place")
    parts.append(FIRSTS[r.first])
    line = " · ".join(parts) + "."
    more = [r.clock]
    if r.show_up:
        more.append(f"each player of a pairing has {span(r.show_up)} from its start to make "
                    "their first move, or forfeits and is withdrawn")
    if r.deadline:
        more.append(f"each round has {span(r.deadline)}; then {NO_SHOW[r.no_show]}")
    more.append("rounds start by themselves" if r.auto else "a host starts each round")
    if r.thread:
        more.append("a thread per match")
    if r.checkin:
        more.append("players check in before the start")
    line += "\n" + " · ".join(more) + "."
    if r.prizes:
        line += "\nPrizes: " + ", ".join(f"{place_name(i)} {garnets(p)}"
                                         for i, p in enumerate(r.prizes, start=1) if p)
        line += f" (in **{plain(r.event)}**)." if r.event else "."
    elif r.event:
        line += f"\nIts matches count for **{plain(r.event)}**."
    return line


def place_name(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def created(*, name: str, number: int, host_id: str, rules: str, checkin: bool) -> str:
    how = " and `/tournament checkin` before it starts" if checkin else ""
    return (f"{TROPHY} {mention(host_id)} opened {label(name=name, number=number)}.\n{rules}\n"
            f"Join with the button or `/tournament join`{how}.")


def join_button() -> str:
    return "Join"


def checkin_button() -> str:
    return "Check in"


def joined(*, user_ids: Sequence[str], name: str, count: int, already: Sequence[str] = ()) -> str:
    who = ", ".join(mention(u) for u in user_ids)
    was = f" {listed([mention(u) for u in already])} had entered already." if already else ""
    return f"✅ {who} joined **{plain(name)}** ({count} entered).{was}"


def left(*, user_id: str, name: str, count: int) -> str:
    return f"{mention(user_id)} left **{plain(name)}** ({count} entered)."


def checked_in(*, user_id: str, name: str, ready: int, count: int) -> str:
    return f"☑ {mention(user_id)} checked in for **{plain(name)}** ({ready} of {count})."


def already_in(*, user_ids: Sequence[str], name: str) -> str:
    have = "has" if len(user_ids) == 1 else "have"
    return f"{listed([mention(u) for u in user_ids])} {have} already entered {plain(name)}."


def not_entered(*, user_id: str, name: str) -> str:
    return f"{mention(user_id)} has not entered {plain(name)}."


def entries_closed(*, name: str) -> str:
    return f"{plain(name)} has started: entries are closed."


def full(*, name: str, most: int) -> str:
    return f"{plain(name)} is full ({most} players)."


def role_needs_members() -> str:
    return ("The bot cannot see who has a role here (on Discord it needs the Server Members "
            "intent: `MEMBERS_INTENT=yes`); name the players one by one with `player:`.")


def role_empty(*, role: str) -> str:
    return f"Nobody has the role {plain(role)} (or the bot cannot see its members)."


def name_player_or_role() -> str:
    return "Name a `player:`, several `players:` or a `role:` whose members join."


def no_checkin() -> str:
    return "This tournament has no check-in: entering is enough."


# ---- finding a tournament -------------------------------------------------------------------


def no_such_tournament(*, number: str) -> str:
    return f"There is no tournament #{plain(number)} on this server."


def no_tournament_called(*, name: str, known: Sequence[str]) -> str:
    listed = (f" Tournaments here: {', '.join(plain(k) for k in known)}." if known
              else " There are none yet: `/host tournament create`.")
    return f"There is no tournament called '{plain(name)}' on this server.{listed}"


def no_tournament() -> str:
    return "There is no tournament on this server yet: a host creates one with " \
           "`/host tournament create`."


def several_tournaments(*, names: Sequence[str]) -> str:
    return ("Several tournaments are open or running (" + ", ".join(plain(n) for n in names)
            + "); add `tournament:` with one of them.")


def name_exists(*, name: str, number: int) -> str:
    return f"There is a tournament called {plain(name)} already (#{number}); choose another name."


def bad_name() -> str:
    return "A tournament's name is 1 to 50 characters and not a number."


def choice(*, name: str, number: int, status: str) -> str:
    """An autocomplete entry: plain text."""
    return f"{name} (#{number}, {STATUS.get(status, status)})"


# ---- refusals of the lifecycle ----------------------------------------------------------------


def bad_prizes(*, text: str, most_places: int) -> str:
    return (f"`prizes` lists garnets by place, e.g. `10,5,3` (at most {most_places} places), "
            f"not '{plain(text)}'.")


def rounds_only_swiss() -> str:
    return "Only a Swiss tournament takes `rounds:`; the others play as many as they need."


def double_only_round_robin() -> str:
    return "`double:` is for a round robin (everyone meets everyone twice)."


def third_only_single() -> str:
    return "`thirdplace:` is for a single elimination."


def not_open(*, name: str, status: str) -> str:
    return f"{plain(name)} is {STATUS.get(status, status)}."


def not_running(*, name: str, status: str) -> str:
    return f"{plain(name)} is not running (it is {STATUS.get(status, status)})."


def too_few(*, name: str, count: int, checkin: bool) -> str:
    who = "checked in" if checkin else "entered"
    return (f"{plain(name)} needs at least two players to start; {count} "
            f"{'has' if count == 1 else 'have'} {who}.")


def cannot_run(*, reason: str) -> str:
    return f"That is not possible: {reason}."


def round_unfinished(*, number: int, boards: Sequence[int]) -> str:
    listed = ", ".join(str(b) for b in boards)
    return (f"Round {number} is still being played (board{'s' if len(boards) > 1 else ''} "
            f"{listed}); a host can settle a pairing with `/host tournament adjudicate`.")


def no_such_board(*, number: int, board: int) -> str:
    return f"Round {number} has no board {board}."


def no_such_round(*, number: int, played: int) -> str:
    return f"There is no round {number}: {played} {'has' if played == 1 else 'have'} been paired."


def not_withdrawn(*, user_id: str, name: str) -> str:
    return f"{mention(user_id)} plays on in {plain(name)}: there is nobody to reinstate."


def already_withdrawn(*, user_id: str, name: str) -> str:
    return f"{mention(user_id)} has already withdrawn from {plain(name)}."


def bad_result() -> str:
    return "`result` is 1-0, 0-1, draw, +/-, -/+ or -/- (from the first-named player's side)."


# ---- the flow of a tournament -----------------------------------------------------------------


def started(*, name: str, number: int, seeds: Sequence[str], dropped: Sequence[str]) -> str:
    lines = [f"{TROPHY} {label(name=name, number=number)} begins with {len(seeds)} players."]
    listed = ", ".join(f"{i}. {plain(n)}" for i, n in enumerate(seeds[:32], start=1))
    more = f", … {len(seeds) - 32} more" if len(seeds) > 32 else ""
    lines.append(f"Seeds: {listed}{more}.")
    if dropped:
        lines.append("Not checked in, so not playing: "
                     + ", ".join(plain(n) for n in dropped) + ".")
    return "\n".join(lines)


def round_title(*, name: str, number: int, of: int, at_most: bool) -> str:
    total = f" (of at most {of})" if at_most else f" of {of}"
    return f"**{plain(name)} — round {number}{total}**"


def pairing_line(*, board: int, first: str, second: str, match: str | None,
                 where: str | None, decided: str | None, chooser: str | None,
                 spot: str | None) -> str:
    """One pairing as a round is announced: mentions, the match to play or how it was
    decided already."""
    head = f"{spot}: " if spot else f"Board {board}: "
    line = f"{head}{mention(first)} vs {mention(second)}"
    if decided is not None:
        return f"{line} — {decided}"
    if match:
        line += f" — {match}" + (f" in <#{where}>" if where else "")
    if chooser:
        line += f" ({mention(chooser)} chooses who moves first)"
    return line


def byes(*, user_ids: Sequence[str], bye_points: str | None) -> str:
    who = ", ".join(mention(u) for u in user_ids)
    worth = f" ({bye_points} point)" if bye_points else ""
    return f"Bye: {who}{worth}."


def deadline_line(*, instant: float) -> str:
    return f"Deadline: {at(instant)} ({live_time(instant)})."


def waiting_for_start(*, board: int, user_id: str, number: int,
                      channel: str | None = None) -> str:
    """``channel``: where that match is played (None: this channel)."""
    where = f"<#{channel}>" if channel is not None else "this channel"
    return (f"Board {board} waits: {mention(user_id)} is still playing match #{number} in "
            f"{where}; it starts as soon as that match ends.")


def game_note(*, name: str, number: int, board: int, spot: str | None, game: int,
              best_of: int, score: tuple[str, float, float, str] | None) -> str:
    """``score``: the series so far, (first-named, their points, the other's, other)."""
    where = spot or f"board {board}"
    series = f" · game {game} of {best_of}" if game <= best_of and best_of > 1 else (
        f" · deciding game {game}" if game > 1 else "")
    if score and game > 1:
        a, x, y, b = score
        series += f" (series: {plain(a)} {points(x)}–{points(y)} {plain(b)})"
    return f"{TROPHY} {plain(name)} · round {number} · {where}{series}"


def thread_name(*, name: str, number: int, board: int, first: str, second: str) -> str:
    return f"{name} R{number} B{board}: {first} vs {second}"[:100]


def result_line(*, board: int, spot: str | None, first: str, second: str, outcome: str,
                score: str | None) -> str:
    head = f"{spot}: " if spot else f"{board}. "
    series = f" (games {score})" if score else ""
    return f"{head}{plain(first)} {outcome} {plain(second)}{series}"


def byes_line(names: Sequence[str]) -> str:
    return "Bye: " + ", ".join(plain(n) for n in names)


def round_over(*, name: str, number: int, results: Sequence[str]) -> str:
    return "\n".join([f"**{plain(name)} — round {number} is over**", *results])


def standings_lines(*, rows: Sequence[tuple[str, str, str, str]], total: int,
                    elimination: bool) -> str:
    """``rows``: (place, name, points, tie-breaks or "") of those shown, of ``total``."""
    lines = []
    for place, who, pts, tbs in rows:
        if elimination:
            lines.append(f"{place}. {plain(who)}")
        else:
            lines.append(f"{place}. {plain(who)} — {pts}" + (f" ({tbs})" if tbs else ""))
    if total > len(rows):
        lines.append(f"… and {total - len(rows)} more (`/tournament standings`).")
    return "\n".join(lines)


def tiebreak_text(values: Sequence[tuple[str, float]]) -> str:
    return ", ".join(f"{TIEBREAKS.get(k, k)} {points(v)}" for k, v in values)


def standings_head(*, name: str, done: int, of: int, final: bool, cancelled: bool,
                   at_most: bool = False) -> str:
    if cancelled:
        return f"**{plain(name)} — standings when it was cancelled**"
    if final:
        return f"**{plain(name)} — final standings**"
    if not done:
        return f"**{plain(name)} — standings before round 1**"
    total = f"at most {of}" if at_most else str(of)
    return f"**{plain(name)} — standings after round {done} of {total}**"


def round_not_counted(*, number: int, finished: int, boards: int) -> str:
    """Under standings asked for while a round is played: what they leave out."""
    return (f"Round {number} is being played ({finished} of {boards} "
            f"board{'s' if boards != 1 else ''} finished): its results and byes count "
            "once it is over.")


def next_by_host(*, number: int) -> str:
    return f"A host starts round {number} with `/host tournament next`."


def finished(*, name: str, winner_id: str) -> str:
    return f"{TROPHY} **{plain(name)} is over: {mention(winner_id)} wins!**"


def finished_shared(*, name: str, winner_ids: Sequence[str]) -> str:
    """The end when the first place is shared (equal on points and every tie-break)."""
    names = [mention(u) for u in winner_ids]
    both = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{TROPHY} **{plain(name)} is over: {both} share first place!**"


def prizes_line(*, paid: Sequence[tuple[str, int]], event: str | None) -> str:
    where = f" in **{plain(event)}**" if event else ""
    return "Prizes" + where + ": " + ", ".join(f"{mention(u)} {garnets(n)}"
                                               for u, n in paid) + "."


def prize_note(*, name: str, place: str) -> str:
    return f"{name}: place {place}"


def reminder(*, name: str, number: int, left: float, instant: float,
             waiting: Sequence[str]) -> str:
    return (f"⏰ **{plain(name)} — round {number}** ends in {span(left)} ({at(instant)}).\n"
            + "\n".join(waiting))


def still_to_play(*, first: str, second: str, match: str | None, chooser: str | None,
                  begun: bool) -> str:
    line = f"{mention(first)} vs {mention(second)}"
    if match:
        line += f": {match}"
    if chooser and not begun:
        line += f", waiting for {mention(chooser)} to choose who moves first"
    elif not begun:
        line += ", not begun"
    return line


def deadline_passed(*, name: str, number: int, lines: Sequence[str], playing: int) -> str:
    head = f"⌛ **{plain(name)} — round {number}**: the deadline has passed."
    tail = ([f"{playing} match{'es' if playing != 1 else ''} being played "
             f"{'go' if playing != 1 else 'goes'} on to the end."] if playing else [])
    return "\n".join([head, *lines, *tail])


def no_show_line(*, absent: Sequence[str], winner: str | None) -> str:
    who = " and ".join(mention(u) for u in absent)
    if winner is None:
        return f"{who}: neither played, both lose by forfeit."
    return f"{who} did not show: {mention(winner)} wins by forfeit."


def withdrawn_note() -> str:
    return ("Who loses by forfeit is withdrawn from later rounds; a host brings them back "
            "with `/host tournament reinstate`.")


def adjudicated(*, name: str, number: int, board: int, first: str, second: str,
                outcome: str, host_id: str, reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    return (f"⚖ {mention(host_id)} decided **{plain(name)}** round {number}, board {board}: "
            f"{mention(first)} {outcome} {mention(second)}{why}.")


def cancelled(*, name: str, host_id: str) -> str:
    return f"🚫 {mention(host_id)} cancelled **{plain(name)}**. No prizes are paid."


# ---- reading a tournament -------------------------------------------------------------------


def info(*, name: str, number: int, status: str, host: str, rules: str,
         entrants: Sequence[str], checked: Sequence[bool], count: int,
         round_line: str | None) -> str:
    lines = [f"{label(name=name, number=number)} — {STATUS.get(status, status)}, "
             f"run by {plain(host)}", rules]
    if round_line:
        lines.append(round_line)
    if count:
        marks = [f"{plain(n)}{' ☑' if c else ''}" for n, c in zip(entrants, checked,
                                                                   strict=True)]
        more = f", … {count - len(entrants)} more" if count > len(entrants) else ""
        lines.append(f"Players ({count}): " + ", ".join(marks) + more + ".")
    else:
        lines.append("Nobody has entered yet.")
    return "\n".join(lines)


def now_playing(*, number: int, of: int, left: int, deadline: float | None) -> str:
    line = f"Round {number} of {of}: {left} pairing{'s' if left != 1 else ''} still to play"
    return line + (f", deadline {at(deadline)} ({live_time(deadline)})." if deadline
                   else ".")


def pairings(*, name: str, number: int, lines: Sequence[str], byes: Sequence[str]) -> str:
    out = [f"**{plain(name)} — round {number} pairings**", *lines]
    if byes:
        out.append("Bye: " + ", ".join(plain(b) for b in byes) + ".")
    return "\n".join(out)


def pairing_row(*, board: int, spot: str | None, first: str, second: str,
                state: str) -> str:
    head = f"{spot}: " if spot else f"{board}. "
    return f"{head}{plain(first)} – {plain(second)}: {state}"


def more_boards(*, count: int) -> str:
    return (f"… and {count} more board{'s' if count != 1 else ''} "
            "(`/host tournament export` has all).")


def result_cell(*, outcome: str) -> str:
    """A pairing's result in the CSV export: forfeits in words, so that no cell starts
    with a sign a spreadsheet reads as a formula (``+/-`` would need a guard)."""
    return {"+/-": "1-0 forfeit", "-/+": "0-1 forfeit",
            "-/-": "0-0 double forfeit"}.get(outcome, outcome)


def no_rounds_yet(*, name: str) -> str:
    return f"{plain(name)} has no rounds yet."


def export_ready(*, name: str) -> str:
    return f"📄 **{plain(name)}**: its standings and every game (CSV)."


def best_of_bounds(most: int) -> str:
    return f"`bestof` is 1 to {most}."


def event_closed(name: str) -> str:
    return f"The event {name} is closed."
