"""Images a player reads on a phone: the standings table of a Swiss or round robin,
the bracket of an elimination tournament. Pure functions from data to PNG bytes.

Both are about 900 pixels wide with 22–26 px type, so a phone shows them legibly
at its width. A bracket shows at most three rounds of each part (the current one
and what follows, or the last three once it is decided), the winners' part above
the losers' part, the grand final below them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.services.tournaments.bracket import NOBODY, Spot
from bot.services.tournaments.model import Event, Standing, Tiebreak
from bot.services.tournaments.tournament import Tournament
from bot.texts import brackets as say
from bot.texts.tournaments import points
from engine.imaging import fit_text, font, to_png
from engine.text import draw_text

BG = (246, 244, 238)
INK = (34, 30, 26)
MUTED = (132, 126, 118)
HEAD_BG = (40, 30, 16)
HEAD_INK = (250, 246, 236)
STRIPE = (236, 232, 222)
GOLD = (250, 204, 72)
LINE = (178, 170, 158)
BOX = (255, 255, 255)

WIDTH = 900
SHORT = {Tiebreak.BUCHHOLZ: "BH", Tiebreak.MEDIAN_BUCHHOLZ: "mBH",
         Tiebreak.SONNEBORN_BERGER: "SB", Tiebreak.HEAD_TO_HEAD: "H2H", Tiebreak.WINS: "W"}


def tournament_png(tournament: Tournament, events: Iterable[Event], title: str) -> bytes:
    """The image to post after a round: the bracket, or the standings."""
    events = list(events)
    state = tournament.state(events)
    done = len(state.rounds) - (0 if state.round_complete else 1)
    table = tournament.standings(events)
    winner = table[0].player if tournament.finished(events) else None
    subtitle = say.image_subtitle(done=done, rounds=tournament.rounds, winner=winner)
    if tournament.format.elimination:
        seeds = {p: i for i, p in enumerate(tournament.players, start=1)}
        return bracket_png(title, tournament.bracket(events), subtitle, seeds)
    return standings_png(title, table, tournament.tiebreaks, subtitle)


def standings_png(title: str, rows: Sequence[Standing], tiebreaks: Sequence[Tiebreak],
                  subtitle: str = "") -> bytes:
    """The standings as a table: place, player, points and up to four tie-breaks."""
    # Head-to-head only where it decided something: it is 0 outside ties.
    shown = [tb for tb in tiebreaks if tb is not Tiebreak.HEAD_TO_HEAD
             or any(r.tiebreaks.get(tb.value) for r in rows)][:4]
    row_h, head_h, top = 46, 44, 96
    height = top + head_h + row_h * len(rows) + 20
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    _title(image, title, subtitle)
    stat_w = 92
    name_x, points_x = 92, WIDTH - 24 - stat_w * len(shown) - 96
    draw.rectangle((0, top, WIDTH, top + head_h), fill=HEAD_BG)
    header = font(22, True)
    draw.text((60, top + head_h // 2), "#", font=header, fill=HEAD_INK, anchor="rm")
    draw_text(image, (name_x, top + head_h // 2), say.image_player_heading(), 22, True,
              HEAD_INK, "lm")
    draw_text(image, (points_x + 80, top + head_h // 2), say.image_points_heading(), 22,
              True, HEAD_INK, "rm")
    for i, tb in enumerate(shown):
        x = points_x + 96 + stat_w * (i + 1) - 8
        draw.text((x, top + head_h // 2), SHORT[tb], font=header, fill=HEAD_INK, anchor="rm")
    body, bold = font(24), font(24, True)
    for n, row in enumerate(rows):
        y = top + head_h + n * row_h
        if n % 2:
            draw.rectangle((0, y, WIDTH, y + row_h), fill=STRIPE)
        mid = y + row_h // 2
        ink = INK if row.active else MUTED
        draw.text((60, mid), str(row.rank), font=bold, fill=ink, anchor="rm")
        name = row.player if row.active else say.image_out(player=row.player)
        draw_text(image, (name_x, mid), fit_text(name, points_x - name_x - 8, 24), 24, True,
                  ink, "lm")
        draw.text((points_x + 80, mid), points(row.points), font=bold, fill=ink, anchor="rm")
        for i, tb in enumerate(shown):
            x = points_x + 96 + stat_w * (i + 1) - 8
            draw.text((x, mid), points(row.tiebreaks.get(tb.value, 0.0)), font=body,
                      fill=ink, anchor="rm")
    return to_png(image)


def _title(image: Image.Image, title: str, subtitle: str) -> None:
    # Every face of the chain: a title, a player's name and the words may be Korean.
    draw_text(image, (24, 18), fit_text(title, WIDTH - 48, 32), 32, True, INK)
    if subtitle:
        draw_text(image, (24, 60), fit_text(subtitle, WIDTH - 48, 22, bold=False), 22, False,
                  MUTED)


# Brackets

BOX_W, LINE_H, GAP_Y, GAP_X = 250, 38, 18, 42
COLUMNS = 3


@dataclass(frozen=True)
class _Placed:
    spot: Spot
    x: int
    y: int  # top of the box


def bracket_png(title: str, spots: Sequence[Spot], subtitle: str = "",
                seeds: Mapping[str, int] | None = None) -> bytes:
    """The bracket; ``seeds`` adds each player's seed before their name."""
    spots = [p for p in spots if p.status != "void"]  # an unneeded reset, an empty line
    sections = [s for s in ("W", "L") if any(p.spec.section == s for p in spots)]
    double = any(p.spec.section == "F" for p in spots)
    placed: list[_Placed] = []
    labels: list[tuple[int, int, str]] = []
    y0 = 100
    for section in sections:
        part = [p for p in spots if p.spec.section == section]
        if section == "W" and not double:
            part += [p for p in spots if p.spec.section == "3"]
        if double:
            labels.append((24, y0, say.image_section(section=section)))
            y0 += 36
        boxes, bottom = _layout(part, y0)
        placed += boxes
        y0 = bottom + 28
    finals = [p for p in spots if p.spec.section == "F"]
    if finals:
        labels.append((24, y0, say.image_section(section="F")))
        y0 += 36
        for i, spot in enumerate(finals):
            placed.append(_Placed(spot, 24 + i * (BOX_W + GAP_X), y0))
        y0 += 2 * LINE_H + GAP_Y
    width = max(WIDTH, max((b.x for b in placed), default=0) + BOX_W + 24)
    image = Image.new("RGB", (width, y0 + 12), BG)
    draw = ImageDraw.Draw(image)
    _title(image, title, subtitle)
    for x, y, text in labels:
        draw_text(image, (x, y), text, 24, True, INK)
    by_id = {b.spot.spec.id: b for b in placed}
    for box in placed:
        for ref in _feeders(box.spot):
            if ref in by_id:
                _connect(draw, by_id[ref], box)
    for box in placed:
        _box(image, box, seeds or {})
    return to_png(image)


def _window(part: list[Spot]) -> list[int]:
    columns = sorted({p.spec.column for p in part if p.spec.section != "3"})
    open_ = [p.spec.column for p in part if p.status in ("ready", "waiting")
             and p.spec.section != "3"]
    current = min(open_) if open_ else columns[-1]
    start = max(columns[0], min(current, columns[-1] - COLUMNS + 1))
    return [c for c in columns if start <= c < start + COLUMNS]


def _layout(part: list[Spot], top: int) -> tuple[list[_Placed], int]:
    columns = _window(part)
    ids = {p.spec.id for p in part}
    centre: dict[str, float] = {}
    boxes: list[_Placed] = []
    unit = 2 * LINE_H + GAP_Y
    bottom = top
    for n, column in enumerate(columns):
        x = 24 + n * (BOX_W + GAP_X)
        for spot in sorted((p for p in part if p.spec.column == column
                            and p.spec.section != "3"), key=lambda p: p.spec.index):
            inside = [centre[r] for r in _feeders(spot) if r in ids and r in centre]
            c = sum(inside) / len(inside) if inside else top + unit * (spot.spec.index + 0.5)
            centre[spot.spec.id] = c
            boxes.append(_Placed(spot, x, round(c - LINE_H)))
            bottom = max(bottom, round(c + LINE_H))
    third = [p for p in part if p.spec.section == "3"]
    if third and boxes:
        last = boxes[-1]
        boxes.append(_Placed(third[0], last.x, last.y + 2 * LINE_H + 3 * GAP_Y))
        bottom = max(bottom, boxes[-1].y + 2 * LINE_H)
    return boxes, bottom


def _feeders(spot: Spot) -> list[str]:
    return [s.ref for s in (spot.spec.a, spot.spec.b) if s.kind in ("winner", "reset")][:2]


def _connect(draw: ImageDraw.ImageDraw, src: _Placed, dst: _Placed) -> None:
    if src.x >= dst.x or dst.spot.spec.section != src.spot.spec.section:
        return
    x0, y0 = src.x + BOX_W, src.y + LINE_H
    x1, y1 = dst.x, dst.y + LINE_H
    mid = (x0 + x1) // 2
    draw.line([(x0, y0), (mid, y0), (mid, y1), (x1, y1)], fill=LINE, width=3)


def _box(image: Image.Image, box: _Placed, seeds: Mapping[str, int]) -> None:
    draw = ImageDraw.Draw(image)
    spot = box.spot
    x, y = box.x, box.y
    draw.rectangle((x, y, x + BOX_W, y + 2 * LINE_H), fill=BOX, outline=LINE, width=2)
    draw.line([(x, y + LINE_H), (x + BOX_W, y + LINE_H)], fill=LINE, width=1)
    draw.text((x + BOX_W - 4, y - 2), spot.spec.id, font=font(14), fill=MUTED, anchor="rd")
    for row, name in enumerate((spot.a, spot.b)):
        top = y + row * LINE_H
        won = spot.status in ("done", "bye") and name and name == spot.winner
        if won:
            draw.rectangle((x + 2, top + 2, x + BOX_W - 2, top + LINE_H - 1), fill=GOLD)
        text = say.image_bye() if name == NOBODY else name if name is not None else "…"
        ink = INK if won or spot.status in ("ready", "waiting") else MUTED
        if name in (None, NOBODY):
            ink = MUTED
        left = x + 10
        if name and name in seeds:
            draw.text((x + 30, top + LINE_H // 2), str(seeds[name]), font=font(15),
                      fill=MUTED, anchor="rm")
            left = x + 38
        draw_text(image, (left, top + LINE_H // 2), fit_text(text, x + BOX_W - 40 - left, 22),
                  22, bool(won) or spot.status == "ready", ink, "lm")
        mark = _mark(spot, name)
        if mark:
            draw.text((x + BOX_W - 10, top + LINE_H // 2), mark, font=font(22, True),
                      fill=INK, anchor="rm")


def _mark(spot: Spot, name: str | None) -> str:
    """✓ beside the winner; F beside who forfeited."""
    if spot.status != "done" or not name:
        return ""
    if name == spot.winner:
        return "✓"
    return "F" if spot.forfeit else ""
