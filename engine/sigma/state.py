"""A Sigma Escape position: the deck, the cards laid in order, whose turn, passes.

The state is an immutable value. Everything else (which card shows on each cell, the
main group, its blank spaces, the usable sides, the cards left in each hand) follows
from the deck's presets and the cards laid, in order; it is worked out once per state
on first use (``board``) and never stored in the JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from engine.game import JSON, PositionError
from engine.sigma.deck import (
    BLACK,
    KEPT_ARROWS,
    OPEN_SIDES,
    WHITE,
    Card,
    Deck,
    DeckError,
    deck_from_data,
)
from engine.sigma.geometry import NOTHING, Cell, neighbours, step

SEAT_NAMES = ("White", "Black")


@dataclass(frozen=True)
class Placed:
    """A card laid from a hand: ``seat``'s card ``card`` turned ``turns`` quarter turns
    clockwise, its box's top-left cell (after turning) on ``at``; ``move`` is the
    canonical text it was played with ("" for hand-built positions)."""

    seat: int
    card: str
    turns: int
    at: Cell
    move: str = ""


@dataclass(frozen=True)
class Layer:
    """One card on the table, preset or laid: its colour, coloured cells and arrows."""

    name: str
    colour: int
    cells: tuple[Cell, ...]
    arrows: tuple[tuple[Cell, int], ...]
    seat: int | None  # None for a preset


@dataclass(frozen=True)
class Board:
    """What the table shows: ``layers`` in the order laid (presets first); ``top`` the
    layer showing on each coloured cell; ``colour`` its colour; ``main`` White's main
    group; ``blanks`` its blank spaces; ``hands`` the cards left, per seat, as counts in
    deck order; ``arrows`` the arrows still on the table, per colour, sorted (an arrow
    is gone once a card covers its cell; under ``kept-arrows`` only a card of the other
    colour); ``rules`` the deck's rules variants."""

    layers: tuple[Layer, ...]
    top: dict[Cell, int]
    colour: dict[Cell, int]
    main: frozenset[Cell]
    blanks: frozenset[Cell]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    arrows: tuple[tuple[tuple[Cell, int], ...], tuple[tuple[Cell, int], ...]]
    rules: frozenset[str]

    def sides(self, seat: int) -> list[tuple[Cell, int]]:
        """The usable sides of ``seat``, in numbering order: by row, column, N E S W.
        Under ``open-sides`` only those facing a cell no card covers."""
        main = self.main
        colour = self.colour
        open_only = OPEN_SIDES in self.rules
        return [(cell, d) for cell, d in self.arrows[seat]
                if (seat == BLACK or cell in main)
                and not (open_only and step(cell, d) in colour)]


@dataclass(frozen=True)
class SigmaState:
    """``turn`` is the seat to place next (meaningful while the game runs);
    ``passes`` counts the automatic passes since the last placement (or the start),
    two of which end the game; ``passes_read`` how many of them a replay has read as
    ``pass`` texts (each may be written or left out)."""

    deck: Deck
    placed: tuple[Placed, ...] = ()
    turn: int = WHITE
    passes: int = 0
    passes_read: int = 0

    @cached_property
    def board(self) -> Board:
        layers = [
            Layer(p.card.name, p.card.colour, *p.card.laid(0, p.at), None)
            for p in self.deck.presets
        ]
        hands = [[n for _, n in hand] for hand in self.deck.hands]
        for placed in self.placed:
            index = self.deck.card(placed.seat, placed.card)
            assert index is not None
            card = self.deck.hands[placed.seat][index][0]
            hands[placed.seat][index] -= 1
            layers.append(Layer(card.name, card.colour, *card.laid(placed.turns, placed.at),
                                placed.seat))
        top: dict[Cell, int] = {}
        colour: dict[Cell, int] = {}
        kept = KEPT_ARROWS in self.deck.rules
        alive: dict[Cell, list[tuple[int, int]]] = {}  # cell: (colour, direction)
        for index, layer in enumerate(layers):
            for cell in layer.cells:
                top[cell] = index
                colour[cell] = layer.colour
                if cell in alive:
                    alive[cell] = [a for a in alive[cell] if kept and a[0] == layer.colour]
            for cell, d in layer.arrows:
                alive.setdefault(cell, []).append((layer.colour, d))
        # An edge holds one arrow of a colour (two could meet only under kept-arrows).
        arrows: tuple[set[tuple[Cell, int]], set[tuple[Cell, int]]] = (set(), set())
        for cell, marks in alive.items():
            for seat, d in marks:
                arrows[seat].add((cell, d))
        main = {NOTHING}
        todo = [NOTHING]
        blanks: set[Cell] = set()
        while todo:
            for nb in neighbours(todo.pop()):
                if nb in main:
                    continue
                shade = colour.get(nb)
                if shade is None:
                    blanks.add(nb)
                elif shade == WHITE:
                    main.add(nb)
                    todo.append(nb)
        return Board(tuple(layers), top, colour, frozenset(main), frozenset(blanks),
                     (tuple(hands[0]), tuple(hands[1])),
                     (tuple(sorted(arrows[0])), tuple(sorted(arrows[1]))), self.deck.rules)

    @property
    def moves_played(self) -> int:
        """Cards placed and passes: a pass lies between two cards of one seat (or before
        a first card of Black's, White moving first), and then the passes since the
        last card."""
        placed = self.placed
        between = sum(1 for a, b in pairwise(placed)
                      if a.seat == b.seat)
        first = 1 if placed and placed[0].seat != WHITE else 0
        return len(placed) + first + between + self.passes

    @property
    def last(self) -> Placed | None:
        return self.placed[-1] if self.placed else None

    def hand_card(self, seat: int, index: int) -> Card:
        return self.deck.hands[seat][index][0]

    def hand_names(self, seat: int) -> list[str]:
        """One name per copy left in ``seat``'s hand, in deck order."""
        return [
            card.name
            for (card, _), left in zip(self.deck.hands[seat], self.board.hands[seat], strict=True)
            for _ in range(left)
        ]

    # ---- JSON -----------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "deck": self.deck.to_data(),
            "placed": [
                {"seat": p.seat, "card": p.card, "turns": p.turns, "at": list(p.at),
                 "move": p.move}
                for p in self.placed
            ],
            "turn": self.turn,
            "passes": self.passes,
            "passes_read": self.passes_read,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SigmaState:
        if not isinstance(data, Mapping):
            raise PositionError("a Sigma Escape state is a JSON object")
        unknown = set(data) - {"deck", "placed", "turn", "passes", "passes_read"}
        if unknown:
            raise PositionError(f"unknown field '{sorted(unknown)[0]}' in a Sigma Escape state")
        try:
            deck = deck_from_data(data.get("deck"), where="the state's deck")
        except DeckError as exc:
            raise PositionError(str(exc)) from None
        items = data.get("placed", [])
        if not isinstance(items, list):
            raise PositionError("'placed' is a list of cards laid")
        left = [[n for _, n in hand] for hand in deck.hands]
        placed = []
        for number, item in enumerate(items, start=1):
            where = f"placed card {number}"
            if not isinstance(item, Mapping) or set(item) - {"seat", "card", "turns", "at",
                                                             "move"}:
                raise PositionError(f"{where}: an object with seat, card, turns, at, move")
            seat = item.get("seat")
            if seat not in (0, 1) or isinstance(seat, bool):
                raise PositionError(f"{where}: 'seat' is 0 or 1, not {seat!r}")
            name = item.get("card")
            index = deck.card(seat, name) if isinstance(name, str) else None
            if index is None or deck.hands[seat][index][0].name != name:
                raise PositionError(f"{where}: {SEAT_NAMES[seat]} has no card {name!r}")
            left[seat][index] -= 1
            if left[seat][index] < 0:
                raise PositionError(f"{where}: more {name} cards laid than {SEAT_NAMES[seat]} has")
            turns = item.get("turns")
            if turns not in (0, 1, 2, 3) or isinstance(turns, bool):
                raise PositionError(f"{where}: 'turns' is 0, 1, 2 or 3, not {turns!r}")
            at = item.get("at")
            if not (isinstance(at, list) and len(at) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
                raise PositionError(f"{where}: 'at' is [row, col]")
            move = item.get("move", "")
            if not isinstance(move, str):
                raise PositionError(f"{where}: 'move' is a text")
            placed.append(Placed(seat, name, turns, (at[0], at[1]), move))
        turn = data.get("turn", 0)
        if turn not in (0, 1) or isinstance(turn, bool):
            raise PositionError(f"'turn' is 0 or 1, not {turn!r}")
        passes = data.get("passes", 0)
        read = data.get("passes_read", 0)
        if passes not in (0, 1, 2) or isinstance(passes, bool):
            raise PositionError(f"'passes' is 0, 1 or 2, not {passes!r}")
        if read not in range(passes + 1) or isinstance(read, bool):
            raise PositionError(f"'passes_read' is 0 to 'passes', not {read!r}")
        return cls(deck, tuple(placed), turn, passes, read)
