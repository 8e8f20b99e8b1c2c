"""The web companion: a server's public pages, and players who hide their name there

Revision ID: 0013_web
Revises: 0012_plugins
Create Date: 2026-11-27 23:00:00

``guild_settings`` gets ``web_on`` (the server's pages are public: ``/host web on``),
``web_slug`` (the unguessable part of their address, kept when the pages are turned
off, so that turning them on again gives the same links) and ``web_salt`` (a secret
from which a player's page address is made: no Discord id in any address). ``users``
gets ``web_hidden``: the player's name is on no public page of any server
(``/web hide``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0013_web'
down_revision: str | None = '0012_plugins'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('web_on', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('web_slug', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('web_salt', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_guild_settings_web_slug', ['web_slug'])
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('web_hidden', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('web_hidden')
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_constraint('uq_guild_settings_web_slug', type_='unique')
        batch_op.drop_column('web_salt')
        batch_op.drop_column('web_slug')
        batch_op.drop_column('web_on')
