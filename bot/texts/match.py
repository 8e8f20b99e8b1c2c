"""Every sentence the bot says, in one place, shared by the Discord and console adapters."""

from __future__ import annotations

import math
from typing import Any

from bot.core.escape import plain, plains
from bot.core.messages import mention
from bot.core.timecontrol import Reminder, TimeControl, clock_text
from engine.game import Game

TIE_RULES = {
    "first-player-loses": "in a tie the First Player loses",
    "last-mover-loses": "in a tie the player who moved last loses",
    "draw": "a tie is a draw",
}


def match_label(match_id: int, kind: str) -> str:
    if kind == "practice":
        return f"Practice #{match_id}"
    return f"DM #{match_id}" if kind == "dm" else f"Match #{match_id}"


def seat_line(game: Game[Any, Any], state: Any, users: list[str]) -> str:
    return " vs ".join(
        f"{mention(user)} ({game.seat_name(state, seat)})" for seat, user in enumerate(users)
    )


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
    return (
        f"⏰ {who}: {clock_text(r.seconds)} of reserve used, "
        f"{banks(r.banks_left)} ({clock_text(r.banks_left * tc.bank)}) left."
    )


def options_line(game: Game[Any, Any], options: dict[str, Any], tc: TimeControl) -> str:
    parts = [tc.describe()]
    tie = options.get("tie")
    if isinstance(tie, str) and tie in TIE_RULES:
        parts.append(TIE_RULES[tie])
    for key, value in options.items():
        if key == "ply-cap":
            parts.append(f"a draw after {value} plies")
        elif key != "tie":
            parts.append(f"{key} {value}")
    return " · ".join(parts)


HELP = """\
**garnet** hosts Death Matches and casual games.
Games: {games}.
• Play: type your move in the match channel when it is your turn (e.g. `D left`), \
or use `/move`. `/resign` gives up, `/board` shows the board to you, `/time` the clocks.
• Casual: `/challenge opponent:@someone game:cairo` — they `/accept` or `/decline` \
(or press the buttons).
• Hosts: `/dm game:cairo player1:@a player2:@b` starts a Death Match; \
`/pause`, `/resume`, `/extend`, `/void`, `/adjudicate`, `/repost`, `/hostrole`.
• History: `/history [player]` lists matches, `/match id:12` shows one move by move, \
`/replay id:12` posts it as an animation.
• Events: `/garnets`, `/ledger`, `/leaderboard by:garnets|wins|rating`, `/rating`, \
`/priority show`, `/event info`; `/transfer` where the event allows. Hosts: \
`/event create|add|remove|close`, `/priority set`, `/grant`, `/fine`, `/export`.
"""


# ==== setting a match up ================================================================


def dm_intro(label: str, title: str, players: list[str], options: str, event_note: str) -> str:
    return (f"**{label}: {title}** — {mention(players[0])} vs {mention(players[1])}\n"
            f"{options}.{event_note}")


def set_up(label: str) -> str:
    return f"{label} is set up."


def goes_first_button(name: str) -> str:
    return f"{name} goes first"


def choose_first(intro: str, chooser: str) -> str:
    who = "the host" if chooser == "host" else mention(chooser)
    return (f"{intro}\n{who}, choose the First Player: press a button or use "
            f"`/first player:@name`.")


def challenge(label: str, title: str, challenger: str, opponents: list[str], options: str,
              hints: bool, rated: bool, minutes: int) -> str:
    others = ", ".join(mention(o) for o in opponents)
    return (f"**{label}: {title}** — {mention(challenger)} challenges {others}.\n{options}"
            f"{' · hints on' if hints else ''}{'' if rated else ' · unrated'}.\n"
            f"Accept or decline with the buttons, or `/accept` / `/decline` "
            f"(open for {minutes} minutes).")


def busy(user: str, match_id: int) -> str:
    return (f"{mention(user)} is already in match #{match_id} in this channel; "
            f"finish it first or play in another channel or thread.")


def declined(user: str, label: str) -> str:
    return f"{mention(user)} declined {label}."


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


def first_by_lots(user: str) -> str:
    return f"Lots were drawn: {mention(user)} is the First Player."


def first_chosen(chooser: str, user: str) -> str:
    return f"{mention(chooser)} chose {mention(user)} as the First Player."


def begins(label: str, title: str, seats: str) -> str:
    return f"**{label} begins: {title}** — {seats}"


def turn_order(names: list[str]) -> str:
    names = plains(names)
    return "Turn order: " + " → ".join(names)


# ==== play ==============================================================================


def turn_line(user: str, colour: str, clock: str | None, status: str) -> str:
    """Who is to move, with their clock, and the game's status line below."""
    extra = f"\n{status}" if status else ""
    timing = f" — {clock}" if clock is not None else ""
    return f"{mention(user)} ({colour}) to move{timing}.{extra}"


def not_a_move_help(error: str, move_help: str) -> str:
    return f"{error} {move_help}".strip()


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


def banner(winner: str | None, reason: str) -> str:
    """The line under a final image of a match ended by time, resignation or a host."""
    return f"{'Draw' if winner is None else f'{winner} wins'}: {reason}"


def result(label: str, winner: str | None, reason: str) -> str:
    reason = plain(reason)
    if winner is None:
        return f"**{label} ends in a draw** — {reason}."
    return f"🏆 **{mention(winner)} wins {label}** — {reason}."


# ==== looking at a match ================================================================


def board(label: str, title: str, seats: str, ply: int, paused: bool, turn: str) -> str:
    return (f"**{label}: {title}** — {seats}\n"
            f"Move {ply}. {'Paused. ' if paused else ''}{turn}")


def clock_on_turn(name: str, left: str) -> str:
    name = plain(name)
    return f"▶ {name}: {left}"


def clock_waiting(name: str, banks_left: int, seconds: float) -> str:
    name = plain(name)
    return f"  {name}: {banks(banks_left)} ({clock_text(seconds)}) of reserve"


def match_choice(match_id: int, title: str, players: list[str], status: str) -> str:
    """An autocomplete entry: plain text, never rendered as markdown."""
    return f"#{match_id} {title}: {' vs '.join(players)} ({status})"


# ==== host controls =====================================================================


def paused(label: str, host: str, reason: str) -> str:
    reason = plain(reason)
    why = f" ({reason})" if reason else ""
    return (f"⏸ {label} is paused by {mention(host)}{why}. "
            f"The clock stands still until `/resume`.")


def resumes(label: str, turn: str) -> str:
    return f"▶ {label} resumes. {turn}"


def extended(host: str, seconds: float, turn: str) -> str:
    return f"⏱ {mention(host)} added {seconds:g} s to this turn. {turn}"


def extend_cap(most: float, already: float) -> str:
    return (f"A turn can be extended by {most / 3600:g} h in all; this one has "
            f"{already:g} s added already.")


def voided(label: str, reason: str) -> str:
    reason = plain(reason)
    return f"🚫 {label} is void ({reason}). No result is recorded."


def void_record(reason: str) -> str:
    return f"voided by the host: {reason}"


def void_by_rule(reason: str) -> str:
    return f"voided: {reason}"


def adjudicated(reason: str) -> str:
    return f"adjudicated by the host: {reason}"


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
    return ("This server already has several replays or exports on the way; try again "
            "in a minute.")


def already_done(first: str) -> str:
    """A retried request: it was carried out the first time."""
    said = f" It said: {first}" if first else ""
    return ("That was already done (your first try went through; nothing was done "
            f"twice).{said}")[:1900]


def missing_permissions(missing: list[str]) -> str:
    return (f"garnet cannot play here: it lacks {', '.join(missing)} in this channel. A "
            "server admin can grant it in the channel's permissions.")
