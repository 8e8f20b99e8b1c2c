"""A whole game as an animated GIF, and the replay of stored moves it is drawn from.

A replay is the list of *plies* a match stored: moves in canonical notation, and,
in games of more than two, seats leaving (``Ply("out", seat, "out")``). Replaying
them from the start gives every position; the host rebuilds a match the same way.

The animation has exactly one frame per ply plus a final frame: frame k (k = 1..n)
shows the position after ply k with a caption naming it ("12/31 · Alice (Black): DL")
and a progress bar; frame n + 1 shows the final position again with the result
held longer. A game of no moves is the start position and its result: one frame.

GIF, not APNG: Discord and phone chat clients play GIFs inline everywhere. Every
frame is mapped to one shared palette (no dithering), so a colour never shifts
from frame to frame, and holds only what changed since the one before: a 60-move
game at the games' own width (900-960 px) is 0.6-1 MB. Boards wider than
``width`` are scaled down (LANCZOS); the host asks for 600 px only when a replay
would not fit Discord's 10 MB upload limit.
"""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from engine.game import EngineError, Game, MoveError
from engine.text import draw_text, fit_line

FRAME_MS = 700
FINAL_MS = 3000
WIDTH = 960  # px; wider boards are scaled down (every game draws 900-960 px now)

_STRIP_BG = (38, 34, 31)
_STRIP_TEXT = (246, 241, 232)
_PROGRESS = (245, 184, 0)
_PALETTE_SAMPLES = 6  # frames the shared palette is computed from
_CLEAR = 255  # the transparent palette index: unchanged pixels of a frame


class Ply(NamedTuple):
    """One stored step of a match: a move (``kind`` "move", canonical ``notation``)
    or ``seat`` leaving a game of more than two (``kind`` "out")."""

    kind: str
    seat: int
    notation: str


def positions(game: Game[Any, Any], plies: Iterable[str | Ply], seats: int = 2,
              options: Mapping[str, Any] | None = None,
              start: tuple[int, Any] | None = None) -> Iterator[Any]:
    """The start position, then the position after each ply.

    A plain string is a move. A MoveError names the ply that does not replay.
    ``start``: (n, the position after n plies) to go on from, ``plies`` those after it.
    """
    done, state = start if start is not None else (0, game.new_state(seats, options))
    yield state
    for number, step in enumerate(plies, start=done + 1):
        if isinstance(step, Ply) and step.kind == "out":
            state = game.eliminate(state, step.seat)
        else:
            text = step.notation if isinstance(step, Ply) else step
            try:
                state = game.play(state, text)
            except MoveError as exc:
                raise type(exc)(f"move {number} '{text.strip()}': {exc}", exc.token) from None
        yield state


class Numbered(NamedTuple):
    """A step of a stored game as the boards number it: ``number`` the move's (None for
    a seat leaving, which is no move); ``ply`` the stored step, None for a pass the
    rules made by themselves (Sigma Escape) after the stored move before it; ``seat``
    who moved, passed or left."""

    number: int | None
    ply: Ply | None
    seat: int


def numbered(game: Game[Any, Any], plies: Iterable[Ply], seats: int = 2,
             options: Mapping[str, Any] | None = None) -> list[Numbered]:
    """The stored plies numbered as every board says them (``Game.moves_played``), with
    the passes the rules made between them; a MoveError names a ply that does not
    replay."""
    out: list[Numbered] = []
    states = positions(game, plies, seats, options)
    before = next(states)
    for step, after in zip(plies, states, strict=False):
        if step.kind == "out":
            out.append(Numbered(None, step, step.seat))
        else:
            number = game.moves_played(before) + 1
            out.append(Numbered(number, step, step.seat))
            for k in range(game.passes_after(before, after)):
                # Passes go round from the seat after the mover's.
                out.append(Numbered(number + 1 + k, None, (step.seat + 1 + k) % seats))
        before = after
    return out


def final_position(game: Game[Any, Any], plies: Iterable[str | Ply], seats: int = 2,
                   options: Mapping[str, Any] | None = None,
                   start: tuple[int, Any] | None = None) -> Any:
    """The position after every ply: how a stored match is rebuilt (``start``: from
    the position after its first n plies, as ``positions``)."""
    return deque(positions(game, plies, seats, options, start), maxlen=1)[0]


def result_line(game: Game[Any, Any], state: Any, names: Sequence[str] | None = None) -> str:
    """What the rules say of the final position, for the last frame's caption."""
    outcome = game.outcome(state)
    if outcome is None:
        return "Not finished"
    scores = list(outcome.scores) if outcome.scores is not None else []
    if outcome.winner is None:
        text = "Draw"
    else:
        text = f"{_who(game, state, outcome.winner, names)} wins"
        if scores:  # the winner's score first: "wins 15–8"
            scores.insert(0, scores.pop(outcome.winner))
    return " ".join(part for part in (text, "–".join(map(str, scores))) if part)


def _who(game: Game[Any, Any], state: Any, seat: int, names: Sequence[str] | None) -> str:
    colour = game.seat_name(state, seat)
    if names is not None and seat < len(names) and names[seat]:
        return f"{names[seat]} ({colour})"
    return colour


def animate(
    game: Game[Any, Any],
    moves: Sequence[str | Ply],
    seats: int = 2,
    options: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
    result: str | None = None,
    *,
    frame_ms: int = FRAME_MS,
    final_ms: int = FINAL_MS,
    width: int = WIDTH,
) -> bytes:
    """An animated GIF of a game: one frame per ply, plus the final frame.

    ``moves`` are move texts or stored plies (``Ply``; seats leaving included).
    ``result`` is the caption of the final frame (the host knows a game ended by
    time or resignation; the rules alone do not); by default the rules' result.
    The GIF loops forever.
    """
    if frame_ms < 20 or final_ms < 20:
        raise EngineError("frames last at least 20 ms")
    if width < 100:
        raise EngineError(f"width must be at least 100 px, not {width}")
    states = list(positions(game, moves, seats, options))
    labels = list(names) if names is not None else None
    n = len(moves)
    total = game.moves_played(states[-1])
    # (position, caption, progress) of each frame; the last one is the result. Frames
    # are numbered as the boards number moves (passes counted, a seat leaving not).
    specs = [(states[k], f"{_number(game, states[k - 1], states[k], moves[k - 1], total)}"
              f"{_ply_text(game, states[k - 1], moves[k - 1], labels)}"
              f"{_passed(game, states[k - 1], states[k])}", k / n) for k in range(1, n + 1)]
    final = result if result is not None else result_line(game, states[-1], labels)
    specs.append((states[-1], final, 1.0))
    # A game the rules did not end (time, resignation, a host): its last board says
    # how it ended, not whose turn it was.
    verdict = result if result is not None and game.outcome(states[-1]) is None else None
    first = _board(game, states[-1], labels, width, verdict)
    canvas = first.size
    shown = [name for name in labels or () if name]

    def frame(i: int) -> Image.Image:
        state, caption, progress = specs[i]
        board = first if i == len(specs) - 1 else _board(game, state, labels, width)
        return _frame(board, canvas, caption, progress, final=i == len(specs) - 1,
                      names=shown)

    return _gif(frame, len(specs), [frame_ms] * n + [final_ms])


def _board(game: Game[Any, Any], state: Any, names: list[str] | None,
           width: int, verdict: str | None = None) -> Image.Image:
    png = game.render(state, hints=False, names=names, verdict=verdict)
    board = Image.open(io.BytesIO(png)).convert("RGB")
    if board.width > width:
        height = round(board.height * width / board.width)
        board = board.resize((width, height), Image.Resampling.LANCZOS)
    return board


def _number(game: Game[Any, Any], before: Any, after: Any, step: str | Ply,
            total: int) -> str:
    """"12/57 · " for the 12th move of 57; nothing for a seat leaving (no move)."""
    if isinstance(step, Ply) and step.kind == "out":
        return ""
    return f"{game.moves_played(before) + 1}/{total} · "


def _passed(game: Game[Any, Any], before: Any, after: Any) -> str:
    """", then a pass" when the rules made the next seat pass (Sigma Escape)."""
    passes = game.passes_after(before, after)
    return "" if passes == 0 else ", then a pass" if passes == 1 else f", then {passes} passes"


def _ply_text(game: Game[Any, Any], before: Any, step: str | Ply,
              names: list[str] | None) -> str:
    if isinstance(step, Ply):
        who = _who(game, before, step.seat, names)
        if step.kind == "out":
            return f"{who} leaves the game"
        return f"{who}: {step.notation}"
    parsed = game.parse_move(before, step)
    seat = game.mover(before, parsed)
    move = game.notation(parsed)
    return f"{_who(game, before, seat, names)}: {move}" if seat is not None else move


def _frame(board: Image.Image, canvas: tuple[int, int], caption: str, progress: float,
           final: bool = False, names: Sequence[str] = ()) -> Image.Image:
    """A board above the caption strip, on a canvas the size of every frame's board
    (a board of another size, should a game draw one, is cropped or padded). The
    caption is fitted whole: in a smaller font, then with the names in it shortened;
    a result never loses its verdict to a long name."""
    w, h = canvas
    size = max(14, round(w / 30))
    strip = round(size * 2.2)
    frame = Image.new("RGB", (w, h + strip), board.getpixel((0, 0)))
    frame.paste(board.crop((0, 0, w, h)) if board.size != canvas else board, (0, 0))
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, h, w, h + strip), fill=_STRIP_BG)
    bar = max(3, size // 5)
    draw.rectangle((0, h, round(w * progress), h + bar - 1), fill=_PROGRESS)
    text, text_size = fit_line(caption, w - 2 * size, size, names=names,
                               smallest=max(11, size * 3 // 5))
    draw_text(frame, (size, h + bar + (strip - bar) // 2), text, text_size, True,
              _PROGRESS if final else _STRIP_TEXT, "lm")
    return frame


def _gif(frame: Callable[[int], Image.Image], count: int, durations: list[int]) -> bytes:
    """Encode frames as they are drawn: one frame in memory at a time, however long
    the game (a 200-ply game would otherwise hold hundreds of megabytes)."""
    picks = sorted({round(i * (count - 1) / max(1, _PALETTE_SAMPLES - 1))
                    for i in range(min(count, _PALETTE_SAMPLES))})
    drawn = {i: frame(i) for i in picks}
    palette = _shared_palette([drawn[i] for i in picks])
    out = io.BytesIO()
    before: Image.Image | None = None
    for i in range(count):
        now = (drawn.pop(i, None) or frame(i)).quantize(palette=palette,
                                                         dither=Image.Dither.NONE)
        if before is None:
            header, _ = GifImagePlugin.getheader(now, None, {"loop": 0, "duration": 1})
            out.write(b"".join(header))
            data = GifImagePlugin.getdata(now, (0, 0), duration=durations[i], disposal=1)
        else:
            # Only the pixels that changed are written, the rest is the palette index
            # left free (the palette has 255 colours), transparent, so the previous
            # frame shows through: a move is a few kilobytes.
            changed = ImageChops.difference(_indices(before), _indices(now)).point(
                [0, *(255,) * 255], "1")
            box = changed.getbbox() or (0, 0, 1, 1)
            holes = Image.new("P", now.size, _CLEAR)
            holes.putpalette(now.getpalette() or [])
            holes.paste(now, mask=changed)
            data = GifImagePlugin.getdata(holes.crop(box), box[:2], duration=durations[i],
                                          disposal=1, transparency=_CLEAR)
        out.write(b"".join(data))
        before = now
    out.write(b";")
    return out.getvalue()


def _indices(image: Image.Image) -> Image.Image:
    """The palette indices of a "P" image as a greyscale image, to compare them."""
    return Image.frombytes("L", image.size, image.tobytes())


def _shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One palette of 255 colours fitted to a few frames spread over the game.

    The first and last frames hold the board, every seat's pieces and both caption
    styles; a few frames between add the colours only some positions show (the
    last-move mark on different pieces). Index 255 stays free for transparency.
    """
    count = min(len(frames), _PALETTE_SAMPLES)
    picks = sorted({round(i * (len(frames) - 1) / max(1, count - 1)) for i in range(count)})
    w = max(frames[i].width for i in picks)
    h = sum(frames[i].height for i in picks)
    sheet = Image.new("RGB", (w, h))
    y = 0
    for i in picks:
        sheet.paste(frames[i], (0, y))
        y += frames[i].height
    return sheet.quantize(_CLEAR, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
