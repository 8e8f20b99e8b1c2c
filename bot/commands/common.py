"""Options and readings that several commands share."""

from __future__ import annotations

from typing import Any

from bot.commands.spec import Call, Kind, Option, Services, Suggest
from bot.core import options as opt
from bot.core.timecontrol import TimeControl
from bot.texts.match import TIE_RULES
from engine.registry import game_keys, get_game

MAX_NUMBER = 1_000_000_000  # match and event numbers
MAX_NAME = 100  # event names, as stored
MAX_REASON = 200  # reasons and notes, as shown in the ledger and the match log
MATCH = Option("match", Kind.INT, "The match number, when several could be meant",
               suggest=Suggest.MY_MATCHES, min=1, max=MAX_NUMBER)
ANY_MATCH = Option("match", Kind.INT, "The match number, when several could be meant",
                   suggest=Suggest.OPEN_MATCHES, min=1, max=MAX_NUMBER)
GAME = Option("game", Kind.TEXT, "The game to play", required=True, suggest=Suggest.GAMES,
              max=32)
EVENT = Option("event", Kind.TEXT,
               "The event: its name or number (default: the server's one open event)",
               suggest=Suggest.EVENTS, max=MAX_NAME)
SCOPE = Option("event", Kind.TEXT, "The event: its name or number (default: the server's "
               "one open event); `all` for overall", suggest=Suggest.SCOPES, max=MAX_NAME)
MAX_GARNETS = 1_000_000
AMOUNT = Option("amount", Kind.INT, "How many garnets", required=True, min=1, max=MAX_GARNETS)
MAX_PAGE = 100_000


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tie_values() -> tuple[str, ...]:
    """The tie rules games offer, as the engine declares them."""
    for key in game_keys():
        for spec in get_game(key).option_specs:
            if spec.name == "tie" and spec.choices:
                return spec.choices
    return ()


TIE = Option("tie", Kind.TEXT, "Who wins when the scores are equal (games with scores)",
             max=32, choices=tuple((_sentence(TIE_RULES.get(v, v)), v) for v in _tie_values()))
CLOCK = Option("clock", Kind.BOOL, "Play with the clock (default yes)")
TIME_CONTROL = (
    Option("turn", Kind.NUMBER, "Seconds of turn time per move (default 60)",
           min=5, max=86_400),
    Option("banks", Kind.INT, "Reserve banks per player (default 36)", min=0, max=1000),
    Option("bank", Kind.NUMBER, "Seconds in one reserve bank (default 5)", min=1, max=3600),
    Option("reminders", Kind.TEXT,
           "Reminder points in seconds left of the turn, e.g. 30,15,5; or off", max=40),
)
DECK = Option("deck", Kind.TEXT, "Sigma Escape: the deck (default: the reconstructed one)",
              suggest=Suggest.DECKS, max=24)
HINTS = Option("hints", Kind.BOOL,
               "Show analysis hints on the board and move suggestions (default no)")


def time_control(call: Call) -> TimeControl:
    return opt.time_control(call.get("clock"), call.get("turn"), call.get("banks"),
                            call.get("bank"), call.get("reminders"))


def game_options(call: Call) -> dict[str, Any]:
    return opt.game_options(tie=call.get("tie"))


async def match_options(s: Services, call: Call) -> dict[str, Any]:
    """The game's options of a command that starts a match, ``deck:`` resolved on the
    server (a shipped deck, or the server's own)."""
    return game_options(call) | await s.decks.option(call.guild_id, call.options["game"],
                                                     call.get("deck"))


def game_key(name: str) -> str:
    return get_game(name).key
