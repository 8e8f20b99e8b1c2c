"""What garnet says when Discord stands in the way: a match it cannot post to, a lost
gateway connection, a player who left the server, and the server's log channel."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.failures import Cause
from bot.core.messages import mention
from bot.texts.match import match_label


def channel(channel_id: str) -> str:
    return f"<#{channel_id}>"


def _what(cause: Cause, where: str, missing: tuple[str, ...]) -> str:
    if cause is Cause.DENIED:
        lacks = ", ".join(missing) if missing else "a permission it needs (View Channel, " \
            "Send Messages, Attach Files)"
        return f"garnet cannot post in {where}: it lacks {lacks} there"
    if cause is Cause.GONE:
        return f"{where} was deleted"
    if cause is Cause.LOCKED:
        return f"the thread {where} is locked or archived"
    return "garnet was removed from the server"


def _fix(cause: Cause, where: str, missing: tuple[str, ...], number: int) -> str:
    resume = f"`/resume match:{number}`"
    if cause is Cause.DENIED:
        grant = " and ".join(missing) if missing else "View Channel, Send Messages and " \
            "Attach Files"
        return f"Give garnet {grant} in {where}, then {resume}."
    if cause is Cause.LOCKED:
        return f"Unlock (and unarchive) {where}, then {resume}."
    return (f"The match cannot go on there: decide it with `/adjudicate match:{number}` or "
            f"`/void match:{number}`.")


def halt_reason(cause: Cause, channel_id: str, missing: tuple[str, ...]) -> str:
    """The log's reason for garnet's own pause."""
    return _what(cause, channel(channel_id), missing)


def halted(number: int, kind: str, channel_id: str, cause: Cause,
           missing: tuple[str, ...]) -> str:
    """To the hosts: a match is paused because garnet cannot post to it, and the fix."""
    where = channel(channel_id)
    return (f"⚠ {match_label(number, kind)} is paused: {_what(cause, where, missing)}. "
            f"Nobody's clock runs. {_fix(cause, where, missing, number)}")


def still_blocked(number: int, kind: str, channel_id: str, cause: Cause,
                  missing: tuple[str, ...]) -> str:
    """``/resume`` while garnet still cannot post to the match."""
    where = channel(channel_id)
    return (f"{match_label(number, kind)} stays paused: {_what(cause, where, missing)}. "
            f"{_fix(cause, where, missing, number)}")


def removed(number: int, kind: str) -> str:
    return f"{match_label(number, kind)} paused: garnet was removed from the server"


def reconnected(seconds: float, turn: str) -> str:
    """In a match after a gateway outage: nobody was charged for it."""
    return (f"📡 garnet lost its connection to Discord for {seconds:.0f} s; nobody was "
            f"charged. {turn}")


def left_server(number: int, kind: str, user: str, name: str, channel_id: str) -> str:
    """To the hosts: a player left the server during a match; the match goes on."""
    return (f"👋 {mention(user)} ({plain(name)}) left the server during "
            f"{match_label(number, kind)} in {channel(channel_id)}. The match goes on and "
            f"the clock runs; a host decides: `/pause`, `/adjudicate` or `/void` "
            f"(match:{number}).")


def log_channel_set(channel_id: str) -> str:
    return (f"garnet tells the hosts here in {channel(channel_id)} when a match needs them "
            "(a channel it cannot post to, a player who left).")


def log_channel_cleared() -> str:
    return ("No log channel: garnet tells the hosts in the match's own channel, or where "
            "the match was started when it cannot post there.")


def log_channel_is(channel_id: str | None) -> str:
    if channel_id is None:
        return log_channel_cleared()
    return log_channel_set(channel_id)


def cannot_post_in(channel_id: str, missing: list[str]) -> str:
    """``/logchannel`` naming a channel garnet could not post in."""
    return (f"garnet could not tell the hosts anything in {channel(channel_id)}: it lacks "
            f"{', '.join(missing)} there. Grant it in the channel's permissions first.")


def cannot_save(number: int, kind: str) -> str:
    """In a match whose timer could not write to the database: its clock stands still."""
    return (f"💾 garnet cannot save right now; {match_label(number, kind)} is paused and "
            f"nobody is charged. It goes on by itself once garnet can save again.")


def saved_again(number: int, kind: str, seconds: float, turn: str) -> str:
    """In the same match, once the write that resumes it is committed."""
    return (f"💾 garnet can save again after {seconds:.0f} s; {match_label(number, kind)} "
            f"goes on and the clock runs. Nobody was charged. {turn}")


def channel_or_clear() -> str:
    return "Name a `channel`, or set `clear:true` — not both."


def posted_in(channel_id: str) -> str:
    """To the asker of a command whose answer went to another channel."""
    return f"Posted in {channel(channel_id)}."


def done() -> str:
    return "Done."


def not_posted(channel_id: str, text: str) -> str:
    """To the asker, when the answer's channel refused it for good (deleted, say)."""
    return (f"garnet could not post in {channel(channel_id)} (deleted, or garnet may not "
            f"post there). It would have said:\n{text}")
