"""Looking at a running match: its board (to the asker, or reposted by a host) and
its clocks."""

from __future__ import annotations

from bot.core.messages import Actor, Post, Response
from bot.services.matches.kit import MatchKit
from bot.services.matches.lookup import Lookup
from bot.texts import match as texts


class Viewing:
    def __init__(self, kit: MatchKit, lookup: Lookup) -> None:
        self.kit = kit
        self.lookup = lookup

    async def board(self, match_id: int | None, guild_id: str, channel_id: str,
                    actor: Actor, public: bool = False) -> Response:
        """The current board: to the asker, or to the channel (``/repost``, hosts only)."""
        if public:
            await self.kit.roles.require_host(guild_id, actor)
        live = self.lookup.live(match_id, guild_id, channel_id, actor, player=False)
        image = await self.kit.render(live.game, live.state, live.names,
                                      live.hints and not live.finished)
        text = texts.board(texts.match_label(live.number, live.kind), live.game.title,
                           texts.seat_line(live.game, live.state, live.users), live.ply,
                           live.paused, self.kit.turn_line(live))
        if public:
            return Response(reply=Post("Board posted.", ephemeral=True),
                            posts=[Post(text, live.channel_id, image=image)])
        return Response(reply=Post(text, image=image, ephemeral=True))

    async def time(self, match_id: int | None, guild_id: str, channel_id: str,
                   actor: Actor) -> Response:
        live = self.lookup.live(match_id, guild_id, channel_id, actor, player=False)
        if not live.tc.enabled:
            return Response.say("This match has no clock.")
        now = self.kit.now()
        lines = []
        for seat in range(len(live.users)):
            if live.out[seat]:
                continue
            if seat == live.to_move:
                left = texts.clock_left(live.tc, live.elapsed(now), live.banks_left[seat],
                                        live.extra)
                lines.append(texts.clock_on_turn(live.names[seat], left))
            else:
                banks = live.banks_left[seat]
                lines.append(texts.clock_waiting(live.names[seat], banks,
                                                 banks * live.tc.bank))
        if live.paused:
            lines.append("The clock is paused.")
        return Response.say("\n".join(lines))
