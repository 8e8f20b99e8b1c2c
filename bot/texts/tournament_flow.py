"""The sentences of a tournament under way: its rounds, pairings, results and standings,
and reading one (moved out of tournaments.py, which re-exports them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import N_, _, moment, n_, text
from bot.texts.match import live_time
from bot.texts.withdrawals import dropped as dropped
from bot.texts.withdrawals import forfeit_stands_opponent_out as forfeit_stands_opponent_out
from bot.texts.withdrawals import forfeit_stands_round_over as forfeit_stands_round_over
from bot.texts.withdrawals import no_show as no_show
from bot.texts.withdrawals import reinstated as reinstated
from bot.texts.withdrawals import removed as removed
from bot.texts.withdrawals import show_up_note as show_up_note
from bot.texts.withdrawals import void_reason_cancelled as void_reason_cancelled
from bot.texts.withdrawals import void_reason_deadline as void_reason_deadline
from bot.texts.withdrawals import void_reason_decided as void_reason_decided
from bot.texts.withdrawals import void_reason_no_show as void_reason_no_show
from bot.texts.withdrawals import void_reason_over as void_reason_over
from bot.texts.withdrawals import void_reason_withdrawn as void_reason_withdrawn
from bot.texts.words import all_of, garnets, span

FORMATS = {
    "swiss": N_("Swiss"),
    "roundrobin": N_("Round robin"),
    "single": N_("Single elimination"),
    "double": N_("Double elimination")}


ZONE = " UTC"  # a tournament's instants are UTC, and say so in every language


FIRSTS = {
    "chooses": N_("the higher seed chooses who moves first"),
    "alternate": N_("who moves first is balanced"),
    "lots": N_("who moves first is drawn by lot")}


NO_SHOW = {
    "forfeit": N_("who did not show loses by forfeit"),
    "double": N_("an unplayed pairing is lost by both")}


STATUS = {
    "open": N_("open for entries"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled")}


TIEBREAKS = {
    "buchholz": N_("BH"),
    "median_buchholz": N_("mBH"),
    "sonneborn_berger": N_("SB"),
    "head_to_head": "H2H",
    "wins": "W"}


@text
def points(x: float) -> str:
    """2, 2½, ½ (Sonneborn-Berger may have quarters: 2.25)."""
    whole = int(x)
    if x == whole:
        return str(whole)
    if x * 2 == int(x * 2):
        return f"{whole}½" if whole else "½"
    return f"{x:.2f}".rstrip("0")


@text
def at(instant: float) -> str:
    return moment(instant, "%b %d %H:%M", "MMMd", "Hm") + ZONE


@text
def label(*, name: str, number: int) -> str:
    return _("**{name}** (tournament #{number})").format(name=plain(name), number=number)


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


@text
def rules(r: Rules) -> str:
    parts = [_(FORMATS[r.fmt]) + (_(" (twice)") if r.double else "")]
    if r.rounds:
        parts.append(_("{rounds} rounds").format(rounds=r.rounds))
    parts.append(r.game)
    if r.best_of > 1:
        parts.append(_("best of {best_of}").format(best_of=r.best_of))
    if r.third_place:
        parts.append(_("a match for third place"))
    parts.append(_(FIRSTS[r.first]))
    line = " · ".join(parts) + "."
    more = [r.clock]
    if r.show_up:
        more.append(
            _(
                "each player of a pairing has {span} from its start to make their "
                "first move, or forfeits and is withdrawn").format(span=span(r.show_up)))
    if r.deadline:
        more.append(
            _("each round has {span}; then {no_show}").format(
                span=span(r.deadline), no_show=_(NO_SHOW[r.no_show])))
    more.append(_("rounds start by themselves") if r.auto else _("a host starts each round"))
    if r.thread:
        more.append(_("a thread per match"))
    if r.checkin:
        more.append(_("players check in before the start"))
    line += "\n" + " · ".join(more) + "."
    if r.prizes:
        line += _("\nPrizes: ") + ", ".join(
            f"{place_name(i)} {garnets(p)}" for i, p in enumerate(r.prizes, start=1) if p)
        line += _(" (in **{event}**).").format(event=plain(r.event)) if r.event else "."
    elif r.event:
        line += _("\nIts matches count for **{event}**.").format(event=plain(r.event))
    return line


@text
def place_name(n: int) -> str:
    # An ordinal's form goes by its last digits (English: 1st, 2nd, 3rd, 11th, 21st).
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    if last == 1:
        return _("{n}st").format(n=n)
    if last == 2:
        return _("{n}nd").format(n=n)
    if last == 3:
        return _("{n}rd").format(n=n)
    return _("{n}th").format(n=n)


@text
def left(*, user_id: str, name: str, count: int) -> str:
    return _("{user_id} left **{name}** ({count} entered).").format(
        user_id=mention(user_id), name=plain(name), count=count)


@text
def started(*, name: str, number: int, seeds: Sequence[str], dropped: Sequence[str]) -> str:
    lines = [
        _("🏆 {label} begins with {seeds} players.").format(
            label=label(name=name, number=number), seeds=len(seeds))]
    listed = ", ".join(f"{i}. {plain(n)}" for i, n in enumerate(seeds[:32], start=1))
    more = _(", … {seeds} more").format(seeds=len(seeds) - 32) if len(seeds) > 32 else ""
    lines.append(_("Seeds: {listed}{more}.").format(listed=listed, more=more))
    if dropped:
        lines.append(
            _("Not checked in, so not playing: ") + ", ".join(plain(n) for n in dropped) + ".")
    return "\n".join(lines)


@text
def round_title(*, name: str, number: int, of: int, at_most: bool) -> str:
    total = _(" (of at most {of})").format(of=of) if at_most else _(" of {of}").format(of=of)
    return _("**{name} — round {number}{total}**").format(
        name=plain(name), number=number, total=total)


@text
def pairing_line(
    *,
    board: int,
    first: str,
    second: str,
    match: str | None,
    where: str | None,
    decided: str | None,
    chooser: str | None,
    spot: str | None) -> str:
    """One pairing as a round is announced: mentions, the match to play or how it was
    decided already."""
    head = f"{spot}: " if spot else _("Board {board}: ").format(board=board)
    line = _("{head}{first} vs {second}").format(
        head=head, first=mention(first), second=mention(second))
    if decided is not None:
        return f"{line} — {decided}"
    if match:
        line += f" — {match}" + (_(" in <#{where}>").format(where=where) if where else "")
    if chooser:
        line += _(" ({chooser} chooses who moves first)").format(chooser=mention(chooser))
    return line


@text
def byes(*, user_ids: Sequence[str], bye_points: str | None) -> str:
    who = ", ".join(mention(u) for u in user_ids)
    worth = _(" ({bye_points} point)").format(bye_points=bye_points) if bye_points else ""
    return _("Bye: {who}{worth}.").format(who=who, worth=worth)


@text
def deadline_line(*, instant: float) -> str:
    return _("Deadline: {at} ({instant}).").format(at=at(instant), instant=live_time(instant))


@text
def waiting_for_start(*, board: int, user_id: str, number: int, channel: str | None = None) -> str:
    """``channel``: where that match is played (None: this channel)."""
    where = f"<#{channel}>" if channel is not None else _("this channel")
    return _(
        "Board {board} waits: {user_id} is still playing match #{number} in {where}; "
        "it starts as soon as that match ends."
    ).format(board=board, user_id=mention(user_id), number=number, where=where)


@text
def game_note(
    *,
    name: str,
    number: int,
    board: int,
    spot: str | None,
    game: int,
    best_of: int,
    score: tuple[str, float, float, str] | None) -> str:
    """``score``: the series so far, (first-named, their points, the other's, other)."""
    where = spot or _("board {board}").format(board=board)
    series = (
        _(" · game {game} of {best_of}").format(game=game, best_of=best_of)
        if game <= best_of and best_of > 1
        else (n_("", " · deciding game {game}", game).format(game=game)))
    if score and game > 1:
        a, x, y, b = score
        series += _(" (series: {first} {first_points}–{second_points} {second})").format(
            first=plain(a), first_points=points(x), second_points=points(y), second=plain(b))
    # TRANSLATORS: {where}: "board 2" or the bracket's match ("W2-1 (a semi-final)"); {series}: "
    # · game 2 of 3 (series: ...)" or nothing
    return _("🏆 {name} · round {number} · {where}{series}").format(
        name=plain(name), number=number, where=where, series=series)


@text
def thread_name(*, name: str, number: int, board: int, first: str, second: str) -> str:
    return _("{name} R{number} B{board}: {first} vs {second}").format(
        name=name, number=number, board=board, first=first, second=second)[:100]


@text
def result_line(
    *, board: int, spot: str | None, first: str, second: str, outcome: str, score: str | None
) -> str:
    head = f"{spot}: " if spot else f"{board}. "
    series = _(" (games {score})").format(score=score) if score else ""
    return f"{head}{plain(first)} {outcome} {plain(second)}{series}"


@text
def byes_line(names: Sequence[str]) -> str:
    return _("Bye: ") + ", ".join(plain(n) for n in names)


@text
def round_over(*, name: str, number: int, results: Sequence[str]) -> str:
    return "\n".join(
        [_("**{name} — round {number} is over**").format(name=plain(name), number=number), *results]
    )


@text
def standings_lines(
    *, rows: Sequence[tuple[str, str, str, str]], total: int, elimination: bool) -> str:
    """``rows``: (place, name, points, tie-breaks or "") of those shown, of ``total``."""
    lines = []
    for place, who, pts, tbs in rows:
        if elimination:
            lines.append(f"{place}. {plain(who)}")
        else:
            lines.append(f"{place}. {plain(who)} — {pts}" + (f" ({tbs})" if tbs else ""))
    if total > len(rows):
        lines.append(
            _("… and {total} more (`/tournament standings`).").format(total=total - len(rows)))
    return "\n".join(lines)


@text
def tiebreak_text(values: Sequence[tuple[str, float]]) -> str:
    return ", ".join(f"{_(TIEBREAKS.get(k, k))} {points(v)}" for k, v in values)


@text
def standings_head(
    *, name: str, done: int, of: int, final: bool, cancelled: bool, at_most: bool = False) -> str:
    if cancelled:
        return _("**{name} — standings when it was cancelled**").format(name=plain(name))
    if final:
        return _("**{name} — final standings**").format(name=plain(name))
    if not done:
        return _("**{name} — standings before round 1**").format(name=plain(name))
    total = _("at most {of}").format(of=of) if at_most else str(of)
    return _("**{name} — standings after round {done} of {total}**").format(
        name=plain(name), done=done, total=total)


@text
def round_not_counted(*, number: int, finished: int, boards: int) -> str:
    """Under standings asked for while a round is played: what they leave out."""
    return n_(
        "Round {number} is being played ({finished} of {boards} board finished): its "
        "results and byes count once it is over.",
        "Round {number} is being played ({finished} of {boards} boards finished): its "
        "results and byes count once it is over.",
        boards).format(number=number, finished=finished, boards=boards)


@text
def next_by_host(*, number: int) -> str:
    return _("A host starts round {number} with `/host tournament next`.").format(number=number)


@text
def finished(*, name: str, winner_id: str) -> str:
    return _("🏆 **{name} is over: {winner_id} wins!**").format(
        name=plain(name), winner_id=mention(winner_id))


@text
def finished_shared(*, name: str, winner_ids: Sequence[str]) -> str:
    """The end when the first place is shared (equal on points and every tie-break)."""
    names = [mention(u) for u in winner_ids]
    # TRANSLATORS: the last two of several names: "@a, @b and @c"
    both = ", ".join(names[:-1]) + _(" and ") + names[-1]
    return _("🏆 **{name} is over: {both} share first place!**").format(name=plain(name), both=both)


@text
def prizes_line(*, paid: Sequence[tuple[str, int]], event: str | None) -> str:
    where = _(" in **{event}**").format(event=plain(event)) if event else ""
    return (
        _("Prizes") + where + ": " + ", ".join(f"{mention(u)} {garnets(n)}" for u, n in paid) + ".")


@text
def prize_note(*, name: str, place: str) -> str:
    return _("{name}: place {place}").format(name=name, place=place)


@text
def reminder(*, name: str, number: int, left: float, instant: float, waiting: Sequence[str]) -> str:
    return _("⏰ **{name} — round {number}** ends in {span} ({at}).\n").format(
        name=plain(name), number=number, span=span(left), at=at(instant)) + "\n".join(waiting)


@text
def still_to_play(
    *, first: str, second: str, match: str | None, chooser: str | None, begun: bool) -> str:
    line = _("{first} vs {second}").format(first=mention(first), second=mention(second))
    if match:
        line += f": {match}"
    if chooser and not begun:
        line += _(", waiting for {chooser} to choose who moves first").format(
            chooser=mention(chooser))
    elif not begun:
        line += _(", not begun")
    return line


@text
def deadline_passed(*, name: str, number: int, lines: Sequence[str], playing: int) -> str:
    head = _("⌛ **{name} — round {number}**: the deadline has passed.").format(
        name=plain(name), number=number)
    tail = (
        [
            n_(
                "{playing} match being played goes on to the end.",
                "{playing} matches being played go on to the end.",
                playing).format(playing=playing)]
        if playing
        else [])
    return "\n".join([head, *lines, *tail])


@text
def no_show_line(*, absent: Sequence[str], winner: str | None) -> str:
    who = all_of(mention(u) for u in absent)
    if winner is None:
        return _("{who}: neither played, both lose by forfeit.").format(who=who)
    return _("{who} did not show: {winner} wins by forfeit.").format(
        who=who, winner=mention(winner))


@text
def withdrawn_note() -> str:
    return _(
        "Who loses by forfeit is withdrawn from later rounds; a host brings them back "
        "with `/host tournament reinstate`.")


@text
def adjudicated(
    *,
    name: str,
    number: int,
    board: int,
    first: str,
    second: str,
    outcome: str,
    host_id: str,
    reason: str) -> str:
    why = f" ({plain(reason)})" if reason.strip() else ""
    return _(
        "⚖ {host_id} decided **{name}** round {number}, board {board}: {first} "
        "{outcome} {second}{why}.").format(
        host_id=mention(host_id),
        name=plain(name),
        number=number,
        board=board,
        first=mention(first),
        outcome=outcome,
        second=mention(second),
        why=why)


@text
def cancelled(*, name: str, host_id: str) -> str:
    return _("🚫 {host_id} cancelled **{name}**. No prizes are paid.").format(
        host_id=mention(host_id), name=plain(name))


@text
def info(
    *,
    name: str,
    number: int,
    status: str,
    host: str,
    rules: str,
    entrants: Sequence[str],
    checked: Sequence[bool],
    count: int,
    round_line: str | None) -> str:
    lines = [
        _("{label} — {status}, run by {host}").format(
            label=label(name=name, number=number),
            status=_(STATUS.get(status, status)),
            host=plain(host)),
        rules]
    if round_line:
        lines.append(round_line)
    if count:
        marks = [f"{plain(n)}{' ☑' if c else ''}" for n, c in zip(entrants, checked, strict=True)]
        more = (
            _(", … {count} more").format(count=count - len(entrants))
            if count > len(entrants)
            else "")
        lines.append(_("Players ({count}): ").format(count=count) + ", ".join(marks) + more + ".")
    else:
        lines.append(_("Nobody has entered yet."))
    return "\n".join(lines)


@text
def now_playing(*, number: int, of: int, left: int, deadline: float | None) -> str:
    line = n_(
        "Round {number} of {of}: {left} pairing still to play",
        "Round {number} of {of}: {left} pairings still to play",
        left).format(number=number, of=of, left=left)
    return line + (
        _(", deadline {at} ({deadline}).").format(at=at(deadline), deadline=live_time(deadline))
        if deadline
        else ".")


@text
def pairings(*, name: str, number: int, lines: Sequence[str], byes: Sequence[str]) -> str:
    out = [
        _("**{name} — round {number} pairings**").format(name=plain(name), number=number),
        *lines]
    if byes:
        out.append(_("Bye: ") + ", ".join(plain(b) for b in byes) + ".")
    return "\n".join(out)


@text
def pairing_row(*, board: int, spot: str | None, first: str, second: str, state: str) -> str:
    head = f"{spot}: " if spot else f"{board}. "
    return f"{head}{plain(first)} – {plain(second)}: {state}"


@text
def more_boards(*, count: int) -> str:
    return n_(
        "… and {count} more board (`/host tournament export` has all).",
        "… and {count} more boards (`/host tournament export` has all).",
        count).format(count=count)


@text
def result_cell(*, outcome: str) -> str:
    """A pairing's result in the CSV export: forfeits in words, so that no cell starts
    with a sign a spreadsheet reads as a formula (``+/-`` would need a guard)."""
    return {"+/-": _("1-0 forfeit"), "-/+": _("0-1 forfeit"), "-/-": _("0-0 double forfeit")}.get(
        outcome, outcome)


@text
def no_rounds_yet(*, name: str) -> str:
    return _("{name} has no rounds yet.").format(name=plain(name))


@text
def export_ready(*, name: str) -> str:
    return _("📄 **{name}**: its standings and every game (CSV).").format(name=plain(name))


@text
def best_of_bounds(most: int) -> str:
    return _("`bestof` is 1 to {most}.").format(most=most)


@text
def event_closed(name: str) -> str:
    return _("The event {name} is closed.").format(name=name)
