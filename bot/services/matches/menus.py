"""Select menus on Discord for a game that offers ``choices`` (``Game.choices``; today
Sigma Escape: a card, then its placements): the board of a player's turn carries a
menu of their groups; choosing one shows that player (only) the group's choices, 25 to
a menu in up to five menus; choosing one plays it as ``/move`` would.

The menus are built here; ``picks`` answers them. A menu names the position it was
made for (``stamp``: the ply and a digest of the state), so one left from an earlier
position is refused, also after a restart.
"""

from __future__ import annotations

import hashlib
import json

from bot.core import buttons as ids
from bot.core.messages import AI_PREFIX, Choice, Select
from bot.services.matches.live import LiveMatch
from bot.texts import menus as texts
from bot.texts.game_errors import colour
from engine.game import ChoiceGroup, ChoiceWords

PER_MENU = 25  # Discord's limit of choices in one select menu
MENUS = 5  # and of rows in one message


def stamp(live: LiveMatch) -> str:
    digest = hashlib.sha1(json.dumps(live.game.to_json(live.state), sort_keys=True)
                          .encode()).hexdigest()[:8]
    return f"{live.ply}-{digest}"


def words(live: LiveMatch) -> ChoiceWords | None:
    """How the game's menus speak, or None for a game without menus."""
    return live.game.choice_words


def groups(live: LiveMatch) -> tuple[ChoiceGroup, ...]:
    """The game's choices for the player to move (none for a game without menus)."""
    return live.game.choices(live.state) or ()


def card_menu(live: LiveMatch) -> tuple[Select, ...]:
    """The menu of the groups of the player to move (none in games without menus, at
    the end, or on the computer's turn)."""
    seat = live.to_move
    said = words(live)
    if said is None or seat is None or live.finished:
        return ()
    if live.users[seat].startswith(AI_PREFIX):
        return ()
    offered = groups(live)
    if not offered:
        return ()
    choices = tuple(Choice(group.label, group.label, group.description)
                    for group in offered)
    placeholder = texts.group_placeholder(colour(live.game.seat_name(live.state, seat)),
                                          live.names[seat], said)
    return (Select(ids.card_menu(live.number, stamp(live)), placeholder[:150],
                   choices[:PER_MENU]),)
