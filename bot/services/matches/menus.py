"""Select menus for Sigma Escape on Discord: the board of a player's turn carries a
menu of their cards; choosing one shows that player (only) the card's placements, 25
to a menu in up to five menus; choosing one plays it as ``/move`` would.

The menus are built here; ``picks`` answers them. A menu names the position it was
made for (``stamp``: the ply and a digest of the state), so one left from an earlier
position is refused, also after a restart.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from bot.core import buttons as ids
from bot.core.messages import Choice, Select
from bot.services.matches.live import LiveMatch
from bot.texts import menus as texts

GAME = "sigma"
PER_MENU = 25  # Discord's limit of choices in one select menu
MENUS = 5  # and of rows in one message


def stamp(live: LiveMatch) -> str:
    digest = hashlib.sha1(json.dumps(live.game.to_json(live.state), sort_keys=True)
                          .encode()).hexdigest()[:8]
    return f"{live.ply}-{digest}"


def legal(live: LiveMatch) -> list[Any]:
    return live.game.legal_moves(live.state)


def card_menu(live: LiveMatch) -> tuple[Select, ...]:
    """The menu of the cards of the player to move (none in other games, at the end,
    or on the computer's turn)."""
    seat = live.to_move
    if live.game.key != GAME or seat is None or live.finished:
        return ()
    if live.users[seat].startswith("garnet-ai:"):
        return ()
    counts = Counter(move.card for move in legal(live))
    if not counts:
        return ()
    left = Counter(live.state.hand_names(seat))
    choices = []
    for card in dict.fromkeys(live.state.hand_names(seat)):
        if counts[card]:
            label, description = texts.card_choice(card, counts[card], left[card])
            choices.append(Choice(label, card, description))
    placeholder = texts.card_placeholder(live.game.seat_name(live.state, seat),
                                         live.names[seat])
    return (Select(ids.card_menu(live.number, stamp(live)), placeholder[:150],
                   tuple(choices[:PER_MENU])),)
