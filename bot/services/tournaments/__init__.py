"""Tournaments, pure: formats, pairings, series, standings and their images.

No database, no Discord, no asyncio: a ``Tournament`` (format, players in seed
order, options) and a list of events give the next round, the standings and the
bracket, so the bot can store events and rebuild everything after a restart. See
``tournament.py`` for the flow and ``standings.py`` for the tie-breaks. Running them
on a server (the database, the match host, deadlines) is ``host/``, built on this.
"""

from bot.services.tournaments.bracket import NOBODY, Spot
from bot.services.tournaments.model import (
    Dropped,
    Event,
    FirstRule,
    Format,
    Options,
    Outcome,
    Pairing,
    PlayedOn,
    Rejoined,
    Reopened,
    Reported,
    Round,
    Standing,
    Tiebreak,
    TournamentError,
    event_from_json,
    event_to_json,
)
from bot.services.tournaments.series import Series
from bot.services.tournaments.state import State
from bot.services.tournaments.tournament import Tournament, max_swiss_rounds, swiss_rounds

__all__ = [
    "NOBODY",
    "Dropped",
    "Event",
    "FirstRule",
    "Format",
    "Options",
    "Outcome",
    "Pairing",
    "PlayedOn",
    "Rejoined",
    "Reopened",
    "Reported",
    "Round",
    "Series",
    "Spot",
    "Standing",
    "State",
    "Tiebreak",
    "Tournament",
    "TournamentError",
    "event_from_json",
    "event_to_json",
    "max_swiss_rounds",
    "swiss_rounds",
]
