"""The language garnet speaks in a server

Revision ID: 0015_locale
Revises: 0014_review
Create Date: 2026-11-28 01:45:00

``guild_settings`` gets ``language`` (set by a host with ``/host language``; None: never
set), ``discord_locale`` (the server's language as Discord last told it, the default
while no host set one) and ``browser_language`` (the web pages follow each visitor's
browser language).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0015_locale'
down_revision: str | None = '0014_review'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('discord_locale', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('browser_language', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('browser_language')
        batch_op.drop_column('discord_locale')
        batch_op.drop_column('language')
