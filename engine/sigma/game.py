"""Sigma Escape (qualt.co.jp) as a garnet game.

White (seat 0, the mouse) keeps its main group next to a blank space; Black (seat 1,
the cat) surrounds it. Moves are ``CARD SIDE.ARROW``; passes happen by themselves:
``apply`` (and ``new_state``) run the automatic passes, so the seat ``to_move`` reports
can always place. A replay may write each such pass as ``pass`` or leave it out.

The ``deck`` option names a shipped deck, or is a deck's data (a mapping as
``Deck.to_data`` writes it: the bot stores a server's own deck with its match so); the
engine's own callers (the command line's
``--deck FILE``, tests) may also give a ``Deck`` itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.game import (
    JSON,
    Choice,
    ChoiceGroup,
    ChoiceWords,
    Game,
    OptionError,
    OptionSpec,
    Outcome,
)
from engine.labels import label
from engine.sigma import notation as notes
from engine.sigma import rules
from engine.sigma.deck import (
    DEFAULT_DECK,
    Deck,
    DeckError,
    deck_from_data,
    find_deck,
    shipped_deck,
    shipped_decks,
)
from engine.sigma.notation import Move
from engine.sigma.state import SEAT_NAMES, SigmaState


class SigmaEscape(Game[SigmaState, Move]):
    interface: ClassVar[int] = 1
    key: ClassVar[str] = "sigma"
    title: ClassVar[str] = "Sigma Escape"
    aliases: ClassVar[tuple[str, ...]] = ("sigma escape", "sigma-escape")
    ai: ClassVar[str | None] = "engine.sigma.ai:AI"
    move_example: ClassVar[str] = "T4 7.2"
    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "deck",
            DEFAULT_DECK,
            shipped_decks(),
            "the deck: the cards' faces, presets and hands (the default is a "
            "reconstruction: the real cards' pictures are lost)",
            phrase="deck {value}",
        ),
    )
    move_help: ClassVar[str] = notes.MOVE_HELP
    choice_words: ClassVar[ChoiceWords | None] = notes.CHOICE_WORDS

    # ---- construction and serialisation -------------------------------------------

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        given = dict(options or {})
        deck = given.get("deck")
        if isinstance(deck, Deck):
            rest = self.check_options({k: v for k, v in given.items() if k != "deck"})
            return rest | {"deck": deck}
        if isinstance(deck, Mapping):
            # A deck given as data (a host's own deck, stored with a match): checked,
            # and kept as data so that the options stay JSON.
            rest = self.check_options({k: v for k, v in given.items() if k != "deck"})
            try:
                checked = deck_from_data(deck, str(deck.get("key", "deck")))
            except DeckError as exc:
                raise OptionError(str(exc)) from None
            return rest | {"deck": checked.to_data()}
        return dict(super().check_options(given))

    def option_from_file(self, name: str, path: str) -> Any:
        if name != "deck":
            return super().option_from_file(name, path)
        return find_deck(path)

    def deck(self, options: Mapping[str, Any] | None) -> Deck:
        value = self.check_options(options)["deck"]
        if isinstance(value, Deck):
            return value
        if isinstance(value, Mapping):
            return deck_from_data(value, str(value.get("key", "deck")))
        try:
            return shipped_deck(str(value))
        except DeckError as exc:  # a shipped deck file that does not load
            raise OptionError(str(exc)) from None

    def new_state(self, seats: int = 2, options: Mapping[str, Any] | None = None) -> SigmaState:
        self.check_seats(seats)
        return rules.settle(SigmaState(self.deck(options)))

    def to_json(self, state: SigmaState) -> JSON:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> SigmaState:
        return SigmaState.from_json(data)

    # ---- playing -------------------------------------------------------------------

    def to_move(self, state: SigmaState) -> int | None:
        return None if rules.outcome(state) is not None else state.turn

    def parse_move(self, state: SigmaState, text: str) -> Move:
        return notes.parse(state, text)

    def well_formed_moves(self, state: SigmaState) -> list[Move]:
        """Every card of the hand on every usable side with every arrow of the card:
        which of them fit is for the player to see."""
        if rules.outcome(state) is not None:
            return []
        seat = state.turn
        hand = state.deck.hands[seat]
        count = len(rules.sides(state))
        return [Move(hand[i][0].name, side, arrow)
                for i, left in enumerate(state.board.hands[seat]) if left
                for side in range(1, count + 1)
                for arrow in range(1, len(hand[i][0].fits) + 1)]

    def legal_moves(self, state: SigmaState) -> list[Move]:
        if rules.outcome(state) is not None:
            return []
        hand = state.deck.hands[state.turn]
        return [Move(hand[p.card][0].name, p.side, p.arrow) for p in rules.placements(state)]

    def apply(self, state: SigmaState, move: Move) -> SigmaState:
        if move.is_pass:
            notes.check_pass(state)
            return rules.read_pass(state)
        notes.check(state, move)
        index = state.deck.card(state.turn, move.card)
        assert index is not None
        placement = rules.Placement(index, move.side, move.arrow)
        return rules.place(state, placement, notes.notation(move))

    def mover(self, state: SigmaState, move: Move) -> int | None:
        if not move.is_pass:
            return self.to_move(state)
        # Passes after a placement alternate from the other seat; at the start White
        # (who moves first) is the first to pass.
        placed_by = state.placed[-1].seat if state.placed else 1
        return 1 - placed_by if state.passes_read % 2 == 0 else placed_by

    def outcome(self, state: SigmaState) -> Outcome | None:
        return rules.outcome(state)

    def notation(self, move: Move) -> str:
        return notes.notation(move)

    def choices(self, state: SigmaState) -> tuple[ChoiceGroup, ...]:
        """Per card in the mover's hand (in deck order) with a legal placement, its
        legal placements."""
        moves = self.legal_moves(state)
        if not moves:
            return ()
        sides = rules.sides(state)
        names = state.hand_names(state.turn)
        left = Counter(names)
        groups = []
        for card in dict.fromkeys(names):
            placements = []
            for move in moves:
                if move.card == card:
                    (r, c), d = sides[move.side - 1]
                    text = notes.notation(move)
                    placements.append(Choice(text, text, notes.place_description(
                        move.side, r, c, "NESW"[d], move.arrow)))
            if placements:
                groups.append(ChoiceGroup(card, notes.card_description(
                    len(placements), left[card]), tuple(placements)))
        return tuple(groups)

    def moves_played(self, state: SigmaState) -> int:
        return state.moves_played

    def describe_position(self, state: SigmaState) -> str:
        board = state.board
        blanks = sorted(board.blanks)
        # Rows and columns from 1, counted from the top-left of what is on the table.
        seen = [*board.colour, *blanks]
        top = min(r for r, _ in seen)
        left = min(c for _, c in seen)
        comma = label(", ")
        spaces = comma.join(f"{r - top + 1}-{c - left + 1}" for r, c in blanks) or label("none")
        hands = "; ".join(label("{colour} {n}", colour=label(SEAT_NAMES[s]),
                                n=comma.join(state.hand_names(s)) or label("none"))
                          for s in (0, 1))
        return " ".join([
            label("White's main group: {cells} cells, {n} blank spaces (row-column, from "
                  "the top-left of the cards on the table): {spaces}.",
                  cells=len(board.main) - 1, n=len(blanks), spaces=spaces),
            label("Cards left: {hands}.", hands=hands)])

    def reason_said(self, state: SigmaState, outcome: Outcome) -> str:
        return rules.reason_said(state)

    def last_move(self, state: SigmaState) -> str | None:
        last = state.last
        return last.move or None if last is not None else None

    def status(self, state: SigmaState) -> str:
        result = rules.outcome(state)
        if result is not None:
            return label("Game over · {who} wins: {reason}",
                         who=label(SEAT_NAMES[result.winner or 0]),
                         reason=rules.reason_said(state))
        parts = []
        if state.passes:
            passer = label(SEAT_NAMES[1 - state.turn])
            parts.append(label("{colour} passed (move {n}: no legal placement)",
                               colour=passer, n=state.moves_played))
        parts.append(rules.blank_spaces(len(state.board.blanks)))
        left = state.board.hands
        parts.append(label("cards left: {left}", left=label(", ").join(
            label("{colour} {n}", colour=label(SEAT_NAMES[s]), n=sum(left[s]))
            for s in (0, 1))))
        return " · ".join(parts)

    def summary(self, state: SigmaState) -> JSON:
        return {
            "blank_spaces": len(state.board.blanks),
            "hands": [state.hand_names(0), state.hand_names(1)],
        }

    # ---- images --------------------------------------------------------------------

    def render(
        self,
        state: SigmaState,
        *,
        hints: bool = False,
        names: Sequence[str] | None = None,
        verdict: str | None = None,
    ) -> bytes:
        from engine.sigma.render import render

        return render(state, names=names, verdict=verdict)

    # ---- analysis ------------------------------------------------------------------

    def analyze(self, state: SigmaState) -> JSON:
        board = state.board
        over = rules.outcome(state)
        sides = [] if over is not None else rules.sides(state)
        return {
            "to_move": self.to_move(state),
            "over": over is not None,
            "blank_spaces": len(board.blanks),
            "main_group": len(board.main),
            "sides": [f"{n} {r},{c},{'NESW'[d]}" for n, ((r, c), d) in enumerate(sides, 1)],
            "legal": sorted(self.notation(m) for m in self.legal_moves(state)),
            "hands": [state.hand_names(0), state.hand_names(1)],
        }


