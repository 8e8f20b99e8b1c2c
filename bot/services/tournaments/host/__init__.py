"""Tournaments hosted on a server: the pure core (``bot.services.tournaments``) run
with the database and the match host.

- ``manage``: the requests of ``/tournament …`` (create, enter, start, drop, decide,
  cancel, read);
- ``flow``: a running tournament's rounds, games, results, deadlines and end;
- ``corrections``: a host's decision on a pairing and its correction in any round,
  also after the end (prizes reversed and booked again once);
- ``records``: a tournament as stored, and which one a request means;
- ``views``: what it shows (rounds, results, standings and their image, books).

A tournament is a row with its settings, its entrants, and a log of the core's events
(rounds as paired, results, withdrawals); each game of a pairing is an ordinary match
of the host, linked by ``tournament_games``. Results reach the tournament when a match
ends (``Tournaments.match_ended``, which the composition root registers with the
match host), and again after a restart, from the matches themselves.
"""

from bot.services.tournaments.host.manage import Tournaments, parse_prizes
from bot.services.tournaments.host.records import (
    DOUBLE,
    FORFEIT,
    Setup,
    TournamentRefusal,
    TournamentSettings,
)

__all__ = ["DOUBLE", "FORFEIT", "Setup", "TournamentRefusal", "TournamentSettings",
           "Tournaments", "parse_prizes"]
