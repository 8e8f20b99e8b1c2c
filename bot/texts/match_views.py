"""The sentences of looking at a match (boards, /matches, clocks) and of its host's
controls and limits (moved out of match.py, which re-exports them)."""

from __future__ import annotations

import math

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.core.timecontrol import clock_text
from bot.texts.input import duration
from bot.texts.language import _, n_, text
from bot.texts.words import span, versus


@text
def after_move(played: int) -> str:
    """Where a position stands, as every board, its post and ``/match`` say it: "after
    move 21" (21 moves played, passes counted), "before the first move" (the words of
    ``engine.game.after_move``, through the catalogs)."""
    if played <= 0:
        return _("before the first move")
    return _("after move {ply}").format(ply=played)


@text
def match_label(match_id: int, kind: str) -> str:
    if kind == "practice":
        return _("Practice #{match_id}").format(match_id=match_id)
    return (
        _("DM #{match_id}").format(match_id=match_id)
        if kind == "dm"
        else _("Match #{match_id}").format(match_id=match_id)
    )


@text
def banks(n: int) -> str:
    return n_("{n} bank", "{n} banks", n).format(n=n)


@text
def played(
    label: str, ply: int, user: str, colour: str, notation: str, spent: int, banks_left: int
) -> str:
    head = _("{label} · move {ply}: {user} ({colour}) played **{notation}**").format(
        label=label, ply=ply, user=mention(user), colour=colour, notation=notation)
    if spent:
        head += _(" (used {spent}, {left} left)").format(
            spent=banks(spent), left=banks(banks_left))
    return head


@text
def result(label: str, winner: str | None, reason: str) -> str:
    reason = plain(reason)
    if winner is None:
        return _("**{label} ends in a draw** — {reason}.").format(label=label, reason=reason)
    return _("🏆 **{winner} wins {label}** — {reason}.").format(
        winner=mention(winner), label=label, reason=reason)


@text
def board(label: str, title: str, seats: str, played: int, paused: bool, turn: str) -> str:
    """A board being played: ``played`` moves so far (passes counted), as its image
    says it (``after_move``)."""
    where = after_move(played)
    pause = _("Paused. ") if paused else ""
    return (
        f"**{label}: {title}** — {seats}\n"
        f"{where[:1].upper()}{where[1:]}. {pause}{turn}")


@text
def final_board(label: str, title: str, seats: str, moves: int, void: bool, result: str) -> str:
    """A finished match's last board: ``result`` is its stored result line."""
    head = n_(
        "**{label}: {title}** — {seats}\nFinal board, after {moves} move.",
        "**{label}: {title}** — {seats}\nFinal board, after {moves} moves.",
        moves).format(label=label, title=title, seats=seats, moves=moves)
    if void:  # stored as said ("voided by the host: REASON"), the reason raw
        said = plain(result)
        return f"{head} {said[:1].upper()}{said[1:]}."
    return f"{head}\n{result}" if result else head


@text
def not_started(label: str) -> str:
    return _("{label} has not started yet: there is no board to show.").format(label=label)


MAX_OVERVIEW = 25  # matches listed by /matches (a message has 2,000 characters)


@text
def overview(lines: list[str], playing: int, waiting: int) -> str:
    if not lines:
        return _("No match is being played or waiting to start on this server.")
    head = _(
        "**Matches on this server** — {playing} being played, {waiting} waiting to start"
    ).format(playing=playing, waiting=waiting)
    more = (
        _("\n… and {lines} more.").format(lines=len(lines) - MAX_OVERVIEW)
        if len(lines) > MAX_OVERVIEW
        else "")
    return "\n".join([head, *lines[:MAX_OVERVIEW]]) + more


@text
def overview_label(number: int, kind: str, tournament: tuple[str, int, int] | None) -> str:
    """A match in ``/matches``; a tournament's game says which: (name, round, board)."""
    if tournament is None:
        return f"`{match_label(number, kind)}`"
    name, round_number, board = tournament
    return _("`Match #{number}` (🏆 {name}, round {round_number}, board {board})").format(
        number=number, name=plain(name), round_number=round_number, board=board)


@text
def overview_playing(
    label: str,
    title: str,
    channel: str,
    names: list[str],
    ply: int,
    to_move: str | None,
    clock: str | None,
    paused: bool) -> str:
    turn = (
        _("{to_move} to move").format(to_move=plain(to_move)) if to_move is not None else _("over"))
    if clock is not None:
        turn += f" ({clock})"
    state = _("paused · ") if paused else ""
    # TRANSLATORS: {listed}: the players; {after_move}: "after move 12"; {state}: "paused · " or
    # nothing; {turn}: "@a to move (0:42)" or "over"
    return _("{label} {title} in <#{channel}> — {listed} · {after_move} · {state}{turn}").format(
        label=label,
        title=title,
        channel=channel,
        listed=versus(plains(names)),
        after_move=after_move(ply),
        state=state,
        turn=turn)


@text
def overview_choosing(
    label: str, title: str, channel: str, names: list[str], chooser: str | None, left: float | None
) -> str:
    who = plain(chooser) if chooser is not None else _("the host")
    deadline = _(" ({span} left)").format(span=span(left)) if left is not None and left > 0 else ""
    return _(
        "{label} {title} in <#{channel}> — {listed} · waiting for {who} to choose the "
        "First Player{deadline}").format(
        label=label,
        title=title,
        channel=channel,
        listed=versus(plains(names)),
        who=who,
        deadline=deadline)


@text
def overview_challenge(
    number: int, title: str, channel: str, names: list[str], waiting: list[str], left: float
) -> str:
    return _(
        "`Match #{number}` {title} in <#{channel}> — {challenger} challenges {listed} · "
        "waiting for {waiting} (lapses in {span})").format(
        number=number,
        title=title,
        channel=channel,
        challenger=plain(names[0]),
        listed=", ".join(plains(names[1:])),
        waiting=", ".join(plains(waiting)),
        span=span(max(left, 60)))


@text
def clock_on_turn(name: str, left: str) -> str:
    name = plain(name)
    return f"▶ {name}: {left}"


@text
def clock_waiting(name: str, banks_left: int, seconds: float) -> str:
    name = plain(name)
    return _("  {name}: {banks} ({clock_text}) of reserve").format(
        name=name, banks=banks(banks_left), clock_text=clock_text(seconds))


@text
def clock_paused() -> str:
    """The last line of /time while a host has paused the match."""
    return _("The clock is paused.")


@text
def no_clock() -> str:
    return _("This match has no clock.")


@text
def board_posted() -> str:
    """The asker's answer to /board public: the board went to the match's channel."""
    return _("Board posted.")


@text
def match_choice(match_id: int, title: str, players: list[str], status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {title}: {versus(players)} ({status})"


@text
def which_match(matches: list[tuple[int, str, list[str], str]]) -> str:
    """Several matches in a channel could be meant: (number, game, names, state) each."""
    listed = "; ".join(
        f"#{n} {title}, {versus(plains(names))} ({state})"
        for n, title, names, state in matches)
    return _("Several matches could be meant here: {listed}. Add `match:` with its number.").format(
        listed=listed)


@text
def nothing_to_decide() -> str:
    return _(
        "There is no match running or waiting for its First Player in this channel; "
        "add `match:` with its number.")


@text
def paused(label: str, host: str, reason: str) -> str:
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
    # TRANSLATORS: {why}: " (the host's reason)" or nothing
    return _("⏸ {label} is paused by {host}{why}. The clock stands still until `/resume`.").format(
        label=label, host=mention(host), why=why)


@text
def board_again(label: str, turn: str) -> str:
    """After a restart, the board of a turn whose board may never have been posted."""
    return _("▶ {label}: the board again after a restart of the bot. {turn}").format(
        label=label, turn=turn)


@text
def resumes(label: str, turn: str) -> str:
    return _("▶ {label} resumes. {turn}").format(label=label, turn=turn)


@text
def extended(host: str, seconds: float, turn: str) -> str:
    return _("⏱ {host} added {duration} to this turn. {turn}").format(
        host=mention(host), duration=duration(seconds), turn=turn)


@text
def extend_cap(most: float, already: float) -> str:
    return _(
        "A turn can be extended by {most} in all; this one has {already} added already."
    ).format(most=duration(most), already=duration(already))


@text
def voided(label: str, reason: str) -> str:
    reason = plain(reason)
    return _("🚫 {label} is void ({reason}). No result is recorded.").format(
        label=label, reason=reason)


@text
def void_record(reason: str) -> str:
    return _("voided by the host: {reason}").format(reason=reason)


@text
def void_by_rule(reason: str) -> str:
    return _("voided: {reason}").format(reason=reason)


@text
def adjudicated(reason: str) -> str:
    return _("adjudicated by the host: {reason}").format(reason=reason)


@text
def corrected(reason: str) -> str:
    """A finished match's result as a host corrected it (``/correct``)."""
    return _("result corrected by the host: {reason}").format(reason=reason)


@text
def adjudication_log(winner: str | None, reason: str) -> str:
    return _("winner {winner}: {reason}").format(winner=winner or _("none (draw)"), reason=reason)


@text
def host_role_set(role: str) -> str:
    role = plain(role)
    return _(
        "Members with the role **{role}** can host matches now. Discord shows the host "
        "commands to members with Manage Server; to show them to this role too, allow "
        "it in Server Settings → Integrations → garnet.").format(role=role)


@text
def not_host(role: str | None) -> str:
    if role is None:
        return _(
            "Only hosts can do that (Manage Server; no host role is set: someone with "
            "Manage Server sets one with `/hostrole`).")
    return _("Only hosts can do that (the '{role}' role or Manage Server).").format(
        role=plain(role))


@text
def only_managers() -> str:
    return _("Only members with Manage Server can do that.")


@text
def only_managers_set_host_role() -> str:
    return _("Only members with Manage Server can set the host role.")


@text
def dm_thread(title: str, name1: str, name2: str) -> str:
    return _("DM: {title} — {name1} vs {name2}").format(title=title, name1=name1, name2=name2)[:100]


@text
def too_many_challenges(most: int) -> str:
    return _(
        "You have {most} open challenges on this server already; wait for answers or "
        "`/cancel` one first.").format(most=most)


@text
def slow_down(seconds: float) -> str:
    return _("Too many requests in a short time; try again in {max} s.").format(
        max=max(1, math.ceil(seconds)))


@text
def server_busy() -> str:
    return _(
        "This server already has several replays, reviews or exports on the way; try "
        "again in a minute.")


@text
def user_busy(most: int) -> str:
    return _(
        "You already have {most} requests of this kind on the way; wait for them "
        "before asking for another.").format(most=most)


@text
def job_too_long() -> str:
    return _("That took too long to draw or work out, so it was stopped; try again later.")


@text
def already_done(first: str) -> str:
    """A retried request: it was carried out the first time."""
    said = _(" It said: {first}").format(first=first) if first else ""
    return (
        _(
            "That was already done (your first try went through; nothing was done twice).{said}"
        ).format(said=said))[:1900]


@text
def missing_permissions(missing: list[str]) -> str:
    return _(
        "garnet cannot play here: it lacks {listed} in this channel. A server admin "
        "can grant it in the channel's permissions.").format(listed=", ".join(missing))


@text
def lease_lost() -> str:
    """A request that reached a bot process which no longer runs this server's matches."""
    # Said to players: what they can do, not how garnet runs (processes, leases).
    return _(
        "garnet is restarting for this server; nothing was changed. Please try again in a moment.")


@text
def not_our_shard() -> str:
    """A match asked of a bot process that does not run this server (another shard)."""
    return _(
        "garnet is not running this server's matches here right now (it is moving "
        "them); nothing was started. Please try again in a moment.")
