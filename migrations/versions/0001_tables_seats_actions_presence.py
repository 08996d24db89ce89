"""Tables, their seats, the action log and live presence (the first schema).

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-22 15:36:01.589018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tables',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('rules_version', sa.Integer(), nullable=False),
    sa.Column('state', sa.Text(), nullable=True),
    sa.Column('invite_key', sa.String(length=64), nullable=False),
    sa.Column('spectator_key', sa.String(length=64), nullable=False),
    sa.Column('spectators', sa.Integer(), nullable=False),
    sa.Column('turn_timer', sa.Integer(), nullable=True),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tables')),
    sa.UniqueConstraint('invite_key', name=op.f('uq_tables_invite_key')),
    sa.UniqueConstraint('spectator_key', name=op.f('uq_tables_spectator_key'))
    )
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.create_index('ix_tables_status_updated', ['status', 'updated_at'], unique=False)

    op.create_table('actions',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('action', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_actions_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'version', name=op.f('pk_actions'))
    )
    op.create_table('presence',
    sa.Column('instance', sa.String(length=32), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('connections', sa.Integer(), nullable=False),
    sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_presence_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('instance', 'table_id', 'seat', name=op.f('pk_presence'))
    )
    with op.batch_alter_table('presence', schema=None) as batch_op:
        batch_op.create_index('ix_presence_table', ['table_id'], unique=False)

    op.create_table('seats',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('connected', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('bot_level', sa.String(length=16), nullable=True),
    sa.Column('bot_takeover', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_seats_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'number', name=op.f('pk_seats')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_seats_token_hash'))
    )


def downgrade() -> None:
    op.drop_table('seats')
    with op.batch_alter_table('presence', schema=None) as batch_op:
        batch_op.drop_index('ix_presence_table')

    op.drop_table('presence')
    op.drop_table('actions')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index('ix_tables_status_updated')

    op.drop_table('tables')
