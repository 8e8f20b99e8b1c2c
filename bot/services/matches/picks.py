"""Answers to the Sigma Escape menus (``menus``): a card chosen shows its placements to
the player to move; a placement chosen is played as ``/move`` plays it."""

from __future__ import annotations

from bot.core import buttons as ids
from bot.core.messages import Actor, Choice, Post, Response, Select
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lookup import Lookup
from bot.services.matches.menus import GAME, MENUS, PER_MENU, legal, stamp
from bot.services.matches.play import Play
from bot.services.matches.refusals import NotYourTurn
from bot.texts import menus as texts
from engine.sigma import rules


class Menus:
    def __init__(self, kit: MatchKit, lookup: Lookup, play: Play) -> None:
        self.kit = kit
        self.lookup = lookup
        self.play = play

    def _current(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                 seen: str) -> LiveMatch:
        live = self.lookup.live(Asker(guild_id, channel_id, actor), match, player=True)
        if live.game.key != GAME:
            raise Refusal(texts.not_for_menu())
        if seen != stamp(live):
            raise Refusal(texts.stale())
        seat = live.to_move
        if seat is None or live.users[seat] != actor.id:
            raise NotYourTurn(live.names[seat] if seat is not None else "nobody")
        return live

    async def pick_card(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                        seen: str, card: str) -> Response:
        """The placements of ``card``, shown only to the player to move."""
        live = self._current(match, guild_id, channel_id, actor, seen)
        moves = [m for m in legal(live) if m.card == card]
        if not moves:
            raise Refusal(texts.no_card(card))
        sides = rules.sides(live.state)
        shown = moves[:PER_MENU * MENUS]
        selects = []
        for row in range(0, len(shown), PER_MENU):
            chunk = shown[row:row + PER_MENU]
            choices = []
            for move in chunk:
                (r, c), d = sides[move.side - 1]
                notation = live.game.notation(move)
                label, description = texts.place_choice(notation, move.side, r, c, "NESW"[d],
                                                        move.arrow)
                choices.append(Choice(label, notation, description))
            placeholder = texts.place_placeholder(card, row + 1, row + len(chunk), len(moves))
            selects.append(Select(ids.place_menu(live.number, seen, card, row // PER_MENU),
                                  placeholder, tuple(choices)))
        return Response(reply=Post(texts.placements(card, len(moves), len(shown)),
                                   ephemeral=True, selects=tuple(selects), pings=()))

    async def pick_place(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                         seen: str, move: str, sent_at: float | None) -> Response:
        """The placement chosen, played as ``/move`` plays it, counted when chosen."""
        live = self._current(match, guild_id, channel_id, actor, seen)
        return await self.play.move(Asker(guild_id, channel_id, actor), live.number, move,
                                    sent_at=sent_at)
