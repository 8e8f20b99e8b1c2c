"""Sigma Escape's board read on a phone (issue 28): the hands' arrow numbers are drawn
big enough to read where the 960 px image is shown about 380 px wide, and the status
line under the hands is never cut."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.sigma.pen as pen
import engine.sigma.render as render
from engine.registry import get_game

PHONE = 380  # px: the image's width on a phone
READABLE = 7  # px: the smallest digit height on the phone one still reads


def _drawn(state: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, float]]:
    seen: list[tuple[str, int, float]] = []
    render.forget()  # nothing kept from boards drawn before: every text is drawn
    tile = pen.text_tile

    def text_tile(text: str, size: int, bold: bool, anchor: str, start: Any, *rest: Any
                  ) -> Any:
        seen.append((text, size, 0.0))
        return tile(text, size, bold, anchor, start, *rest)

    monkeypatch.setattr(pen, "text_tile", text_tile)
    get_game("sigma").render(state, names=["Maximilian Longname", "Bartholomew Q. Example"])
    return seen


def test_the_hands_arrow_numbers_read_at_a_phones_width(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("sigma")
    state = game.new_state(2)
    digits = [size for text, size, _ in _drawn(state, monkeypatch) if text in "123"]
    # The hands' badges (the board's own numbers are drawn at least as big).
    assert digits and min(digits) * PHONE / render.WIDTH >= READABLE


def test_the_status_line_is_whole_with_a_pass_and_long_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("sigma")
    rng = random.Random(255)  # White cannot place after Black's 16th move
    state = game.new_state(2, {"deck": "reconstructed-v1"})
    for _ in range(16):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    texts = [text for text, _, _ in _drawn(state, monkeypatch)]
    assert "After move 17 · Black to play · last: Black U5 5.2 · White passed" in texts
    assert any(t.startswith("3 blank spaces") and not t.endswith("…") for t in texts)
