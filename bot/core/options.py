"""Reading command options the same way on every adapter.

Discord hands us typed values and the console hands us strings; both end up here
so that `turn:45 banks:12 clock:off tie:draw` means one thing everywhere.
"""

from __future__ import annotations

from typing import Any

from bot.core.timecontrol import TimeControl
from engine.game import OptionError

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


def game_options(tie: str | None = None, **more: Any) -> dict[str, Any]:
    """Options for the game itself (the engine checks them)."""
    options: dict[str, Any] = {}
    if tie:
        options["tie"] = tie
    for key, value in more.items():
        if value is not None and value != "":
            options[key] = value
    return options


NUMBER_DIGITS = 9  # the longest number of a record (an event, a tournament) as typed


def record_number(text: str) -> int | None:
    """The number a typed name means (``12``, ``#12``, ``#١٢``), or None when it names
    by name: decimal digits only (``²`` and ``①`` are digits to ``str.isdigit`` but no
    number to ``int``), and few enough for any database's integer."""
    digits = text.strip().lstrip("#")
    if digits.isdecimal() and len(digits) <= NUMBER_DIGITS:
        return int(digits)
    return None
