"""Replays as animated GIFs: a frame per ply plus the final frame, decodable, exact."""

from __future__ import annotations

import io
import random
import struct
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.animation import FINAL_MS, FRAME_MS, Ply, animate, final_position, positions
from engine.cli import main
from engine.game import Game, MoveError
from engine.registry import get_game

cairo = get_game("cairo")
quoridor = get_game("quoridor")


def random_moves(game: Game[Any, Any], count: int, seats: int = 2, seed: int = 5) -> list[str]:
    """``count`` legal moves (fewer if the game ends first), in canonical notation."""
    rng = random.Random(seed)
    state = game.new_state(seats, None)
    moves: list[str] = []
    while len(moves) < count and game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.notation(move))
        state = game.apply(state, move)
    return moves


def frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as the viewer shows it (RGB, composed), with its duration in ms."""
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    assert image.info.get("loop") == 0  # loops forever
    shown = []
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        shown.append((image.convert("RGB"), int(image.info["duration"])))
    return shown


def board_of(game: Game[Any, Any], state: Any, names: list[str]) -> Image.Image:
    return Image.open(io.BytesIO(game.render(state, names=names))).convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_one_frame_per_move_plus_the_final_frame() -> None:
    moves = random_moves(cairo, 9)
    shown = frames(animate(cairo, moves, names=["Alice", "Bob"]))
    assert len(shown) == len(moves) + 1
    assert [ms for _, ms in shown] == [FRAME_MS] * len(moves) + [FINAL_MS]
    for (before, _), (after, _) in pairwise(shown):
        assert ImageChops.difference(before, after).getbbox() is not None


def test_frame_k_is_the_board_after_move_k_in_true_colours() -> None:
    moves = random_moves(cairo, 6)
    names = ["Alice", "Bob"]
    states = list(positions(cairo, moves))
    shown = frames(animate(cairo, moves, names=names))
    for k in range(1, len(moves) + 1):
        board = board_of(cairo, states[k], names)
        frame, _ = shown[k - 1]
        assert frame.width == board.width and frame.height > board.height  # + caption
        top = frame.crop((0, 0, *board.size))
        # The shared palette maps anti-aliased edges to near colours only.
        assert mean_difference(top, board) < 1.0, k
        if k > 1:
            # Not the board of the move before: the move is drawn, not just captioned.
            previous = board_of(cairo, states[k - 1], names)
            assert mean_difference(top, previous) > 2 * mean_difference(top, board)
    final, _ = shown[-1]
    last, _ = shown[-2]
    height = board_of(cairo, states[-1], names).height
    # The final frame holds the last position; only its caption (the result) differs.
    assert ImageChops.difference(final.crop((0, 0, final.width, height)),
                                 last.crop((0, 0, last.width, height))).getbbox() is None
    assert ImageChops.difference(final, last).getbbox() is not None


def test_a_whole_game_ends_on_its_result() -> None:
    moves = random_moves(cairo, 200, seed=11)
    end = final_position(cairo, moves)
    outcome = cairo.outcome(end)
    assert outcome is not None and outcome.scores is not None
    shown = frames(animate(cairo, moves, frame_ms=100, final_ms=2000))
    assert len(shown) == len(moves) + 1
    assert [ms for _, ms in shown] == [100] * len(moves) + [2000]


def test_every_frame_uses_the_one_global_palette() -> None:
    gif = animate(cairo, random_moves(cairo, 5))
    assert gif[10] & 0x80  # a global colour table
    table = 3 * 2 ** ((gif[10] & 0x07) + 1)
    at, images = 13 + table, 0
    while gif[at] != 0x3B:  # trailer
        if gif[at] == 0x21:  # an extension: label, then sub-blocks
            at += 2
        else:
            assert gif[at] == 0x2C
            (packed,) = struct.unpack_from("B", gif, at + 9)
            assert not packed & 0x80, "a local colour table"
            images += 1
            at += 11  # descriptor and the LZW code size
        while gif[at]:
            at += gif[at] + 1
        at += 1
    assert images == 6


def test_a_game_of_no_moves_is_one_frame_of_the_start() -> None:
    shown = frames(animate(cairo, [], names=["Alice", "Bob"], result="Voided by the host"))
    assert len(shown) == 1 and shown[0][1] == FINAL_MS
    board = board_of(cairo, cairo.new_state(2, None), ["Alice", "Bob"])
    assert mean_difference(shown[0][0].crop((0, 0, *board.size)), board) < 1.0


def test_a_seat_leaving_is_a_ply_with_a_frame_of_its_own() -> None:
    moves = random_moves(quoridor, 6, seats=4)
    plies = [Ply("move", i % 4, m) for i, m in enumerate(moves[:5])]
    plies.append(Ply("out", 1, "out"))  # Bob resigns before his second move
    plies.append(Ply("move", 2, random_moves_after(plies)))
    names = ["Ann", "Bob", "Cy", "Di"]
    states = list(positions(quoridor, plies, seats=4))
    assert states[6] == quoridor.eliminate(states[5], 1)
    assert quoridor.to_move(states[6]) == 2
    shown = frames(animate(quoridor, plies, seats=4, names=names))
    assert len(shown) == len(plies) + 1
    out = board_of(quoridor, states[6], names)
    assert mean_difference(shown[5][0].crop((0, 0, *out.size)), out) < 1.0


def random_moves_after(plies: list[Ply]) -> str:
    state = final_position(quoridor, plies, seats=4)
    return str(quoridor.notation(sorted(quoridor.legal_moves(state), key=str)[0]))


def test_boards_wider_than_the_width_are_scaled_down() -> None:
    shown = frames(animate(cairo, random_moves(cairo, 2), width=300))
    assert {frame.width for frame, _ in shown} == {300}


def test_a_move_that_does_not_replay_is_named() -> None:
    with pytest.raises(MoveError, match=r"^move 2 'zz': "):
        animate(cairo, ["DL", "zz"])
    with pytest.raises(MoveError, match=r"^move 2 'DL': "):
        final_position(cairo, [Ply("move", 0, "DL"), Ply("move", 1, "DL")])


def test_command_line_writes_the_animation(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.gif"
    code = main(["animate", "cairo", "--moves", "D left, JU, w-up", "--out", str(out),
                 "--names", "Ann,Ben"])
    assert code == 0 and capsys.readouterr().out.strip() == str(out)
    assert len(frames(out.read_bytes())) == 4
    code = main(["animate", "cairo", "--moves", "D left, D left", "--out", str(out)])
    assert code == 2
    assert capsys.readouterr().err.startswith("error: move 2 'D left': ")
