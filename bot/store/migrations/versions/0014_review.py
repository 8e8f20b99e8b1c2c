"""Stored reviews: a finished match's review by the computer, kept once computed

Revision ID: 0014_review
Revises: 0013_web
Create Date: 2026-11-28 01:40:00

``match_reviews`` holds the review of a match (keyed by its server and the match) as
``Review.to_data`` writes it: the win chance at every position and each move's
judgement. A second ``/review`` reads it instead of analysing again, and the match's
web page shows its plot and notes beside the moves.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0014_review'
down_revision: str | None = '0013_web'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'match_reviews',
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'),
                  autoincrement=False, nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'],
                                name=op.f('fk_match_reviews_match_id_matches'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('guild_id', 'match_id', name=op.f('pk_match_reviews')),
    )


def downgrade() -> None:
    op.drop_table('match_reviews')
