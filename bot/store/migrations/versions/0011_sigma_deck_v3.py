"""Sigma Escape: what was played or set up with the first default deck keeps it

Revision ID: 0011_sigma_deck_v3
Revises: 0010_host_action_ply
Create Date: 2026-11-26 13:00:00

The default deck ``reconstructed`` becomes the third reconstruction, a fair one
(docs/sigma-deck.md). Until this revision it held the first reconstruction's cards,
which ``reconstructed-v1`` keeps under a name that never changes. So, as migration
0009 did before, every Sigma Escape match stored with the default (no deck, or
``reconstructed``) is pinned to ``reconstructed-v1``: finished matches replay, and
running ones go on, with the cards they were started with. A tournament still open or
running, and a Death Match nomination still open, are pinned the same way, so that
every round of a tournament, and a Death Match a host set up, is played with the deck
its players were shown. A server's own decks and the other games stay as they are.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op


revision: str = '0011_sigma_deck_v3'
down_revision: str | None = '0010_host_action_ply'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD, _FIRST = 'reconstructed', 'reconstructed-v1'

_MATCHES = sa.table('matches', sa.column('id', sa.Integer), sa.column('game', sa.String),
                    sa.column('options', sa.JSON))
_TOURNAMENTS = sa.table('tournaments', sa.column('id', sa.Integer),
                        sa.column('game', sa.String), sa.column('status', sa.String),
                        sa.column('settings', sa.JSON))
_NOMINATIONS = sa.table('nominations', sa.column('id', sa.Integer),
                        sa.column('game', sa.String), sa.column('status', sa.String),
                        sa.column('settings', sa.JSON))


def _pinned(options: Any) -> dict[str, Any] | None:
    """The game options with the default deck named as the first one; None when they
    name another deck (a shipped one, or a server's own, stored whole)."""
    pinned: dict[str, Any] = dict(options or {})
    if pinned.get('deck', _OLD) != _OLD:
        return None
    pinned['deck'] = _FIRST
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
    # Nothing to undo: before this revision ``reconstructed-v1`` already existed, with
    # the same cards as the default it replaces here.
    pass
