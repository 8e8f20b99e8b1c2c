"""leases: which bot process runs the matches of each shard, until when

Revision ID: 0005_leases
Revises: 0004
Create Date: 2026-12-01 10:00:00

One row per shard (``shard:3/8``, or ``shard:0/1`` for a single process), renewed with
the heartbeat; see ``bot/services/leases.py``.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005_leases'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('leases',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('owner', sa.String(length=255), nullable=False),
    sa.Column('instance', sa.String(length=64), nullable=False),
    sa.Column('pid', sa.Integer(), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.Column('since', sa.Float(), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_leases'))
    )


def downgrade() -> None:
    op.drop_table('leases')
