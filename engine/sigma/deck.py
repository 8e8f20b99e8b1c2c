"""The card model of Sigma Escape and deck files (docs/rules/sigma-escape.md §2, §4).

A card is a set of coloured cells, all of one colour, in a box of at most 3×3 (rows of
``#`` coloured and ``.`` transparent cells), plus its arrows, each on an edge of a
coloured cell whose neighbour across that edge is not a coloured cell of the card. A
deck is the preset cards with their positions and the two hands, White's and Black's,
as lists of cards with counts. Decks are data: TOML or JSON files of this shape::

    name = "Reconstructed deck"
    source = "reconstruction"          # or where the faces come from
    note = "..."                       # optional
    rules = ["open-sides"]             # optional: settlements other than the page's (RULES)

    [[presets]]                        # the first preset is the Nothing card
    name = "Nothing"
    colour = "white"
    cells = ["#"]
    arrows = ["0,0,N", "0,0,E", "0,0,S", "0,0,W"]
    at = [0, 0]                        # the grid cell of the box's top-left cell

    [[white]]                          # White's hand, in order; [[black]] likewise
    name = "I2"
    count = 2
    cells = ["##"]
    arrows = ["0,0,W", "0,1,E"]        # row,col,dir in the box; listed order = numbers

Every mistake in a deck is reported by ``DeckError`` with where it is and what is wrong.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from engine.game import EngineError
from engine.sigma.geometry import DIRS, NOTHING, Cell, neighbours, parse_dir, rotate, step

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
HAND_KEYS = ("white", "black")
MAX_BOX = 3
# Bounds on a deck, so that no deck file can make a game, a board or a sheet costly: a
# board is drawn over the cards' bounding box, and a sheet draws every card.
MAX_FILE_BYTES = 64 * 1024  # a deck file (the uploads' bound too)
MAX_REACH = 10  # a preset's box lies within this many cells of Nothing, in rows and columns
MAX_PRESETS = 8
MAX_HAND = 40  # cards in a hand, copies included (beyond 32 distinct, the search is in Python)
MAX_TEXT = 100  # characters of a deck's name or source
MAX_NOTE = 500
DECKS_DIR = Path(__file__).with_name("decks")
DEFAULT_DECK = "reconstructed"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9+\-_']{0,11}")
# The rules variants a deck may name (docs/rules/sigma-escape.md §2 lets the card model's
# own settlements change; a deck without ``rules`` plays the page's): each changes one
# settlement, in the rules, the search's Python model and the C search alike.
OPEN_SIDES = "open-sides"  # a usable side faces a cell no card covers
KEPT_ARROWS = "kept-arrows"  # an arrow survives a card of its own colour laid over it
BARE_BLACK = "bare-black"  # a white card may cover black cells no black arrow shows on
RULES = (OPEN_SIDES, KEPT_ARROWS, BARE_BLACK)


class DeckError(EngineError):
    """A deck file or deck data that breaks the card model; the message says where."""


@dataclass(frozen=True)
class Arrow:
    """An open side of a card: on the ``dir`` edge of the box cell ``cell``."""

    cell: Cell
    dir: int

    def text(self) -> str:
        return f"{self.cell[0]},{self.cell[1]},{DIRS[self.dir]}"


@dataclass(frozen=True)
class Shape:
    """A card laid on the grid relative to the cell its arrow is laid on.

    ``cells`` are the coloured cells and ``arrows`` the card's arrows (cell, direction),
    as offsets from that cell; ``turns`` the quarter turns clockwise and ``origin`` the
    offset of the box's top-left cell after turning.
    """

    cells: tuple[Cell, ...]
    arrows: tuple[tuple[Cell, int], ...]
    turns: int
    origin: Cell


@dataclass(frozen=True)
class Card:
    name: str
    colour: int
    rows: tuple[str, ...]
    arrows: tuple[Arrow, ...]

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == "#"
        )

    @cached_property
    def fits(self) -> tuple[tuple[Shape, ...], ...]:
        """``fits[a][d]``: the card laid with its arrow ``a`` (0-based) meeting a side
        pointing ``d``: turned so that the arrow points opposite to ``d``, with the
        arrow's cell at offset (0, 0)."""
        out = []
        for arrow in self.arrows:
            per_side = []
            for d in range(4):
                turns = (d + 2 - arrow.dir) % 4
                ar, ac = rotate(arrow.cell, turns)
                cells = tuple(
                    (r - ar, c - ac) for r, c in (rotate(cell, turns) for cell in self.cells)
                )
                arrows = tuple(
                    ((r - ar, c - ac), (a.dir + turns) % 4)
                    for a, (r, c) in ((a, rotate(a.cell, turns)) for a in self.arrows)
                )
                per_side.append(Shape(cells, arrows, turns, (-ar, -ac)))
            out.append(tuple(per_side))
        return tuple(out)

    def laid(self, turns: int, at: Cell) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, int], ...]]:
        """Coloured cells and arrows of the card turned ``turns`` quarter turns clockwise
        with the box's top-left cell (after turning) on ``at``."""
        r0, c0 = at
        cells = tuple((r0 + r, c0 + c) for r, c in (rotate(x, turns) for x in self.cells))
        arrows = tuple(
            ((r0 + r, c0 + c), (a.dir + turns) % 4)
            for a, (r, c) in ((a, rotate(a.cell, turns)) for a in self.arrows)
        )
        return cells, arrows

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "colour": COLOUR_NAMES[self.colour],
            "cells": list(self.rows),
            "arrows": [a.text() for a in self.arrows],
        }


@dataclass(frozen=True)
class Preset:
    card: Card
    at: Cell

    @property
    def cells(self) -> tuple[Cell, ...]:
        return self.card.laid(0, self.at)[0]


@dataclass(frozen=True)
class Deck:
    """A whole deck: presets (the first is Nothing) and the two hands in order."""

    key: str
    name: str
    source: str
    note: str
    presets: tuple[Preset, ...]
    hands: tuple[tuple[tuple[Card, int], ...], tuple[tuple[Card, int], ...]]
    rules: frozenset[str] = frozenset()  # of RULES; empty: the rules page's settlements

    @property
    def reconstruction(self) -> bool:
        return self.source.strip().lower() == "reconstruction"

    def hand_size(self, seat: int) -> int:
        return sum(count for _, count in self.hands[seat])

    def card(self, seat: int, name: str) -> int | None:
        """Index in ``hands[seat]`` of the card called ``name`` (any case), or None."""
        wanted = name.casefold()
        for i, (card, _) in enumerate(self.hands[seat]):
            if card.name.casefold() == wanted:
                return i
        return None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "name": self.name, "source": self.source}
        if self.note:
            data["note"] = self.note
        if self.rules:
            data["rules"] = sorted(self.rules)
        data["presets"] = [
            p.card.to_data() | {"at": list(p.at)} for p in self.presets
        ]
        for seat, key in enumerate(HAND_KEYS):
            data[key] = [card.to_data() | {"count": n} for card, n in self.hands[seat]]
        return data


# ---- reading and checking ---------------------------------------------------------


def deck_from_data(data: Any, key: str = "deck", where: str = "") -> Deck:
    """A checked deck from parsed TOML/JSON; DeckError says precisely what is wrong."""
    where = where or f"deck '{key}'"
    if not isinstance(data, Mapping):
        raise DeckError(f"{where}: a deck is a table (TOML) or an object (JSON)")
    known = {"key", "name", "source", "note", "rules", "presets", "white", "black"}
    for field in data:
        if field not in known:
            fields = ", ".join(sorted(known))
            raise DeckError(f"{where}: unknown field '{field}' (fields: {fields})")
    name = _text(data, "name", where)
    source = _text(data, "source", where)
    note = data.get("note", "")
    if not isinstance(note, str):
        raise DeckError(f"{where}: 'note' is a text")
    if len(note) > MAX_NOTE:
        raise DeckError(f"{where}: 'note' has {len(note)} characters; at most {MAX_NOTE}")
    key = str(data.get("key", key))
    rules = data.get("rules", [])
    if not isinstance(rules, list) or any(r not in RULES for r in rules):
        raise DeckError(f"{where}: 'rules' is a list of rules variants from "
                        f"{', '.join(RULES)}")
    presets_data = data.get("presets")
    if not isinstance(presets_data, list) or not presets_data:
        raise DeckError(f"{where}: 'presets' is a list of cards, the Nothing card first")
    if len(presets_data) > MAX_PRESETS:
        raise DeckError(f"{where}: {len(presets_data)} presets; a deck has at most {MAX_PRESETS}")
    presets = []
    covered: dict[Cell, str] = {}
    for i, item in enumerate(presets_data, start=1):
        here = f"{where}, preset {i}"
        card = _card(item, None, here, extra={"at"})
        here = f"{where}, preset {i} '{card.name}'"
        at = item.get("at")
        if (
            not isinstance(at, list) or len(at) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
        ):
            raise DeckError(f"{here}: 'at' is [row, col], the grid cell of the box's top-left")
        if not all(-MAX_REACH <= v <= MAX_REACH for v in at):
            raise DeckError(
                f"{here}: 'at' {at} is too far from Nothing: a preset lies within "
                f"{MAX_REACH} cells of it, rows and columns from -{MAX_REACH} to {MAX_REACH}"
            )
        preset = Preset(card, (at[0], at[1]))
        if i == 1 and (card.colour != WHITE or preset.cells != (NOTHING,)):
            raise DeckError(
                f"{here}: the first preset is the Nothing card: one white cell laid on (0, 0)"
            )
        for cell in preset.cells:
            if cell in covered:
                raise DeckError(
                    f"{here}: presets overlap: it covers cell {cell} of preset '{covered[cell]}'"
                )
            covered[cell] = card.name
        presets.append(preset)
    hands: list[tuple[tuple[Card, int], ...]] = []
    for seat, hand_key in enumerate(HAND_KEYS):
        items = data.get(hand_key)
        if not isinstance(items, list):
            raise DeckError(f"{where}: '{hand_key}' is the list of {hand_key.title()}'s cards")
        if len(items) > MAX_HAND:
            raise DeckError(f"{where}: {hand_key.title()}'s hand lists {len(items)} cards; a "
                            f"hand has at most {MAX_HAND}")
        hand: list[tuple[Card, int]] = []
        names: dict[str, int] = {}
        for i, item in enumerate(items, start=1):
            here = f"{where}, {hand_key} hand, card {i}"
            card = _card(item, seat, here, extra={"count"})
            count = item.get("count", 1)
            if (not isinstance(count, int) or isinstance(count, bool)
                    or not 1 <= count <= MAX_HAND):
                raise DeckError(f"{here} '{card.name}': 'count' is a whole number from 1 to "
                                f"{MAX_HAND}")
            folded = card.name.casefold()
            if folded in names:
                raise DeckError(
                    f"{here} '{card.name}': two different cards named '{card.name}' in "
                    f"{hand_key.title()}'s hand (also card {names[folded]}); give copies one "
                    f"entry with a count"
                )
            names[folded] = i
            hand.append((card, count))
        if sum(n for _, n in hand) > MAX_HAND:
            raise DeckError(f"{where}: {hand_key.title()}'s hand holds "
                            f"{sum(n for _, n in hand)} cards; a hand has at most {MAX_HAND}")
        hands.append(tuple(hand))
    deck = Deck(key, name, source, note, tuple(presets), (hands[0], hands[1]),
                frozenset(rules))
    check_playable(deck, where)
    return deck


def check_playable(deck: Deck, where: str) -> None:
    """Refuse a deck whose game could not be played (§1): both hands without a card
    (White would win before the first card; one empty hand is a game, in which that
    player passes), or presets that already close White's main group in (Black would
    have won before the first card). Whether a card fits at the start is for the rules:
    a game over before its first move is refused where a match is set up."""
    if not deck.hand_size(WHITE) and not deck.hand_size(BLACK):
        raise DeckError(f"{where}: both hands are empty; a player needs at least one card, "
                        f"or the game is over before it begins")
    colour = {cell: p.card.colour for p in deck.presets for cell in p.cells}
    main, todo, blank = {NOTHING}, [NOTHING], False
    while todo and not blank:
        for nb in neighbours(todo.pop()):
            if nb not in colour:
                blank = True
            elif colour[nb] == WHITE and nb not in main:
                main.add(nb)
                todo.append(nb)
    if not blank:
        raise DeckError(f"{where}: the presets leave White's main group no blank space: "
                        f"Black would win before the first card")


def _text(data: Mapping[str, Any], field: str, where: str) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not value.strip():
        raise DeckError(f"{where}: '{field}' is a text and must be given")
    if len(value.strip()) > MAX_TEXT:
        raise DeckError(f"{where}: '{field}' has {len(value.strip())} characters; at most "
                        f"{MAX_TEXT}")
    return value.strip()


def _card(item: Any, colour: int | None, where: str, extra: set[str]) -> Card:
    if not isinstance(item, Mapping):
        raise DeckError(f"{where}: a card is a table with name, cells and arrows")
    known = {"name", "colour", "cells", "arrows"} | extra
    for field in item:
        if field not in known:
            fields = ", ".join(sorted(known))
            raise DeckError(f"{where}: unknown field '{field}' (fields: {fields})")
    name = item.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.casefold() == "pass":
        raise DeckError(
            f"{where}: the name {name!r} is not usable: a letter, then up to 11 letters, "
            f"digits or + - _ ' (and not 'pass')"
        )
    where = f"{where} '{name}'"
    rows = item.get("cells")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise DeckError(f"{where}: 'cells' is a list of rows like \"#.\" (# coloured, . clear)")
    if len(rows) > MAX_BOX or any(len(r) > MAX_BOX for r in rows):
        raise DeckError(
            f"{where}: the box is {len(rows)}×{max(len(r) for r in rows)}; a card's box is at "
            f"most {MAX_BOX}×{MAX_BOX}"
        )
    if len({len(r) for r in rows}) != 1:
        raise DeckError(f"{where}: the rows of 'cells' have different lengths")
    named = item.get("colour")
    if named is not None and named not in COLOUR_NAMES:
        raise DeckError(f"{where}: 'colour' is white or black, not {named!r}")
    base = COLOUR_NAMES.index(named) if named is not None else colour
    colours: set[int | None] = set()
    clean = []
    for r, row in enumerate(rows):
        out = ""
        for c, ch in enumerate(row):
            if ch in "#Ww":
                colours.add(WHITE if ch in "Ww" else base)
            elif ch in "Bb":
                colours.add(BLACK)
            elif ch != ".":
                raise DeckError(
                    f"{where}: cell ({r}, {c}) is '{ch}'; use # (coloured), W, B or . (clear)"
                )
            out += "." if ch == "." else "#"
        clean.append(out)
    if named is not None:
        colours.add(base)
    colours.discard(None)
    if "#" not in "".join(clean):
        raise DeckError(f"{where}: the card has no coloured cell")
    if len(colours) > 1:
        raise DeckError(f"{where}: mixed colours: a card is all white or all black")
    if not colours:
        raise DeckError(f"{where}: say the card's colour ('colour' = white or black)")
    card_colour = colours.pop()
    assert card_colour is not None
    if colour is not None and card_colour != colour:
        raise DeckError(
            f"{where}: a {COLOUR_NAMES[card_colour]} card in {COLOUR_NAMES[colour].title()}'s hand"
        )
    arrows_data = item.get("arrows")
    if not isinstance(arrows_data, list) or not arrows_data:
        raise DeckError(f"{where}: the card has no arrow (open side); every card needs one")
    coloured = {
        (r, c) for r, row in enumerate(clean) for c, ch in enumerate(row) if ch == "#"
    }
    arrows: list[Arrow] = []
    for n, spec in enumerate(arrows_data, start=1):
        arrow = _arrow(spec, f"{where}, arrow {n}")
        label = f"{where}, arrow {n} ({arrow.text()})"
        if arrow.cell not in coloured:
            raise DeckError(f"{label}: cell {arrow.cell} is not a coloured cell of the card")
        if step(arrow.cell, arrow.dir) in coloured:
            raise DeckError(
                f"{label}: not on an open edge: across it lies coloured cell "
                f"{step(arrow.cell, arrow.dir)} of the same card"
            )
        if arrow in arrows:
            raise DeckError(
                f"{label}: two arrows on one edge (arrow {arrows.index(arrow) + 1} is there too)"
            )
        arrows.append(arrow)
    return Card(name, card_colour, tuple(clean), tuple(arrows))


def _arrow(spec: Any, where: str) -> Arrow:
    parts: list[Any]
    if isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",")]
    elif isinstance(spec, list):
        parts = list(spec)
    else:
        parts = []
    try:
        if len(parts) != 3:
            raise ValueError
        r, c = int(parts[0]), int(parts[1])
        d = parse_dir(str(parts[2]))
    except (TypeError, ValueError):
        shown = repr(spec)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise DeckError(f"{where}: {shown} is not 'row,col,dir' (dir N, E, S or W)") from None
    if not (abs(r) <= MAX_BOX and abs(c) <= MAX_BOX):
        raise DeckError(f"{where}: ({r},{c}) is outside the card's box of at most "
                        f"{MAX_BOX}×{MAX_BOX}")
    return Arrow((r, c), d)


# ---- files --------------------------------------------------------------------------


def read_deck_file(path: str | Path) -> Deck:
    """A deck from a .toml or .json file."""
    path = Path(path)
    where = f"deck file '{path.name}'"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DeckError(f"cannot read deck file '{path}': {exc.strerror or exc}") from None
    return deck_from_bytes(raw, path.suffix.lower() == ".json", path.stem, where)


def deck_from_bytes(raw: bytes, as_json: bool, key: str = "deck", where: str = "") -> Deck:
    """A deck from the bytes of a deck file (JSON when ``as_json``, else TOML), as an
    upload brings them."""
    where = where or f"deck '{key}'"
    if len(raw) > MAX_FILE_BYTES:
        raise DeckError(f"{where} has {len(raw):,} bytes; a deck file has at most "
                        f"{MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if as_json else tomllib.loads(text)
    except UnicodeDecodeError:
        raise DeckError(f"{where} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise DeckError(f"{where}: not valid JSON: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise DeckError(f"{where}: lists or tables nested too deeply for a deck") from None
    except ValueError:  # Python's bound on digits: no deck needs such a number
        raise DeckError(f"{where}: a number with thousands of digits; a deck's numbers are "
                        f"small") from None
    return deck_from_data(data, key, where)


def shipped_decks() -> tuple[str, ...]:
    """Keys of the decks that ship with the engine, the default first."""
    keys = sorted(p.stem for p in DECKS_DIR.glob("*.toml"))
    keys.sort(key=lambda k: k != DEFAULT_DECK)
    return tuple(keys)


@cache
def shipped_deck(key: str) -> Deck:
    if key not in shipped_decks():
        decks = ", ".join(shipped_decks())
        raise DeckError(f"no deck '{key}' ships with the engine (decks: {decks})")
    return read_deck_file(DECKS_DIR / f"{key}.toml")


def find_deck(name: str) -> Deck:
    """A shipped deck by key, else a deck file by path."""
    key = name.strip().lower()
    if key in shipped_decks():
        return shipped_deck(key)
    if not Path(name).exists():
        raise DeckError(
            f"'{name}' is neither a shipped deck ({', '.join(shipped_decks())}) nor a deck file"
        )
    return read_deck_file(name)
