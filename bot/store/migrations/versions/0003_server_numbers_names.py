"""per-server numbers for matches and events, names per server, the host role by id

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 09:00:00

Existing matches and events keep their old global id as their number, so every
"#17" already posted (and every button that carries it) still names the same thing;
new ones continue from the highest number their server has. Names were kept once per
person: each is copied to every server the person appears in. A host role stored by
name (before this revision) becomes a pending name, resolved to a role id the next
time the bot sees the server.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Where a person appears on a server, as (server, person) rows.
_APPEARANCES = (
    "SELECT m.guild_id, p.user_id FROM match_players p JOIN matches m ON m.id = p.match_id",
    "SELECT guild_id, user_id FROM ledger_entries",
    "SELECT e.guild_id, p.user_id FROM event_players p JOIN events e ON e.id = p.event_id",
    "SELECT guild_id, user_id FROM ratings",
    "SELECT guild_id, user_id FROM match_results",
    "SELECT guild_id, author_id FROM ledger_entries WHERE author_id IS NOT NULL",
    "SELECT guild_id, created_by FROM events",
    "SELECT m.guild_id, h.actor_id FROM host_actions h JOIN matches m ON m.id = h.match_id",
)


def upgrade() -> None:
    op.create_table(
        'counters',
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('last', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('guild_id', 'kind', name=op.f('pk_counters')),
    )
    op.create_table(
        'member_names',
        sa.Column('guild_id', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_member_names_user_id_users')),
        sa.PrimaryKeyConstraint('guild_id', 'user_id', name=op.f('pk_member_names')),
    )
    for table in ('matches', 'events'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('number', sa.Integer(), nullable=True))
        op.execute(f"UPDATE {table} SET number = id")
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column('number', existing_type=sa.Integer(), nullable=False)
            batch_op.create_unique_constraint(f'uq_{table}_guild_number', ['guild_id', 'number'])
        kind = 'match' if table == 'matches' else 'event'
        op.execute(f"INSERT INTO counters (guild_id, kind, last) "
                   f"SELECT guild_id, '{kind}', MAX(number) FROM {table} GROUP BY guild_id")
    union = " UNION ".join(_APPEARANCES)
    op.execute(f"INSERT INTO member_names (guild_id, user_id, name) "
               f"SELECT a.guild_id, a.user_id, u.name FROM ({union}) a "
               f"JOIN users u ON u.id = a.user_id")
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('host_role_name', sa.String(length=100), nullable=True))
    # Role names stored before: kept as the name to resolve; the id is not known yet.
    op.execute("UPDATE guild_settings SET host_role_name = host_role, host_role = NULL")


def downgrade() -> None:
    op.execute("UPDATE guild_settings SET host_role = host_role_name "
               "WHERE host_role IS NULL")
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('host_role_name')
    for table in ('events', 'matches'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f'uq_{table}_guild_number', type_='unique')
            batch_op.drop_column('number')
    op.drop_table('member_names')
    op.drop_table('counters')
