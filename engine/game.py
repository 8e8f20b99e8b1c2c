"""The one shape every game of garnet has.

A game is a stateless object (one per game kind, see ``engine.registry``) whose
methods take and return *states*. A state is a plain, immutable value: it can be
turned into JSON and back without loss (``to_json`` / ``from_json``) and holds
nothing that could go stale. Seats are numbered from 0; seat 0 moves first.

The host in ``bot/`` only ever talks to games through this interface, so adding a
game means implementing it once here and registering it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.labels import label

JSON = dict[str, Any]


class EngineError(ValueError):
    """Base of every error the engine raises for bad input; ``str(e)`` is for users.

    ``cause`` names why, for whoever says it in another language (``"cairo.taken"``),
    and ``data`` carries what the sentence says (the cell, the seat, the directions),
    as python-chess names its errors: the engine writes English only, and the bot's
    texts say each cause in the player's language (``bot/texts/game_errors.py``). None:
    the English sentence is all there is.
    """

    cause: str | None = None
    data: Mapping[str, Any] = {}

    def because(self, cause: str, **data: Any) -> Self:
        """This error, named by its cause and carrying its data."""
        self.cause = cause
        self.data = data
        return self


class MoveError(EngineError):
    """A player's text is not a legal move here. The message says precisely why.

    ``token`` is the part of the input that is wrong (for the command line's
    "offending token" report), when there is one.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class NotAMove(MoveError):
    """The text does not look like a move at all (ordinary chat in a match channel).

    Adapters that read typed messages ignore it silently; an explicit ``/move``
    reports it like any other MoveError.
    """


class GameOverError(MoveError):
    """A move was offered after the game had ended."""


class OptionError(EngineError):
    """A game option is unknown or has a value the game does not offer."""


class PositionError(EngineError):
    """A position description or state JSON is malformed."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as the rules judge it.

    ``winner`` is a seat, or None for a draw. ``scores`` is one number per seat for
    games that count points (Cairo Corridor), else None. ``reason`` is a short
    phrase for the result message ("the Corridor is closed", "reached row 9").
    """

    winner: int | None
    draw: bool
    scores: tuple[int, ...] | None
    reason: str

    def to_json(self) -> JSON:
        return {
            "winner": self.winner,
            "draw": self.draw,
            "scores": list(self.scores) if self.scores is not None else None,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts, declared once: the commands' ``options:`` text, its
    autocomplete, ``/help`` and the rules line of a match's first post are built from it.

    ``choices`` None: a whole number from ``minimum`` to ``maximum``; else one of the
    words. ``help`` says what it does; ``words`` says, per choice, how the rules line
    puts it ("in a tie the First Player loses"); ``phrase`` does it for a number
    ("a draw after {value} plies"). ``aliases`` are other spellings players may type
    for a choice (``first-loses`` for ``first-player-loses``)."""

    name: str
    default: str | int
    choices: tuple[str, ...] | None
    help: str
    minimum: int | None = None
    maximum: int | None = None
    words: tuple[tuple[str, str], ...] = ()
    phrase: str = ""
    aliases: tuple[tuple[str, str], ...] = ()

    def read(self, value: Any) -> str | int:
        """The value as the game holds it; OptionError says what is allowed."""
        if self.choices is None:
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise OptionError(
                    f"option '{self.name}' takes a whole number, not '{value}'") from None
            low = self.minimum if self.minimum is not None else -(10 ** 9)
            high = self.maximum if self.maximum is not None else 10 ** 9
            if not low <= number <= high:
                raise OptionError(f"option '{self.name}' is from {low} to {high}, not {number}")
            return number
        text = str(value).strip().lower()
        text = dict(self.aliases).get(text, text)
        if text not in self.choices:
            raise OptionError(
                f"option '{self.name}' is one of {', '.join(self.choices)}, not '{text}'")
        return text

    def describe(self, value: Any) -> str:
        """How the rules line of a match says this option's value."""
        said = dict(self.words).get(str(value))
        if said:
            return said
        if self.phrase:
            return self.phrase.format(value=value)
        return f"{self.name} {value}"

    def values(self) -> tuple[str, ...]:
        """What ``options:`` may say for it, for autocomplete: the choices, or the
        default and the bounds of a number."""
        if self.choices is not None:
            return self.choices
        shown = [self.default, self.minimum, self.maximum]
        return tuple(dict.fromkeys(str(v) for v in shown if v is not None))


@dataclass(frozen=True)
class Choice:
    """One move as a menu offers it: what the menu shows (``label``, ``description``)
    and the move's ``notation``, which ``parse_move`` reads as that legal move."""

    label: str
    notation: str
    description: str


@dataclass(frozen=True)
class ChoiceGroup:
    """Moves offered together (Sigma Escape: the placements of one card): the group's
    ``label`` (also what choosing it answers), a ``description``, and its choices."""

    label: str
    description: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class ChoiceWords:
    """How a game's menus speak of its groups and choices (Sigma Escape: of cards and
    their placements)."""

    group: str  # "card": a group, as in "choose a card"
    choose_group: str  # "choose a card to place"
    choice: str  # "placement": one choice, as in "3 legal placements"
    verb: str  # "Place": a group's menu says "Place T4"
    hint: str  # where a choice's parts are seen on the board
    typed: str  # how to type a choice of group {group} not in a menu


S = TypeVar("S")
M = TypeVar("M")


#: Discord's limit for an attachment's description (what screen readers say of it)
DESCRIPTION_LIMIT = 1024


def pieces_of(colour: str, cells: Sequence[str]) -> str:
    """A colour's pieces in a board's description: "Black pieces (2): DL, XU." (in the
    language of ``engine.labels``)."""
    return label("{colour} pieces ({n}): {cells}.", colour=label(colour), n=len(cells),
                 cells=label(", ").join(cells) or label("none"))


def after_move(played: int) -> str:
    """Where a position stands, as every board, its post and ``/match`` say it: "after
    move 21" (21 moves played, passes counted), "before the first move"."""
    return label("before the first move") if played <= 0 else label("after move {n}", n=played)


#: The version of this interface. A game declares the one it was written for
#: (``interface = 1``); garnet loads games of the versions in ``SUPPORTED`` and refuses
#: others with a message naming the game (``engine.registry``). It grows when a method
#: becomes required; a new method with a default keeps it.
INTERFACE = 1
SUPPORTED = (1,)


class Game(ABC, Generic[S, M]):
    """A game kind. Subclasses set the class attributes and implement the methods."""

    #: the version of this interface the game was written for (see ``INTERFACE``)
    interface: ClassVar[int]
    #: short key used in commands and the database: "cairo", "quoridor", "pathwayz";
    #: the name of its ``garnet.games`` entry point
    key: ClassVar[str]
    #: name shown to users: "Cairo Corridor"
    title: ClassVar[str]
    #: other names players may type for the game ("cc")
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the computer player, ``"module:name"`` of an ``engine.ai.player.GameAI`` (imported
    #: on first use: a search's tables cost only those who play it); None: people only
    ai: ClassVar[str | None] = None
    #: a move as a player types it, for ``/help`` and the ``/move`` option ("D left")
    move_example: ClassVar[str] = ""
    #: how many seats a game may have, e.g. (2,) or (2, 4)
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    #: what players call each seat ("Black", "Red"), for the default ``seat_name``
    seat_names: ClassVar[tuple[str, ...]] = ()
    #: options this game accepts (see ``check_options``)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: one line on how to type a move, for help texts and errors
    move_help: ClassVar[str] = ""
    #: the wording of the game's menus, for a game that offers ``choices``
    choice_words: ClassVar[ChoiceWords | None] = None

    # ---- construction and serialisation -------------------------------------------

    @abstractmethod
    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> S:
        """The starting position. Options are checked with ``check_options``."""

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """A JSON-ready dict from which ``from_json`` rebuilds an equal state."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state; raises PositionError when the data is malformed."""

    # ---- playing -------------------------------------------------------------------

    def seats(self, state: S) -> int:
        """Number of seats in this game: by default its one seat count; a game of
        several seat counts says which one a state has."""
        if len(self.seat_counts) != 1:
            raise NotImplementedError(f"{self.title} has several seat counts: define seats")
        return self.seat_counts[0]

    def seat_name(self, state: S, seat: int) -> str:
        """The colour or side of a seat as players call it ("Black", "Red"): by default
        ``seat_names[seat]``."""
        return self.seat_names[seat]

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, or None when the game is over."""

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Read a player's text as a move *legal in this state*.

        Raises NotAMove when the text does not resemble the notation, MoveError
        with a precise message when it does but names no legal move, and
        GameOverError when the game has ended.
        """

    def incomplete(self, state: S, text: str) -> str | EngineError | None:
        """What is missing from ``text`` when it is clearly an attempt at a move that
        does not read as one (a bare ``J``, ``J upward``): a sentence for the player on
        turn (best an error named by its cause, which the bot says in the player's
        language), or None when it may be chat (then a typed message is ignored)."""
        return None

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal move of the seat to move (empty when the game is over)."""

    @abstractmethod
    def well_formed_moves(self, state: S) -> list[M]:
        """Every move the seat to move could write in this position, legal or not (a
        superset of ``legal_moves``, empty when the game is over): what a player may be
        offered without giving away which moves the rules forbid (in a Death Match,
        which cells are critical). Each one's ``notation`` reads as a move."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The state after ``move``. Raises MoveError if it is not legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result by the rules, or None while the game goes on."""

    @abstractmethod
    def notation(self, move: M) -> str:
        """The canonical text of a move ("DL", "e3h", "c5*"); parse_move reads it back."""

    def choices(self, state: S) -> tuple[ChoiceGroup, ...] | None:
        """The legal moves as menus offer them, grouped (Sigma Escape: per card in
        hand, its placements), for the seat to move; None (the default) for a game
        that offers no menus. Every legal move is one choice, and every choice's
        notation reads as a legal move (the contract test); a group without choices
        is left out."""
        return None

    @abstractmethod
    def moves_played(self, state: S) -> int:
        """How many moves led to this state, passes included (a seat leaving a game is
        not a move): the number every board, its post and ``/match`` give a position
        (``after_move``)."""

    def passes_after(self, before: S, after: S) -> int:
        """How many passes ``apply`` made by itself after the move that led from
        ``before`` to ``after`` (Sigma Escape: a seat that cannot place passes)."""
        return max(0, self.moves_played(after) - self.moves_played(before) - 1)

    def last_move(self, state: S) -> str | None:
        """Canonical text of the move that led to this state, if the state knows it."""
        return None

    def status(self, state: S) -> str:
        """A short line about the position beyond whose turn it is (the host says that),
        shown under each board: walls left, a pass. Never an analysis hint."""
        return ""

    # ---- seats leaving a game of more than two ------------------------------------

    def eliminate(self, state: S, seat: int) -> S:
        """Take a seat out of a game of three or more (resigned or timed out).

        Only games with more than two seats need this; the host ends two-seat games
        itself.
        """
        raise EngineError(f"{self.title} cannot continue without a seat")

    # ---- images --------------------------------------------------------------------

    @abstractmethod
    def render(
        self,
        state: S,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
        verdict: str | None = None,
    ) -> bytes:
        """A PNG of the position, last move marked; at the end, what decided it.

        ``hints`` adds the game's analysis overlay (off in Death Matches).
        ``names`` labels the seats with the players' names.
        ``verdict``: the game ended by something the rules do not see (time, a
        resignation, a host), said by this line ("Bob wins: Alice ran out of time"); the
        image then shows it where it names the player to move, and no one to move.
        """

    @abstractmethod
    def describe_position(self, state: S) -> str:
        """The position in a few plain sentences for someone who cannot see the board
        (a screen reader): the pieces by cell, pawns and walls, the main group's blank
        spaces; short, for ``describe`` keeps it within ``DESCRIPTION_LIMIT``."""

    def reason_said(self, state: S, outcome: Outcome) -> str:
        """Why the game ended, for its description: ``outcome.reason``, or the same in the
        language of ``engine.labels`` where the game has templates for it."""
        return outcome.reason

    def describe(self, state: S, names: Sequence[str] | None = None,
                 verdict: str | None = None) -> str:
        """What ``render`` shows, in words, for the image's description: the game, the
        move number, who is to move (or the result, or ``verdict``), the last move and
        ``describe_position``; at most ``DESCRIPTION_LIMIT`` characters."""

        def who(seat: int) -> str:
            colour = label(self.seat_name(state, seat))
            name = names[seat].strip() if names is not None and seat < len(names) else ""
            return label("{colour} ({name})", colour=colour, name=name) if name else colour

        outcome = self.outcome(state)
        seat = self.to_move(state)
        if verdict is not None:
            standing = verdict
        elif outcome is not None:
            reason = self.reason_said(state, outcome)
            standing = (label("Draw: {reason}", reason=reason) if outcome.winner is None
                        else label("{who} wins: {reason}", who=who(outcome.winner),
                                   reason=reason))
        elif seat is not None:
            standing = label("{who} to move", who=who(seat))
        else:
            standing = label("Game over")
        parts = [label("{title}, {where}.", title=self.title,
                       where=after_move(self.moves_played(state))),
                 label("{standing}.", standing=standing.rstrip("."))]
        last = self.last_move(state)
        if last:
            parts.append(label("Last move: {move}.", move=last))
        parts.append(self.describe_position(state))
        # Sentences follow each other after a space, but not after a full stop of Japanese
        # or Chinese (。), which takes none.
        text = re.sub(r"(?<=[。！？]) ", "", " ".join(p for p in parts if p))
        if len(text) > DESCRIPTION_LIMIT:
            text = text[:DESCRIPTION_LIMIT - 1].rstrip() + "…"
        return text

    # ---- for hosts and analysts (the engine command line) --------------------------

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> S:
        """A position from the game's position syntax (``--position``)."""
        raise EngineError(f"positions cannot be given for {self.title}; use --moves")

    def sample_positions(self, seats: int, rng: Any, count: int) -> list[S] | None:
        """Mid-game positions like those of real play, for ``python -m engine bench``.

        None (the default): the bench takes the middles of uniformly random games,
        which suits games whose random play looks like real play.
        """
        return None

    def analyze(self, state: S) -> JSON:
        """What an analyst wants to know about a position, as JSON."""
        raise EngineError(f"analyze is not offered for {self.title}")

    def mover(self, state: S, move: M) -> int | None:
        """The seat that makes ``move`` in ``state``: the seat to move, except in games
        where a move can be another seat's (Sigma Escape reads a pass the engine made
        for the seat that could not place)."""
        return self.to_move(state)

    def warm_up(self) -> None:
        """Build what boards keep that random games at a render worker's warm-up
        (``engine.imaging.warm_up``) leave unbuilt: every tile of pieces and marks a
        game has a few thousand of, so that no first board of a kind builds one.
        Nothing by default."""

    def summary(self, state: S) -> JSON:
        """Facts of a position beyond the common ones, added to ``replay``'s report
        (Sigma Escape: blank spaces and the hands). Empty by default."""
        return {}

    def option_from_file(self, name: str, path: str) -> Any:
        """The value of option ``name`` read from a file (``--deck FILE`` on the command
        line). Only games whose options can come from files offer this."""
        raise OptionError(f"{self.title} reads no option '{name}' from a file")

    # ---- helpers built on the above ------------------------------------------------

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, str | int]:
        """Fill in defaults and reject unknown options or values, with a clear message."""
        given = dict(options or {})
        result: dict[str, str | int] = {}
        known = {spec.name: spec for spec in self.option_specs}
        for name in given:
            if name not in known:
                offered = ", ".join(known) or "none"
                raise OptionError(f"{self.title} has no option '{name}' (options: {offered})")
        for spec in self.option_specs:
            result[spec.name] = spec.read(given.get(spec.name, spec.default))
        return result

    def check_seats(self, seats: int) -> int:
        if seats not in self.seat_counts:
            allowed = " or ".join(str(n) for n in self.seat_counts)
            raise OptionError(f"{self.title} is played by {allowed} players, not {seats}")
        return seats

    def play(self, state: S, text: str) -> S:
        """Parse and apply in one step."""
        return self.apply(state, self.parse_move(state, text))

    def replay(
        self,
        moves: Iterable[str],
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
    ) -> S:
        """Play a sequence of move texts from the start; MoveError names the bad one."""
        state = self.new_state(seats, options)
        for number, text in enumerate(moves, start=1):
            try:
                state = self.play(state, text)
            except MoveError as exc:
                raise type(exc)(f"move {number} '{text.strip()}': {exc}", exc.token) from None
        return state

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def option_spec(self, name: str) -> OptionSpec | None:
        return next((spec for spec in self.option_specs if spec.name == name), None)

    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        """The options of a match as its rules line says them, in declared order."""
        return [spec.describe(options[spec.name]) for spec in self.option_specs
                if spec.name in options]


#: What a game class must declare, beyond the abstract methods
REQUIRED = ("interface", "key", "title", "move_help")


def lacks(cls: Any) -> list[str]:
    """What keeps ``cls`` from being a garnet game of a supported interface: a list of
    what it lacks, empty when it fits (``engine.registry`` checks it at load)."""
    if not isinstance(cls, type) or not issubclass(cls, Game):
        return ["a class that subclasses engine.game.Game"]
    missing = [name for name in REQUIRED if not getattr(cls, name, None)]
    version = getattr(cls, "interface", None)
    if version and version not in SUPPORTED:
        missing.append(f"interface {' or '.join(map(str, SUPPORTED))} "
                       f"(it declares {version!r})")
    missing += sorted(getattr(cls, "__abstractmethods__", ()))
    if len(cls.seat_counts) > 1 and cls.seats is Game.seats:
        missing.append("seats (it has several seat counts)")
    if cls.seat_name is Game.seat_name and len(cls.seat_names) < max(cls.seat_counts or (0,)):
        missing.append("seat_names (or seat_name)")
    if not all(isinstance(n, int) and n >= 1 for n in cls.seat_counts) or not cls.seat_counts:
        missing.append("seat_counts of whole numbers")
    for spec in cls.option_specs:
        if not isinstance(spec, OptionSpec):
            missing.append("option_specs of engine.game.OptionSpec")
            break
        try:
            spec.read(spec.default)
        except OptionError:
            missing.append(f"a default of option '{spec.name}' that it accepts")
    return missing
