"""Every match as a plain record, for hosts' books (``python -m bot export --json``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.store.db import Database
from bot.store.models import Match, Move
from bot.store.queries import user_names


async def export_matches(db: Database, guild_id: str | None = None) -> list[dict[str, Any]]:
    async with db.session() as s:
        query = select(Match).order_by(Match.id)
        if guild_id is not None:
            query = query.where(Match.guild_id == guild_id)
        matches = (await s.scalars(query)).all()
        names = await user_names(s)
        moves_by_match: dict[int, list[Move]] = {}
        for move in (await s.scalars(select(Move).order_by(Move.match_id, Move.ply))).all():
            moves_by_match.setdefault(move.match_id, []).append(move)
    records = []
    for match in matches:
        players = sorted(match.players, key=lambda p: (p.seat is None, p.seat, p.order))
        moves = moves_by_match.get(match.id, [])
        winner = next((p for p in players if p.seat == match.winner_seat), None) \
            if match.winner_seat is not None else None
        records.append({
            "id": match.id,
            "guild": match.guild_id,
            "channel": match.channel_id,
            "game": match.game,
            "kind": match.kind,
            "event_id": match.event_id,
            "status": match.status,
            "options": match.options,
            "time_control": match.time_control,
            "players": [
                {"seat": p.seat, "id": p.user_id, "name": names.get(p.user_id, p.user_id),
                 "time_used": round(p.time_used, 3), "banks_left": p.banks_left,
                 "out": p.out}
                for p in players
            ],
            "moves": [
                {"ply": m.ply, "seat": m.seat, "move": m.notation if m.kind == "move" else None,
                 "event": m.kind, "seconds": round(m.elapsed, 3), "banks_spent": m.banks_spent}
                for m in moves
            ],
            "result": None if match.status not in ("finished", "voided") else {
                "winner_seat": match.winner_seat,
                "winner": winner.user_id if winner else None,
                "draw": match.draw,
                "scores": match.scores,
                "how": match.end_reason,
                "text": match.result_text,
            },
            "created_at": match.created_at,
            "started_at": match.started_at,
            "finished_at": match.finished_at,
        })
    return records
