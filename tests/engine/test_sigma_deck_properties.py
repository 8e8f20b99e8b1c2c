"""Every deck the validator accepts plays to an end under random play, or is refused
with a precise reason (issue 28): random deck data, random games."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sigma import SigmaEscape
from engine.sigma.deck import DeckError, deck_from_data

GAME = SigmaEscape()
WHERE = "deck 'random'"


SIDES = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
# Where presets may lie: boxes of 3×3 that overlap neither Nothing nor each other.
SLOTS = ([-4, -1], [2, -1], [-1, 2], [-1, -4])


@st.composite
def cards(draw: st.DrawFn, colour: str | None, name: str) -> dict[str, Any]:
    """A card, mostly well made (its arrows on open edges), now and then not."""
    height = draw(st.integers(1, 3))
    width = draw(st.integers(1, 3))
    rows = ["".join(draw(st.sampled_from("##.")) for _ in range(width)) for _ in range(height)]
    coloured = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    open_edges = sorted(f"{r},{c},{d}" for r, c in coloured for d, (dr, dc) in SIDES.items()
                        if (r + dr, c + dc) not in coloured)
    if open_edges and draw(st.integers(0, 9)):
        arrows = draw(st.lists(st.sampled_from(open_edges), min_size=1, max_size=4,
                               unique=True))
    else:  # anything at all: the validator must say what is wrong
        arrows = [f"{r},{c},{d}" for r, c, d in draw(st.lists(st.tuples(
            st.integers(0, 3), st.integers(0, 3), st.sampled_from("NESWX")), max_size=3))]
    card: dict[str, Any] = {"name": name, "cells": rows, "arrows": arrows}
    if colour is not None:
        card["colour"] = colour
    return card


@st.composite
def decks(draw: st.DrawFn) -> dict[str, Any]:
    nothing = {"name": "Nothing", "colour": "white", "cells": ["#"], "at": [0, 0],
               "arrows": draw(st.lists(st.sampled_from(["0,0,N", "0,0,E", "0,0,S", "0,0,W"]),
                                       min_size=1, max_size=4, unique=True))}
    presets = [nothing]
    slots = draw(st.permutations(SLOTS))
    for i in range(draw(st.integers(0, 3))):
        preset = draw(cards(draw(st.sampled_from(["white", "black", "black"])), f"P{i}"))
        preset["at"] = list(slots[i])
        presets.append(preset)
    hands = {}
    for colour in ("white", "black"):
        hand = []
        for i in range(draw(st.integers(0, 4))):
            card = draw(cards(None, f"{colour[0].upper()}{i}"))
            card["colour"] = colour
            card["count"] = draw(st.integers(1, 3))
            hand.append(card)
        hands[colour] = hand
    return {"name": "Random", "source": "test", "presets": presets, **hands}


@settings(max_examples=300, deadline=None)
@given(decks(), st.integers(0, 2**31))
def test_an_accepted_deck_plays_to_an_end_or_is_refused_precisely(
        data: dict[str, Any], seed: int) -> None:
    try:
        deck = deck_from_data(data, "random")
    except DeckError as exc:
        text = str(exc)
        assert text.startswith(f"{WHERE}") and ": " in text and len(text) > len(WHERE) + 10
        return
    assert deck.hand_size(0) + deck.hand_size(1) > 0
    state = GAME.new_state(2, {"deck": deck})
    rng = random.Random(seed)
    cards_left = deck.hand_size(0) + deck.hand_size(1)
    for _ in range(cards_left + 1):  # each move lays a card; passes are automatic
        if GAME.outcome(state) is not None:
            break
        moves = GAME.legal_moves(state)
        assert moves, "a player to move has a legal placement"
        state = GAME.apply(state, rng.choice(moves))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner in (0, 1) and outcome.reason
    assert GAME.to_move(state) is None and GAME.legal_moves(state) == []
    # The end reads back from the record: the moves replayed give the same result.
    again = GAME.from_json(GAME.to_json(state))
    assert GAME.outcome(again) == outcome


def test_the_hollow_deck_of_the_trial_is_refused() -> None:
    data = {"name": "Hollow", "source": "test", "white": [], "black": [],
            "presets": [{"name": "Nothing", "colour": "white", "cells": ["#"],
                         "arrows": ["0,0,N"], "at": [0, 0]}]}
    try:
        deck_from_data(data, "random")
    except DeckError as exc:
        assert str(exc) == (f"{WHERE}: both hands are empty; a player needs at least one "
                            f"card, or the game is over before it begins")
    else:
        raise AssertionError("a deck with empty hands was accepted")


def test_presets_that_close_the_main_group_in_are_refused() -> None:
    ring = [{"name": f"B{i}", "colour": "black", "cells": ["#"], "arrows": ["0,0,N"],
             "at": at} for i, at in enumerate(([-1, 0], [0, 1], [1, 0], [0, -1]))]
    data = {"name": "Ring", "source": "test", "white": [{"name": "Dot", "cells": ["#"],
                                                         "arrows": ["0,0,N"]}],
            "black": [], "presets": [{"name": "Nothing", "colour": "white", "cells": ["#"],
                                      "arrows": ["0,0,N"], "at": [0, 0]}, *ring]}
    try:
        deck_from_data(data, "random")
    except DeckError as exc:
        assert "no blank space" in str(exc)
    else:
        raise AssertionError("a deck whose presets surround Nothing was accepted")
