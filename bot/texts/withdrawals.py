"""What garnet says when a tournament's game is voided, a player does not show up,
is withdrawn or comes back (re-exported by ``bot.texts.tournaments``)."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, text
from bot.texts.words import span


@text
def void_reason_deadline() -> str:
    return _("the tournament round's deadline passed before it began")


@text
def void_reason_withdrawn() -> str:
    return _("a player withdrew from the tournament")


@text
def void_reason_decided() -> str:
    return _("a host decided the pairing")


@text
def void_reason_cancelled() -> str:
    return _("the tournament was cancelled")


@text
def void_reason_over() -> str:
    return _("the tournament is over")


@text
def void_reason_no_show() -> str:
    return _("a player did not show")


@text
def show_up_note(*, seconds: float) -> str:
    """Under a clocked pairing's first board: the no-show window."""
    return _(
        "Each player has {span} from now to make their first move (their clock runs "
        "after that); whoever has not moved by then loses by forfeit and is withdrawn."
    ).format(span=span(seconds))


@text
def no_show(
    *, name: str, number: int, board: int, absent: str, present: str, seconds: float) -> str:
    return _(
        "⏰ **{name}** round {number}, board {board}: {absent} did not make their first "
        "move within {span} of the start. {present} wins by forfeit; {absent} is "
        "withdrawn (a host can `/host tournament reinstate` them).").format(
        name=plain(name),
        number=number,
        board=board,
        absent=mention(absent),
        span=span(seconds),
        present=mention(present))


@text
def dropped(*, user_id: str, name: str, host_id: str | None, forfeit_to: str | None) -> str:
    who = mention(user_id)
    if host_id and host_id != user_id:  # a host withdrew them: say who did what
        line = _("{host_id} withdrew {who} from **{name}**: not paired in later rounds.").format(
            host_id=mention(host_id), who=who, name=plain(name))
    else:
        line = _("{who} withdrew from **{name}**: not paired in later rounds.").format(
            who=who, name=plain(name))
    if forfeit_to:
        line += _(" {forfeit_to} wins their pairing by forfeit.").format(
            forfeit_to=mention(forfeit_to))
    return line


@text
def removed(*, user_id: str, name: str, count: int) -> str:
    return _("{user_id} is no longer entered in **{name}** ({count} entered).").format(
        user_id=mention(user_id), name=plain(name), count=count)


@text
def reinstated(
    *, user_id: str, name: str, board: int | None = None, stands: str | None = None) -> str:
    """A withdrawn player back: within the round their forfeit undone and the game of
    ``board`` played after all; else from the next round, a forfeit that ``stands``."""
    who, where = mention(user_id), f"**{plain(name)}**"
    if board is not None:
        return _(
            "↩ {who} is back in {where}: the withdrawal is undone, the forfeit on "
            "board {board} is cancelled and its game is played."
        ).format(who=who, where=where, board=board)
    line = _("↩ {who} is back in {where} from the next round.").format(who=who, where=where)
    if stands:
        line += _(" The forfeit this round stands: {stands}.").format(stands=stands)
    return line


@text
def forfeit_stands_round_over(*, number: int) -> str:
    return _("round {number} is over").format(number=number)


@text
def forfeit_stands_opponent_out(*, user_id: str) -> str:
    return _("{user_id} has withdrawn too").format(user_id=mention(user_id))
