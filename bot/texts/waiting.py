"""What a match that is not being played is doing: waiting for its First Player, for a
player to be free, for an answer, for its first board; or over. Said to whoever asks a
running match of it (a move, `/resign`, a host's `/pause`), with what a host can do.

Names are plain, never mentions: a player's typed move is answered in the channel, and
its answer must ping nobody."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.match import live_time


def _first(number: int) -> str:
    return f"`/first player:@name match:{number}`"


def _void(number: int) -> str:
    return f"`/void match:{number} reason:…`"


def host_can(number: int, host: bool) -> str:
    """What a host does with a match that has not begun (said to hosts only)."""
    if not host:
        return ""
    return (f" Choose with {_first(number)}, or cancel it with {_void(number)}.")


def for_first_player(label: str, number: int, chooser: str | None, by: float | None,
                     host: bool) -> str:
    """A DM (or a tournament's game) whose First Player is not chosen yet; ``chooser``
    a player's name, None: the hosts choose."""
    who = plain(chooser) if chooser is not None else "a host"
    until = f" (the choice closes {live_time(by)})" if by is not None else ""
    return (f"{label} has not begun: it waits for {who} to choose the First Player"
            f"{until}.{host_can(number, host)}")


def for_player(label: str, name: str, playing: int) -> str:
    """A DM whose First Player is drawn by lots once its players are free, one of them
    still playing another match in the channel."""
    return (f"{label} has not begun: it starts when {plain(name)} has finished match "
            f"#{playing} here; then lots are drawn for the First Player.")


def for_answer(label: str, waiting: list[str]) -> str:
    return (f"{label} has not begun: it waits for {', '.join(plain(n) for n in waiting)} "
            "to accept the challenge.")


def for_board(label: str, at: float, attempt: int, attempts: int) -> str:
    """A match whose first board could not be drawn in time: tried again at ``at``."""
    return (f"{label} has not begun: its first board could not be drawn in time. garnet "
            f"tries again {live_time(at)} (try {attempt} of {attempts}); nothing typed "
            "counts before it begins.")


def start_failed(label: str, note: str, at: float, attempt: int, attempts: int) -> str:
    """To the match's channel: its start failed and is tried again by itself. ``note``
    is its start's first lines (how the First Player was chosen, a tournament's board):
    the first is said, the rest (a no-show window "from now") only once it begins."""
    head = f"{note.splitlines()[0]}\n" if note.strip() else ""
    return (f"{head}⚠ {label} could not begin: its first board could not be drawn in "
            f"time (garnet is busy). It tries again {live_time(at)} (try {attempt} of "
            f"{attempts}); nothing typed counts before the board is posted.")


def start_gave_up(label: str, number: int, attempts: int, host: str | None) -> str:
    """To the match's channel, with its host pinged: no more tries."""
    who = f"{mention(host)}: " if host else ""
    return (f"⚠ {who}{label} could not begin: its first board could not be drawn in "
            f"{attempts} tries. A host starts it again with {_first(number)} or cancels "
            f"it with {_void(number)}.")


def gave_up(label: str, number: int, attempts: int, host: bool) -> str:
    """Asked of a match whose start garnet gave up on."""
    who = "You can" if host else "A host can"
    return (f"{label} has not begun: its first board could not be drawn in {attempts} "
            f"tries. {who} start it again with {_first(number)} or cancel it with "
            f"{_void(number)}.")


def challenge_gave_up(label: str, attempts: int) -> str:
    """A challenge accepted by all (or a practice match) whose first board could not be
    drawn: void, nothing recorded."""
    return (f"⚠ {label} could not begin: its first board could not be drawn in {attempts} "
            "tries, so it is void. Try again in a while (`/challenge`, `/practice`).")


def void_record() -> str:
    return "its first board could not be drawn"


def ended(label: str, voided: bool, number: int, host: bool) -> str:
    """Asked of a match that is over."""
    if voided:
        return f"{label} is over: it was voided."
    fix = (f" A host changes its result with `/correct match:{number}`." if host else "")
    return f"{label} is over: `/match id:{number}` shows how it ended.{fix}"


def already_paused(label: str) -> str:
    return f"{label} is paused already; `/resume` starts its clock again."


def not_paused(label: str) -> str:
    return f"{label} is being played, not paused; `/pause` stops its clock."


def playing_elsewhere(user: str, number: int, channel: str) -> str:
    return (f"{mention(user)} is still playing match #{number} in <#{channel}>; this one "
            "starts once it ends.")
