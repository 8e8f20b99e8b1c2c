"""The words drawn on the images, in the language the bot asks for.

The engine writes English and knows no catalog: each word or line it draws on an
image goes through ``label`` with its English template ("{n} left") and its data. The
bot passes what a language says for each template, as plain values (a mapping from the
English template to the translated one, ``labelled``), around a drawing; a template it
does not translate is drawn in English. ``TEMPLATES`` lists every template of the
shipped games, for the bot to translate (``bot/texts/board_labels.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType

_ENGLISH: Mapping[str, str] = MappingProxyType({})
_LABELS: ContextVar[Mapping[str, str]] = ContextVar("engine_labels", default=_ENGLISH)

#: every template the shipped games draw, or write in the line under a board (Cairo
#: Corridor's and Quoridor's)
TEMPLATES = (
    "Black", "Red", "First Player", "Second Player", "{colour} · {name}",
    "{n} left", "score {n}", "to play", "wins", "before the first move",
    "after move {n}", "{where} · {colour} to play", "{line} · last: {colour} {cell}",
    "Draw {black}–{red}: the Corridor is closed",
    "{winner} wins {high}–{low}: the Corridor is closed",
    "Tie {black}–{red}: the First Player ({loser}) loses, {winner} wins",
    "Tie {black}–{red}: {loser} placed the last piece and loses, {winner} wins",
    "Green: the final Corridor. Gold rim: a piece touching it, which scores.",
    "Hints: green = the Corridor, × = would leave no Corridor.",
    # Quoridor's
    "White", "Blue", "{name} ({colour})", " ({colour})", "{who} to move",
    "{headline}  ·  {passed} had no move and passed", "{who} wins: {reason}",
    "Draw: {reason}", "no one reached their goal in {n} plies", "{colour} reached {goal}",
    "the others left the game", "row {row}", "column {column}", "{where} · last: {move}",
    "to {goal}", "left the game", "{goal} · {n} steps",
    # Quoridor's line under a board (its status)
    "{colour} had no move and passed", "{colour} {n}", "walls left: {left}",
    "{colour} left the game", ", ",
    # a board's description (its alt text: ``Game.describe``), every game's
    "{colour} ({name})", "Game over", "{title}, {where}.", "{standing}.", "Last move: {move}.",
    "{colour} pieces ({n}): {cells}.", "none", "A * marks a permanent piece.",
    "pawn on {square}", "out of the game",
    "{colour}: {pawn}, {n} walls left, walls placed: {walls}.",
    # Pathwayz's (its key, status line and line under a board)
    'permanent',
    'last move',
    'flipped',
    'connect column a to column l',
    '{colour} to move · {where}',
    'Draw: {reason} · {n} moves',
    '{line} · last {colour} {cell}',
    '{line}, {n} flipped',
    'the board is full with no chain',
    '{colour} connected a to l',
    "{colour} connected a to l (completed by {mover}'s move)",
    '{colour} connected a to l (both chains completed: the mover wins)',
    '{move} flipped 1 piece',
    '{move} flipped {n} pieces',
    # Sigma Escape's (its board, deck sheet, line under a board and description)
    "no usable side",
    "{colour} (to escape)",
    "{colour} (to surround)",
    "{line} · 1 card left",
    "{line} · {n} cards left",
    "{deck} · rules: {rules}",
    "{note} · reconstructed cards",
    "{deck} · a reconstruction, not the real cards",
    "White's main group is surrounded, no blank space left",
    "Green outline: White's main group · green dots: its blank spaces · orange: the last card",
    "{colour} to play",
    "last: {colour} {move}",
    "{colour} passed",
    "1 blank space",
    "{n} blank spaces",
    "{spaces} (green dots)",
    "gold: {colour}'s {n} usable sides",
    "play CARD SIDE.ARROW",
    "hatched: white cut off",
    "1 blank space left",
    "{n} blank spaces left",
    "White's main group is surrounded: no blank space",
    "all cards are played with {spaces}",
    "both players passed with {spaces}",
    "Game over · {who} wins: {reason}",
    "{colour} passed (move {n}: no legal placement)",
    "cards left: {left}",
    "White's main group: {cells} cells, {n} blank spaces (row-column, from "
     "the top-left of the cards on the table): {spaces}.",
    "Cards left: {hands}.",
    "Preset cards",
    "at ({row}, {column})",
    "White's hand · {n} cards",
    "Black's hand · {n} cards",
    "A RECONSTRUCTION: the real cards' pictures are lost",
    "Source: {source}",
    "Rules variants (not the rules page's): {rules}",
    # Cairo Corridor's result, in a board's description
    "the Corridor is closed: {scores}",
    "{reason}; {tie}",
    "a tie, and on a tie the First Player loses",
    "a tie, and on a tie whoever placed the last piece loses",
    "a tie: the game is drawn",
)


def label(template: str, **data: object) -> str:
    """``template`` in the language of the drawing, its ``{names}`` filled in."""
    said = _LABELS.get().get(template, template)
    return said.format(**data) if data else said


@contextmanager
def labelled(labels: Mapping[str, str] | None) -> Iterator[None]:
    """Draw everything inside with ``labels`` (English template -> its translation)."""
    token = _LABELS.set(labels or {})
    try:
        yield
    finally:
        _LABELS.reset(token)
