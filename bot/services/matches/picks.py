"""Answers to the menus (``menus``) of a game that offers choices: a group chosen (a
card) shows its choices (its placements) to the player to move; a choice chosen is
played as ``/move`` plays it."""

from __future__ import annotations

from bot.core import buttons as ids
from bot.core.messages import Actor, Choice, Post, Response, Select
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches.kit import MatchKit
from bot.services.matches.live import LiveMatch
from bot.services.matches.lookup import Lookup
from bot.services.matches.menus import MENUS, PER_MENU, groups, stamp, words
from bot.services.matches.play import Play
from bot.services.matches.refusals import NotYourTurn
from bot.texts import menus as texts
from bot.texts import refused


class Menus:
    def __init__(self, kit: MatchKit, lookup: Lookup, play: Play) -> None:
        self.kit = kit
        self.lookup = lookup
        self.play = play

    def _current(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                 seen: str) -> LiveMatch:
        live = self.lookup.live(Asker(guild_id, channel_id, actor), match, player=True)
        if words(live) is None:
            raise Refusal(texts.not_for_menu())
        if seen != stamp(live):
            raise Refusal(texts.stale())
        seat = live.to_move
        if seat is None or live.users[seat] != actor.id:
            raise NotYourTurn(live.names[seat] if seat is not None else refused.nobody())
        return live

    async def pick_card(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                        seen: str, card: str) -> Response:
        """The choices of group ``card``, shown only to the player to move."""
        live = self._current(match, guild_id, channel_id, actor, seen)
        said = words(live)
        assert said is not None
        found = next((g for g in groups(live) if g.label == card), None)
        if found is None:
            raise Refusal(texts.no_group(card, said))
        options = found.choices
        shown = options[:PER_MENU * MENUS]
        selects = []
        for row in range(0, len(shown), PER_MENU):
            chunk = shown[row:row + PER_MENU]
            choices = tuple(Choice(c.label, c.notation, c.description) for c in chunk)
            placeholder = texts.choice_placeholder(card, row + 1, row + len(chunk),
                                                   len(options), said)
            selects.append(Select(ids.place_menu(live.number, seen, card, row // PER_MENU),
                                  placeholder, choices))
        return Response(reply=Post(texts.group_choices(card, len(options), len(shown), said),
                                   ephemeral=True, selects=tuple(selects), pings=()))

    async def pick_place(self, match: int, guild_id: str, channel_id: str, actor: Actor,
                         seen: str, move: str, sent_at: float | None) -> Response:
        """The choice chosen, played as ``/move`` plays it, counted when chosen."""
        live = self._current(match, guild_id, channel_id, actor, seen)
        return await self.play.move(Asker(guild_id, channel_id, actor), live.number, move,
                                    sent_at=sent_at)
