"""Match history as players read it: a page of a player's matches with its buttons,
and one match in full, cut into messages. Its sentences are in ``bot.texts.history``."""

from __future__ import annotations

from typing import Any

from bot.core import buttons
from bot.core.enums import DONE, PLAYING, MatchKind, MatchStatus, MoveKind
from bot.core.escape import plain
from bot.core.messages import MENTION, Button
from bot.services.history_queries import (
    NEVER_PLAYED,
    HistoryPage,
    MatchMove,
    MatchRecord,
    my_scores,
)
from bot.texts import history as say
from bot.texts import languages as joined
from bot.texts import match as texts
from bot.texts.history import result_words, took
from engine.animation import numbered, positions
from engine.game import EngineError
from engine.registry import get_game

MAX_TEXT = 2000  # Discord's limit for one message
MAX_ACTIONS = 10  # host actions listed with a match (the message must stay short)
PASS = "pass"  # a pass the rules made, in the list of moves (as a replay may write it)


def history_text(page: HistoryPage) -> str:
    game = say.title(page.game) if page.game else None
    if page.total == 0:
        return say.no_matches(name=page.name, game=game)
    lines = [say.history_head(name=page.name, game=game, total=page.total, page=page.page,
                              pages=page.pages)]
    for e in page.entries:
        lines.append(say.history_line(
            match_id=e.number, finished_at=e.finished_at, game=say.title(e.game),
            dm=e.kind == MatchKind.DM,
            result=result_words(result=e.result, how=e.how, scores=e.scores),
            opponents=e.opponents, moves=e.moves))
    lines.append(say.history_foot(match_id=page.entries[0].number))
    return joined.lines(*lines)


def history_buttons(page: HistoryPage) -> tuple[Button, ...]:
    """◀ newer and older ▶ pages, as persistent buttons ``garnet:hist:USER:PAGE[:GAME]``."""
    found = []
    if page.page > 1:
        found.append(Button(say.page_button(page=page.page - 1, newer=True),
                            buttons.history(page.user_id, page.page - 1, page.game)))
    if page.page < page.pages:
        found.append(Button(say.page_button(page=page.page + 1, newer=False),
                            buttons.history(page.user_id, page.page + 1, page.game)))
    return tuple(found)


def _names_for(record: MatchRecord, text: str) -> str:
    """A stored result line with its mentions as names (nobody is pinged by a lookup)."""
    by_id = {p.user_id: plain(p.name) for p in record.players}
    return MENTION.sub(lambda m: by_id.get(m.group(1), m.group(1)), text)


def match_texts(record: MatchRecord) -> list[str]:
    """One match in full, as messages of at most 2000 characters (the moves run on)."""
    game = get_game(record.game)
    label = texts.match_label(record.number, record.kind)
    if record.status in NEVER_PLAYED:
        return [say.never_started(label=label, game=game.title,
                                  names=[p.name for p in record.players],
                                  status=record.status)]
    head = [f"**{label}: {game.title}** — {_state_words(record)}"]
    for p in record.players:
        parts = [say.seat_of(colour=p.colour, name=p.name)]
        if p.result is not None:
            mine = my_scores(list(record.scores) if record.scores else None, p.seat)
            how = "out" if p.out and p.result == "lost" else record.end_reason
            parts.append(result_words(result=p.result, how=how, scores=mine))
        elif p.out:
            parts.append(say.out_of_the_game())
        if record.started_at is not None and record.time_control.enabled:
            parts.append(say.time_used(used=p.time_used, banks_left=p.banks_left))
        head.append(" · ".join(parts))
    settings = texts.options_line(game, record.options, record.time_control)
    extras = say.match_extras(
        reward=record.reward or 0 if record.kind == MatchKind.DM else 0,
        rated=record.rated if record.kind == MatchKind.CASUAL else None, hints=record.hints)
    head.append(" · ".join([settings, *extras]))
    if record.result_text:
        head.append(_names_for(record, record.result_text))
    states = _positions(record)
    for a in record.actions[:MAX_ACTIONS]:
        after = (game.moves_played(states[a.after_ply]) if a.after_ply < len(states)
                 else a.after_ply)
        head.append(say.host_action(after=after, actor=a.actor_name,
                                    action=a.action, detail=a.detail))
    if len(record.actions) > MAX_ACTIONS:
        head.append(say.more_host_actions(n=len(record.actions) - MAX_ACTIONS))
    if not record.moves:
        head.append(say.no_moves_played())
        return _pack(head, [])
    head.append(say.moves_heading())
    return _pack(head, _move_lines(record))


def _state_words(record: MatchRecord) -> str:
    moves = 0
    if record.status in PLAYING:
        states = _positions(record)
        moves = get_game(record.game).moves_played(states[-1]) if states else 0
    return say.match_state(status=record.status, finished_at=record.finished_at, moves=moves)


def _positions(record: MatchRecord) -> list[Any]:
    """The start, then the position after each stored ply; only the start when the
    moves no longer replay (they always do; a damaged record still shows)."""
    game = get_game(record.game)
    try:
        return list(positions(game, record.plies, record.seats, record.options))
    except EngineError:
        return [game.new_state(record.seats, record.options)]


def _move_lines(record: MatchRecord) -> list[str]:
    """The moves numbered as the boards number them: a pass the rules made (Sigma
    Escape) is a move of its own, ``17. pass``; a seat leaving is no move."""
    game = get_game(record.game)
    stored = iter(record.moves)
    try:
        # Each stored ply comes back in order, a pass (no ply) between them.
        steps = [("" if n.number is None else str(n.number),
                  None if n.ply is None else next(stored), n.seat)
                 for n in numbered(game, record.plies, record.seats, record.options)]
    except EngineError:  # a record that no longer replays still shows, row by row
        steps = [(str(m.ply), m, m.seat) for m in record.moves]
    # In a code block nothing renders, but a backtick would end the block.
    names = {p.seat: p.name.replace("`", "'") for p in record.players}
    width = max((len(m.notation) for m in record.moves if m.kind == MoveKind.MOVE), default=2)
    width = max(width, len(PASS)) if any(m is None for _, m, _ in steps) else width
    number = max((len(label) for label, _, _ in steps), default=1)
    wide = max(len(n) for n in names.values()) if record.seats > 2 else None

    def entry(label: str, m: MatchMove | None, seat: int) -> str:
        mark = f"{label}." if label else ""
        who = f"{names.get(seat, '?'):<{wide}} " if wide is not None else ""
        if m is None:
            return f"{mark:>{number + 1}} {who}{PASS}"
        if m.kind == MoveKind.OUT:
            return f"{mark:>{number + 1}} {names.get(seat, '?')} {say.left_here()}"
        spent = f"+{m.banks_spent}" if m.banks_spent else ""
        return f"{mark:>{number + 1}} {who}{m.notation:<{width}} {took(m.seconds)}{spent}"

    cells = [entry(*step).rstrip() for step in steps]
    if wide is not None:
        # With more than two seats the mover is not evident from the number: named.
        return cells
    column = max(len(c) for c in cells)
    return [
        "   ".join(c.ljust(column) for c in cells[i:i + 2]).rstrip()
        for i in range(0, len(cells), 2)
    ]


def _pack(head: list[str], lines: list[str], limit: int = MAX_TEXT) -> list[str]:
    """The header lines, then the move lines in a code block, cut into messages of at
    most ``limit`` characters between whole lines (each message's block closed)."""
    messages: list[str] = []
    current = ""
    for line in head:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line

    def joined(block: list[str]) -> str:
        code = "```\n" + "\n".join(block) + "\n```"
        return f"{current}\n{code}" if current else code

    block: list[str] = []
    for line in lines:
        if len(joined([*block, line])) > limit and (block or current):
            messages.append(joined(block) if block else current)
            current, block = "", []
        block.append(line)
    if block or current:
        messages.append(joined(block) if block else current)
    return messages


def ended_by(record: MatchRecord, state: Any) -> str | None:
    """How a finished match ended when its last position does not say it (time, a
    resignation, a host): for the description of its board; None otherwise."""
    if record.status not in DONE or get_game(record.game).outcome(state) is not None:
        return None
    return caption(record)


def caption(record: MatchRecord) -> str:
    """The result in a few words, for the animation's last frame and the post."""
    scores = list(record.scores) if record.scores else None
    if record.status == MatchStatus.VOIDED or record.winner_seat is None or record.draw:
        return say.caption(voided=record.status == MatchStatus.VOIDED, winner=None,
                           colour=None, end_reason=record.end_reason, scores=scores)
    winner = next(p for p in record.players if p.seat == record.winner_seat)
    return say.caption(voided=False, winner=winner.name, colour=winner.colour,
                       end_reason=record.end_reason, scores=my_scores(scores, winner.seat))
