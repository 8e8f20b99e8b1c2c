"""Sigma Escape through the whole Game interface: the properties every game must
have (JSON round trip, notation read back, outcome only when no move remains, images),
and the pictures themselves."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.game import PositionError
from engine.registry import get_game
from engine.sigma import SigmaEscape, SigmaState
from engine.sigma.deck import shipped_deck
from engine.sigma.render import HEIGHT, WIDTH, deck_sheet
from tests.engine.sigma_cards import DOT, I2, I3, box_deck, start

GAME = SigmaEscape()


def random_states(seed: int) -> list[SigmaState]:
    rng = random.Random(seed)
    state = GAME.new_state()
    states = [state]
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        states.append(state)
    return states


def test_registered() -> None:
    game = get_game("sigma")
    assert isinstance(game, SigmaEscape) and game.title == "Sigma Escape"
    assert get_game("Sigma Escape") is game
    assert [s.name for s in game.option_specs] == ["deck"]
    assert game.check_options({}) == {"deck": "reconstructed"}


@pytest.mark.parametrize("seed", range(6))
def test_the_contract_on_random_games(seed: int) -> None:
    for state in random_states(seed):
        data = GAME.to_json(state)
        assert GAME.from_json(data) == state
        moves = GAME.legal_moves(state)
        for move in moves:
            assert GAME.parse_move(state, GAME.notation(move)) == move
        assert (GAME.outcome(state) is None) == bool(moves)
        assert (GAME.to_move(state) is None) == (GAME.outcome(state) is not None)
        assert GAME.seat_name(state, 0) == "White" and GAME.seats(state) == 2


def test_the_contract_with_passes() -> None:
    deck = box_deck([I3], [DOT])
    state = start(deck)
    again = GAME.from_json(GAME.to_json(state))
    assert again == state and again.passes == 1
    assert GAME.replay(["pass"], 2, {"deck": deck}).passes_read == 1


def test_a_pass_is_said_to_be_the_passers() -> None:
    from engine.animation import _ply_text

    deck = box_deck([I3], [DOT])
    state = start(deck)
    assert _ply_text(GAME, state, "pass", None) == "White: pass"
    after = GAME.play(state, "Dot 1.1")
    assert _ply_text(GAME, after, "pass", None) == "White: pass"
    assert _ply_text(GAME, GAME.play(after, "pass"), "pass", ["Ann", "Bob"]) == "Bob (Black): pass"
    assert GAME.mover(after, GAME.parse_move(after, "pass")) == 0


def test_bad_state_json_is_refused() -> None:
    data = GAME.to_json(GAME.play(GAME.new_state(), "T4 3.3"))
    for field, value in (("turn", 2), ("passes", 3), ("placed", [{"seat": 0, "card": "V5",
                                                                   "turns": 0, "at": [0, 0]}])):
        with pytest.raises(PositionError):
            GAME.from_json({**data, field: value})
    with pytest.raises(PositionError):
        GAME.from_json({**data, "extra": 1})


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def test_images_render_at_one_size_through_a_game() -> None:
    for state in random_states(3)[::3] + random_states(3)[-1:]:
        picture = image(GAME.render(state, names=["Ann", "Bob"]))
        assert picture.size == (WIDTH, HEIGHT)


def test_the_final_image_shows_the_result() -> None:
    black_wins = GAME.replay(["I2 1.1", "Dot 2.4", "I2 4.1"], 2,
                             {"deck": box_deck([{**I2, "count": 2}], [DOT])})
    white_wins = start(box_deck([I3], []))
    for state in (black_wins, white_wins):
        assert GAME.outcome(state) is not None
        picture = image(GAME.render(state)).convert("RGB")
        # the result band is drawn in gold across the bottom
        pixel = picture.getpixel((WIDTH // 2, HEIGHT - 5))
        assert isinstance(pixel, tuple)
        assert all(abs(a - b) <= 3 for a, b in zip(pixel, (250, 204, 72), strict=True))


def test_the_deck_sheet() -> None:
    picture = image(deck_sheet(shipped_deck("reconstructed")))
    assert picture.width == WIDTH and picture.height > 400


@pytest.mark.parametrize("spills", [False, True])
def test_boards_kept_in_bands_decode_to_the_whole_drawing(
        spills: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's PNG keeps the compressed rows of its header and of each hand, which
    recur from board to board (``png_of_bands``): every board of two random games, each
    drawn twice (the second time from the kept bands), decodes to exactly the true-colour
    drawing mapped to the palette; so do boards whose cards spill over the header and
    the hands (nothing kept: they are drawn over)."""
    from engine import palette
    from engine.sigma import render

    if spills:
        board = render._board
        monkeypatch.setattr(render, "_board", lambda *args: board(*args) or True)
    render.forget()
    names = ["Alice", "Bob"]
    for seed in (3, 4):
        for state in random_states(seed):
            truth = render._fixed().quantize(render.board_image(state, names)).convert("RGB")
            for _ in range(2):
                drawn = Image.open(io.BytesIO(GAME.render(state, names=names))).convert("RGB")
                assert drawn.tobytes() == truth.tobytes()
    assert bool(palette._BANDS) is not spills


def test_a_hands_line_stays_above_its_cards() -> None:
    """A hand's cards are pasted whole below ``HEAD_ROWS`` (``hand_tile``): the line
    above them (swatch, name, count, pill) never draws there, whatever the name (long,
    with descenders, an emoji, CJK) and whoever is to play or has won."""
    from engine.sigma import hands, look, render
    from engine.sigma.pen import Pen

    palette = render._fixed()
    ground = palette.index(look.BG)
    for seat in (0, 1):
        for name in ("gjpqy Ygg", "🐱 jumpy", "李小龍 gg", "W" * 80):
            for pill in (None, ("to play", look.GOLD), ("wins", look.WIN_BG)):
                line, size = hands.fit_line(f"White (to escape) · {name} · 9 cards left",
                                            620, 22, names=[name])
                tile = Image.new("P", (WIDTH, look.HAND_ROW), ground)
                top = look.HAND_TOP + seat * look.HAND_ROW
                hands.hand_head(Pen(tile, palette, (0, -top)), seat, line, size, pill)
                below = tile.crop((0, hands.HEAD_ROWS, WIDTH, look.HAND_ROW))
                assert set(below.tobytes()) == {ground}, (seat, name, pill)
