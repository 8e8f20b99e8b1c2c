"""Small Sigma Escape test decks and cards, shared by the engine's tests: Nothing boxed
in by black presets (``box_deck``) and a few cards to put in the hands; and the winner
of a small position by the rules alone (``perfect``)."""

from __future__ import annotations

import random
from typing import Any

from engine.sigma import SigmaEscape, SigmaState
from engine.sigma.deck import Deck, deck_from_data

GAME = SigmaEscape()


def card(name: str, cells: list[str], arrows: list[str], **more: Any) -> dict[str, Any]:
    return {"name": name, "cells": cells, "arrows": arrows, **more}


NOTHING = card("Nothing", ["#"], ["0,0,N", "0,0,E", "0,0,S", "0,0,W"], colour="white",
               at=[0, 0])


def box_deck(white: list[dict[str, Any]], black: list[dict[str, Any]]) -> Deck:
    """Nothing boxed in by black presets, with two pockets of two blank cells:
    (-1,0)-(-2,0) above and (1,0)-(2,0) below; a black arrow on (-2,-1) points E into
    the upper pocket, the others point away.

    ::

        row -3   . B .        B = black preset cell
        row -2   B . B        N = the Nothing card
        row -1   B . B
        row  0   B N B
        row  1   B . B
        row  2   B . B
        row  3   . B .
    """
    black_preset = {"colour": "black"}
    presets = [
        NOTHING,
        card("Top", ["#"], ["0,0,N"], at=[-3, 0], **black_preset),
        card("LA", ["#", "#", "#"], ["0,0,E", "1,0,W"], at=[-2, -1], **black_preset),
        card("RA", ["#", "#", "#"], ["0,0,E"], at=[-2, 1], **black_preset),
        card("LB", ["#", "#"], ["1,0,W"], at=[1, -1], **black_preset),
        card("RB", ["#", "#"], ["1,0,E"], at=[1, 1], **black_preset),
        card("Bot", ["#"], ["0,0,S"], at=[3, 0], **black_preset),
    ]
    return deck_from_data({"name": "Box", "source": "test", "presets": presets,
                           "white": white, "black": black}, "box")


I2 = card("I2", ["##"], ["0,0,W", "0,1,E"])
I3 = card("I3", ["###"], ["0,0,W", "0,2,E"])
DOT = card("Dot", ["#"], ["0,0,N", "0,0,E", "0,0,S", "0,0,W"])


def start(deck: Deck) -> SigmaState:
    return GAME.new_state(2, {"deck": deck})


def perfect(state: SigmaState) -> int:
    """The winner under perfect play, by the rules alone (small positions only)."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        assert outcome.winner is not None
        return outcome.winner
    seat = GAME.to_move(state)
    wins = [perfect(GAME.apply(state, m)) for m in GAME.legal_moves(state)]
    return seat if seat in wins else 1 - seat  # type: ignore[operator]


def random_line(seed: int, deck: Any) -> list[SigmaState]:
    """Every position of one game played at random from the start (``deck`` as a
    match's options name it), the last one over."""
    rng = random.Random(seed)
    state = GAME.new_state(2, {"deck": deck})
    line = [state]
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        line.append(state)
    return line
