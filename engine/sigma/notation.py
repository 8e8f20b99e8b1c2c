"""Moves as players type them (docs/rules/sigma-escape.md §5 and issue #15 item 3).

A move is ``CARD SIDE.ARROW`` (``T4 7.2``): a card of the mover's hand by name (any
case), a usable side of the mover by number, an arrow of the card by number (its order
in the deck). ``CARD SIDE`` is accepted when exactly one arrow of the card gives a legal
placement on that side. The canonical form is always ``CARD SIDE.ARROW`` with the
card's name spelled as in the deck. ``pass`` is read only where the engine passed by
itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.game import ChoiceWords, GameOverError, MoveError, NotAMove
from engine.sigma import rules
from engine.sigma.state import SEAT_NAMES, SigmaState

MOVE_HELP = (
    "type a card of your hand, the number of a side, a dot and the number of the "
    "card's arrow, e.g. `T4 7.2` (`T4 7` when only one arrow fits)"
)
PASS_TEXT = "pass"
# The menus of a player's turn: a card, then its placements (``SigmaEscape.choices``).
CHOICE_WORDS = ChoiceWords(
    group="card",
    choose_group="choose a card to place",
    choice="placement",
    verb="Place",
    hint="the side's number is on the board, the arrow's under the card.",
    typed="{group} SIDE.ARROW",
)
_DIRS = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
_MOVE = re.compile(r"(\S+)\s+(\d{1,4})(?:\s*\.\s*(\d{1,4}))?")


@dataclass(frozen=True, order=True)
class Move:
    """A placement (card name as in the deck, side and arrow numbers from 1) or, with
    an empty ``card``, a pass read where the engine passed by itself."""

    card: str
    side: int = 0
    arrow: int = 0

    @property
    def is_pass(self) -> bool:
        return not self.card


PASS = Move("")


def notation(move: Move) -> str:
    return PASS_TEXT if move.is_pass else f"{move.card} {move.side}.{move.arrow}"


def _normalise(text: str) -> str:
    return " ".join(text.split())


def parse(state: SigmaState, text: str) -> Move:
    """The legal move ``text`` names, or an error saying exactly what is wrong."""
    cleaned = _normalise(text)
    if cleaned.casefold() == PASS_TEXT:
        return check_pass(state)
    match = _MOVE.fullmatch(cleaned)
    if match is None:
        raise NotAMove(f"'{text.strip()}' is not a move: {MOVE_HELP}", text.strip()).because(
            "sigma.not_a_move", text=text.strip())
    name, side_text, arrow_text = match.groups()
    over = rules.outcome(state)
    if over is not None:
        raise GameOverError(f"the game is over: {over.reason}", cleaned)
    seat = state.turn
    index = card_index(state, name)
    card = state.hand_card(seat, index)
    side = int(side_text)
    sides = rules.sides(state)
    if not 1 <= side <= len(sides):
        raise MoveError(
            f"there is no usable side {side} (there are {len(sides)})", side_text
        ).because("sigma.no_side", side=side, sides=len(sides))
    if arrow_text is not None:
        move = Move(card.name, side, int(arrow_text))
        check(state, move)
        return move
    fitting = [a for a in range(1, len(card.arrows) + 1)
               if rules.problem(state, seat, index, sides[side - 1], a) is None]
    if len(fitting) == 1:
        return Move(card.name, side, fitting[0])
    if fitting:
        choices = ", ".join(f"{card.name} {side}.{a}" for a in fitting)
        raise MoveError(f"{card.name} {side} fits more than one way: say which arrow "
                        f"({choices})", cleaned).because(
            "sigma.which_arrow", card=card.name, side=side, choices=choices)
    why = "; ".join(
        f"{card.name} {side}.{a} {rules.problem(state, seat, index, sides[side - 1], a)}"
        for a in range(1, len(card.arrows) + 1)
    )
    raise MoveError(f"no arrow of {card.name} fits side {side}: {why}", cleaned)


def card_index(state: SigmaState, name: str) -> int:
    """Index in the mover's hand of the card ``name`` (any case) with a copy left."""
    seat = state.turn
    deck = state.deck
    index = deck.card(seat, name)
    held = ", ".join(dict.fromkeys(state.hand_names(seat))) or "no cards"
    who = SEAT_NAMES[seat]
    if index is None:
        known = deck.card(1 - seat, name) is not None or any(
            p.card.name.casefold() == name.casefold() for p in deck.presets
        )
        error = MoveError if known else NotAMove
        raise error(f"no such card in your hand: {who} has no card '{name}' (in hand: {held})",
                    name)
    if not state.board.hands[seat][index]:
        card = deck.hands[seat][index][0].name
        raise MoveError(f"no such card in your hand: {who} has no {card} left (in hand: {held})",
                        name)
    return index


def check(state: SigmaState, move: Move) -> None:
    """Raise MoveError unless ``move`` is a legal placement of the seat to move."""
    over = rules.outcome(state)
    if over is not None:
        raise GameOverError(f"the game is over: {over.reason}", notation(move))
    seat = state.turn
    index = card_index(state, move.card)
    card = state.hand_card(seat, index)
    if card.name != move.card:
        raise MoveError(f"'{move.card}' is not spelled as in the deck ({card.name})", move.card)
    sides = rules.sides(state)
    if not 1 <= move.side <= len(sides):
        raise MoveError(f"there is no usable side {move.side} (there are {len(sides)})",
                        str(move.side)).because("sigma.no_side", side=move.side,
                                                sides=len(sides))
    if not 1 <= move.arrow <= len(card.arrows):
        count = len(card.arrows)
        raise MoveError(
            f"{card.name} has no arrow {move.arrow} (it has {count} arrow"
            f"{'s' if count != 1 else ''})", str(move.arrow)).because(
            "sigma.no_arrow", card=card.name, arrow=move.arrow, count=count)
    why = rules.problem(state, seat, index, sides[move.side - 1], move.arrow)
    if why is not None:
        raise MoveError(f"{notation(move)} {why}", notation(move))


def check_pass(state: SigmaState) -> Move:
    if state.passes_read < state.passes:
        return PASS
    over = rules.outcome(state)
    if over is not None:
        raise GameOverError(f"the game is over: {over.reason}", PASS_TEXT)
    who = SEAT_NAMES[state.turn]
    raise MoveError(
        f"{who} cannot pass: {who} has a legal placement and must make it "
        "(a pass happens by itself when there is none)", PASS_TEXT).because(
        "sigma.cannot_pass", seat=who)


def card_description(placements: int, left: int) -> str:
    """A card in the menu of cards: its legal placements and the copies in hand."""
    copies = f" · {left} in hand" if left > 1 else ""
    return f"{placements} placement{'s' if placements != 1 else ''}{copies}"


def place_description(side: int, row: int, col: int, direction: str, arrow: int) -> str:
    """A placement in a card's menu: where its side is, and its arrow."""
    return (f"side {side} ({_DIRS.get(direction, direction)} of cell {row},{col}), "
            f"arrow {arrow}")
