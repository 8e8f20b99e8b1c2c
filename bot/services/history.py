"""Match history, answered: ``/history``, ``/match`` and ``/replay``.

Anyone may ask, on any platform; the adapters only translate. The reading is in
``history_queries``, the wording in ``history_view`` and ``bot.texts.history``. A
request that cannot be answered raises a ``HistoryError``.
"""

from __future__ import annotations

from bot.core.enums import DONE, PLAYING, MoveKind
from bot.core.escape import defang, sentence
from bot.core.messages import Actor, Image, Post, Response
from bot.core.refusal import Refusal
from bot.services.history_queries import (
    NEVER_PLAYED,
    PER_PAGE,
    MatchRecord,
    match_record,
    player_history,
    position_of,
    recent_matches,
)
from bot.services.history_view import (
    caption,
    ended_by,
    history_buttons,
    history_text,
    match_texts,
)
from bot.services.limits import ServerQueues
from bot.services.matches.refusals import NoSuchMatch
from bot.services.render import Renderer, described
from bot.services.review import Reviews
from bot.services.users import remember
from bot.services.workers import Workers
from bot.store.db import Database
from bot.texts import history as say
from bot.texts import match as texts
from engine.animation import WIDTH
from engine.game import EngineError
from engine.registry import get_game

MAX_UPLOAD = 10 * 1024 * 1024  # Discord's attachment limit for a bot on an unboosted server
SMALL_WIDTH = 600  # a replay too big at full size is drawn this wide


class HistoryError(Refusal):
    """A history request that cannot be answered; the message is for the asker."""


async def history_post(db: Database, guild_id: str, user_id: str, game: str | None = None,
                       page: int = 1) -> Post:
    """A page of a player's matches with buttons to the others (to the asker only)."""
    key = None
    if game:
        try:
            key = get_game(game).key
        except EngineError as exc:
            raise HistoryError(sentence(defang(str(exc)))) from None
    if page < 1:
        raise HistoryError(say.pages_from_one())
    found = await player_history(db, guild_id, user_id, page, PER_PAGE, key)
    if found.total and not found.entries:
        raise HistoryError(say.no_such_page(page=page, name=found.name, pages=found.pages,
                                            total=found.total))
    return Post(history_text(found), buttons=history_buttons(found), ephemeral=True)


async def history(db: Database, guild_id: str, user_id: str, game: str | None = None,
                  page: int = 1) -> Response:
    """``/history``: a page of a player's matches, newest first."""
    return Response(reply=await history_post(db, guild_id, user_id, game, page))


async def _record(db: Database, guild_id: str, match_id: int) -> MatchRecord:
    record = await match_record(db, guild_id, match_id)
    if record is None:
        raise NoSuchMatch(match_id)
    return record


async def show_match(db: Database, renderer: Renderer, guild_id: str,
                     match_id: int) -> Response:
    """``/match``: one match move by move, with its final (or current) board."""
    record = await _record(db, guild_id, match_id)
    parts = match_texts(record)
    image = None
    if record.seated and record.status not in NEVER_PLAYED:
        game = get_game(record.game)
        state = position_of(record)
        data = await renderer.render(game, state, record.names, hints=False, server=guild_id)
        image = Image(data, f"match-{record.number}-{game.key}.png",
                      described(game, state, record.names, ended_by(record, state)))
    first = Post(parts[0], image=image, ephemeral=True)
    return Response(reply=first, posts=[Post(p, ephemeral=True) for p in parts[1:]])


async def replay(db: Database, renderer: Renderer, guild_id: str, match_id: int) -> Response:
    """``/replay``: the whole of a finished match as an animated GIF, in the channel."""
    record = await _record(db, guild_id, match_id)
    label = texts.match_label(record.number, record.kind)
    if record.status in PLAYING:
        raise HistoryError(say.still_playing(label=label, match_id=record.number))
    if record.status not in DONE:
        raise HistoryError(say.never_played(label=label))
    game = get_game(record.game)
    words = caption(record)
    moves = sum(1 for m in record.moves if m.kind == MoveKind.MOVE)
    if not moves:
        raise HistoryError(say.no_moves_to_replay(label=label, caption=words))
    data = b""
    for width in (WIDTH, SMALL_WIDTH):
        data = await renderer.animate(game, record.plies, record.seats, record.options,
                                      record.names, words, width, server=guild_id)
        if len(data) <= MAX_UPLOAD:
            break
    else:
        raise HistoryError(say.too_long_to_animate(label=label))
    final = position_of(record)
    moves = game.moves_played(final)
    text = say.replay_text(label=label, game=game.title,
                           players=[(p.name, p.colour) for p in record.players],
                           caption=words, moves=moves)
    about = say.replay_description(label=label, caption=words, moves=moves,
                                   final=described(game, final, record.names,
                                                   ended_by(record, final)))
    return Response(reply=Post(text, image=Image(
        data, f"match-{record.number}-{game.key}.gif", about)))


class History:
    """The history a server keeps, for commands and buttons: built once, with the
    database and the renderer it draws boards and replays with."""

    def __init__(self, db: Database, renderer: Renderer,
                 queues: ServerQueues | None = None, workers: Workers | None = None) -> None:
        self.db = db
        self.renderer = renderer
        # Animations are the heaviest thing anyone can ask for: a few at a time.
        self.queues = queues or ServerQueues()
        # Reviews: the computer player's analysis, in its review worker's fair queue.
        self.reviews = Reviews(db, workers or Workers(0))

    async def page(self, guild_id: str, user_id: str, game: str | None = None,
                   page: int = 1, named: Actor | None = None) -> Response:
        """A page of ``user_id``'s matches. ``named``: the person the asker named (a
        member's name, as the platform gives it), remembered first on this server, so
        that a player garnet has not met by name yet is called by it, not by an id."""
        if named is not None:
            async with self.db.session() as s, s.begin():
                await remember(s, guild_id, [named])
        return await history(self.db, guild_id, user_id, game, page)

    async def show(self, guild_id: str, match_id: int) -> Response:
        return await show_match(self.db, self.renderer, guild_id, match_id)

    async def replay(self, guild_id: str, match_id: int) -> Response:
        async with self.queues.slot(guild_id):
            return await replay(self.db, self.renderer, guild_id, match_id)

    async def review(self, guild_id: str, match_id: int, user_id: str | None = None
                     ) -> Response:
        return await self.reviews.review(guild_id, match_id, user_id)

    async def recent(self, guild_id: str, typed: str, done_only: bool) -> list[tuple[int, str]]:
        return await recent_matches(self.db, guild_id, typed, done_only)
