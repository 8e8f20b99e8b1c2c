"""What a match that is not being played is doing: waiting for its First Player, for a
player to be free, for an answer, for its first board; or over. Said to whoever asks a
running match of it (a move, `/resign`, a host's `/pause`), with what a host can do.

Names are plain, never mentions: a player's typed move is answered in the channel, and
its answer must ping nobody."""

from __future__ import annotations

from bot.core.escape import plain
from bot.core.messages import mention
from bot.texts.language import _, text
from bot.texts.match import live_time


@text
def _first(number: int) -> str:
    return _("`/first player:@name match:{number}`").format(number=number)


@text
def _void(number: int) -> str:
    return _("`/void match:{number} reason:…`").format(number=number)


@text
def host_can(number: int, host: bool) -> str:
    """What a host does with a match that has not begun (said to hosts only)."""
    if not host:
        return ""
    return (_(" Choose with {first}, or cancel it with {void}.").format(
                first=_first(number), void=_void(number)))


@text
def for_first_player(label: str, number: int, chooser: str | None, by: float | None,
                     host: bool) -> str:
    """A DM (or a tournament's game) whose First Player is not chosen yet; ``chooser``
    a player's name, None: the hosts choose."""
    who = plain(chooser) if chooser is not None else _("a host")
    until = _(" (the choice closes {by})").format(by=live_time(by)) if by is not None else ""
    return (_("{label} has not begun: it waits for {who} to choose the First "
              "Player{until}.{host_can}").format(
                label=label, who=who, until=until, host_can=host_can(number, host)))


@text
def for_player(label: str, name: str, playing: int) -> str:
    """A DM whose First Player is drawn by lots once its players are free, one of them
    still playing another match in the channel."""
    return (_("{label} has not begun: it starts when {name} has finished match #{playing} "
              "here; then lots are drawn for the First Player.").format(
                label=label, name=plain(name), playing=playing))


@text
def for_answer(label: str, waiting: list[str]) -> str:
    return (_("{label} has not begun: it waits for {listed} to accept the challenge.").format(
                label=label, listed=', '.join(plain(n) for n in waiting)))


@text
def for_board(label: str, at: float, attempt: int, attempts: int) -> str:
    """A match whose first board could not be drawn in time: tried again at ``at``."""
    return (_("{label} has not begun: its first board could not be drawn in time. garnet "
              "tries again {at} (try {attempt} of {attempts}); nothing typed counts before "
              "it begins.").format(
                label=label, at=live_time(at), attempt=attempt, attempts=attempts))


@text
def start_failed(label: str, note: str, at: float, attempt: int, attempts: int) -> str:
    """To the match's channel: its start failed and is tried again by itself. ``note``
    is its start's first lines (how the First Player was chosen, a tournament's board):
    the first is said, the rest (a no-show window "from now") only once it begins."""
    head = f"{note.splitlines()[0]}\n" if note.strip() else ""
    # TRANSLATORS: {head}: the match's first line, or nothing
    return (_("{head}⚠ {label} could not begin: its first board could not be drawn in time "
              "(garnet is busy). It tries again {at} (try {attempt} of {attempts}); nothing "
              "typed counts before the board is posted.").format(
                head=head, label=label, at=live_time(at), attempt=attempt, attempts=attempts))


@text
def start_gave_up(label: str, number: int, attempts: int, host: str | None) -> str:
    """To the match's channel, with its host pinged: no more tries."""
    who = f"{mention(host)}: " if host else ""
    return (_("⚠ {who}{label} could not begin: its first board could not be drawn in "
              "{attempts} tries. A host starts it again with {first} or cancels it with "
              "{void}.").format(
                who=who, label=label, attempts=attempts, first=_first(number),
                void=_void(number)))


@text
def gave_up(label: str, number: int, attempts: int, host: bool) -> str:
    """Asked of a match whose start garnet gave up on."""
    who = _("You can") if host else _("A host can")
    return (_("{label} has not begun: its first board could not be drawn in {attempts} "
              "tries. {who} start it again with {first} or cancel it with {void}.").format(
                label=label, attempts=attempts, who=who, first=_first(number),
                void=_void(number)))


@text
def challenge_gave_up(label: str, attempts: int) -> str:
    """A challenge accepted by all (or a practice match) whose first board could not be
    drawn: void, nothing recorded."""
    return (_("⚠ {label} could not begin: its first board could not be drawn in {attempts} "
              "tries, so it is void. Try again in a while (`/challenge`, `/practice`).").format(
                label=label, attempts=attempts))


@text
def void_record() -> str:
    return _("its first board could not be drawn")


@text
def ended(label: str, voided: bool, number: int, host: bool) -> str:
    """Asked of a match that is over."""
    if voided:
        return _("{label} is over: it was voided.").format(label=label)
    fix = (_(" A host changes its result with `/correct match:{number}`.").format(number=number)
           if host else "")
    # TRANSLATORS: {fix}: " A host changes its result with `/correct match:6`." or nothing
    return _("{label} is over: `/match id:{number}` shows how it ended.{fix}").format(
        label=label, number=number, fix=fix)


@text
def already_paused(label: str) -> str:
    return _("{label} is paused already; `/resume` starts its clock again.").format(label=label)


@text
def not_paused(label: str) -> str:
    return _("{label} is being played, not paused; `/pause` stops its clock.").format(label=label)


@text
def playing_elsewhere(user: str, number: int, channel: str) -> str:
    return _(
        "{user} is still playing match #{number} in <#{channel}>; this one starts once it ends."
    ).format(user=mention(user), number=number, channel=channel)
