"""The rules variants a Sigma Escape deck may name (engine.sigma.deck.RULES; issue 42):
each changes one settlement of the rules page, in the rules, the search's Python model
and the C search alike. The page's own rules (no variant) are test_sigma_rules.py's."""

from __future__ import annotations

import random

import pytest

from engine.registry import get_game
from engine.sigma import SigmaState, ai, native, rules
from engine.sigma.deck import RULES, Deck, DeckError, deck_from_data, shipped_deck
from tests.engine.sigma_cards import DOT, I2, box_deck, start

GAME = get_game("sigma")
V1 = shipped_deck("reconstructed-v1")


def under(deck: Deck, *variants: str) -> Deck:
    return deck_from_data(deck.to_data() | {"rules": list(variants)}, deck.key)


def play(state: SigmaState, *texts: str) -> SigmaState:
    for text in texts:
        state = GAME.play(state, text)
    return state


def side(state: SigmaState, cell: tuple[int, int], d: int) -> int:
    """The number of the mover's usable side on ``cell`` pointing ``d``."""
    return rules.sides(state).index((cell, d)) + 1


def test_a_deck_names_its_rules_variants_and_keeps_them_in_its_data() -> None:
    deck = under(V1, "open-sides", "kept-arrows")
    assert deck.rules == {"open-sides", "kept-arrows"}
    assert deck_from_data(deck.to_data()).rules == deck.rules
    assert "rules" not in V1.to_data()  # the page's rules: the stored data unchanged
    with pytest.raises(DeckError, match="'rules' is a list of rules variants from open-sides"):
        deck_from_data(V1.to_data() | {"rules": ["everything"]})
    # a state stores its deck, so a match keeps the rules it was played with
    state = play(start(deck), "I2 1.1")
    assert SigmaState.from_json(state.to_json()).deck.rules == deck.rules


def test_open_sides_a_side_facing_a_covered_cell_is_not_usable() -> None:
    # White's I2 laid on Nothing's N side: Nothing's N arrow and the I2's S arrow face
    # each other. By the page both stay usable sides; under open-sides neither, as the
    # connection is made; the I2's far N arrow stays open.
    page = play(GAME.new_state(2, {"deck": V1}), "I2 1.1")
    assert {((0, 0), 0), ((-1, 0), 2), ((-2, 0), 0)} <= set(rules.sides(page, 0))
    state = play(start(under(V1, "open-sides")), "I2 1.1")
    sides = rules.sides(state, 0)
    assert ((0, 0), 0) not in sides and ((-1, 0), 2) not in sides
    assert ((-2, 0), 0) in sides and ((0, 0), 1) in sides
    # Black's side facing a white cell closes too: the Special's W arm faces (0, 1),
    # empty at the start (usable), white once White lays a card there.
    assert ((0, 2), 3) in rules.sides(state, 1)
    east = play(start(under(V1, "open-sides")), "Hub 2.1")
    assert east.board.colour[(0, 1)] == 0 and ((0, 2), 3) not in rules.sides(east, 1)


def test_kept_arrows_an_arrow_survives_a_card_of_its_colour() -> None:
    # White's I2 stands on (-1,0)-(-2,0); a white I3 laid on Nothing's N side covers it
    # up to (-3,0). By the page the I2's N arrow on (-2,0) is gone; under kept-arrows it
    # stays, as a card of its own colour covered it.
    for deck, kept in ((V1, False), (under(V1, "kept-arrows"), True)):
        state = play(start(deck), "I2 1.1", "I3 1.1")
        after = GAME.play(state, f"I3 {side(state, (0, 0), 0)}.1")
        assert sorted(after.board.layers[-1].cells) == [(-3, 0), (-2, 0), (-1, 0)]
        assert (((-2, 0), 0) in rules.sides(after, 0)) is kept
        assert ((-3, 0), 0) in rules.sides(after, 0)


def test_kept_arrows_a_card_of_the_other_colour_still_takes_an_arrow() -> None:
    deck = under(box_deck([{**I2, "count": 2}], [DOT]), "kept-arrows")
    state = play(start(deck), "I2 1.1")
    assert ((-2, 0), 0) in rules.sides(state, 0)
    after = GAME.play(state, "Dot 2.4")  # Black's Dot on (-2, 0)
    assert after.board.colour[(-2, 0)] == 1 and ((-2, 0), 0) not in rules.sides(after, 0)


def test_bare_black_a_white_card_covers_black_cells_without_an_arrow() -> None:
    # The box's black cell (0, 1) east of Nothing shows no arrow: by the page White may
    # not cover it, under bare-black it may, and the cell turns white, in the main group.
    page = start(box_deck([DOT], [DOT]))
    assert "Dot 2.1" not in {GAME.notation(m) for m in GAME.legal_moves(page)}
    state = start(under(box_deck([DOT], [DOT]), "bare-black"))
    after = GAME.play(state, "Dot 2.1")
    assert after.board.colour[(0, 1)] == 0 and (0, 1) in after.board.main
    assert (0, 2) in after.board.blanks


def test_bare_black_a_black_cell_with_an_arrow_stays_closed_to_white() -> None:
    # White's Dot above Nothing at (-1, 0): its W side faces (-1, -1), where the box's
    # LA shows a W arrow (refused); its E side faces (-1, 1), bare (allowed).
    deck = under(box_deck([{**DOT, "count": 2}], [DOT]), "bare-black")
    state = play(start(deck), "Dot 1.1", "Dot 1.1")
    west, east = side(state, (-1, 0), 3), side(state, (-1, 0), 1)
    with pytest.raises(Exception, match="would lay a white cell on a black one"):
        GAME.parse_move(state, f"Dot {west}.1")
    assert GAME.play(state, f"Dot {east}.1").board.colour[(-1, 1)] == 0


VARIANTS = [(name,) for name in RULES] + [tuple(RULES)]


def _line(deck: Deck, seed: int) -> list[SigmaState]:
    """The positions of one random game on ``deck``."""
    rng = random.Random(seed)
    state = start(deck)
    line = []
    while GAME.outcome(state) is None:
        line.append(state)
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return line


@pytest.mark.parametrize("variants", VARIANTS)
def test_the_search_s_model_places_as_the_rules_do(variants: tuple[str, ...]) -> None:
    """Every legal placement's table is one of the model's children, and each child is
    the table the rules give (cells, main group, arrows, hands), along random games."""
    deck = under(V1, *variants)
    model = ai._Model(deck)
    for state in _line(deck, 1) + _line(deck, 2):
        root = ai.node_of(state)
        raws = model.placements(root)
        kids = {model.child(root, raw)[:6] for raw in raws}
        legal = rules.placements(state)
        assert {raw[0] for raw in raws} <= {(p.card, p.side, p.arrow) for p in legal}
        assert {ai.node_of(rules.place(state, p))[:6] for p in legal} == kids


@pytest.mark.skipif(not native.AVAILABLE, reason="the C extension was not built")
@pytest.mark.parametrize("variants", VARIANTS)
def test_the_c_search_is_the_python_search_under_each_variant(
        variants: tuple[str, ...]) -> None:
    deck = under(V1, *variants)
    model = ai._Model(deck)
    for seed in range(3):
        line = _line(deck, seed)
        root = ai.node_of(line[min(len(line) - 1, 2 + 2 * seed)])
        python = ai._Search(model, 8_000, 0.0)
        c = native.NativeSearch(deck, model.weights, 8_000, 0.0)
        turn, result, moves = python.start(root)
        assert c.start(root) == (turn, result, moves)
        for depth in (1, 2, 3):
            expected = python.values(moves, depth, 0.0)
            assert c.values(moves, depth, 0.0) == expected
            assert c.nodes == python.nodes
            if expected is None:
                break
            moves = [m for m, _ in sorted(zip(moves, expected, strict=True),
                                          key=lambda v: -v[1])]
