"""host_actions get ``ply``: how many moves the match had when a host acted

Revision ID: 0010_host_action_ply
Revises: 0009_sigma_deck_v1
Create Date: 2026-11-26 03:20:00

``/match`` and the JSON export placed each host action by comparing timestamps with
the moves', which put actions taken in the same second as a move (or in a clock's
pause) after the wrong move. The ply is now written with the action. Rows written
before this revision are backfilled from the timestamps, as they used to be read:
the moves of the match made at or before the action.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0010_host_action_ply'
down_revision: str | None = '0009_sigma_deck_v1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('host_actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ply', sa.Integer(), nullable=False,
                                      server_default='0'))
    actions = sa.table('host_actions', sa.column('match_id', sa.Integer),
                       sa.column('at', sa.Float), sa.column('ply', sa.Integer))
    moves = sa.table('moves', sa.column('match_id', sa.Integer), sa.column('at', sa.Float))
    before = (sa.select(sa.func.count()).select_from(moves)
              .where(moves.c.match_id == actions.c.match_id, moves.c.at <= actions.c.at)
              .scalar_subquery())
    op.get_bind().execute(actions.update().values(ply=before))


def downgrade() -> None:
    with op.batch_alter_table('host_actions', schema=None) as batch_op:
        batch_op.drop_column('ply')
