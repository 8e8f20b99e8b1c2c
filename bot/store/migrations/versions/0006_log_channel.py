"""a server's log channel: where garnet tells hosts what needs them

Revision ID: 0006_log_channel
Revises: 0004
Create Date: 2026-12-01 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0006_log_channel'
down_revision: str | None = '0005_leases'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('log_channel', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('log_channel')
