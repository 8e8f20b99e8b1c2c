"""What garnet says when a tournament's game is voided, a player does not show up,
is withdrawn or comes back (re-exported by ``bot.texts.tournaments``)."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.words import span


def void_reason_deadline() -> str:
    return "the tournament round's deadline passed before it began"


def void_reason_withdrawn() -> str:
    return "a player withdrew from the tournament"


def void_reason_decided() -> str:
    return "a host decided the pairing"


def void_reason_cancelled() -> str:
    return "the tournament was cancelled"


def void_reason_over() -> str:
    return "the tournament is over"


def void_reason_no_show() -> str:
    return "a player did not show"


def show_up_note(*, seconds: float) -> str:
    """Under a clocked pairing's first board: the no-show window."""
    return (f"Each player has {span(seconds)} from now to make their first move (their clock "
            f"runs after that); whoever has not moved by then loses by forfeit and is withdrawn.")


def no_show(*, name: str, number: int, board: int, absent: str, present: str,
            seconds: float) -> str:
    return (f"⏰ **{plain(name)}** round {number}, board {board}: {mention(absent)} did not "
            f"make their first move within {span(seconds)} of the start. {mention(present)} "
            f"wins by forfeit; {mention(absent)} is withdrawn (a host can "
            f"`/host tournament reinstate` them).")


def dropped(*, user_id: str, name: str, host_id: str | None, forfeit_to: str | None) -> str:
    who = mention(user_id)
    if host_id and host_id != user_id:  # a host withdrew them: say who did what
        line = (f"{mention(host_id)} withdrew {who} from **{plain(name)}**: not paired in "
                "later rounds.")
    else:
        line = f"{who} withdrew from **{plain(name)}**: not paired in later rounds."
    if forfeit_to:
        line += f" {mention(forfeit_to)} wins their pairing by forfeit."
    return line


def removed(*, user_id: str, name: str, count: int) -> str:
    return f"{mention(user_id)} is no longer entered in **{plain(name)}** ({count} entered)."


def reinstated(*, user_id: str, name: str, board: int | None = None,
               stands: str | None = None) -> str:
    """A withdrawn player back: within the round their forfeit undone and the game of
    ``board`` played after all; else from the next round, a forfeit that ``stands``."""
    who, where = mention(user_id), f"**{plain(name)}**"
    if board is not None:
        return (f"↩ {who} is back in {where}: the withdrawal is undone, the forfeit on "
                f"board {board} is cancelled and its game is played.")
    line = f"↩ {who} is back in {where} from the next round."
    if stands:
        line += f" The forfeit this round stands: {stands}."
    return line


def forfeit_stands_round_over(*, number: int) -> str:
    return f"round {number} is over"


def forfeit_stands_opponent_out(*, user_id: str) -> str:
    return f"{mention(user_id)} has withdrawn too"
