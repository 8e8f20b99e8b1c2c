"""Sigma Escape matches played so far keep the first reconstructed deck

Revision ID: 0009_sigma_deck_v1
Revises: 0008_event_review
Create Date: 2026-11-26 00:30:00

The first reconstruction ships as ``reconstructed-v1``, a name that never changes,
beside the default ``reconstructed`` (the same cards today; a fairer deck may take its
place). A match stores a shipped deck by its key, or no deck at all for the default, so
every Sigma Escape match stored before this revision (with no deck or
``reconstructed``) is pinned to ``reconstructed-v1``: whatever the default becomes,
finished matches replay, and running ones go on, with the cards they were started
with.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0009_sigma_deck_v1'
down_revision: str | None = '0008_event_review'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_MATCHES = sa.table('matches', sa.column('id', sa.Integer), sa.column('game', sa.String),
                    sa.column('options', sa.JSON))


def _repin(old: str | None, new: str) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_MATCHES.c.id, _MATCHES.c.options)
                        .where(_MATCHES.c.game == 'sigma')).all()
    for match_id, options in rows:
        options = dict(options or {})
        if options.get('deck') == old or (old == 'reconstructed' and 'deck' not in options):
            options['deck'] = new
            conn.execute(_MATCHES.update().where(_MATCHES.c.id == match_id)
                         .values(options=options))


def upgrade() -> None:
    _repin('reconstructed', 'reconstructed-v1')


def downgrade() -> None:
    # Before this revision ``reconstructed`` was the first deck.
    _repin('reconstructed-v1', 'reconstructed')
