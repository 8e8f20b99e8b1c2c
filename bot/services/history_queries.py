"""Match history: a player's finished matches, one match in full, and its replay.

Anyone may ask, on any platform; the adapters only translate (``/history``,
``/match``, ``/replay``). Everything here reads the database: the history of a
player on a server is one indexed query (``ix_match_players_user``) plus one for
the page's opponents and one for its move counts, however many matches the
server has.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import String, cast, func, select

from bot import texts
from bot.core.messages import Button, Image, Post, Response
from bot.core.refusal import Refusal
from bot.core.timecontrol import TimeControl
from bot.store.db import Database
from bot.store.models import HostAction, Match, MatchPlayer, Move, User
from bot.store.queries import user_names
from engine.animation import WIDTH, Ply, final_position
from engine.game import EngineError, Game
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.host import Host

DONE = ("finished", "voided")
PER_PAGE = 10
MAX_TEXT = 2000  # Discord's limit for one message
MAX_UPLOAD = 10 * 1024 * 1024  # Discord's attachment limit for a bot on an unboosted server
SMALL_WIDTH = 600  # a replay too big at full size is drawn this wide
MENTION = re.compile(r"<@([^>]+)>")
MAX_ACTIONS = 10  # host actions listed with a match (the message must stay short)

# How a match ended, as said after "won"/"lost"/"draw".
HOW = {
    "rules": "",
    "timeout": "on time",
    "resign": "by resignation",
    "adjudicated": "by the host's decision",
    "out": "(left the game)",
}
NEVER_PLAYED = {
    "declined": "was declined",
    "cancelled": "was withdrawn",
    "expired": "lapsed: the challenge was not accepted in time",
}


# ==== a player's matches ================================================================


@dataclass(frozen=True)
class HistoryEntry:
    """One finished (or voided) match, as one of its players sees it."""

    match_id: int
    game: str  # the game's key
    kind: str  # "dm" | "casual"
    finished_at: float | None
    seat: int | None
    opponents: tuple[str, ...]  # names, in seat order
    result: str  # "won" | "lost" | "draw" | "void"
    how: str | None  # "rules" | "timeout" | "resign" | "adjudicated" | "void" | "out"
    scores: tuple[int, ...] | None  # the player's own first, then the others' in seat order
    moves: int


@dataclass(frozen=True)
class HistoryPage:
    user_id: str
    name: str
    game: str | None
    page: int
    per_page: int
    total: int
    entries: tuple[HistoryEntry, ...]

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))


def result_of(status: str, winner_seat: int | None, draw: bool, seat: int | None,
              out: bool = False) -> str | None:
    """"won", "lost", "draw" or "void" for the player in ``seat``; None while it runs."""
    if status == "voided":
        return "void"
    if status != "finished":
        return None
    if winner_seat is None or draw:
        return "draw"
    return "won" if seat == winner_seat else "lost"


async def player_history(db: Database, guild_id: str, user_id: str, page: int = 1,
                         per_page: int = PER_PAGE, game: str | None = None) -> HistoryPage:
    """A player's finished and voided matches on a server, newest first.

    A page past the end has no entries (``total`` and ``pages`` say how many there
    are); ``game`` is a game's key.
    """
    if page < 1 or per_page < 1:
        raise ValueError("page and per_page start at 1")
    mine = (
        select(Match.id, Match.game, Match.kind, Match.status, Match.finished_at,
               Match.winner_seat, Match.draw, Match.scores, Match.end_reason,
               MatchPlayer.seat, MatchPlayer.out)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(MatchPlayer.user_id == user_id, Match.guild_id == guild_id,
               Match.status.in_(DONE))
    )
    if game is not None:
        mine = mine.where(Match.game == game)
    # Plain statements on a connection: no ORM objects to build for a page of rows.
    async with db.engine.connect() as s:
        rows = (await s.execute(
            mine.add_columns(func.count().over().label("total"))
            # By an expression, not the column: ordering by finished_at itself makes
            # SQLite walk ix_matches_guild_finished through every match of the server
            # (probing each for the player) instead of reading the player's few
            # matches by ix_match_players_user and sorting them: 25x slower at
            # 10,000 matches. finished_at is always set here; the fallback is moot.
            .order_by(func.coalesce(Match.finished_at, Match.created_at).desc(),
                      Match.id.desc())
            .limit(per_page).offset((page - 1) * per_page)
        )).all()
        if rows:
            total = int(rows[0].total)
        else:  # past the end, or nothing at all: how many there are
            total = int((await s.execute(
                select(func.count()).select_from(mine.subquery()))).scalar_one())
        ids = [row.id for row in rows]
        players: dict[int, list[tuple[int | None, int, str, str]]] = {}
        moves: dict[int, int] = {}
        name = None
        if ids:
            for match_id, uid, seat, order, uname in (await s.execute(
                select(MatchPlayer.match_id, MatchPlayer.user_id, MatchPlayer.seat,
                       MatchPlayer.order, User.name)
                .join(User, User.id == MatchPlayer.user_id)
                .where(MatchPlayer.match_id.in_(ids))
            )).all():
                players.setdefault(match_id, []).append((seat, order, uid, uname))
                if uid == user_id:
                    name = uname
            moves = {match_id: int(count) for match_id, count in (await s.execute(
                select(Move.match_id, func.count())
                .where(Move.match_id.in_(ids), Move.kind == "move")
                .group_by(Move.match_id)
            )).all()}
        if name is None:
            name = (await s.execute(select(User.name).where(User.id == user_id))
                    ).scalar_one_or_none() or user_id
    entries = []
    for row in rows:
        seated = sorted(players.get(row.id, []), key=lambda p: (p[0] is None, p[0], p[1]))
        result = result_of(row.status, row.winner_seat, row.draw, row.seat, row.out)
        assert result is not None
        how = "void" if row.status == "voided" else row.end_reason
        if result == "lost" and row.out:
            how = "out"
        entries.append(HistoryEntry(
            match_id=row.id, game=row.game, kind=row.kind, finished_at=row.finished_at,
            seat=row.seat, opponents=tuple(p[3] for p in seated if p[2] != user_id),
            result=result, how=how, scores=_my_scores(row.scores, row.seat),
            moves=moves.get(row.id, 0)))
    return HistoryPage(user_id, name, game, page, per_page, total, tuple(entries))


def _my_scores(scores: list[int] | None, seat: int | None) -> tuple[int, ...] | None:
    if not scores or seat is None or seat >= len(scores):
        return None
    return (scores[seat], *(s for i, s in enumerate(scores) if i != seat))


# ==== one match in full ===============================================================


@dataclass(frozen=True)
class MatchSeat:
    user_id: str
    name: str
    seat: int | None  # None until the First Player is chosen
    colour: str | None
    time_used: float
    banks_left: int
    out: bool
    result: str | None  # as result_of says; None while the match runs


@dataclass(frozen=True)
class MatchMove:
    ply: int
    seat: int
    kind: str  # "move" | "out"
    notation: str
    seconds: float
    banks_spent: int
    at: float


@dataclass(frozen=True)
class MatchAction:
    """Something a host did to the match, and after which ply."""

    at: float
    after_ply: int
    actor_id: str
    actor_name: str
    action: str
    detail: str


@dataclass(frozen=True)
class MatchRecord:
    id: int
    guild_id: str
    channel_id: str
    game: str
    kind: str
    status: str
    seats: int
    options: dict[str, Any]
    time_control: TimeControl
    reward: int | None  # garnets for the winner of a DM
    hints: bool
    rated: bool
    created_at: float
    started_at: float | None
    finished_at: float | None
    winner_seat: int | None
    draw: bool
    scores: tuple[int, ...] | None
    end_reason: str | None
    result_text: str | None
    players: tuple[MatchSeat, ...]  # in seat order once seated
    moves: tuple[MatchMove, ...]
    actions: tuple[MatchAction, ...]

    @property
    def plies(self) -> list[Ply]:
        return [Ply(m.kind, m.seat, m.notation) for m in self.moves]

    @property
    def seated(self) -> bool:
        return all(p.seat is not None for p in self.players)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


async def match_record(db: Database, guild_id: str, match_id: int) -> MatchRecord | None:
    """Everything stored about a match of this server; None if there is no such match."""
    async with db.session() as s:
        match = await s.get(Match, match_id)
        if match is None or match.guild_id != guild_id:
            return None
        moves = (await s.scalars(
            select(Move).where(Move.match_id == match_id).order_by(Move.ply))).all()
        actions = (await s.scalars(
            select(HostAction).where(HostAction.match_id == match_id)
            .order_by(HostAction.at, HostAction.id))).all()
        wanted = {p.user_id for p in match.players} | {a.actor_id for a in actions}
        names = await user_names(s, wanted)
    game = get_game(match.game)
    start = game.new_state(match.seats, match.options)
    players = sorted(match.players, key=lambda p: (p.seat is None, p.seat, p.order))
    seats = tuple(
        MatchSeat(
            user_id=p.user_id, name=names.get(p.user_id, p.user_id), seat=p.seat,
            colour=game.seat_name(start, p.seat) if p.seat is not None else None,
            time_used=p.time_used, banks_left=p.banks_left, out=p.out,
            result=result_of(match.status, match.winner_seat, match.draw, p.seat, p.out))
        for p in players)
    return MatchRecord(
        id=match.id, guild_id=match.guild_id, channel_id=match.channel_id, game=match.game,
        kind=match.kind, status=match.status, seats=match.seats, options=dict(match.options),
        time_control=TimeControl.from_json(match.time_control),
        reward=int(match.time_control["reward"]) if "reward" in match.time_control else None,
        hints=match.hints, rated=match.rated, created_at=match.created_at,
        started_at=match.started_at, finished_at=match.finished_at,
        winner_seat=match.winner_seat, draw=match.draw,
        scores=tuple(match.scores) if match.scores is not None else None,
        end_reason=match.end_reason, result_text=match.result_text, players=seats,
        moves=tuple(MatchMove(m.ply, m.seat, m.kind, m.notation, m.elapsed, m.banks_spent,
                              m.at) for m in moves),
        actions=tuple(
            MatchAction(at=a.at, after_ply=sum(1 for m in moves if m.at <= a.at),
                        actor_id=a.actor_id, actor_name=names.get(a.actor_id, a.actor_id),
                        action=a.action, detail=a.detail)
            for a in actions),
    )


def position_of(record: MatchRecord) -> Any:
    """The match's position now (its final one, once over): the moves replayed."""
    return final_position(get_game(record.game), record.plies, record.seats, record.options)


# ==== texts ============================================================================


def date(at: float | None) -> str:
    if at is None:
        return "?"
    return time.strftime("%d %b %Y", time.gmtime(at)).lstrip("0")


def took(seconds: float) -> str:
    """Time a move took, or time used: m:ss (h:mm:ss from an hour), rounded down."""
    whole = max(0, int(seconds + 1e-6))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('ch') else 's'}"


def _result_words(result: str, how: str | None, scores: Sequence[int] | None) -> str:
    words = f"**{result}**"
    if scores:
        words += " " + "–".join(str(s) for s in scores)
    manner = HOW.get(how or "", "")
    return f"{words} {manner}" if manner and result != "void" else words


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except EngineError:
        return game


def history_text(page: HistoryPage) -> str:
    what = f" of {_title(page.game)}" if page.game else ""
    if page.total == 0:
        return f"{page.name} has no finished matches{what} on this server yet."
    lines = [f"**{page.name}'s matches{what}** — {page.total} · page {page.page} of "
             f"{page.pages}, newest first"]
    for e in page.entries:
        kind = " DM" if e.kind == "dm" else ""
        against = f" vs {', '.join(e.opponents)}" if e.opponents else ""
        lines.append(f"`#{e.match_id}` {date(e.finished_at)} · {_title(e.game)}{kind} — "
                     f"{_result_words(e.result, e.how, e.scores)}{against} · "
                     f"{_count(e.moves, 'move')}")
    first = page.entries[0].match_id
    lines.append(f"`/match id:{first}` shows a match move by move; `/replay id:{first}` "
                 "animates it.")
    return "\n".join(lines)


def history_buttons(page: HistoryPage) -> tuple[Button, ...]:
    """◀ newer and older ▶ pages, as persistent buttons ``garnet:hist:USER:PAGE[:GAME]``."""
    tail = f":{page.game}" if page.game else ""
    buttons = []
    if page.page > 1:
        buttons.append(Button(f"◀ Page {page.page - 1}",
                              f"garnet:hist:{page.user_id}:{page.page - 1}{tail}"))
    if page.page < page.pages:
        buttons.append(Button(f"Page {page.page + 1} ▶",
                              f"garnet:hist:{page.user_id}:{page.page + 1}{tail}"))
    return tuple(buttons)


def _names_for(record: MatchRecord, text: str) -> str:
    """A stored result line with its mentions as names (nobody is pinged by a lookup)."""
    by_id = {p.user_id: p.name for p in record.players}
    return MENTION.sub(lambda m: by_id.get(m.group(1), m.group(1)), text)


def match_texts(record: MatchRecord) -> list[str]:
    """One match in full, as messages of at most 2000 characters (the moves run on)."""
    game = get_game(record.game)
    label = texts.match_label(record.id, record.kind)
    if record.status in NEVER_PLAYED:
        names = " and ".join(p.name for p in record.players)
        return [f"**{label}: {game.title}** between {names} never started: it "
                f"{NEVER_PLAYED[record.status]}."]
    head = [f"**{label}: {game.title}** — {_state_words(record)}"]
    for p in record.players:
        who = f"{p.colour}: {p.name}" if p.colour else p.name
        parts = [who]
        if p.result is not None:
            mine = _my_scores(list(record.scores) if record.scores else None, p.seat)
            how = "out" if p.out and p.result == "lost" else record.end_reason
            parts.append(_result_words(p.result, how, mine))
        elif p.out:
            parts.append("out of the game")
        if record.started_at is not None and record.time_control.enabled:
            parts.append(f"{took(p.time_used)} used, {texts.banks(p.banks_left)} left")
        head.append(" · ".join(parts))
    settings = texts.options_line(game, record.options, record.time_control)
    extras = []
    if record.kind == "dm" and record.reward:
        extras.append(f"{record.reward} garnets to the winner")
    if record.kind == "casual":
        extras.append("rated" if record.rated else "unrated")
    if record.hints:
        extras.append("hints on")
    head.append(" · ".join([settings, *extras]))
    if record.result_text:
        head.append(_names_for(record, record.result_text))
    for a in record.actions[:MAX_ACTIONS]:
        detail = f": {a.detail[:200]}" if a.detail else ""
        head.append(f"Host, after move {a.after_ply}: {a.actor_name} — {a.action}{detail}")
    if len(record.actions) > MAX_ACTIONS:
        head.append(f"… and {len(record.actions) - MAX_ACTIONS} more host actions.")
    if not record.moves:
        head.append("No moves were played.")
        return _pack(head, [])
    head.append("Moves, with the time each took (+banks of reserve spent):")
    return _pack(head, _move_lines(record))


def _state_words(record: MatchRecord) -> str:
    if record.status == "finished":
        return f"finished {date(record.finished_at)}"
    if record.status == "voided":
        return f"voided {date(record.finished_at)}"
    if record.status in ("running", "paused"):
        moves = sum(1 for m in record.moves if m.kind == "move")
        return f"in progress ({record.status}), {_count(moves, 'move')} so far"
    return "not started yet (" + ("waiting for the challenged players"
                                  if record.status == "pending"
                                  else "the First Player is being chosen") + ")"


def _move_lines(record: MatchRecord) -> list[str]:
    width = max((len(m.notation) for m in record.moves if m.kind == "move"), default=2)
    number = len(str(len(record.moves)))
    names = {p.seat: p.name for p in record.players}

    def entry(m: MatchMove) -> str:
        if m.kind == "out":
            return f"{m.ply:>{number}}. {names.get(m.seat, '?')} out"
        spent = f"+{m.banks_spent}" if m.banks_spent else ""
        return f"{m.ply:>{number}}. {m.notation:<{width}} {took(m.seconds)}{spent}"

    if record.seats > 2:
        # With more than two seats the mover is not evident from the number: name them.
        wide = max(len(n) for n in names.values())
        return [entry(m) if m.kind == "out" else
                f"{m.ply:>{number}}. {names.get(m.seat, '?'):<{wide}} "
                f"{m.notation:<{width}} {took(m.seconds)}"
                + (f"+{m.banks_spent}" if m.banks_spent else "")
                for m in record.moves]
    cells = [entry(m) for m in record.moves]
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


# ==== what the host answers =============================================================


class HistoryError(Refusal):
    """A history request that cannot be answered; the message is for the asker."""


async def history_post(host: Host, guild_id: str, user_id: str, game: str | None = None,
                       page: int = 1) -> Post:
    """A page of a player's matches with buttons to the others (to the asker only)."""
    key = None
    if game:
        try:
            key = get_game(game).key
        except EngineError as exc:
            raise HistoryError(str(exc)) from None
    if page < 1:
        raise HistoryError("Pages are numbered from 1.")
    found = await player_history(host.db, guild_id, user_id, page, PER_PAGE, key)
    if found.total and not found.entries:
        raise HistoryError(
            f"There is no page {page}: {found.name}'s history has {found.pages} "
            f"page{'' if found.pages == 1 else 's'} ({_count(found.total, 'match')}).")
    return Post(history_text(found), buttons=history_buttons(found), ephemeral=True)


async def history(host: Host, guild_id: str, user_id: str, game: str | None = None,
                  page: int = 1) -> Response:
    """``/history``: a page of a player's matches, newest first."""
    try:
        return Response(reply=await history_post(host, guild_id, user_id, game, page))
    except HistoryError as exc:
        return Response.error(str(exc))


async def recent_matches(db: Database, guild_id: str, typed: str, done_only: bool,
                         limit: int = 25) -> list[tuple[int, str]]:
    """Matches of a server for autocomplete, newest first, as (id, label): those whose
    number starts with what was typed. Challenges that were never played are left out."""
    query = select(Match).where(Match.guild_id == guild_id)
    query = query.where(Match.status.in_(DONE) if done_only
                        else Match.status.not_in(tuple(NEVER_PLAYED)))
    digits = typed.strip().lstrip("#")
    if digits.isdigit():
        query = query.where(cast(Match.id, String).like(f"{digits}%"))
    async with db.session() as s:
        rows = (await s.scalars(query.order_by(Match.id.desc()).limit(limit))).all()
        names = await user_names(s, {p.user_id for m in rows for p in m.players})
    labels = []
    for m in rows:
        players = " vs ".join(names.get(p.user_id, p.user_id) for p in
                              sorted(m.players, key=lambda p: (p.seat is None, p.seat, p.order)))
        labels.append((m.id, f"#{m.id} {_title(m.game)}: {players} ({m.status})"))
    return labels


async def _record(host: Host, guild_id: str, match_id: int) -> MatchRecord | Response:
    record = await match_record(host.db, guild_id, match_id)
    if record is None:
        return Response.error(f"There is no match #{match_id} on this server.")
    return record


async def show_match(host: Host, guild_id: str, match_id: int) -> Response:
    """``/match``: one match move by move, with its final (or current) board."""
    record = await _record(host, guild_id, match_id)
    if isinstance(record, Response):
        return record
    parts = match_texts(record)
    image = None
    if record.seated and record.status not in NEVER_PLAYED:
        game = get_game(record.game)
        state = position_of(record)
        data = await host.renderer.render(game, state, record.names, hints=False)
        image = Image(data, f"match-{record.id}-{game.key}.png")
    first = Post(parts[0], image=image, ephemeral=True)
    return Response(reply=first, posts=[Post(p, ephemeral=True) for p in parts[1:]])


async def replay(host: Host, guild_id: str, match_id: int) -> Response:
    """``/replay``: the whole of a finished match as an animated GIF, in the channel."""
    record = await _record(host, guild_id, match_id)
    if isinstance(record, Response):
        return record
    label = texts.match_label(record.id, record.kind)
    if record.status in ("running", "paused"):
        return Response.error(f"{label} is still being played; `/replay` works once it "
                              f"is over (`/match id:{record.id}` shows the moves so far).")
    if record.status not in DONE:
        return Response.error(f"{label} was never played, so there is nothing to replay.")
    game = get_game(record.game)
    caption = _caption(game, record)
    data = b""
    for width in (WIDTH, SMALL_WIDTH):
        data = await host.renderer.animate(game, record.plies, record.seats, record.options,
                                           record.names, caption, width)
        if len(data) <= MAX_UPLOAD:
            break
    else:
        return Response.error(f"{label} is too long to animate within Discord's upload "
                              "limit; `/match` shows it move by move.")
    moves = sum(1 for m in record.moves if m.kind == "move")
    text = (f"**Replay of {label}: {game.title}** — "
            + " vs ".join(f"{p.name} ({p.colour})" for p in record.players)
            + f"\n{caption} · {_count(moves, 'move')}")
    return Response(reply=Post(text, image=Image(data, f"match-{record.id}-{game.key}.gif")))


def _caption(game: Game[Any, Any], record: MatchRecord) -> str:
    """The result in a few words, for the animation's last frame and the post."""
    if record.status == "voided":
        return "Voided by the host"
    how = {"timeout": " on time", "resign": " by resignation",
           "adjudicated": " by the host's decision"}.get(record.end_reason or "", "")
    scores = list(record.scores) if record.scores else None
    if record.winner_seat is None or record.draw:
        score = "–".join(str(s) for s in scores) if scores else ""
        return " ".join(x for x in ("Draw" + how, score) if x)
    winner = next(p for p in record.players if p.seat == record.winner_seat)
    mine = _my_scores(scores, winner.seat)
    score = "–".join(str(s) for s in mine) if mine else ""
    return " ".join(x for x in (f"{winner.name} ({winner.colour}) wins{how}", score) if x)
