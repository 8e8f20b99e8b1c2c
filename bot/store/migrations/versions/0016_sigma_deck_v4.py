"""Sigma Escape: what was played or set up with the third default deck keeps it

Revision ID: 0016_sigma_deck_v4
Revises: 0015_locale
Create Date: 2026-11-28 02:40:00

The default deck ``reconstructed`` becomes the fourth reconstruction, played under the
rules variant ``open-sides`` (docs/sigma-deck.md §10): the first deck on which both
seats' play counts. Until this revision it held the third reconstruction's cards under
the rules page's own settlements, which ``reconstructed-v3`` keeps under a name that
never changes. So, as migration 0011 did for the first, every Sigma Escape match stored
with the default (no deck, or ``reconstructed``) is pinned to ``reconstructed-v3``:
finished matches replay, and running ones go on, with the cards and rules they were
started with. A tournament still open or running, and a Death Match nomination still
open, are pinned the same way, so that every round of a tournament, and a Death Match a
host set up, is played with the deck its players were shown. Matches already pinned to
an earlier deck, a server's own decks and the other games stay as they are.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op


revision: str = '0016_sigma_deck_v4'
down_revision: str | None = '0015_locale'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD, _THIRD = 'reconstructed', 'reconstructed-v3'

_MATCHES = sa.table('matches', sa.column('id', sa.Integer), sa.column('game', sa.String),
                    sa.column('options', sa.JSON))
_TOURNAMENTS = sa.table('tournaments', sa.column('id', sa.Integer),
                        sa.column('game', sa.String), sa.column('status', sa.String),
                        sa.column('settings', sa.JSON))
_NOMINATIONS = sa.table('nominations', sa.column('id', sa.Integer),
                        sa.column('game', sa.String), sa.column('status', sa.String),
                        sa.column('settings', sa.JSON))


def _pinned(options: Any) -> dict[str, Any] | None:
    """The game options with the default deck named as the third one; None when they
    name another deck (a shipped one, or a server's own, stored whole)."""
    pinned: dict[str, Any] = dict(options or {})
    if pinned.get('deck', _OLD) != _OLD:
        return None
    pinned['deck'] = _THIRD
    return pinned


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_MATCHES.c.id, _MATCHES.c.options)
                        .where(_MATCHES.c.game == 'sigma')).all()
    for match_id, options in rows:
        if (pinned := _pinned(options)) is not None:
            conn.execute(_MATCHES.update().where(_MATCHES.c.id == match_id)
                         .values(options=pinned))
    # Where the game options of matches still to come are kept: a tournament's
    # ``game_options``, a nomination's ``options``.
    for table, key, statuses in ((_TOURNAMENTS, 'game_options', ('open', 'running')),
                                 (_NOMINATIONS, 'options', ('open',))):
        rows = conn.execute(sa.select(table.c.id, table.c.settings)
                            .where(table.c.game == 'sigma', table.c.status.in_(statuses))
                            ).all()
        for row_id, settings in rows:
            settings = dict(settings or {})
            if (pinned := _pinned(settings.get(key))) is not None:
                conn.execute(table.update().where(table.c.id == row_id)
                             .values(settings=settings | {key: pinned}))


def downgrade() -> None:
    # Nothing to undo: ``reconstructed-v3`` keeps the cards and rules these matches were
    # played with whichever revision the database is at.
    pass
