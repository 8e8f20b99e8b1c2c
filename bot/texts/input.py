"""What garnet says of input it refuses before a request reaches the services: an
option out of its bounds, a console line it cannot read, a mention that names no
member."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.escape import plain

# ---- an option's bounds (both adapters and buttons) ----------------------------------


def out_of_bounds(option: str, bound: str, shown: str) -> str:
    return f"`{option}` is {bound}, not {shown}." if shown else f"`{option}` has {bound}."


def file_bound(most_bytes: float) -> str:
    return f"a file of at most {most_bytes / 1024:g} KB"


def file_size(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def people_bound(most: int) -> str:
    return f"at most {most} people at once"


def unstorable(option: str) -> str:
    return (f"`{option}` holds a broken character (half of an emoji, or a NUL) that "
            "garnet cannot store. Type it again without it.")


def most_characters(most: float) -> str:
    return f"at most {most:g} characters"


def least_characters(least: float) -> str:
    return f"at least {least:g} characters"


def number_bound(low: float | None, high: float | None,
                 shown: Callable[[float | None], str] | None = None) -> str:
    say = shown or number
    if low is not None and high is not None:
        return f"from {say(low)} to {say(high)}"
    return f"at least {say(low)}" if low is not None else f"at most {say(high)}"


def number_out_of_bounds(option: str, low: float | None, high: float | None,
                         value: float, seconds: bool = False) -> str:
    """A number outside an option's bounds: the bounds (as times for seconds: 1 s to
    24 h), and the number typed when a player can read it back (not 1e+23 or nan)."""
    say = duration if seconds else number
    shown = say(value)
    bound = number_bound(low, high, say)
    return f"`{option}` is {bound}, not {shown}." if shown else f"`{option}` is {bound}."


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
    parts = [f"{number(hours)} h" if hours else "", f"{minutes} min" if minutes else "",
             f"{secs} s" if secs else ""]
    return ("-" if whole < 0 else "") + " ".join(p for p in parts if p)


UNREADABLE = 1e15  # a number with more digits than anyone reads back


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


def group_usage(group: str, subs: Sequence[str], example: str, usage: str,
                hosts: Sequence[str] = ()) -> str:
    """``hosts``: the hosts' commands of the group, typed under ``/host``."""
    text = f"`/{group} {'|'.join(subs)}`, e.g. `/{example}{' ' + usage if usage else ''}`"
    return text + (f"; hosts: `/host {group} {'|'.join(hosts)}`" if hosts else "")


def under_host(typed: str) -> str:
    return f"`/{typed}` is a host's command: type `/host {typed}`."


def unknown_command(name: str, commands: Sequence[str]) -> str:
    return f"Unknown command /{name}. Commands: " + ", ".join(f"/{c}" for c in commands) + "."


def takes(options: Sequence[str]) -> str:
    return f"it takes {', '.join(options)}" if options else "it takes no options"


def cannot_place(command: str, words: str, options: Sequence[str]) -> str:
    return f"`/{command}` cannot read '{words}'; write `option:value` ({takes(options)})."


def not_a_file(option: str, path: str) -> str:
    return f"`{option}` is the path of a file; cannot read '{path}'."


def names_a_person(option: str) -> str:
    return f"`{option}` names a person: `{option}:@name`."


def names_people(option: str) -> str:
    return f"`{option}` names people: `{option}:@a @b @c`."


def names_a_channel(option: str) -> str:
    return f"`{option}` names a channel: `{option}:#name`."


def one_of(option: str, values: Sequence[str], text: str) -> str:
    return f"`{option}` is one of {', '.join(values)}, not '{text}'."


def repeated_option(option: str, several: str | None) -> str:
    """``several``: the command's option of several people, when ``option`` is of one."""
    hint = f" To name several people, use `{several}:@a @b`." if several else ""
    return f"`{option}:` is given more than once; give each option once.{hint}"


def unknown_setting(option: str, word: str, settings: Sequence[str]) -> str:
    return (f"`{option}:` takes name=value pairs of {', '.join(settings)} "
            f"(`{option}:{settings[0]}=…`), not '{plain(word)}'.")


def unknown_options(unknown: Sequence[str], options: Sequence[str]) -> str:
    names = " or ".join(f"`{u}:`" for u in unknown)
    return f"There is no option {names} here; {takes(options)}."


def needs_option(command: str, option: str, description: str) -> str:
    said = description.strip().rstrip(".")
    return f"`/{command}` needs `{option}:` — {said[:1].lower()}{said[1:]}."


def not_a_time(text: str) -> str:
    return f"'{text}' is not a time; write e.g. `~ wait 65s`."


def server_name() -> str:
    return "A server's name is letters, digits, `-` and `_` (at most 32)."


def unknown_directive(text: str) -> str:
    return (f"There is no directive '~ {text}'; the directives are wait, host, channel, "
            "server, role, deny, allow, delete, disconnect, reconnect and leave.")


# ---- Discord: mentions, members, channels ----------------------------------------------


def takes_mentions(option: str) -> str:
    return f"`{option}` takes mentions: type @ and pick each person (`{option}:@a @b @c`)."


def too_many_people(option: str, most: int) -> str:
    return f"`{option}` has at most {most} people at once."


def servers_only() -> str:
    return "garnet works in server channels only."


def not_a_member(user_id: str) -> str:
    return f"<@{user_id}> is not a member of this server."


def is_a_bot(name: str) -> str:
    return f"{name} is a bot; bots do not play."


def thread_in_text_channel() -> str:
    return "`thread:true` works in a text channel (not in a thread)."


def control_gone(what: str) -> str:
    """A button or menu pressed whose id no version of garnet can read any more."""
    return f"This {what} no longer does anything."
