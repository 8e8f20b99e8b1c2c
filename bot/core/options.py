"""Reading command options the same way on every adapter.

Discord hands us typed values and the console hands us strings; both end up here
so that `turn:45 banks:12 clock:off tie:draw` means one thing everywhere.
"""

from __future__ import annotations

import re
from typing import Any

from bot.core.timecontrol import TimeControl
from engine.game import Game, OptionError

OPTIONS_TEXT = 100  # characters of a command's ``options:`` text
_OPTION = re.compile(r"\s*([a-z][a-z0-9_-]*)\s*[:=]\s*([^\s,;]+)\s*[,;]?|\s*([^\s,;:=]+)\s*[,;]?")

TRUE = {"yes", "y", "true", "on", "1"}
FALSE = {"no", "n", "false", "off", "0"}


def as_bool(name: str, value: str | bool | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    text = value.strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise OptionError(f"`{name}` is yes or no, not '{value}'")


def as_number(name: str, value: str | float | int | None) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, int | float):
        return float(value)
    text = value.strip().lower().removesuffix("s").strip()
    try:
        return float(text)
    except ValueError:
        raise OptionError(f"`{name}` is a number of seconds, not '{value}'") from None


def as_int(name: str, value: str | int | None) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    try:
        return int(value.strip())
    except ValueError:
        raise OptionError(f"`{name}` is a whole number, not '{value}'") from None


def time_control(
    clock: str | bool | None = None,
    turn: str | float | None = None,
    banks: str | int | None = None,
    bank: str | float | None = None,
    reminders: str | None = None,
) -> TimeControl:
    """The Death Match clock unless told otherwise; ``clock:off`` switches it off."""
    if not as_bool("clock", clock, True):
        return TimeControl.off()
    banks_n = as_int("banks", banks)
    return TimeControl.build(
        turn=as_number("turn", turn),
        banks=banks_n,
        bank=as_number("bank", bank),
        reminders=reminders or None,
    )


def read_game_options(game: Game[Any, Any], text: str | None,
                      raw: tuple[str, ...] = ()) -> dict[str, Any]:
    """A command's ``options:`` text (``tie:draw ply-cap:200``; ``=`` for ``:``, commas
    or spaces between) read against the options ``game`` declares: each value checked
    and bounded by its ``OptionSpec``; a bare word is the option whose choices hold it
    (``draw``). Names in ``raw`` are returned unchecked (``deck``: a server's own deck is
    resolved by the caller). OptionError names what is wrong and what is offered."""
    text = (text or "").strip().strip("\"'“”").lower()  # quoted as in a shell
    if len(text) > OPTIONS_TEXT:
        raise OptionError(f"`options` is at most {OPTIONS_TEXT} characters")
    found: dict[str, Any] = {}
    for match in _OPTION.finditer(text):
        name, value, bare = match.groups()
        if bare is not None:
            name = next((spec.name for spec in game.option_specs
                         if spec.choices and (bare in spec.choices
                                              or bare in dict(spec.aliases))), None)
            if name is None:
                offered = ", ".join(f"{s.name}:…" for s in game.option_specs) or "none"
                raise OptionError(f"{game.title} has no option '{bare}' (options: {offered})")
            value = bare
        spec = game.option_spec(name)
        if spec is None:
            offered = ", ".join(s.name for s in game.option_specs) or "none"
            raise OptionError(f"{game.title} has no option '{name}' (options: {offered})")
        if name in found:
            raise OptionError(f"option '{name}' is given twice")
        found[name] = value if name in raw else spec.read(value)
    return found


def suggest_game_options(game: Game[Any, Any], typed: str, limit: int = 25) -> list[str]:
    """Autocomplete of ``options:``: what was typed, completed by one more ``name:value``
    the game declares (its choices, or a number's default and bounds), an option not
    named yet; the word being typed narrows them."""
    typed = typed[:OPTIONS_TEXT].lower()
    done, _, word = typed.rpartition(" ")
    named = {m.group(1) for m in _OPTION.finditer(done) if m.group(1)}
    head = f"{done} " if done else ""
    found = [f"{head}{spec.name}:{value}" for spec in game.option_specs
             if spec.name not in named for value in spec.values()
             if f"{spec.name}:{value}".startswith(word)]
    return [text for text in found if len(text) <= OPTIONS_TEXT][:limit]


NUMBER_DIGITS = 9  # the longest number of a record (an event, a tournament) as typed


def record_number(text: str) -> int | None:
    """The number a typed name means (``12``, ``#12``, ``#١٢``), or None when it names
    by name: decimal digits only (``²`` and ``①`` are digits to ``str.isdigit`` but no
    number to ``int``), and few enough for any database's integer."""
    digits = text.strip().lstrip("#")
    if digits.isdecimal() and len(digits) <= NUMBER_DIGITS:
        return int(digits)
    return None
