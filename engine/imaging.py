"""Drawing helpers every game's renderer shares: fonts, fitting text, PNG output.

DejaVu Sans ships with the package, so images look the same on every machine; names
in other scripts and emoji are drawn with the faces ``engine.fonts`` finds, character
by character (``engine.text``).
"""

from __future__ import annotations

import io

from PIL import Image, ImageFont

from engine import fonts, text
from engine.palette import png_of

ELLIPSIS = text.ELLIPSIS


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans: for text that is always in it (labels, numbers, moves)."""
    return fonts.dejavu(size, bold)


def fit_text(line: str, width: float, size: int, bold: bool = True) -> str:
    """The text, shortened with an ellipsis until it fits ``width`` pixels (every face
    of the chain measured, never inside a character)."""
    return text.fit_text(line, width, size, bold)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of a board image, fast to make and small to upload.

    Boards are flat colours plus anti-aliased edges, which a 256-colour palette
    holds without visible loss; encoding the palette image is several times faster
    than full RGB and the file is less than half the size.
    """
    if image.mode == "RGBA":
        image = image.convert("RGB")
    if image.mode == "RGB":
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if image.mode == "P" and "transparency" not in image.info:
        return png_of(image)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


WARM_UP_SEED = 20261128
WARM_UP_PLIES = 60  # drawn of each game (and its end): random Quoridor games run to 300


def warm_up() -> None:
    """Build every game's cached artwork in every variant (seat count), before the
    first real board: static layers, palettes, fonts and the tiles of pieces and marks.
    For each, one seeded random game is drawn, its first ``WARM_UP_PLIES`` plies and its
    end, with hints and without, so that a worker's first board of a kind does not
    build them (a first four-player Quoridor board cost 33 ms when only two players'
    boards were drawn); then the game's own ``warm_up`` builds the tiles random games
    leave unseen (every Cairo Corridor cell in every look, every Quoridor pawn, mark
    and lone wall)."""
    import random

    from engine.registry import game_keys, get_game

    names = ["Garnet", "Ruby", "Opal", "Jade"]
    for key in game_keys():
        game = get_game(key)
        for seats in game.seat_counts:
            rng = random.Random(WARM_UP_SEED)
            state = game.new_state(seats)
            ply = 0
            while True:
                over = game.outcome(state) is not None
                if ply < WARM_UP_PLIES or over:
                    game.render(state, hints=ply % 2 == 1, names=names[:seats])
                if over:
                    break
                state = game.apply(state, rng.choice(game.legal_moves(state)))
                ply += 1
        game.warm_up()  # what random games do not reach: every tile, where it has a few
