"""Every sentence the bot says, in one place, shared by the Discord and console adapters."""

from __future__ import annotations

import math
from typing import Any

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.core.timecontrol import Reminder, TimeControl, clock_text
from bot.texts.input import duration
from bot.texts.language import N_, _, n_, text
from bot.texts.words import span
from engine.game import Game, after_move


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
def seat_line(game: Game[Any, Any], state: Any, users: list[str]) -> str:
    return " vs ".join(
        f"{mention(user)} ({game.seat_name(state, seat)})" for seat, user in enumerate(users))


@text
def live_time(epoch: float) -> str:
    """An instant as Discord shows it live in each reader's own terms ("in 45 seconds",
    "2 minutes ago"); the console renders it against its clock."""
    # Up to the whole second, as clocks are shown (``clock_text``): a turn showing
    # 0:10 runs out "in 10 s", not "in 9 s".
    return f"<t:{math.ceil(epoch - 1e-9)}:R>"


@text
def clock_left(tc: TimeControl, elapsed: float, banks_left: int, extra: float) -> str:
    """What is left of a turn, e.g. '0:42 + 36 banks' or 'reserve 1:15 (15 banks)'."""
    if not tc.enabled:
        return _("no clock")
    budget = tc.turn + extra
    if elapsed < budget:
        if banks_left <= 0:
            return _("{clock_text}, no reserve left").format(
                clock_text=clock_text(budget - elapsed))
        return f"{clock_text(budget - elapsed)} + {banks(banks_left)}"
    left = tc.flag_at(banks_left, extra) - elapsed
    return _("on reserve, {clock_text} left").format(clock_text=clock_text(left))


@text
def banks(n: int) -> str:
    return n_("{n} bank", "{n} banks", n).format(n=n)


@text
def reminder(user: str, r: Reminder, tc: TimeControl) -> str:
    who = mention(user)
    if r.kind == "turn":
        return _("⏰ {who}: {seconds:g} s left of your turn time.").format(
            who=who, seconds=r.seconds)
    if r.kind == "reserve":
        return _(
            "⏰ {who}: turn time is up, you are on your reserve now: {banks} ({clock_text})."
        ).format(who=who, banks=banks(r.banks_left), clock_text=clock_text(r.banks_left * tc.bank))
    used = _("⏰ {who}: {clock_text} of reserve used").format(
        who=who, clock_text=clock_text(r.seconds))
    in_bank = r.left - r.banks_left * tc.bank  # the rest of a bank under way
    if in_bank <= 1e-6:
        return _("{used}, {banks} ({clock_text}) left.").format(
            used=used, banks=banks(r.banks_left), clock_text=clock_text(r.left))
    if r.banks_left == 0:
        return _("{used}, {clock_text} left: the rest of the last bank.").format(
            used=used, clock_text=clock_text(r.left))
    return _("{used}, {clock_text} left: {clock_text2} of the bank in use, then {banks}.").format(
        used=used,
        clock_text=clock_text(r.left),
        clock_text2=clock_text(in_bank),
        banks=banks(r.banks_left))


@text
def deck_label(value: Any) -> str:
    """A match's deck as its options hold it: a shipped deck's key, or a server's deck
    as data (its name was checked when it was added: letters, digits and - _)."""
    if isinstance(value, dict):
        return _("deck {deck} (this server's)").format(deck=value.get("key", "?"))
    return _("deck {deck}").format(deck=value)


@text
def options_line(game: Game[Any, Any], options: dict[str, Any], tc: TimeControl) -> str:
    """The rules of a match under its title: the clock, then each option as the game
    declares it says it (a server's own deck, held as data, by its name)."""
    plain = {k: v for k, v in options.items() if not isinstance(v, dict)}
    parts = [tc.describe(), *game.describe_options(plain)]
    parts += [deck_label(v) for v in options.values() if isinstance(v, dict)]
    return capitalised(" · ".join(parts))  # it starts a line wherever it is shown


@text
def capitalised(line: str) -> str:
    """A line as it starts: its first letter upper case ("no clock", "walls left: …")."""
    return line[:1].upper() + line[1:]


# ==== setting a match up ================================================================


@text
def dm_intro(label: str, title: str, players: list[str], options: str, event_note: str) -> str:
    return _("**{label}: {title}** — {player1} vs {player2}\n{options}.{event_note}").format(
        label=label,
        title=title,
        player1=mention(players[0]),
        player2=mention(players[1]),
        options=options,
        event_note=event_note)


@text
def no_hints_in_dm() -> str:
    return _(
        "A Death Match is played without hints: its rules do not let the board show "
        "the Corridor or suggest moves (casual matches may use `hints:yes`).")


@text
def set_up(label: str) -> str:
    return _("{label} is set up.").format(label=label)


@text
def goes_first_button(name: str) -> str:
    return _("{name} goes first").format(name=name)


MISSED = {"lots": N_("lots are drawn"), "void": N_("the DM is void")}


@text
def choose_first(
    intro: str,
    chooser: str,
    within: float | None = None,
    missed: str = "lots",
    by: float | None = None) -> str:
    """Who chooses the First Player, and (a DM) until when, then what."""
    how = _("with a button below or `/first player:@name`")
    ask = (
        _("Hosts, choose the First Player {how}.").format(how=how)
        if chooser == "host"
        else _("{chooser}, choose the First Player {how}.").format(
            chooser=mention(chooser), how=how))
    if within is None:
        return f"{intro}\n{ask}"
    closes = live_time(by) if by is not None else _("in {span}").format(span=span(within))
    return _(
        "{intro}\n{ask} The choice closes {closes}; if no one has chosen by then, {missed}."
    ).format(intro=intro, ask=ask, closes=closes, missed=_(MISSED.get(missed, missed)))


@text
def choose_reminder(user: str, label: str, left: float, missed: str) -> str:
    return _(
        "⏳ {user}: choose the First Player of {label} — {span} left (a button above, "
        "or `/first player:@name`); then {missed}."
    ).format(user=mention(user), label=label, span=span(left), missed=_(MISSED.get(missed, missed)))


@text
def unchosen_lots(user: str, label: str, within: float, first: str) -> str:
    return _(
        "⌛ {user} did not choose the First Player of {label} within {span}: lots were "
        "drawn, and {first} is the First Player."
    ).format(user=mention(user), label=label, span=span(within), first=mention(first))


@text
def unchosen_voided(user: str, label: str, within: float) -> str:
    return _(
        "⌛ {user} did not choose the First Player of {label} within {span}: {label} is "
        "void, as the host set. No result is recorded."
    ).format(user=mention(user), label=label, span=span(within))


@text
def unchosen_record(within: float) -> str:
    return _("void: the First Player was not chosen within {span}").format(span=span(within))


@text
def bad_choose_within(most_minutes: float) -> str:
    return _("`deadline` is 1 to {most_minutes:g} minutes.").format(most_minutes=most_minutes)


@text
def bad_missed(choices: tuple[str, ...]) -> str:
    return _("`missed` is {listed}.").format(listed=" or ".join(choices))


@text
def challenge(
    label: str,
    title: str,
    challenger: str,
    opponents: list[str],
    options: str,
    hints: bool,
    rated: bool,
    minutes: int,
    lapses: float | None = None) -> str:
    others = ", ".join(mention(o) for o in opponents)
    open_for = (
        _("lapses {lapses}").format(lapses=live_time(lapses))
        if lapses is not None
        else n_("open for {minutes} minute", "open for {minutes} minutes", minutes).format(
            minutes=minutes))
    return _(
        "**{label}: {title}** — {challenger} challenges {others}.\n"
        "{options}{hints}{unrated}.\nAccept or decline with the buttons, or `/accept` / "
        "`/decline` ({open_for}).").format(
        label=label,
        title=title,
        challenger=mention(challenger),
        others=others,
        options=options,
        hints=_(" · hints on") if hints else "",
        unrated="" if rated else _(" · unrated"),
        open_for=open_for)


@text
def busy(user: str, match_id: int, waiting: bool) -> str:
    """A player is in another match in this channel: a new match is refused, one that
    is set up already (``waiting``) starts once it ends."""
    if waiting:
        return _(
            "{user} is playing match #{match_id} in this channel; this one can start once it ends."
        ).format(user=mention(user), match_id=match_id)
    return _(
        "{user} is already in match #{match_id} in this channel; finish it first or "
        "play in another channel or thread.").format(user=mention(user), match_id=match_id)


@text
def no_such_match(number: int | None) -> str:
    """No match of that number on this server (None: none in this channel fits)."""
    if number is None:
        return _("There is no such match in this channel.")
    return _("There is no match #{number} on this server.").format(number=number)


@text
def declined(user: str, label: str) -> str:
    return _("{user} declined {label}.").format(user=mention(user), label=label)


@text
def declined_record(user: str) -> str:
    return _("declined by {user}").format(user=mention(user))


@text
def withdrawn_record(user: str) -> str:
    return _("withdrawn by {user}").format(user=mention(user))


@text
def no_longer_open(match_id: int, status: str, by: str | None) -> str:
    """A challenge answered after it ended: what became of it, and by whom."""
    who = _(" by {by}").format(by=plain(by)) if by else ""
    if status == "declined":
        return _("Match #{match_id} was declined{who}; challenge again with `/challenge`.").format(
            match_id=match_id, who=who)
    if status == "cancelled":
        return _("Match #{match_id} was withdrawn{who}.").format(match_id=match_id, who=who)
    return _("Match #{match_id} lapsed: the challenge was not accepted in time.").format(
        match_id=match_id)


@text
def accepted(user: str, label: str, waiting: list[str] | None = None) -> str:
    if waiting:
        return _("{user} accepted {label}. Waiting for {listed}.").format(
            user=mention(user), label=label, listed=", ".join(mention(w) for w in waiting))
    return _("{user} accepted {label}.").format(user=mention(user), label=label)


@text
def withdrawn(user: str, match_id: int) -> str:
    return _("{user} withdrew match #{match_id}.").format(user=mention(user), match_id=match_id)


@text
def lapsed(match_id: int) -> str:
    return _("Match #{match_id} lapsed: the challenge was not accepted in time.").format(
        match_id=match_id)


@text
def not_the_chooser(chooser: str) -> str:
    who = _("The host") if chooser == "host" else mention(chooser)
    return _("{who} chooses the First Player of this match, not you.").format(who=who)


@text
def none_running_here(player: bool) -> str:
    if player:
        return _("There is no match of yours running in this channel.")
    return _("No match is running in this channel; name one with `match:`.")


@text
def first_by_lots(user: str) -> str:
    return _("Lots were drawn: {user} is the First Player.").format(user=mention(user))


@text
def first_chosen(chooser: str, user: str) -> str:
    if chooser == user:
        return _("{chooser} chose to be the First Player.").format(chooser=mention(chooser))
    return _("{chooser} chose {user} as the First Player.").format(
        chooser=mention(chooser), user=mention(user))


@text
def begins(label: str, title: str, seats: str) -> str:
    return _("**{label} begins: {title}** — {seats}").format(label=label, title=title, seats=seats)


@text
def turn_order(names: list[str]) -> str:
    names = plains(names)
    return _("Turn order: ") + " → ".join(names)


# ==== play ==============================================================================


@text
def turn_line(
    user: str, colour: str, clock: str | None, status: str, runs_out: float | None = None) -> str:
    """Who is to move, with their clock (and when their time runs out, live), and the
    game's status line below."""
    extra = f"\n{capitalised(status)}" if status else ""
    timing = f" — {clock}" if clock is not None else ""
    if runs_out is not None:
        timing += _("; time runs out {runs_out}").format(runs_out=live_time(runs_out))
    return _("{user} ({colour}) to move{timing}.{extra}").format(
        user=mention(user), colour=colour, timing=timing, extra=extra)


@text
def not_a_move(error: str) -> str:
    """``/move`` with text that is no move: the game's sentence, which says how moves
    are written."""
    return error[:1].upper() + error[1:]


@text
def not_your_turn(name: str) -> str:
    name = plain(name)
    return _("It is {name}'s turn, not yours.").format(name=name)


@text
def played(
    label: str, ply: int, user: str, colour: str, notation: str, spent: int, banks_left: int
) -> str:
    head = _("{label} · move {ply}: {user} ({colour}) played **{notation}**").format(
        label=label, ply=ply, user=mention(user), colour=colour, notation=notation)
    if spent:
        head += _(" (used {banks}, {banks2} left)").format(
            banks=banks(spent), banks2=banks(banks_left))
    return head


@text
def ran_out(user: str) -> str:
    return _("{user} ran out of time.").format(user=mention(user))


@text
def ran_out_reason(name: str) -> str:
    return _("{name} ran out of time").format(name=name)


@text
def resigned(user: str) -> str:
    return _("{user} resigned.").format(user=mention(user))


@text
def resigned_reason(name: str) -> str:
    return _("{name} resigned").format(name=name)


@text
def out_of_game(why: str, turn: str) -> str:
    return _("{why} They are out of the game.\n{turn}").format(why=why, turn=turn)


@text
def tie_decided(scores: tuple[int, ...], loser: str, rule: str, first: bool) -> str:
    """A result by the tie rule (raw: ``result`` escapes it): who it made lose."""
    score = "–".join(str(s) for s in scores)
    if rule == "last-mover-loses":
        who = _("who placed the last piece") + (_(", the First Player,") if first else ",")
    else:
        who = _("the First Player,")
    return _("{score}: a tie, and {loser}, {who} loses").format(score=score, loser=loser, who=who)


@text
def banner(winner: str | None, reason: str) -> str:
    """The line under a final image of a match ended by time, resignation or a host."""
    return f"{'Draw' if winner is None else f'{winner} wins'}: {reason}"


@text
def result(label: str, winner: str | None, reason: str) -> str:
    reason = plain(reason)
    if winner is None:
        return _("**{label} ends in a draw** — {reason}.").format(label=label, reason=reason)
    return _("🏆 **{winner} wins {label}** — {reason}.").format(
        winner=mention(winner), label=label, reason=reason)


# ==== looking at a match ================================================================


@text
def board(label: str, title: str, seats: str, played: int, paused: bool, turn: str) -> str:
    """A board being played: ``played`` moves so far (passes counted), as its image
    says it (``engine.game.after_move``)."""
    where = after_move(played)
    return (
        f"**{label}: {title}** — {seats}\n"
        f"{where[:1].upper()}{where[1:]}. {'Paused. ' if paused else ''}{turn}")


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
    return _("{label} {title} in <#{channel}> — {listed} · {after_move} · {state}{turn}").format(
        label=label,
        title=title,
        channel=channel,
        listed=" vs ".join(plains(names)),
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
        listed=" vs ".join(plains(names)),
        who=who,
        deadline=deadline)


@text
def overview_challenge(
    number: int, title: str, channel: str, names: list[str], waiting: list[str], left: float
) -> str:
    return _(
        "`Match #{number}` {title} in <#{channel}> — {name1} challenges {listed} · "
        "waiting for {listed2} (lapses in {span})").format(
        number=number,
        title=title,
        channel=channel,
        name1=plain(names[0]),
        listed=", ".join(plains(names[1:])),
        listed2=", ".join(plains(waiting)),
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
def match_choice(match_id: int, title: str, players: list[str], status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {title}: {' vs '.join(players)} ({status})"


@text
def which_match(matches: list[tuple[int, str, list[str], str]]) -> str:
    """Several matches in a channel could be meant: (number, game, names, state) each."""
    listed = "; ".join(
        f"#{n} {title}, {' vs '.join(plains(names))} ({state})"
        for n, title, names, state in matches)
    return _("Several matches could be meant here: {listed}. Add `match:` with its number.").format(
        listed=listed)


@text
def nothing_to_decide() -> str:
    return _(
        "There is no match running or waiting for its First Player in this channel; "
        "add `match:` with its number.")


# ==== host controls =====================================================================


@text
def paused(label: str, host: str, reason: str) -> str:
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
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
        "A turn can be extended by {duration} in all; this one has {duration2} added already."
    ).format(duration=duration(most), duration2=duration(already))


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


# ==== limits ============================================================================


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
