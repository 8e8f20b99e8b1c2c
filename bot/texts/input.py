"""What garnet says of input it refuses before a request reaches the services: an
option out of its bounds, a console line it cannot read, a mention that names no
member."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.escape import plain
from bot.texts.language import _, text
from bot.texts.words import either

# ---- an option's bounds (both adapters and buttons) ----------------------------------


@text
def out_of_bounds(option: str, bound: str, shown: str) -> str:
    return (
        _("`{option}` is {bound}, not {shown}.").format(option=option, bound=bound, shown=shown)
        if shown
        else _("`{option}` has {bound}.").format(option=option, bound=bound))


@text
def file_bound(most_bytes: float) -> str:
    return _("a file of at most {most_bytes:g} KB").format(most_bytes=most_bytes / 1024)


@text
def file_size(size: int) -> str:
    return _("{size:.1f} KB").format(size=size / 1024)


@text
def people_bound(most: int) -> str:
    return _("at most {most} people at once").format(most=most)


@text
def unstorable(option: str) -> str:
    return _(
        "`{option}` holds a broken character (half of an emoji, or a NUL) that garnet "
        "cannot store. Type it again without it.").format(option=option)


@text
def most_characters(most: float) -> str:
    return _("at most {most:g} characters").format(most=most)


@text
def least_characters(least: float) -> str:
    return _("at least {least:g} characters").format(least=least)


@text
def number_bound(
    low: float | None, high: float | None, shown: Callable[[float | None], str] | None = None
) -> str:
    say = shown or number
    if low is not None and high is not None:
        return _("from {low} to {high}").format(low=say(low), high=say(high))
    return (
        _("at least {say}").format(say=say(low))
        if low is not None
        else _("at most {say}").format(say=say(high)))


@text
def number_out_of_bounds(
    option: str, low: float | None, high: float | None, value: float, seconds: bool = False) -> str:
    """A number outside an option's bounds: the bounds (as times for seconds: 1 s to
    24 h), and the number typed when a player can read it back (not 1e+23 or nan)."""
    say = duration if seconds else number
    shown = say(value)
    bound = number_bound(low, high, say)
    return (
        _("`{option}` is {bound}, not {shown}.").format(option=option, bound=bound, shown=shown)
        if shown
        else _("`{option}` is {bound}.").format(option=option, bound=bound))


@text
def duration(seconds: float | None) -> str:
    """Seconds as a player reads them: 5 s, 2.5 s, 2 min, 1 min 30 s, 24 h,
    23 h 53 min 20 s; empty for a number nobody reads back."""
    if seconds is None or not number(seconds):
        return ""
    whole = int(seconds)
    if whole != seconds or abs(whole) < 60:
        return f"{number(seconds)} s"
    hours, rest = divmod(abs(whole), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{number(hours)} h" if hours else "",
        _("{minutes} min").format(minutes=minutes) if minutes else "",
        f"{secs} s" if secs else ""]
    return ("-" if whole < 0 else "") + " ".join(p for p in parts if p)


UNREADABLE = 1e15  # a number with more digits than anyone reads back


@text
def number(value: float | None) -> str:
    """A number as a player reads it: 5, 1000, 86,400 and 100,000,000 (grouped from
    five digits, never 1e+08), a fraction with the digits it has (2.5, 0.25); empty for
    one nobody reads back (1e+23, inf, nan, 0.0000001)."""
    if value is None or value != value or not abs(value) < UNREADABLE:
        return ""
    grouped = "," if abs(value) >= 10_000 else ""
    if float(value).is_integer():
        return f"{int(value):{grouped}d}"
    text = f"{value:{grouped}.6f}".rstrip("0").rstrip(".")
    return "" if text in ("0", "-0") else text


# ---- the console's typed lines ----------------------------------------------------------


@text
def group_usage(
    group: str, subs: Sequence[str], example: str, usage: str, hosts: Sequence[str] = ()) -> str:
    """``hosts``: the hosts' commands of the group, typed under ``/host``."""
    text = f"`/{group} {'|'.join(subs)}`, e.g. `/{example}{' ' + usage if usage else ''}`"
    return text + (
        _("; hosts: `/host {group} {listed}`").format(group=group, listed="|".join(hosts))
        if hosts
        else "")


@text
def under_host(typed: str) -> str:
    return _("`/{typed}` is a host's command: type `/host {typed}`.").format(typed=typed)


@text
def unknown_command(name: str, commands: Sequence[str]) -> str:
    return (
        _("Unknown command /{name}. Commands: ").format(name=name)
        + ", ".join(f"/{c}" for c in commands)
        + ".")


@text
def takes(options: Sequence[str]) -> str:
    return (
        _("it takes {listed}").format(listed=", ".join(options))
        if options
        else _("it takes no options"))


@text
def cannot_place(command: str, words: str, options: Sequence[str]) -> str:
    return _("`/{command}` cannot read '{words}'; write `option:value` ({takes}).").format(
        command=command, words=words, takes=takes(options))


@text
def not_a_file(option: str, path: str) -> str:
    return _("`{option}` is the path of a file; cannot read '{path}'.").format(
        option=option, path=path)


@text
def names_a_person(option: str) -> str:
    return _("`{option}` names a person: `{option}:@name`.").format(option=option)


@text
def names_people(option: str) -> str:
    return _("`{option}` names people: `{option}:@a @b @c`.").format(option=option)


@text
def names_a_channel(option: str) -> str:
    return _("`{option}` names a channel: `{option}:#name`.").format(option=option)


@text
def one_of(option: str, values: Sequence[str], text: str) -> str:
    return _("`{option}` is one of {listed}, not '{text}'.").format(
        option=option, listed=", ".join(values), text=text)


@text
def repeated_option(option: str, several: str | None) -> str:
    """``several``: the command's option of several people, when ``option`` is of one."""
    hint = (
        _(" To name several people, use `{several}:@a @b`.").format(several=several)
        if several
        else "")
    return _("`{option}:` is given more than once; give each option once.{hint}").format(
        option=option, hint=hint)


@text
def unknown_setting(option: str, word: str, settings: Sequence[str]) -> str:
    return _(
        "`{option}:` takes name=value pairs of {listed} (`{option}:{setting}=…`), not '{word}'."
    ).format(option=option, listed=", ".join(settings), setting=settings[0], word=plain(word))


@text
def unknown_options(unknown: Sequence[str], options: Sequence[str]) -> str:
    names = either(f"`{u}:`" for u in unknown)
    return _("There is no option {names} here; {takes}.").format(names=names, takes=takes(options))


@text
def needs_option(command: str, option: str, description: str) -> str:
    said = description.strip().rstrip(".")
    return _("`/{command}` needs `{option}:` — {lower}{said}.").format(
        command=command, option=option, lower=said[:1].lower(), said=said[1:])


@text
def not_a_time(text: str) -> str:
    return _("'{text}' is not a time; write e.g. `~ wait 65s`.").format(text=text)


@text
def server_name() -> str:
    return _("A server's name is letters, digits, `-` and `_` (at most 32).")


@text
def unknown_directive(text: str) -> str:
    return _(
        "There is no directive '~ {text}'; the directives are wait, host, channel, "
        "server, role, deny, allow, delete, disconnect, reconnect and leave.").format(text=text)


# ---- Discord: mentions, members, channels ----------------------------------------------


@text
def takes_mentions(option: str) -> str:
    return _(
        "`{option}` takes mentions: type @ and pick each person (`{option}:@a @b @c`)."
    ).format(option=option)


@text
def too_many_people(option: str, most: int) -> str:
    return _("`{option}` has at most {most} people at once.").format(option=option, most=most)


@text
def servers_only() -> str:
    return _("garnet works in server channels only.")


@text
def not_a_member(user_id: str) -> str:
    return _("<@{user_id}> is not a member of this server.").format(user_id=user_id)


@text
def is_a_bot(name: str) -> str:
    return _("{name} is a bot; bots do not play.").format(name=name)


@text
def thread_in_text_channel() -> str:
    return _("`thread:true` works in a text channel (not in a thread).")


@text
def control_gone(what: str) -> str:
    """A button or menu pressed whose id no version of garnet can read any more."""
    return _("This {what} no longer does anything.").format(what=what)
