"""Options and readings that several commands share."""

from __future__ import annotations

from typing import Any

from bot.commands.spec import Call, Kind, Option, Services, Suggest
from bot.core import options as opt
from bot.core.timecontrol import TimeControl
from engine.registry import get_game

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


#: the game's own options (``engine.game.OptionSpec``) in one text, ``tie:draw
#: ply-cap:200``: one Discord option for every option of every game, read against the
#: chosen game's declarations (``bot.core.options.read_game_options``)
OPTIONS = Option("options", Kind.TEXT, "The game's options, e.g. tie:draw or ply-cap:200 "
                 "(/help game: lists them)", suggest=Suggest.GAME_OPTIONS,
                 max=opt.OPTIONS_TEXT)
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


def game_options(call: Call, raw: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ``options:`` text read against the command's game."""
    return opt.read_game_options(get_game(call.options["game"]), call.get("options", ""), raw)


async def match_options(s: Services, call: Call) -> dict[str, Any]:
    """The game's options of a command that starts a match, ``deck:`` resolved on the
    server (a shipped deck, or the server's own; ``deck:`` may also be in ``options:``)."""
    options = game_options(call, raw=("deck",))
    deck = call.get("deck") or options.pop("deck", None)
    return options | await s.decks.option(call.guild_id, call.options["game"], deck)


def game_key(name: str) -> str:
    return get_game(name).key
