"""Every sentence the bot says, in one place, shared by the Discord and console adapters."""

from __future__ import annotations

from typing import Any

from bot.core.messages import mention
from bot.core.timecontrol import Reminder, TimeControl, clock_text
from engine.game import Game

TIE_RULES = {
    "first-player-loses": "in a tie the First Player loses",
    "last-mover-loses": "in a tie the player who moved last loses",
    "draw": "a tie is a draw",
}


def match_label(match_id: int, kind: str) -> str:
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
