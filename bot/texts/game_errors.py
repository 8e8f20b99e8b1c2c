"""The games' refusals in the player's language.

The engine writes English only: each error it raises for a player names its cause
and carries its data (``EngineError.because``: ``"cairo.taken"``, with the cell and
its owner). Each cause is said here, in the language being spoken; a cause not listed
(a game installed from elsewhere) is said as the engine wrote it. Whatever the
player typed is quoted escaped (``defang``, on the whole sentence as the engine's own
was), never as a mention or markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.core.escape import defang, sentence
from bot.texts.language import N_, _, language, n_, text
from engine.game import EngineError

# The seats' colours as the games name them, said in the language spoken.
COLOURS = {"Black": N_("Black"), "Red": N_("Red"), "White": N_("White"),
           "Blue": N_("Blue"), "black": N_("black"), "white": N_("white")}


@text
def colour(name: str) -> str:
    """A seat's colour ("Black") in the language spoken; another name as it is."""
    return _(COLOURS[name]) if name in COLOURS else name


Words = Mapping[str, Mapping[str, str]]  # a game's words by language (the error's data)


def _in(words: Words) -> Mapping[str, str]:
    """The words of the language spoken (English where the game has none)."""
    return words.get(language()) or words["en"]


@text
def _directions(directions: Sequence[str], words: Words) -> str:
    return ", ".join(_in(words)[d] for d in directions)


def _named(every: Words) -> dict[str, str]:
    words = _in(every)
    return {"up": words["U"], "down": words["D"], "left": words["L"], "right": words["R"]}


@text
def _cairo_help(every: Words) -> str:
    return _("type the group letter and a direction from it, e.g. `D {left}`, `X {down}`, "
             "`JU` (u/d/l/r, {up}/{down}/{left}/{right} or arrows)").format(**_named(every))


@text
def _goal(goal: str) -> str:
    kind, _space, which = goal.partition(" ")
    if kind == "row":
        return _("row {row}").format(row=which)
    if kind == "column":
        return _("column {column}").format(column=which)
    return goal


@text
def _cut(cut: Sequence[tuple[str, str]]) -> str:
    return ", ".join(_("{colour} off from {goal}").format(colour=colour(c), goal=_goal(g))
                     for c, g in cut)


@text
def _where(moves: Sequence[str]) -> str:
    if moves:
        return _("it can go to {moves}").format(moves=", ".join(moves))
    return _("it cannot move; place a wall")


@text
def _reach(seat: str, here: str, moves: Sequence[str]) -> str:
    if moves:
        return _("{colour}'s pawn on {here} can go to {moves}").format(
            colour=colour(seat), here=here, moves=", ".join(moves))
    return _("{colour}'s pawn on {here} cannot move; place a wall").format(
        colour=colour(seat), here=here)


Say = Callable[..., str]
CAUSES: Mapping[str, Say] = {
    # any game: a key that names none (engine.registry)
    "unknown_game": lambda name, games: _("unknown game '{name}' (games: {listed})").format(
        name=name, listed=", ".join(games)),
    # Cairo Corridor
    "cairo.not_a_move": lambda text, words: _("'{text}' is not a move: {help}").format(
        text=text, help=_cairo_help(words)),
    "cairo.not_a_cell": lambda text: _("'{text}' is not a cell name (AU … XD)").format(
        text=text),
    "cairo.no_letter": lambda letter: _(
        "there is no letter {letter} on the board: the letters are A to X").format(
        letter=letter),
    "cairo.no_direction": lambda letter, direction, has, words: _(
        "{letter} has no {direction} pentagon; {letter} has {has}").format(
        letter=letter, direction=_directions([direction], words),
        has=_directions(has, words)),
    "cairo.needs_direction": lambda letter, has, words: _(
        "{letter} needs a direction: {letter} has {has} (e.g. `{example}`)").format(
        letter=letter, has=_directions(has, words),
        example=f"{letter} {_in(words)[has[0]]}"),
    "cairo.not_a_direction": lambda word, letter, has, words: _(
        "'{word}' is not a direction: say {up}, {down}, {left} or {right} ({letter} has "
        "{has})").format(word=word, letter=letter, has=_directions(has, words),
                         **_named(words)),
    "cairo.taken": lambda cell, owner: _("{cell} is already taken by {colour}").format(
        cell=cell, colour=colour(owner)),
    "cairo.no_corridor": lambda cell: _("{cell} would leave no Corridor").format(cell=cell),
    "cairo.closed": lambda: _("the game is over: the Corridor is closed"),
    # Quoridor
    "quoridor.not_a_move": lambda text: _(
        "'{text}' is not a move: name a square (e2) or a wall (e3h, e3v)").format(
        text=text),
    "quoridor.no_column": lambda square: _(
        "there is no square {square}: columns run a to i").format(square=square),
    "quoridor.no_row": lambda square: _(
        "there is no square {square}: rows run 1 to 9").format(square=square),
    "quoridor.wall_letter": lambda text, place: _(
        "'{text}' is not a move: a wall ends in h or v ({place}h, {place}v)").format(
        text=text, place=place),
    "quoridor.no_wall_place": lambda wall: _(
        "there is no wall place {wall}: a wall is named by the square nearest a1 that it "
        "touches, from a1 to h8").format(wall=wall),
    "quoridor.already_there": lambda seat, square, moves: _(
        "{colour}'s pawn is already on {square}; {where}").format(
        colour=colour(seat), square=square, where=_where(moves)),
    "quoridor.pawn_there": lambda other, square, seat, here, moves: _(
        "{colour}'s pawn stands on {square}; {reach}").format(
        colour=colour(other), square=square, reach=_reach(seat, here, moves)),
    "quoridor.wall_between": lambda square, seat, here, moves: _(
        "a wall stands between {here} and {square}; {reach}").format(
        here=here, square=square, reach=_reach(seat, here, moves)),
    "quoridor.out_of_reach": lambda square, seat, here, moves: _(
        "{colour}'s pawn on {here} cannot reach {square}; {where}").format(
        colour=colour(seat), here=here, square=square, where=_where(moves)),
    "quoridor.no_walls": lambda seat: _(
        "{colour} has no walls left and must move the pawn").format(colour=colour(seat)),
    "quoridor.wall_there": lambda wall: _("there is already a wall at {wall}").format(
        wall=wall),
    "quoridor.crosses": lambda wall, other: _("{wall} crosses the wall {other}").format(
        wall=wall, other=other),
    "quoridor.overlaps": lambda wall, other: _("{wall} overlaps the wall {other}").format(
        wall=wall, other=other),
    "quoridor.cuts": lambda wall, cut: _("{wall} would cut {whom}").format(
        wall=wall, whom=_cut(cut)),
    # Sigma Escape
    "sigma.not_a_move": lambda text: _(
        "'{text}' is not a move: type a card of your hand, the number of a side, a dot and "
        "the number of the card's arrow, e.g. `T4 7.2` (`T4 7` when only one arrow fits)"
        ).format(text=text),
    "sigma.no_side": lambda side, sides: _(
        "there is no usable side {side} (there are {sides})").format(side=side, sides=sides),
    "sigma.which_arrow": lambda card, side, choices: _(
        "{card} {side} fits more than one way: say which arrow ({choices})").format(
        card=card, side=side, choices=choices),
    "sigma.no_arrow": lambda card, arrow, count: n_(
        "{card} has no arrow {arrow} (it has {count} arrow)",
        "{card} has no arrow {arrow} (it has {count} arrows)", count).format(
        card=card, arrow=arrow, count=count),
    "sigma.cannot_pass": lambda seat: _(
        "{colour} cannot pass: {colour} has a legal placement and must make it (a pass "
        "happens by itself when there is none)").format(colour=colour(seat)),
    # Pathwayz
    "pathwayz.not_a_move": lambda text: _(
        "'{text}' is not a Pathwayz move (e.g. c5, or c5* for a permanent piece)").format(
        text=text),
    "pathwayz.no_cell": lambda cell: _(
        "'{cell}' is not a cell (cells are like c5: columns a-l, rows 1-8)").format(
        cell=cell),
    "pathwayz.off_board": lambda cell: _(
        "{cell} is off the board: columns a-l, rows 1-8").format(cell=cell),
    "pathwayz.occupied": lambda cell, colour, permanent: (
        _("{cell} is occupied by a permanent {colour} piece") if permanent
        else _("{cell} is occupied by a {colour} piece")).format(
        cell=cell, colour=_(COLOURS.get(colour) or colour)),
}


@text
def refusal(error: EngineError) -> str:
    """What a game refused, as a sentence in the language spoken."""
    say = CAUSES.get(error.cause or "")
    if say is None:
        return sentence(defang(str(error)))
    return sentence(defang(say(**error.data)))
