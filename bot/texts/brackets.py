"""A bracket's match labels in words, where players see them: ``W2-1`` is the first
semi-final of a single elimination of eight, ``L3-2`` a match of the losers' bracket,
``3P`` the match for third place, ``GF`` the grand final, ``GF2`` its replay."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.texts.language import N_, _, n_, text

_LABEL = re.compile(r"^([WL])(\d+)-(\d+)$")
_SINGLE_LATE = {0: N_("the final"), 1: N_("a semi-final"), 2: N_("a quarter-final")}
_SINGLE_LATE_PLURAL = {0: N_("the final"), 1: N_("the semi-finals"), 2: N_("the quarter-finals")}


@text
def _words(label: str, depth: int, double: bool, plural: bool) -> str:
    """``depth``: the winners' bracket's rounds."""
    if label == "3P":
        return _("the match for third place")
    if label == "GF":
        return _("the grand final")
    if label == "GF2":
        return _("the grand final's replay (the losers' side won the first)")
    found = _LABEL.match(label)
    if found is None:
        return label
    side, column = found.group(1), int(found.group(2))
    if side == "L":
        return _("round {column} of the losers' bracket (players with one loss)").format(
                   column=column)
    if double:
        return (_("the winners' final") if column == depth
                else _("round {column} of the winners' bracket").format(column=column))
    late = _SINGLE_LATE_PLURAL if plural else _SINGLE_LATE
    if depth - column in late:
        return _(late[depth - column])
    return _("round {column} of the bracket").format(column=column)


@text
def named(*, label: str, depth: int, double: bool) -> str:
    """A match's label with its meaning: "W2-1 (a semi-final)"."""
    return f"{label} ({_words(label, depth, double, plural=False)})"


@text
def column(*, label: str, depth: int, double: bool) -> str:
    """What a bracket column's matches are, after its heading on the web pages: "the
    semi-finals", "the winners' final"; "" where the heading says it already (a round
    number)."""
    words = _words(label, depth, double, plural=True)
    return "" if words == label or words.startswith("round ") else words


@text
def legend(*, labels: Sequence[str], depth: int, double: bool) -> str:
    """One line explaining the labels of a round's matches, each kind once:
    "W2-1, W2-2: the semi-finals · 3P: the match for third place"."""
    groups: dict[str, list[str]] = {}
    for label in labels:
        found = _LABEL.match(label)
        groups.setdefault(found.group(1) + found.group(2) if found else label, []).append(label)
    parts = []
    for members in groups.values():
        shown = (", ".join(members) if len(members) <= 2
                 else _("{first} to {last}").format(first=members[0], last=members[-1]))
        parts.append(f"{shown}: {_words(members[0], depth, double, len(members) > 1)}")
    return "_" + " · ".join(parts) + "._"


# The words on a tournament's image (``bot/services/tournaments/image.py``): drawn, not
# posted as text, so a player's name is not escaped.

@text
def image_section(*, section: str) -> str:
    """A part of an elimination bracket's image: "W", "L" or "F"."""
    if section == "W":
        return _("Winners' bracket")
    if section == "L":
        return _("Losers' bracket")
    return _("Grand final")


@text
def image_bye() -> str:
    """The empty side of a match a player goes through without playing."""
    return _("bye")


@text
def image_out(*, player: str) -> str:
    """A player in the standings who left the tournament."""
    return _("{player} (out)").format(player=player)


@text
def image_player_heading() -> str:
    """The standings' heading over the players."""
    return _("Player")


@text
def image_points_heading() -> str:
    """The standings' heading over the points (short: a narrow column)."""
    return _("Pts")


@text
def image_subtitle(*, done: int, rounds: int, winner: str | None) -> str:
    """Under an image's title: where the tournament stands."""
    if winner is not None:
        return n_("final: {player} wins, after {n} round", "final: {player} wins, after {n} "
                  "rounds", done).format(player=winner, n=done)
    if done:
        return _("after round {done} of {rounds}").format(done=done, rounds=rounds)
    return _("before round 1")
