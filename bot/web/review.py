"""A finished match's review on its page: the evaluation plot (an SVG drawn by the
template from the points here: no script, no image to fetch) with its legend and a
text equivalent, and a note beside each move the computer judged.

Only a review stored by ``/review`` or an event's automatic review is shown
(``bot.services.review.stored``): a page never starts an analysis. Players are named
as the page names them (``People``: a hidden player is the neutral label); the notes
name moves and colours, never a person.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.enums import MoveKind
from bot.core.escape import unescape
from bot.services.history_queries import MatchRecord
from bot.services.review import move_numbers, verdict_of
from bot.texts import web as say
from bot.texts.practice import decisive, loss_in_unit
from engine.ai.plot import CURVE, DOTS, LINE_WHITE, seat_colour
from engine.ai.review import Review

WIDTH, HEIGHT, PAD = 480, 180, 6  # the plot's box (it scales to the page's width)


@dataclass(frozen=True)
class Note:
    ply: int  # the match's move number
    move: str
    label: str  # inaccuracy, mistake, blunder; "" for a move that turned the result
    text: str


@dataclass(frozen=True)
class Curve:
    colour: str
    points: str  # "x,y x,y ..." in the plot's box


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    colour: str
    title: str


@dataclass(frozen=True)
class Legend:
    colour: str
    line: str  # "Ann (Black): accuracy 87% · 1 mistake"


@dataclass(frozen=True)
class ReviewView:
    area: tuple[str, str, str] | None  # two seats: the lower area, its colour, the upper's
    curves: tuple[Curve, ...]
    dots: tuple[Dot, ...]
    half: float  # the y of 50 %
    marker: float  # the x of the position shown
    alt: str
    legend: tuple[Legend, ...]
    verdict: tuple[str, ...]
    notes: dict[int, Note]
    table: tuple[tuple[int, str, tuple[str, ...]], ...]  # move, notation, each seat's chance
    heads: tuple[str, ...]  # the table's seats

    @property
    def width(self) -> int:
        return WIDTH

    @property
    def height(self) -> int:
        return HEIGHT


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def review_view(record: MatchRecord, data: Review, shown: int) -> ReviewView:
    """The page's review of ``record`` (its players already named as the page names
    them), at the position after ``shown`` of its moves."""
    seated = sorted((p for p in record.players if p.seat is not None), key=lambda p: p.seat or 0)
    people = [p.name for p in seated]
    who = [f"{people[i]} ({data.names[i]})" if i < len(people) and people[i] != data.names[i]
           else data.names[i] for i in range(data.seats)]
    curves = [data.curve(seat) for seat in range(data.seats)]
    steps = max(1, len(curves[0]) - 1)

    def x(i: int) -> float:
        return round(PAD + (WIDTH - 2 * PAD) * i / steps, 1)

    def y(win: float) -> float:
        return round(PAD + (HEIGHT - 2 * PAD) * (1.0 - win), 1)

    def points(values: list[float]) -> str:
        return " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))

    area = None
    lines: list[Curve] = []
    if data.seats == 2 and not data.wins:
        first = curves[0]
        # The lower area reaches the frame's edges (the curve itself stays inside).
        area = (f"0,{HEIGHT} 0,{y(first[0])} {points(first)} {WIDTH},{y(first[-1])} "
                f"{WIDTH},{HEIGHT}",
                _hex(seat_colour(data, 0)), _hex(seat_colour(data, 1)))
        lines.append(Curve(_hex(CURVE), points(first)))
    else:
        for seat, values in enumerate(curves):
            colour = seat_colour(data, seat)
            lines.append(Curve(_hex(LINE_WHITE if data.names[seat].lower() == "white"
                                    else colour), points(values)))
    number_of = move_numbers(record)
    notes: dict[int, Note] = {}
    dots = []
    for ply in data.plies:
        parts = []
        if ply.label:
            parts.append(say.review_note(ply.label, ply.before, ply.after,
                                         loss_in_unit(ply.loss, data.unit), ply.best))
            seat_curve = curves[0] if area is not None else curves[ply.seat]
            dots.append(Dot(x(ply.number), y(seat_curve[min(ply.number, steps)]),
                            _hex(DOTS[ply.label]), f"{number_of(ply.number)}. {ply.move}"))
        if ply.number in data.turned:
            before, after = data.turned[ply.number]
            parts.append(unescape(decisive(number_of(ply.number), ply.move, before, after)))
        if parts:
            number = number_of(ply.number)
            notes[number] = Note(number, ply.move, ply.label, " ".join(parts))
    done = sum(1 for m in record.moves[:shown] if m.kind == MoveKind.MOVE)
    tallies = data.counts()
    verdict = verdict_of(record, data)
    return ReviewView(
        area=area, curves=tuple(lines), dots=tuple(dots), half=y(0.5),
        marker=x(min(done, steps)), alt=say.plot_alt(who, shown, len(dots)),
        legend=tuple(Legend(_hex(seat_colour(data, i)),
                            say.accuracy_line(who[i], data.accuracy[i], tallies[i]))
                     for i in range(data.seats)),
        verdict=tuple(unescape(line) for line in verdict.splitlines()) if verdict else (),
        notes=notes,
        table=tuple((number_of(i) if i else 0, data.plies[i - 1].move if i else "",
                     tuple(say.win_chance(c[i]) for c in curves))
                    for i in range(len(curves[0]))),
        heads=tuple(who))
