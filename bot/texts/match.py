"""Every sentence the bot says, in one place, shared by the Discord and console adapters."""

from __future__ import annotations

import math
from typing import Any

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.core.timecontrol import Reminder, TimeControl, clock_text
from bot.texts.input import duration
from bot.texts.words import span
from engine.game import Game, after_move


def match_label(match_id: int, kind: str) -> str:
    if kind == "practice":
        return f"Practice #{match_id}"
    return f"DM #{match_id}" if kind == "dm" else f"Match #{match_id}"


def seat_line(game: Game[Any, Any], state: Any, users: list[str]) -> str:
    return " vs ".join(
        f"{mention(user)} ({game.seat_name(state, seat)})" for seat, user in enumerate(users)
    )


def live_time(epoch: float) -> str:
    """An instant as Discord shows it live in each reader's own terms ("in 45 seconds",
    "2 minutes ago"); the console renders it against its clock."""
    # Up to the whole second, as clocks are shown (``clock_text``): a turn showing
    # 0:10 runs out "in 10 s", not "in 9 s".
    return f"<t:{math.ceil(epoch - 1e-9)}:R>"


def clock_left(tc: TimeControl, elapsed: float, banks_left: int, extra: float) -> str:
    """What is left of a turn, e.g. '0:42 + 36 banks' or 'reserve 1:15 (15 banks)'."""
    if not tc.enabled:
        return "no clock"
    budget = tc.turn + extra
    if elapsed < budget:
        if banks_left <= 0:
            return f"{clock_text(budget - elapsed)}, no reserve left"
        return f"{clock_text(budget - elapsed)} + {banks(banks_left)}"
    left = tc.flag_at(banks_left, extra) - elapsed
    return f"on reserve, {clock_text(left)} left"


def banks(n: int) -> str:
    return f"{n} bank" if n == 1 else f"{n} banks"


def reminder(user: str, r: Reminder, tc: TimeControl) -> str:
    who = mention(user)
    if r.kind == "turn":
        return f"⏰ {who}: {r.seconds:g} s left of your turn time."
    if r.kind == "reserve":
        return (
            f"⏰ {who}: turn time is up, you are on your reserve now: "
            f"{banks(r.banks_left)} ({clock_text(r.banks_left * tc.bank)})."
        )
    used = f"⏰ {who}: {clock_text(r.seconds)} of reserve used"
    in_bank = r.left - r.banks_left * tc.bank  # the rest of a bank under way
    if in_bank <= 1e-6:
        return f"{used}, {banks(r.banks_left)} ({clock_text(r.left)}) left."
    if r.banks_left == 0:
        return f"{used}, {clock_text(r.left)} left: the rest of the last bank."
    return (f"{used}, {clock_text(r.left)} left: {clock_text(in_bank)} of the bank in use, "
            f"then {banks(r.banks_left)}.")


def deck_label(value: Any) -> str:
    """A match's deck as its options hold it: a shipped deck's key, or a server's deck
    as data (its name was checked when it was added: letters, digits and - _)."""
    if isinstance(value, dict):
        return f"deck {value.get('key', '?')} (this server's)"
    return f"deck {value}"


def options_line(game: Game[Any, Any], options: dict[str, Any], tc: TimeControl) -> str:
    """The rules of a match under its title: the clock, then each option as the game
    declares it says it (a server's own deck, held as data, by its name)."""
    plain = {k: v for k, v in options.items() if not isinstance(v, dict)}
    parts = [tc.describe(), *game.describe_options(plain)]
    parts += [deck_label(v) for v in options.values() if isinstance(v, dict)]
    return capitalised(" · ".join(parts))  # it starts a line wherever it is shown


def capitalised(line: str) -> str:
    """A line as it starts: its first letter upper case ("no clock", "walls left: …")."""
    return line[:1].upper() + line[1:]


# ==== setting a match up ================================================================


def dm_intro(label: str, title: str, players: list[str], options: str, event_note: str) -> str:
    return (f"**{label}: {title}** — {mention(players[0])} vs {mention(players[1])}\n"
            f"{options}.{event_note}")


def no_hints_in_dm() -> str:
    return ("A Death Match is played without hints: its rules do not let the board show "
            "the Corridor or suggest moves (casual matches may use `hints:yes`).")


def set_up(label: str) -> str:
    return f"{label} is set up."


def goes_first_button(name: str) -> str:
    return f"{name} goes first"


MISSED = {"lots": "lots are drawn", "void": "the DM is void"}


def choose_first(intro: str, chooser: str, within: float | None = None,
                 missed: str = "lots", by: float | None = None) -> str:
    """Who chooses the First Player, and (a DM) until when, then what."""
    how = "with a button below or `/first player:@name`"
    ask = (f"Hosts, choose the First Player {how}." if chooser == "host"
           else f"{mention(chooser)}, choose the First Player {how}.")
    if within is None:
        return f"{intro}\n{ask}"
    closes = live_time(by) if by is not None else f"in {span(within)}"
    return (f"{intro}\n{ask} The choice closes {closes}; if no one has chosen by then, "
            f"{MISSED.get(missed, missed)}.")


def choose_reminder(user: str, label: str, left: float, missed: str) -> str:
    return (f"⏳ {mention(user)}: choose the First Player of {label} — {span(left)} left "
            f"(a button above, or `/first player:@name`); then {MISSED.get(missed, missed)}.")


def unchosen_lots(user: str, label: str, within: float, first: str) -> str:
    return (f"⌛ {mention(user)} did not choose the First Player of {label} within "
            f"{span(within)}: lots were drawn, and {mention(first)} is the First Player.")


def unchosen_voided(user: str, label: str, within: float) -> str:
    return (f"⌛ {mention(user)} did not choose the First Player of {label} within "
            f"{span(within)}: {label} is void, as the host set. No result is recorded.")


def unchosen_record(within: float) -> str:
    return f"void: the First Player was not chosen within {span(within)}"


def bad_choose_within(most_minutes: float) -> str:
    return f"`deadline` is 1 to {most_minutes:g} minutes."


def bad_missed(choices: tuple[str, ...]) -> str:
    return f"`missed` is {' or '.join(choices)}."


def challenge(label: str, title: str, challenger: str, opponents: list[str], options: str,
              hints: bool, rated: bool, minutes: int, lapses: float | None = None) -> str:
    others = ", ".join(mention(o) for o in opponents)
    open_for = (f"lapses {live_time(lapses)}" if lapses is not None
                else f"open for {minutes} minutes")
    return (f"**{label}: {title}** — {mention(challenger)} challenges {others}.\n{options}"
            f"{' · hints on' if hints else ''}{'' if rated else ' · unrated'}.\n"
            f"Accept or decline with the buttons, or `/accept` / `/decline` "
            f"({open_for}).")


def busy(user: str, match_id: int, waiting: bool) -> str:
    """A player is in another match in this channel: a new match is refused, one that
    is set up already (``waiting``) starts once it ends."""
    if waiting:
        return (f"{mention(user)} is playing match #{match_id} in this channel; this one "
                "can start once it ends.")
    return (f"{mention(user)} is already in match #{match_id} in this channel; "
            f"finish it first or play in another channel or thread.")


def no_such_match(number: int | None) -> str:
    """No match of that number on this server (None: none in this channel fits)."""
    if number is None:
        return "There is no such match in this channel."
    return f"There is no match #{number} on this server."


def declined(user: str, label: str) -> str:
    return f"{mention(user)} declined {label}."


def declined_record(user: str) -> str:
    return f"declined by {mention(user)}"


def withdrawn_record(user: str) -> str:
    return f"withdrawn by {mention(user)}"


def no_longer_open(match_id: int, status: str, by: str | None) -> str:
    """A challenge answered after it ended: what became of it, and by whom."""
    who = f" by {plain(by)}" if by else ""
    if status == "declined":
        return f"Match #{match_id} was declined{who}; challenge again with `/challenge`."
    if status == "cancelled":
        return f"Match #{match_id} was withdrawn{who}."
    return f"Match #{match_id} lapsed: the challenge was not accepted in time."


def accepted(user: str, label: str, waiting: list[str] | None = None) -> str:
    if waiting:
        return (f"{mention(user)} accepted {label}. Waiting for "
                f"{', '.join(mention(w) for w in waiting)}.")
    return f"{mention(user)} accepted {label}."


def withdrawn(user: str, match_id: int) -> str:
    return f"{mention(user)} withdrew match #{match_id}."


def lapsed(match_id: int) -> str:
    return f"Match #{match_id} lapsed: the challenge was not accepted in time."


def not_the_chooser(chooser: str) -> str:
    who = "The host" if chooser == "host" else mention(chooser)
    return f"{who} chooses the First Player of this match, not you."


def none_running_here(player: bool) -> str:
    if player:
        return "There is no match of yours running in this channel."
    return "No match is running in this channel; name one with `match:`."


def first_by_lots(user: str) -> str:
    return f"Lots were drawn: {mention(user)} is the First Player."


def first_chosen(chooser: str, user: str) -> str:
    if chooser == user:
        return f"{mention(chooser)} chose to be the First Player."
    return f"{mention(chooser)} chose {mention(user)} as the First Player."


def begins(label: str, title: str, seats: str) -> str:
    return f"**{label} begins: {title}** — {seats}"


def turn_order(names: list[str]) -> str:
    names = plains(names)
    return "Turn order: " + " → ".join(names)


# ==== play ==============================================================================


def turn_line(user: str, colour: str, clock: str | None, status: str,
              runs_out: float | None = None) -> str:
    """Who is to move, with their clock (and when their time runs out, live), and the
    game's status line below."""
    extra = f"\n{capitalised(status)}" if status else ""
    timing = f" — {clock}" if clock is not None else ""
    if runs_out is not None:
        timing += f"; time runs out {live_time(runs_out)}"
    return f"{mention(user)} ({colour}) to move{timing}.{extra}"


def not_a_move(error: str) -> str:
    """``/move`` with text that is no move: the game's sentence, which says how moves
    are written."""
    return error[:1].upper() + error[1:]


def not_your_turn(name: str) -> str:
    name = plain(name)
    return f"It is {name}'s turn, not yours."


def played(label: str, ply: int, user: str, colour: str, notation: str, spent: int,
           banks_left: int) -> str:
    head = f"{label} · move {ply}: {mention(user)} ({colour}) played **{notation}**"
    if spent:
        head += f" (used {banks(spent)}, {banks(banks_left)} left)"
    return head


def ran_out(user: str) -> str:
    return f"{mention(user)} ran out of time."


def ran_out_reason(name: str) -> str:
    return f"{name} ran out of time"


def resigned(user: str) -> str:
    return f"{mention(user)} resigned."


def resigned_reason(name: str) -> str:
    return f"{name} resigned"


def out_of_game(why: str, turn: str) -> str:
    return f"{why} They are out of the game.\n{turn}"


def tie_decided(scores: tuple[int, ...], loser: str, rule: str, first: bool) -> str:
    """A result by the tie rule (raw: ``result`` escapes it): who it made lose."""
    score = "–".join(str(s) for s in scores)
    if rule == "last-mover-loses":
        who = "who placed the last piece" + (", the First Player," if first else ",")
    else:
        who = "the First Player,"
    return f"{score}: a tie, and {loser}, {who} loses"


def banner(winner: str | None, reason: str) -> str:
    """The line under a final image of a match ended by time, resignation or a host."""
    return f"{'Draw' if winner is None else f'{winner} wins'}: {reason}"


def result(label: str, winner: str | None, reason: str) -> str:
    reason = plain(reason)
    if winner is None:
        return f"**{label} ends in a draw** — {reason}."
    return f"🏆 **{mention(winner)} wins {label}** — {reason}."


# ==== looking at a match ================================================================


def board(label: str, title: str, seats: str, played: int, paused: bool, turn: str) -> str:
    """A board being played: ``played`` moves so far (passes counted), as its image
    says it (``engine.game.after_move``)."""
    where = after_move(played)
    return (f"**{label}: {title}** — {seats}\n"
            f"{where[:1].upper()}{where[1:]}. {'Paused. ' if paused else ''}{turn}")


def final_board(label: str, title: str, seats: str, moves: int, void: bool,
                result: str) -> str:
    """A finished match's last board: ``result`` is its stored result line."""
    plural = "move" if moves == 1 else "moves"
    head = f"**{label}: {title}** — {seats}\nFinal board, after {moves} {plural}."
    if void:  # stored as said ("voided by the host: REASON"), the reason raw
        said = plain(result)
        return f"{head} {said[:1].upper()}{said[1:]}."
    return f"{head}\n{result}" if result else head


def not_started(label: str) -> str:
    return f"{label} has not started yet: there is no board to show."


MAX_OVERVIEW = 25  # matches listed by /matches (a message has 2,000 characters)


def overview(lines: list[str], playing: int, waiting: int) -> str:
    if not lines:
        return "No match is being played or waiting to start on this server."
    head = (f"**Matches on this server** — {playing} being played, {waiting} waiting to "
            "start")
    more = (f"\n… and {len(lines) - MAX_OVERVIEW} more." if len(lines) > MAX_OVERVIEW
            else "")
    return "\n".join([head, *lines[:MAX_OVERVIEW]]) + more


def overview_label(number: int, kind: str, tournament: tuple[str, int, int] | None) -> str:
    """A match in ``/matches``; a tournament's game says which: (name, round, board)."""
    if tournament is None:
        return f"`{match_label(number, kind)}`"
    name, round_number, board = tournament
    return f"`Match #{number}` (🏆 {plain(name)}, round {round_number}, board {board})"


def overview_playing(label: str, title: str, channel: str, names: list[str],
                     ply: int, to_move: str | None, clock: str | None, paused: bool) -> str:
    turn = f"{plain(to_move)} to move" if to_move is not None else "over"
    if clock is not None:
        turn += f" ({clock})"
    state = "paused · " if paused else ""
    return (f"{label} {title} in <#{channel}> — {' vs '.join(plains(names))} · "
            f"{after_move(ply)} · {state}{turn}")


def overview_choosing(label: str, title: str, channel: str, names: list[str],
                      chooser: str | None, left: float | None) -> str:
    who = plain(chooser) if chooser is not None else "the host"
    deadline = f" ({span(left)} left)" if left is not None and left > 0 else ""
    return (f"{label} {title} in <#{channel}> — {' vs '.join(plains(names))} · "
            f"waiting for {who} to choose the First Player{deadline}")


def overview_challenge(number: int, title: str, channel: str, names: list[str],
                       waiting: list[str], left: float) -> str:
    return (f"`Match #{number}` {title} in <#{channel}> — {plain(names[0])} challenges "
            f"{', '.join(plains(names[1:]))} · waiting for {', '.join(plains(waiting))} "
            f"(lapses in {span(max(left, 60))})")


def clock_on_turn(name: str, left: str) -> str:
    name = plain(name)
    return f"▶ {name}: {left}"


def clock_waiting(name: str, banks_left: int, seconds: float) -> str:
    name = plain(name)
    return f"  {name}: {banks(banks_left)} ({clock_text(seconds)}) of reserve"


def match_choice(match_id: int, title: str, players: list[str], status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {title}: {' vs '.join(players)} ({status})"


def which_match(matches: list[tuple[int, str, list[str], str]]) -> str:
    """Several matches in a channel could be meant: (number, game, names, state) each."""
    listed = "; ".join(f"#{n} {title}, {' vs '.join(plains(names))} ({state})"
                       for n, title, names, state in matches)
    return f"Several matches could be meant here: {listed}. Add `match:` with its number."


def nothing_to_decide() -> str:
    return ("There is no match running or waiting for its First Player in this channel; "
            "add `match:` with its number.")


# ==== host controls =====================================================================


def paused(label: str, host: str, reason: str) -> str:
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
    return (f"⏸ {label} is paused by {mention(host)}{why}. "
            f"The clock stands still until `/resume`.")


def board_again(label: str, turn: str) -> str:
    """After a restart, the board of a turn whose board may never have been posted."""
    return f"▶ {label}: the board again after a restart of the bot. {turn}"


def resumes(label: str, turn: str) -> str:
    return f"▶ {label} resumes. {turn}"


def extended(host: str, seconds: float, turn: str) -> str:
    return f"⏱ {mention(host)} added {duration(seconds)} to this turn. {turn}"


def extend_cap(most: float, already: float) -> str:
    return (f"A turn can be extended by {duration(most)} in all; this one has "
            f"{duration(already)} added already.")


def voided(label: str, reason: str) -> str:
    reason = plain(reason)
    return f"🚫 {label} is void ({reason}). No result is recorded."


def void_record(reason: str) -> str:
    return f"voided by the host: {reason}"


def void_by_rule(reason: str) -> str:
    return f"voided: {reason}"


def adjudicated(reason: str) -> str:
    return f"adjudicated by the host: {reason}"


def corrected(reason: str) -> str:
    """A finished match's result as a host corrected it (``/correct``)."""
    return f"result corrected by the host: {reason}"


def adjudication_log(winner: str | None, reason: str) -> str:
    return f"winner {winner or 'none (draw)'}: {reason}"


def host_role_set(role: str) -> str:
    role = plain(role)
    return (f"Members with the role **{role}** can host matches now. Discord shows the "
            "host commands to members with Manage Server; to show them to this role too, "
            "allow it in Server Settings → Integrations → garnet.")


def not_host(role: str | None) -> str:
    if role is None:
        return ("Only hosts can do that (Manage Server; no host role is set: someone "
                "with Manage Server sets one with `/hostrole`).")
    return f"Only hosts can do that (the '{plain(role)}' role or Manage Server)."


def only_managers() -> str:
    return "Only members with Manage Server can do that."


def only_managers_set_host_role() -> str:
    return "Only members with Manage Server can set the host role."


def dm_thread(title: str, name1: str, name2: str) -> str:
    return f"DM: {title} — {name1} vs {name2}"[:100]


# ==== limits ============================================================================


def too_many_challenges(most: int) -> str:
    return (f"You have {most} open challenges on this server already; wait for answers "
            "or `/cancel` one first.")


def slow_down(seconds: float) -> str:
    return f"Too many requests in a short time; try again in {max(1, math.ceil(seconds))} s."


def server_busy() -> str:
    return ("This server already has several replays, reviews or exports on the way; "
            "try again in a minute.")


def user_busy(most: int) -> str:
    return (f"You already have {most} requests of this kind on the way; wait for them "
            "before asking for another.")


def job_too_long() -> str:
    return "That took too long to draw or work out, so it was stopped; try again later."


def already_done(first: str) -> str:
    """A retried request: it was carried out the first time."""
    said = f" It said: {first}" if first else ""
    return ("That was already done (your first try went through; nothing was done "
            f"twice).{said}")[:1900]


def missing_permissions(missing: list[str]) -> str:
    return (f"garnet cannot play here: it lacks {', '.join(missing)} in this channel. A "
            "server admin can grant it in the channel's permissions.")


def lease_lost() -> str:
    """A request that reached a bot process which no longer runs this server's matches."""
    # Said to players: what they can do, not how garnet runs (processes, leases).
    return ("garnet is restarting for this server; nothing was changed. Please try again "
            "in a moment.")


def not_our_shard() -> str:
    """A match asked of a bot process that does not run this server (another shard)."""
    return ("garnet is not running this server's matches here right now (it is moving "
            "them); nothing was started. Please try again in a moment.")

