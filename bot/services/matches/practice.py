"""Practice: a casual, unrated match against the computer player.

The computer sits in a seat of its own (user id ``garnet-ai:LEVEL``), so the lobby,
the moves, the clock, the ending and a restart treat it as a player. Whenever a turn
starts (``MatchKit.on_turn``) and the seat to move is the computer's, it thinks in a
worker (``bot.services.workers``: never on the event loop), within its level's move
time (and the clock's, when the match has one), then plays through the same path as
a person's move. Its moves wait their turn fairly between servers and users, and a
user (``PER_USER``) or a server (``PER_SERVER``) may have only so many games going.
A practice match never books garnets, standings, ratings or the ledger
(``results.settle`` skips it).
"""

from __future__ import annotations

import asyncio
import logging

from bot.core.enums import MatchKind, MatchStatus
from bot.core.messages import Actor, Post, Response, ai_level, ai_name, ai_user
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.core.timecontrol import TimeControl
from bot.services.games import offered_game
from bot.services.jobs import JobTooLong
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lobby import Lobby
from bot.services.matches.play import Play
from bot.services.users import remember
from bot.services.vitals import CANNOT_SAVE
from bot.services.workers import Workers
from bot.store.models import Match, MatchPlayer
from bot.store.numbers import next_number
from bot.texts import practice as say
from engine.ai import LEVELS, player_for
from engine.game import EngineError

log = logging.getLogger(__name__)
PER_USER = 3  # practice matches one user may have going at once
PER_SERVER = 25  # and one server
SAVE_RETRY = 5.0  # seconds before the computer tries again to save a move it could not


class Practice:
    def __init__(self, kit: MatchKit, lobby: Lobby, play: Play, workers: Workers) -> None:
        self.kit = kit
        self.lobby = lobby
        self.play = play
        self.workers = workers
        self._thinking: dict[int, asyncio.Task[None]] = {}
        # Posts wait while held (the console prints a line's answer first).
        self._open = asyncio.Event()
        self._open.set()
        self._holds = 0

    async def start(self, asker: Asker, game_name: str, level: int, first: str = "me",
                    tc: TimeControl | None = None, hints: bool = False) -> Response:
        """``/practice``: a match against the computer player at ``level``."""
        self.kit.pressure.check(asker.guild_id)  # at Discord's limit: fairly
        game = await offered_game(self.kit.db, asker.guild_id, game_name)
        if level not in LEVELS:
            raise Refusal(say.levels(min(LEVELS), max(LEVELS)))
        try:
            player_for(game.key, level)
        except EngineError:
            raise Refusal(say.no_player(game.title)) from None
        first = first.strip().lower()
        if first not in ("me", "bot", "random"):
            raise Refusal(say.first_choices())
        if first == "random":
            first = self.kit.rng.choice(("me", "bot"))
        options = game.check_options(None)
        tc = tc or TimeControl.off()
        bot = Actor(ai_user(level), ai_name(level))
        async with self.kit.creating:
            self.room_for(asker.guild_id, asker.actor.id)
            await self.lobby.busy(asker.guild_id, asker.channel_id, [asker.actor.id])
            self.lobby.asking.take((asker.guild_id, asker.actor.id))
            async with self.kit.db.session() as s, s.begin():
                await remember(s, asker.guild_id, [asker.actor, bot])
                match = Match(
                    guild_id=asker.guild_id, number=await next_number(s, asker.guild_id, "match"),
                    channel_id=asker.channel_id, game=game.key, kind=MatchKind.PRACTICE,
                    status=MatchStatus.PENDING, seats=2, options=options,
                    time_control=tc.to_json(), hints=hints, rated=False, host_id=None,
                    chooser=first, created_at=self.kit.now())
                s.add(match)
                await s.flush()
                for order, uid in enumerate((asker.actor.id, bot.id)):
                    s.add(MatchPlayer(match_id=match.id, user_id=uid, order=order,
                                      accepted=True, banks_left=tc.banks))
                match_id = match.id
        seating = [asker.actor.id, bot.id] if first == "me" else [bot.id, asker.actor.id]
        return await self.lobby.start(match_id, seating, say.intro(level))

    def room_for(self, guild_id: str, user_id: str) -> None:
        """Refuse a practice match past the caps: the computer's moves of every server
        share its workers, so one user or one server may have only so many going."""
        going = [live for live in self.kit.live
                 if live.kind == MatchKind.PRACTICE and not live.finished]
        if sum(1 for live in going if user_id in live.users) >= PER_USER:
            raise Refusal(say.too_many_practice(PER_USER))
        if sum(1 for live in going if live.guild_id == guild_id) >= PER_SERVER:
            raise Refusal(say.server_practice_full(PER_SERVER))

    # ---- the computer's turns ----------------------------------------------------------

    def wake(self, live: LiveMatch) -> None:
        """A turn started: if it is the computer's, it starts thinking."""
        seat = live.to_move
        if live.finished or live.paused or seat is None:
            return
        level = ai_level(live.users[seat])
        if level is None:
            return
        busy = self._thinking.get(live.id)
        if busy is not None and not busy.done() and busy is not asyncio.current_task():
            return
        task = asyncio.get_running_loop().create_task(self._spoken_turn(live, seat, level))
        self._thinking[live.id] = task
        task.add_done_callback(lambda t: self._done(live.id, t))

    def _done(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._thinking.get(match_id) is task:
            del self._thinking[match_id]

    def move_time(self, live: LiveMatch, level: int) -> float:
        """The computer's move time: its level's, and within the clock's turn."""
        seconds = LEVELS[level].seconds
        if live.tc.enabled:
            left = live.flag_at() - live.elapsed(self.kit.now())
            seconds = max(0.1, min(seconds, 0.5 * left))
        return seconds

    async def _spoken_turn(self, live: LiveMatch, seat: int, level: int) -> None:
        """The computer's turn, its posts in the server's language."""
        async with self.kit.speaking_for(live.guild_id):
            await self._turn(live, seat, level)

    async def _turn(self, live: LiveMatch, seat: int, level: int) -> None:
        ply = live.ply
        seconds = self.move_time(live, level)
        # Whom the computer plays: its move waits in the turn of that user and server
        # (``bot.services.jobs``), so one user's many games never delay another's.
        user = next((u for u in live.users if ai_level(u) is None), None)
        try:
            try:
                decision = await self.workers.think(
                    live.game.key, live.state, level, seed=live.id * 1009 + ply,
                    seconds=seconds, server=live.guild_id, user=user)
                text = decision.move
            except JobTooLong:  # the search itself overran (its worker was replaced)
                log.warning("match %s: the computer's search overran; a legal move instead",
                            live.id)
                text = live.game.notation(live.game.legal_moves(live.state)[0])
            response = await self.play.machine_move(live, seat, ply, text)
            if response is None:
                return
            await self._open.wait()
            for post in response.posts:
                await self.kit.deliver(post)
        except asyncio.CancelledError:
            raise
        except CANNOT_SAVE:
            # The database refused the move (locked, restarting, full): the computer's
            # turn is not given up, it thinks again (the same seed, the same move) and
            # saves it once the database takes writes again, as every timer does.
            log.warning("match %s: the computer's move could not be saved; again in %.0f s",
                        live.id, SAVE_RETRY)

            async def again() -> None:
                self.wake(live)

            self.kit.clock.call_at(self.kit.now() + SAVE_RETRY, again)
        except Exception:  # a failing search must not take the bot down
            log.exception("match %s: the computer player failed", live.id)
            await self.kit.deliver(Post(say.failed(), live.channel_id))

    # ---- for the console and tests --------------------------------------------------

    def hold(self) -> None:
        """Keep the computer's posts back until ``release`` (its thinking goes on)."""
        self._holds += 1
        self._open.clear()

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)
        if not self._holds:
            self._open.set()

    async def idle(self) -> None:
        """Wait until no computer player is thinking (each move may start another)."""
        while self._thinking:
            await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._thinking.values()):
            task.cancel()
        await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)
        self._thinking.clear()
        self.workers.close()


__all__ = ["Practice"]
