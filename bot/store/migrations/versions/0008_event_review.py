"""events get ``review``: a DM of the event is reviewed by the computer when it ends

Revision ID: 0008_event_review
Revises: 0004
Create Date: 2026-11-23 06:40:00

False for the events that exist (they were created without the option), false by
default for new ones (``/event create review:yes`` turns it on).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008_event_review'
down_revision: str | None = '0007_decks'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('review', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('review')
