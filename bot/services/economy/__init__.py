"""Events, priority, garnets, ratings, leaderboards and exports: the rules.

Like the match host, this layer decides everything (who may, what changes, what is
said) and returns a ``Response``, or raises a ``Refusal`` that says why not; the
adapters only translate. Host-only requests ask ``HostRoles.require_host``.
Everything a player reads is answered to them alone; what changes the game for
others (an event opens, a grant, a transfer) is said in the channel.

``Economy`` is built once, from the database, the clock, the host roles and the
default DM reward; its parts live in this package by seam: ``organising`` (events
and priority, exports), ``garnets`` (balances, transfers, grants, fines, ledgers)
and ``standings`` (leaderboards and ratings).
"""

from __future__ import annotations

from bot.services.economy.garnets import Garnets
from bot.services.economy.organising import Organising
from bot.services.economy.standings import Standings

__all__ = ["Economy"]


class Economy(Organising, Garnets, Standings):
    """The economy of every server: ``Economy(db, clock, roles, dm_reward)``."""
