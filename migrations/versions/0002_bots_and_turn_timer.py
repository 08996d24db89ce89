"""Bots and the turn timer: the seat changes log, and an index to find expired turn deadlines.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seat_changes',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.String(length=16), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_seat_changes_table_id_tables'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'version', 'seat', name=op.f('pk_seat_changes'))
    )
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.create_index('ix_tables_deadline', ['deadline_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index('ix_tables_deadline')
    op.drop_table('seat_changes')
