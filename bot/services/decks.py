"""The decks of Sigma Escape on a server: the shipped ones and those its hosts add.

A host adds a deck file (``/host deck add``); it is checked by the engine (whose errors say
exactly where a deck is wrong) and stored for that server only. ``deck:`` on the
commands that start a match names a shipped deck or one of the server's; the match
keeps the deck in its options (a shipped deck by its key, a server's deck as its data),
so a restart, a rematch or a replay plays the same cards even after the deck is removed.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from bot.core.clock import Clock
from bot.core.messages import Actor, Image, Post, Response, Upload
from bot.core.refusal import Refusal
from bot.core.requests import Asker
from bot.services.matches import Matches
from bot.services.matches.refusals import NoneRunningHere
from bot.services.permissions import HostRoles
from bot.store.db import Database
from bot.store.models import ServerDeck
from bot.texts import decks as texts
from engine.balance import SHIPPED_BALANCE
from engine.game import EngineError
from engine.registry import get_game
from engine.sigma.deck import (
    DEFAULT_DECK,
    deck_from_bytes,
    deck_from_data,
    shipped_deck,
    shipped_decks,
)
from engine.sigma.render import deck_sheet

GAME = "sigma"
MAX_DECKS = 20  # a server's own decks (autocomplete shows 25 at most, shipped ones too)
MAX_KEY = 24  # characters of a deck's name
KEY = re.compile(rf"[a-z0-9][a-z0-9_-]{{0,{MAX_KEY - 1}}}")


class Decks:
    def __init__(self, db: Database, clock: Clock, roles: HostRoles, matches: Matches) -> None:
        self.db = db
        self.clock = clock
        self.roles = roles
        self.matches = matches

    # ---- reading ---------------------------------------------------------------------

    async def _own(self, guild_id: str) -> list[ServerDeck]:
        async with self.db.session() as s:
            rows = await s.scalars(select(ServerDeck).where(ServerDeck.guild_id == guild_id)
                                   .order_by(ServerDeck.key))
            return list(rows)

    async def _find(self, guild_id: str, name: str) -> ServerDeck | None:
        async with self.db.session() as s:
            found: ServerDeck | None = await s.scalar(select(ServerDeck).where(
                ServerDeck.guild_id == guild_id, ServerDeck.key == name.strip().lower()))
            return found

    async def names(self, guild_id: str) -> list[str]:
        return [*shipped_decks(), *(row.key for row in await self._own(guild_id))]

    async def choices(self, guild_id: str, current: str) -> list[tuple[str, str]]:
        """(label, value) of the decks whose name holds ``current``, for autocomplete."""
        wanted = current.strip().lower()
        found = [(f"{key} (shipped)", key) for key in shipped_decks()]
        found += [(f"{row.key} (this server's)", row.key) for row in await self._own(guild_id)]
        return [(label, value) for label, value in found if wanted in value][:25]

    async def option(self, guild_id: str, game: str, name: str | None) -> dict[str, Any]:
        """The game option ``deck:`` stands for: {} when not given; a shipped deck's key;
        a server's deck as its data. Refused for other games and unknown decks."""
        if name is None or not name.strip():
            return {}
        played = get_game(game)
        if played.key != GAME:
            raise Refusal(texts.only_sigma(played.title))
        key = name.strip().lower()
        if key in shipped_decks():
            return {"deck": key}
        row = await self._find(guild_id, key)
        if row is None:
            raise Refusal(texts.unknown(name, await self.names(guild_id)))
        return {"deck": dict(row.data)}

    # ---- commands --------------------------------------------------------------------

    async def add(self, guild_id: str, actor: Actor, upload: Upload,
                  name: str | None = None) -> Response:
        await self.roles.require_host(guild_id, actor)
        filename = upload.filename.rsplit("/", 1)[-1]
        stem, dot, suffix = filename.rpartition(".")
        if not dot or suffix.lower() not in ("toml", "json"):
            raise Refusal(texts.not_deck_file(filename))
        key = (name or stem).strip().lower()
        if not KEY.fullmatch(key):
            raise Refusal(texts.bad_name(key, MAX_KEY))
        if key in shipped_decks():
            raise Refusal(texts.shipped_name(key))
        try:
            deck = deck_from_bytes(upload.data, suffix.lower() == "json", key,
                                   f"deck file '{filename}'")
        except EngineError as exc:
            raise Refusal(texts.invalid(str(exc))) from None
        data = deck.to_data() | {"key": key}
        async with self.db.session() as s, s.begin():
            count = await s.scalar(select(func.count()).select_from(ServerDeck)
                                   .where(ServerDeck.guild_id == guild_id))
            if (count or 0) >= MAX_DECKS:
                raise Refusal(texts.too_many(MAX_DECKS))
            same = await s.scalar(select(ServerDeck.id).where(
                ServerDeck.guild_id == guild_id, ServerDeck.key == key))
            if same is not None:
                raise Refusal(texts.taken(key))
            s.add(ServerDeck(guild_id=guild_id, key=key, data=data, author_id=actor.id,
                             added_at=self.clock.now()))
        return Response.say(texts.added(key, deck.name, deck.hand_size(0), deck.hand_size(1),
                                        sorted(deck.rules)),
                            ephemeral=False)

    async def remove(self, guild_id: str, actor: Actor, name: str) -> Response:
        await self.roles.require_host(guild_id, actor)
        key = name.strip().lower()
        if key in shipped_decks():
            raise Refusal(texts.cannot_remove_shipped(key))
        async with self.db.session() as s, s.begin():
            row = await s.scalar(select(ServerDeck).where(
                ServerDeck.guild_id == guild_id, ServerDeck.key == key))
            if row is not None:
                await s.delete(row)
        if row is None:
            # Named after the session is given back: on SQLite the one pooled connection
            # is held by an open session, and a second one would wait for it (60 s).
            raise Refusal(texts.unknown(name, await self.names(guild_id)))
        return Response.say(texts.removed(key), ephemeral=False)

    async def listing(self, guild_id: str) -> Response:
        shipped = [(key, shipped_deck(key).name, shipped_deck(key).reconstruction)
                   for key in shipped_decks()]
        own = [(row.key, str(row.data.get("name", row.key))) for row in await self._own(guild_id)]
        return Response.say(texts.listing(shipped, own, DEFAULT_DECK))

    async def show(self, asker: Asker, name: str | None = None,
                   match: int | None = None) -> Response:
        """A deck's sheet (any player may ask): the deck named, else the deck of the
        Sigma Escape match named or being played in the channel."""
        number: int | None = None
        if name is not None and name.strip():
            key = name.strip().lower()
            if key in shipped_decks():
                deck = shipped_deck(key)
            else:
                row = await self._find(asker.guild_id, key)
                if row is None:
                    raise Refusal(texts.unknown(name, await self.names(asker.guild_id)))
                deck = deck_from_data(row.data, row.key)
        else:
            try:
                live = self.matches.lookup.live(asker, match, player=False)
            except NoneRunningHere:
                raise Refusal(texts.no_match_deck()) from None
            if live.game.key != GAME:
                raise Refusal(texts.no_match_deck())
            deck, number = live.state.deck, live.number
        # In the renderer's worker, in the server's turn, with a time limit.
        image = await self.matches.renderer.sheet(deck_sheet, deck, asker.guild_id,
                                                  asker.actor.id)
        shipped = deck.key in shipped_decks() and deck == shipped_deck(deck.key)
        balance = SHIPPED_BALANCE.get(deck.key) if shipped else None
        return Response(reply=Post(texts.sheet(deck.key, deck.name, number, balance,
                                               sorted(deck.rules),
                                               shipped and deck.key == DEFAULT_DECK),
                                   ephemeral=True,
                                   image=Image(image, f"deck-{deck.key}.png")))
