"""live tables: join code, host and seat tokens, move log

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('move',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('move', sa.JSON(), nullable=False),
    sa.Column('idempotency_key', sa.String(length=80), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('undone_by', sa.String(length=16), nullable=True),
    sa.Column('undone_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('undone_version', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'idempotency_key'),
    sa.UniqueConstraint('table_id', 'seq')
    )
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_move_table_id'), ['table_id'], unique=False)

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('setup', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('code', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('host_token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.create_unique_constraint('uq_game_table_code', ['code'])

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_seat_token_hash'), ['token_hash'], unique=False)

def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_token_hash'))
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('token_hash')

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_constraint('uq_game_table_code', type_='unique')
        batch_op.drop_column('version')
        batch_op.drop_column('host_token_hash')
        batch_op.drop_column('code')
        batch_op.drop_column('setup')

    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_move_table_id'))

    op.drop_table('move')
