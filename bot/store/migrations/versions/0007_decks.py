"""the decks of Sigma Escape that hosts add to a server (``/deck add``)

Revision ID: 0007_decks
Revises: 0004
Create Date: 2026-12-01 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007_decks'
down_revision: str | None = '0006_log_channel'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'server_decks',
        sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'),
                  autoincrement=True, nullable=False),
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('key', sa.String(length=32), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.Column('author_id', sa.String(length=64), nullable=False),
        sa.Column('added_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_server_decks')),
        sa.UniqueConstraint('guild_id', 'key', name='uq_server_decks_guild_key'),
    )


def downgrade() -> None:
    op.drop_table('server_decks')
