"""the games a server offers beyond the built-in ones (``/host games``)

Revision ID: 0012_plugins
Revises: 0011_sigma_deck_v3
Create Date: 2026-11-27 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0012_plugins'
down_revision: str | None = '0011_sigma_deck_v3'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('games', sa.String(length=1000), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('games')
