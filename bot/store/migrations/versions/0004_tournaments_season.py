"""tournaments (settings, entrants, their log, the matches of their pairings); a
season's Tokens of Life, eliminations and Death Match nominations

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 03:40:55

Besides new tables, events get ``eliminate`` (whether a DM's loser leaves the event):
false for the events that exist (they were run without it), true for new ones by
default. A tournament's pairings and standings
are rebuilt from its log (the pure core's events as JSON); its matches are ordinary
rows of ``matches``, linked by ``tournament_games``.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('eliminate', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.create_table('life_tokens',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.String(length=64), nullable=False),
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('amount', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('author_id', sa.String(length=64), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_life_tokens_event_id_events'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_life_tokens_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_life_tokens'))
    )
    with op.batch_alter_table('life_tokens', schema=None) as batch_op:
        batch_op.create_index('ix_life_tokens_event_user', ['event_id', 'user_id'], unique=False)

    op.create_table('tournaments',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('format', sa.String(length=16), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('channel_id', sa.String(length=64), nullable=False),
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('started_at', sa.Float(), nullable=True),
    sa.Column('finished_at', sa.Float(), nullable=True),
    sa.Column('deadline_at', sa.Float(), nullable=True),
    sa.Column('reminded', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_tournaments_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
    sa.UniqueConstraint('guild_id', 'number', name='uq_tournaments_guild_number')
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index('ix_tournaments_guild_status', ['guild_id', 'status'], unique=False)

    op.create_table('eliminations',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.String(length=64), nullable=False),
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('undone_at', sa.Float(), nullable=True),
    sa.Column('undone_by', sa.String(length=64), nullable=True),
    sa.Column('note', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_eliminations_event_id_events'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_eliminations_match_id_matches'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_eliminations_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_eliminations')),
    sa.UniqueConstraint('match_id', name=op.f('uq_eliminations_match_id'))
    )
    with op.batch_alter_table('eliminations', schema=None) as batch_op:
        batch_op.create_index('ix_eliminations_event_user', ['event_id', 'user_id'], unique=False)

    op.create_table('nominations',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('guild_id', sa.String(length=64), nullable=False),
    sa.Column('event_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('nominator_id', sa.String(length=64), nullable=False),
    sa.Column('host_id', sa.String(length=64), nullable=False),
    sa.Column('channel_id', sa.String(length=64), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_nominations_event_id_events'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_nominations_match_id_matches'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['nominator_id'], ['users.id'], name=op.f('fk_nominations_nominator_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_nominations'))
    )
    with op.batch_alter_table('nominations', schema=None) as batch_op:
        batch_op.create_index('ix_nominations_event_status', ['event_id', 'status'], unique=False)

    op.create_table('tournament_games',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('tournament_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('game_no', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_tournament_games_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_games_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_games')),
    sa.UniqueConstraint('match_id', name=op.f('uq_tournament_games_match_id'))
    )
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.create_index('ix_tournament_games_pairing', ['tournament_id', 'round', 'board'], unique=False)

    op.create_table('tournament_log',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('tournament_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('author_id', sa.String(length=64), nullable=True),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_log_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_log')),
    sa.UniqueConstraint('tournament_id', 'seq', name=op.f('uq_tournament_log_tournament_id'))
    )
    op.create_table('tournament_players',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('tournament_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=True),
    sa.Column('checked_in', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_players_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_tournament_players_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_players')),
    sa.UniqueConstraint('tournament_id', 'user_id', name=op.f('uq_tournament_players_tournament_id'))
    )


def downgrade() -> None:
    op.drop_table('tournament_players')
    op.drop_table('tournament_log')
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.drop_index('ix_tournament_games_pairing')

    op.drop_table('tournament_games')
    with op.batch_alter_table('nominations', schema=None) as batch_op:
        batch_op.drop_index('ix_nominations_event_status')

    op.drop_table('nominations')
    with op.batch_alter_table('eliminations', schema=None) as batch_op:
        batch_op.drop_index('ix_eliminations_event_user')

    op.drop_table('eliminations')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index('ix_tournaments_guild_status')

    op.drop_table('tournaments')
    with op.batch_alter_table('life_tokens', schema=None) as batch_op:
        batch_op.drop_index('ix_life_tokens_event_user')

    op.drop_table('life_tokens')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_column('eliminate')
