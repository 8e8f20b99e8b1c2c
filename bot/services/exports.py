"""Books for hosts: an event's as CSV files (the ledger, the standings, the matches),
and every match as a plain record (``python -m bot export --json``).

The CSV files are spreadsheet-friendly: a header row, UTC times in ISO 8601, names
beside ids (names change; ids do not), and in the ledger each player's running balance.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.enums import DONE, MatchKind, MoveKind
from bot.core.escape import unescape
from bot.core.messages import MENTION, Image
from bot.core.timecontrol import TimeControl
from bot.services import leaderboard, ratings
from bot.services.events import Scope, players
from bot.store import season
from bot.store.db import Database
from bot.store.models import Event, HostAction, LedgerEntry, Match, Move, Rating
from bot.store.queries import user_names
from bot.texts.history import count, title
from bot.texts.match import match_label
from engine.animation import Ply, numbered
from engine.game import EngineError
from engine.registry import get_game


def when(at: float | None) -> str:
    if at is None:
        return ""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# A cell a spreadsheet would read as a formula (OWASP's CSV injection rule).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """User text that could start a formula is kept as text (a leading ')."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_bytes(header: list[str], rows: list[list[Any]]) -> bytes:
    """A CSV file (UTF-8, CRLF) whose cells a spreadsheet never reads as formulas."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([safe_cell(v) for v in row] for row in rows)
    return out.getvalue().encode("utf-8")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "event"


async def export_event(s: AsyncSession, event: Event) -> list[Image]:
    """An event's ledger, standings and matches as CSV files: this server's rows only."""
    names = await user_names(s, event.guild_id)
    base = f"{slug(event.name)}-{event.number}"
    return [
        Image(await _ledger(s, event, names), f"{base}-ledger.csv"),
        Image(await _standings(s, event, names), f"{base}-standings.csv"),
        Image(await _matches(s, event, names), f"{base}-matches.csv"),
    ]


async def _ledger(s: AsyncSession, event: Event, names: dict[str, str]) -> bytes:
    running: Counter[str] = Counter()
    rows = []
    numbers = dict((await s.execute(select(Match.id, Match.number).where(
        Match.event_id == event.id))).all())
    entries = (await s.scalars(select(LedgerEntry).where(LedgerEntry.event_id == event.id)
                               .order_by(LedgerEntry.id))).all()
    for index, e in enumerate(entries, 1):
        running[e.user_id] += e.amount
        rows.append([index, when(e.at), e.user_id, names.get(e.user_id, e.user_id), e.amount,
                     running[e.user_id], e.kind, e.note, e.author_id or "",
                     names.get(e.author_id, e.author_id) if e.author_id else "",
                     numbers.get(e.match_id, "") if e.match_id else ""])
    return csv_bytes(["entry", "time_utc", "user_id", "name", "amount", "balance_after", "kind",
                 "note", "author_id", "author", "match"], rows)


async def _standings(s: AsyncSession, event: Event, names: dict[str, str]) -> bytes:
    scope = Scope(event)
    by_garnets = await leaderboard.by_garnets(s, event.guild_id, scope)
    wins = await leaderboard.by_wins(s, event.guild_id, scope, None)
    priority = {p.user_id: p.priority for p in await players(s, event.id)}
    games = list((await s.scalars(select(Match.game).where(Match.event_id == event.id)
                                  .group_by(Match.game).order_by(Match.game))).all())
    user_ids = [st.user_id for _, st in by_garnets.rows]
    listed = set(user_ids)
    user_ids += [st.user_id for _, st in wins.rows if st.user_id not in listed]
    rated = {(r.user_id, r.game): r for r in (await s.scalars(select(Rating).where(
        Rating.guild_id == event.guild_id, Rating.game.in_(games),
        Rating.user_id.in_(user_ids)))).all()}
    rank_of = {st.user_id: rank for rank, st in by_garnets.rows}
    balance = {st.user_id: int(st.key[0]) for _, st in by_garnets.rows}
    record = await leaderboard.records(s, event.guild_id, scope, None)
    header = ["rank_by_garnets", "user_id", "name", "priority", "garnets", "wins", "lost",
              "drawn", "games"]
    for game in games:
        header += [f"{game}_rating", f"{game}_mu", f"{game}_sigma", f"{game}_games"]
    header += ["tokens_of_life", "eliminated_in_match"]
    held = await season.tokens(s, event.id)
    out = await season.eliminations(s, event.id)
    rows = []
    for user_id in user_ids:
        won, drawn, played = record.get(user_id, (0, 0, 0))
        row: list[Any] = [rank_of.get(user_id, ""), user_id, names.get(user_id, user_id),
                          priority.get(user_id, ""), balance.get(user_id, 0), won,
                          played - won - drawn, drawn, played]
        for game in games:
            r = rated.get((user_id, game))
            mu, sigma = (r.mu, r.sigma) if r else (ratings.MODEL.mu, ratings.MODEL.sigma)
            # Numbers, not text: a spreadsheet sorts and sums them (and a negative rating
            # is no formula, so it needs no quote).
            row += [Decimal(f"{ratings.ordinal(mu, sigma):.2f}"), Decimal(f"{mu:.3f}"),
                    Decimal(f"{sigma:.3f}"), r.games if r else 0]
        gone = out.get(user_id, "") if user_id in out else ""
        row += [held.get(user_id, 0), "" if gone is None else gone]
        rows.append(row)
    return csv_bytes(header, rows)


async def _matches(s: AsyncSession, event: Event, names: dict[str, str]) -> bytes:
    counts = {m: n for m, n in (await s.execute(
        select(Move.match_id, func.count()).join(Match, Match.id == Move.match_id)
        .where(Match.event_id == event.id, Move.kind == MoveKind.MOVE)
        .group_by(Move.match_id))).all()}
    rows = []
    for m in (await s.scalars(select(Match).where(Match.event_id == event.id)
                              .order_by(Match.number))).all():
        seated = sorted(m.players, key=lambda p: (p.seat is None, p.seat, p.order))
        winner = next((p.user_id for p in seated if m.winner_seat is not None
                       and p.seat == m.winner_seat), "")
        rows.append([
            m.number, m.game, m.kind, m.status, when(m.started_at), when(m.finished_at),
            " vs ".join(names.get(p.user_id, p.user_id) for p in seated),
            " ".join(p.user_id for p in seated), winner, names.get(winner, winner),
            "yes" if m.draw else "no", " ".join(map(str, m.scores or [])),
            m.end_reason or "", counts.get(m.id, 0),
            " ".join(f"{p.time_used:.1f}" for p in seated),
            int(m.time_control.get("reward", 0)) if m.kind == MatchKind.DM else 0,
        ])
    return csv_bytes(["match", "game", "kind", "status", "started_utc", "finished_utc", "players",
                 "player_ids", "winner_id", "winner", "draw", "scores", "ended_by", "moves",
                 "seconds_used", "reward"], rows)

async def export_matches(db: Database, guild_id: str | None = None) -> list[dict[str, Any]]:
    """Every match (of one server, when given) with its moves and its host actions, as
    plain data; times in UTC ISO 8601, as in the CSV files."""
    async with db.session() as s:
        query = select(Match).order_by(Match.guild_id, Match.number)
        moves_query = select(Move).order_by(Move.match_id, Move.ply)
        actions_query = select(HostAction).order_by(HostAction.match_id, HostAction.at,
                                                    HostAction.id)
        if guild_id is not None:
            query = query.where(Match.guild_id == guild_id)
            moves_query = moves_query.join(Match, Match.id == Move.match_id).where(
                Match.guild_id == guild_id)
            actions_query = actions_query.join(Match, Match.id == HostAction.match_id).where(
                Match.guild_id == guild_id)
        matches = (await s.scalars(query)).all()
        event_numbers = dict((await s.execute(select(Event.id, Event.number).where(
            Event.id.in_({m.event_id for m in matches if m.event_id is not None})))).all())
        names_in: dict[str, dict[str, str]] = {}
        for guild in {m.guild_id for m in matches}:
            names_in[guild] = await user_names(s, guild)
        moves_by_match: dict[int, list[Move]] = {}
        for move in (await s.scalars(moves_query)).all():
            moves_by_match.setdefault(move.match_id, []).append(move)
        actions_by_match: dict[int, list[HostAction]] = {}
        for action in (await s.scalars(actions_query)).all():
            actions_by_match.setdefault(action.match_id, []).append(action)
    return [_record(match, names_in[match.guild_id], moves_by_match.get(match.id, []),
                    actions_by_match.get(match.id, []), event_numbers) for match in matches]


def _record(match: Match, names: dict[str, str], moves: list[Move],
            actions: list[HostAction], event_numbers: dict[int, int]) -> dict[str, Any]:
    players = sorted(match.players, key=lambda p: (p.seat is None, p.seat, p.order))
    winner = next((p for p in players if p.seat == match.winner_seat), None) \
        if match.winner_seat is not None else None
    return {
        "number": match.number,
        "guild": match.guild_id,
        "channel": match.channel_id,
        "game": match.game,
        "kind": match.kind,
        "event": event_numbers.get(match.event_id) if match.event_id else None,
        "status": match.status,
        "options": match.options,
        "time_control": TimeControl.only_clock(match.time_control),
        "reward": int(match.time_control.get("reward", 0)) if match.kind == MatchKind.DM
        else None,
        "players": [
            {"seat": p.seat, "id": p.user_id, "name": names.get(p.user_id, p.user_id),
             "time_used": round(p.time_used, 3), "banks_left": p.banks_left, "out": p.out}
            for p in players
        ],
        "moves": _moves(match, moves),
        "host_actions": [
            {"at": when(a.at), "after_ply": a.ply,
             "actor_id": a.actor_id, "actor": names.get(a.actor_id, a.actor_id),
             "action": a.action, "detail": a.detail}
            for a in actions
        ],
        "result": None if match.status not in DONE else {
            "winner_seat": match.winner_seat,
            "winner": winner.user_id if winner else None,
            "draw": match.draw,
            "scores": match.scores,
            "how": match.end_reason,
            # The words of the result post, without chat markup (names for mentions).
            "text": readable(match.result_text, names) if match.result_text else None,
        },
        "created_at": when(match.created_at),
        "started_at": when(match.started_at) or None,
        "finished_at": when(match.finished_at) or None,
    }


def _moves(match: Match, moves: list[Move]) -> list[dict[str, Any]]:
    """The stored moves, each with ``number`` as the boards number it, and the passes
    the rules made between them (``"event": "pass"``, no ply: they are not stored)."""
    stored = [{"ply": m.ply, "seat": m.seat,
               "move": m.notation if m.kind == MoveKind.MOVE else None, "event": m.kind,
               "seconds": round(m.elapsed, 3), "banks_spent": m.banks_spent, "at": when(m.at)}
              for m in moves]
    try:
        steps = numbered(get_game(match.game), [Ply(m.kind, m.seat, m.notation) for m in moves],
                         match.seats, match.options)
    except EngineError:  # a record that no longer replays: its rows as stored
        return stored
    rows = iter(stored)
    return [{"number": step.number, **next(rows)} if step.ply is not None else
            {"number": step.number, "ply": None, "seat": step.seat, "move": "pass",
             "event": "pass", "seconds": 0.0, "banks_spent": 0, "at": None}
            for step in steps]


def export_text(records: list[dict[str, Any]]) -> list[str]:
    """``python -m bot export``: one readable line per match, without chat markup."""
    lines = []
    for r in records:
        players = " vs ".join(p["name"] for p in r["players"])
        moves = sum(1 for m in r["moves"] if m["event"] in (MoveKind.MOVE, "pass"))
        result = (r["result"] or {}).get("text") or r["status"]
        label = match_label(r["number"], r["kind"])
        lines.append(f"{label} ({title(r['game'])}, server {r['guild']}): {players} — "
                     f"{count(moves, 'move')} — {result}")
    return lines


def readable(text: str, names: dict[str, str]) -> str:
    """A post's text as plain words: mentions as names, no bold, no escapes, one line."""
    named = MENTION.sub(lambda m: "@" + names.get(m.group(1), m.group(1)), text)
    return " ".join(unescape(named.replace("**", "")).split())
