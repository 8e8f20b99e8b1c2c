"""Button ids, written and read in one place.

A button stands for a command with fixed options: pressing "Accept" under match 12
is ``/accept match:12``, "Next ▶" under a leaderboard is ``/leaderboard … page:3``.
Its ``custom_id`` encodes that command, so the bot needs no memory of the message:
Discord keeps the id across restarts, and a press of a button posted by any earlier
version must keep working. Every format ever posted is decoded here; change one
only by adding a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PREFIX = "garnet"
MAX_LENGTH = 100  # Discord's limit for a custom_id


@dataclass(frozen=True)
class ButtonCall:
    """The command a button stands for, with its options in the order shown."""

    command: str
    options: dict[str, Any] = field(default_factory=dict)
    # True: a page of something shown to the presser, turned in place (the message
    # is edited); False: an action whose result is said in the channel.
    turns_page: bool = False
    # True: the buttons stay until the request is settled for everyone (a challenge
    # to several players stays open until the last one accepts).
    waits_for_all: bool = False
    # A select menu's: the option its chosen value fills.
    choice: str = "choice"


def _id(*parts: object) -> str:
    text = ":".join([PREFIX, *(str(p) for p in parts)])
    if len(text) > MAX_LENGTH:
        raise ValueError(f"custom_id longer than {MAX_LENGTH}: {text!r}")
    return text


def accept(match: int) -> str:
    return _id("accept", match)


def decline(match: int) -> str:
    return _id("decline", match)


def first(match: int, user_id: str) -> str:
    return _id("first", match, user_id)


def draw(match: int) -> str:
    return _id("draw", match)


def rematch(match: int) -> str:
    return _id("rematch", match)


def nominate(event: int, user_id: str) -> str:
    """The nominator picks ``user_id`` as the opponent (event by its number)."""
    return _id("nominate", event, user_id)


def tournament_join(number: int) -> str:
    return _id("tjoin", number)


def tournament_checkin(number: int) -> str:
    return _id("tcheck", number)


def leaderboard(by: str, game: str | None, scope: str, page: int) -> str:
    return _id("lb", by, game or "-", scope, page)


def ledger(user_id: str, scope: str, page: int) -> str:
    return _id("ledger", user_id, scope, page)


def history(user_id: str, page: int, game: str | None = None) -> str:
    return _id("hist", user_id, page, *([game] if game else []))


def card_menu(match: int, stamp: str) -> str:
    """The menu of the mover's cards under a board (Sigma Escape); ``stamp`` names the
    position it was made for, so a menu of an earlier position is refused."""
    return _id("sc", match, stamp)


def place_menu(match: int, stamp: str, card: str, row: int) -> str:
    """A menu of ``card``'s placements (one of several rows of 25)."""
    return _id("sp", match, stamp, card, row)


def nominate_menu(event: int, row: int) -> str:
    """A menu of the players the nominator may pick (one of several rows of 25): for
    more than a message's buttons hold."""
    return _id("sn", event, row)


_NUMBER = r"[0-9]+"
_WORD = r"[^:]+"
_FORMATS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(rf"garnet:(?P<action>accept|decline):(?P<match>{_NUMBER})"),
     lambda m: ButtonCall(m["action"], {"match": int(m["match"])},
                          waits_for_all=m["action"] == "accept")),
    (re.compile(rf"garnet:(?P<action>draw|rematch):(?P<match>{_NUMBER})"),
     lambda m: ButtonCall(m["action"], {"match": int(m["match"])})),
    (re.compile(rf"garnet:first:(?P<match>{_NUMBER}):(?P<user>{_WORD})"),
     lambda m: ButtonCall("first", {"player": m["user"], "match": int(m["match"])})),
    (re.compile(rf"garnet:nominate:(?P<event>{_NUMBER}):(?P<user>{_WORD})"),
     lambda m: ButtonCall("nomination pick", {"opponent": m["user"], "event": m["event"]})),
    (re.compile(rf"garnet:(?P<action>tjoin|tcheck):(?P<number>{_NUMBER})"),
     lambda m: ButtonCall("tournament join" if m["action"] == "tjoin" else "tournament checkin",
                          {"tournament": m["number"]}, waits_for_all=True)),
    (re.compile(rf"garnet:lb:(?P<by>{_WORD}):(?P<game>{_WORD}):(?P<scope>{_WORD}):"
                rf"(?P<page>{_NUMBER})"),
     lambda m: ButtonCall("leaderboard", {
         "by": m["by"], **({"game": m["game"]} if m["game"] != "-" else {}),
         "event": m["scope"], "page": int(m["page"])}, turns_page=True)),
    (re.compile(rf"garnet:ledger:(?P<user>{_WORD}):(?P<scope>{_WORD}):(?P<page>{_NUMBER})"),
     lambda m: ButtonCall("ledger", {"player": m["user"], "event": m["scope"],
                                     "page": int(m["page"])}, turns_page=True)),
    (re.compile(rf"garnet:hist:(?P<user>{_WORD}):(?P<page>{_NUMBER})(?::(?P<game>{_WORD}))?"),
     lambda m: ButtonCall("history", {"player": m["user"], "page": int(m["page"]),
                                      **({"game": m["game"]} if m["game"] else {})},
                          turns_page=True)),
]

_FORMATS += [
    (re.compile(rf"garnet:sc:(?P<match>{_NUMBER}):(?P<stamp>{_WORD})"),
     lambda m: ButtonCall("pick card", {"match": int(m["match"]), "stamp": m["stamp"]})),
    (re.compile(rf"garnet:sp:(?P<match>{_NUMBER}):(?P<stamp>{_WORD}):(?P<card>{_WORD}):"
                rf"(?P<row>{_NUMBER})"),
     lambda m: ButtonCall("pick place", {"match": int(m["match"]), "stamp": m["stamp"]})),
    (re.compile(rf"garnet:sn:(?P<event>{_NUMBER}):(?P<row>{_NUMBER})"),
     lambda m: ButtonCall("nomination pick", {"event": m["event"]}, choice="opponent")),
]

#: what Discord's dynamic items match: any button id of ours (``decode`` says which)
TEMPLATE = r"garnet:(?P<rest>(?!s[cpn]:).+)"
#: and any select menu id of ours
MENU_TEMPLATE = r"garnet:(?P<rest>s[cpn]:.+)"


def decode(custom_id: str) -> ButtonCall | None:
    """The command a button id stands for, or None if it is no id of ours."""
    for pattern, build in _FORMATS:
        found = pattern.fullmatch(custom_id)
        if found:
            call: ButtonCall = build(found)
            return call
    return None
