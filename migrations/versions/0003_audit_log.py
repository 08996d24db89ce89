"""The admins' audit log: who did what, when, to which table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('who', sa.String(length=80), nullable=False),
    sa.Column('action', sa.String(length=32), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=True),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    op.create_index('ix_audit_log_at', 'audit_log', ['at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_audit_log_at', table_name='audit_log')
    op.drop_table('audit_log')
