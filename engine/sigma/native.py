"""Sigma Escape's search in C (``_native.c``), behind the interface of the Python one.

The project's install builds the extension (``setup.py``); where it could not be built
(no C compiler), ``AVAILABLE`` is False and the player searches in Python, the same
search node for node, only slower. ``GARNET_PURE_PYTHON=1`` turns the C search off, for
comparing the two.
"""

from __future__ import annotations

import os
from typing import Any

from engine.sigma.deck import BARE_BLACK, KEPT_ARROWS, OPEN_SIDES, Deck

try:
    from engine.sigma import _native
except ImportError:  # not built: the Python search is used
    _native = None  # type: ignore[assignment]

AVAILABLE = _native is not None and os.environ.get("GARNET_PURE_PYTHON", "") != "1"

_W = 48  # the Python model's row length in bits (engine/sigma/ai.py)
_ROW0 = _COL0 = 24
# Table slots: the searches store one entry per inner node, a fraction of the nodes.
_MOST_SLOTS = 1 << 21

Move = tuple[int, int, int]
# The deck's rules variants as the C search's RULE_* bits.
_RULES = {OPEN_SIDES: 1, KEPT_ARROWS: 2, BARE_BLACK: 4}


def _cell(index: int) -> tuple[int, int]:
    return index // _W - _ROW0, index % _W - _COL0


def _bits(mask: int) -> list[tuple[int, int]]:
    out = []
    while mask:
        low = mask & -mask
        out.append(_cell(low.bit_length() - 1))
        mask ^= low
    return out


def _arrows(marks: tuple[int, ...]) -> list[tuple[int, int, int]]:
    return [(*_cell(x >> 2), x & 3) for x in marks]


_SPECS: dict[int, tuple[Deck, Any]] = {}


def _spec(deck: Deck) -> Any:
    """``[seat][card][arrow][direction]`` = (cells, arrows, id) relative to the cell the
    card's arrow lies on; equal ids within a card mean the same cells and arrows (the
    Python model's test for placements with the same result)."""
    found = _SPECS.get(id(deck))
    if found is None or found[0] is not deck:
        seats = []
        for hand in deck.hands:
            cards = []
            for card, _ in hand:
                ids: dict[tuple[frozenset[tuple[int, int]], tuple[Any, ...]], int] = {}
                arrows = []
                for per_side in card.fits:
                    dirs = []
                    for shape in per_side:
                        marks = tuple((r, c, d) for (r, c), d in shape.arrows)
                        ident = ids.setdefault((frozenset(shape.cells), marks), len(ids))
                        dirs.append((shape.cells, marks, ident))
                    arrows.append(tuple(dirs))
                cards.append(tuple(arrows))
            seats.append(tuple(cards))
        found = (deck, tuple(seats))
        _SPECS[id(deck)] = found
    return found[1]


class NativeSearch:
    """One root's search in C: ``start`` sets the root, ``values`` searches its
    placements to a depth (None when the budget ran out), as ``_Search`` does."""

    def __init__(self, deck: Deck, weights: tuple[float, ...], nodes: int,
                 seconds: float) -> None:
        assert _native is not None
        slots = 1 << 10
        while slots < min(2 * nodes, _MOST_SLOTS):
            slots <<= 1
        rules = sum(bit for name, bit in _RULES.items() if name in deck.rules)
        self._search = _native.Search(_spec(deck), tuple(weights), nodes, seconds, slots, rules)
        self._index: dict[Move, int] = {}

    @property
    def nodes(self) -> int:
        return self._search.nodes

    def start(self, node: Any) -> tuple[int, float | None, list[Move]]:
        """The root after its end checks and passes: (seat to move, result for White
        or None, placements best first by the static order)."""
        white, black, _, warrows, barrows, hands, turn, passes = node
        turn, result, moves = self._search.start(
            _bits(white), _bits(black), _arrows(warrows), _arrows(barrows), hands, turn,
            passes)
        self._index = {m: i for i, m in enumerate(moves)}
        return turn, result, moves

    def values(self, moves: list[Move], depth: int, margin: float, window: float = 0.0
               ) -> list[float] | None:
        return self._search.values([self._index[m] for m in moves], depth, margin, window)

    def natural(self, moves: list[Move], looks: int, width: int = 0) -> list[float] | None:
        return self._search.natural([self._index[m] for m in moves], looks, width)
