"""Presence you can trust: a seat whose every tab is hidden is away, and each seat remembers since when it
is connected, away or disconnected (the others may hand a seat disconnected on its turn to a bot).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 10:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('presence', schema=None) as batch_op:
        batch_op.add_column(sa.Column('visible', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('away', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('presence_since', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('presence_since')
        batch_op.drop_column('away')
    with op.batch_alter_table('presence', schema=None) as batch_op:
        batch_op.drop_column('visible')
