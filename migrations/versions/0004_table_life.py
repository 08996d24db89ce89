"""Table life: who may watch a table and whether the lobby lists it, the rematch link, and the chat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('spectators_allowed', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column('spectator_delay', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('private', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('rematch_id', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('spectator_chat_muted', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chat_muted', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table('chat_messages',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('channel', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('deleted', sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_chat_messages_table_id_tables'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chat_messages'))
    )
    op.create_index('ix_chat_messages_table', 'chat_messages', ['table_id', 'id'], unique=False)
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.create_index('ix_tables_listed', ['private', 'status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index('ix_tables_listed')
    op.drop_index('ix_chat_messages_table', table_name='chat_messages')
    op.drop_table('chat_messages')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('chat_muted')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('spectator_chat_muted')
        batch_op.drop_column('rematch_id')
        batch_op.drop_column('private')
        batch_op.drop_column('spectator_delay')
        batch_op.drop_column('spectators_allowed')
