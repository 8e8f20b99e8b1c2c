"""What garnet says when Discord stands in the way: a match it cannot post to, a lost
gateway connection, a player who left the server, and the server's log channel."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.failures import Cause
from bot.core.messages import mention
from bot.texts.language import _, text
from bot.texts.match import match_label
from bot.texts.words import all_of


@text
def channel(channel_id: str) -> str:
    return f"<#{channel_id}>"


@text
def _what(cause: Cause, where: str, missing: tuple[str, ...]) -> str:
    if cause is Cause.DENIED:
        lacks = ", ".join(missing) if missing else _("a permission it needs (View Channel, "
                                                     "Send Messages, Attach Files)")
        return _("garnet cannot post in {where}: it lacks {lacks} there").format(
                   where=where, lacks=lacks)
    if cause is Cause.GONE:
        return _("{where} was deleted").format(where=where)
    if cause is Cause.LOCKED:
        return _("the thread {where} is locked or archived").format(where=where)
    return _("garnet was removed from the server")


@text
def _fix(cause: Cause, where: str, missing: tuple[str, ...], number: int) -> str:
    resume = _("`/resume match:{number}`").format(number=number)
    if cause is Cause.DENIED:
        grant = all_of(missing) if missing else _("View Channel, Send Messages and "
                                                        "Attach Files")
        return _("Give garnet {grant} in {where}, then {resume}.").format(
                   grant=grant, where=where, resume=resume)
    if cause is Cause.LOCKED:
        return _("Unlock (and unarchive) {where}, then {resume}.").format(
                   where=where, resume=resume)
    return (_("The match cannot go on there: decide it with `/adjudicate match:{number}` or "
              "`/void match:{number}`.").format(number=number))


@text
def halt_reason(cause: Cause, channel_id: str, missing: tuple[str, ...]) -> str:
    """The log's reason for garnet's own pause."""
    return _what(cause, channel(channel_id), missing)


@text
def halted(number: int, kind: str, channel_id: str, cause: Cause,
           missing: tuple[str, ...]) -> str:
    """To the hosts: a match is paused because garnet cannot post to it, and the fix."""
    where = channel(channel_id)
    # TRANSLATORS: {what}: why garnet cannot post ("garnet cannot post in #games: it lacks Send
    # Messages there"); {fix}: what a host does about it
    return (_("⚠ {match_label} is paused: {what}. Nobody's clock runs. {fix}").format(
                match_label=match_label(number, kind), what=_what(cause, where, missing),
                fix=_fix(cause, where, missing, number)))


@text
def still_blocked(number: int, kind: str, channel_id: str, cause: Cause,
                  missing: tuple[str, ...]) -> str:
    """``/resume`` while garnet still cannot post to the match."""
    where = channel(channel_id)
    return (_("{match_label} stays paused: {what}. {fix}").format(
                match_label=match_label(number, kind), what=_what(cause, where, missing),
                fix=_fix(cause, where, missing, number)))


@text
def removed(number: int, kind: str) -> str:
    return _("{match_label} paused: garnet was removed from the server").format(
               match_label=match_label(number, kind))


@text
def reconnected(seconds: float, turn: str) -> str:
    """In a match after a gateway outage: nobody was charged for it."""
    return (_("📡 garnet lost its connection to Discord for {seconds:.0f} s; nobody was "
              "charged. {turn}").format(seconds=seconds, turn=turn))


@text
def left_server(number: int, kind: str, user: str, name: str, channel_id: str) -> str:
    """To the hosts: a player left the server during a match; the match goes on."""
    return (_("👋 {user} ({name}) left the server during {match_label} in {channel}. The "
              "match goes on and the clock runs; a host decides: `/pause`, `/adjudicate` or "
              "`/void` (match:{number}).").format(
                user=mention(user), name=plain(name), match_label=match_label(number, kind),
                channel=channel(channel_id), number=number))


@text
def log_channel_set(channel_id: str) -> str:
    return (_("garnet tells the hosts here in {channel} when a match needs them (a channel "
              "it cannot post to, a player who left).").format(
                channel=channel(channel_id)))


@text
def log_channel_cleared() -> str:
    return (_("No log channel: garnet tells the hosts in the match's own channel, or where "
              "the match was started when it cannot post there."))


@text
def log_channel_is(channel_id: str | None) -> str:
    if channel_id is None:
        return log_channel_cleared()
    return log_channel_set(channel_id)


@text
def cannot_post_in(channel_id: str, missing: list[str]) -> str:
    """``/logchannel`` naming a channel garnet could not post in."""
    return (_("garnet could not tell the hosts anything in {channel}: it lacks {listed} "
              "there. Grant it in the channel's permissions first.").format(
                channel=channel(channel_id), listed=', '.join(missing)))


@text
def cannot_save(number: int, kind: str) -> str:
    """In a match whose timer could not write to the database: its clock stands still."""
    return (_("💾 garnet cannot save right now; {match_label} is paused and nobody is "
              "charged. It goes on by itself once garnet can save again.").format(
                match_label=match_label(number, kind)))


@text
def saved_again(number: int, kind: str, seconds: float, turn: str) -> str:
    """In the same match, once the write that resumes it is committed."""
    return (_("💾 garnet can save again after {seconds:.0f} s; {match_label} goes on and the "
              "clock runs. Nobody was charged. {turn}").format(
                seconds=seconds, match_label=match_label(number, kind), turn=turn))


@text
def channel_or_clear() -> str:
    return _("Name a `channel`, or set `clear:true` — not both.")


@text
def posted_in(channel_id: str) -> str:
    """To the asker of a command whose answer went to another channel."""
    return _("Posted in {channel}.").format(channel=channel(channel_id))


@text
def done() -> str:
    return _("Done.")


@text
def not_posted(channel_id: str, text: str) -> str:
    """To the asker, when the answer's channel refused it for good (deleted, say)."""
    return (_("garnet could not post in {channel} (deleted, or garnet may not post there). "
              "It would have said:\n{text}").format(
                channel=channel(channel_id), text=text))
