"""initial schema: players, groups, tables, seats, results

Revision ID: 0001
Revises: 
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_name'), ['name'], unique=False)

    op.create_table('player_group',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('game_table',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mode', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('final_document', sa.JSON(), nullable=True),
    sa.Column('group_id', sa.Integer(), nullable=True),
    sa.Column('location', sa.String(length=120), nullable=True),
    sa.Column('notes', sa.String(length=2000), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_table_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_table_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_table_group_id'), ['group_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_table_status'), ['status'], unique=False)

    op.create_table('group_membership',
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
    sa.PrimaryKeyConstraint('group_id', 'player_id')
    )
    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('color', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'position')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_table_id'), ['table_id'], unique=False)

    op.create_table('result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=False),
    sa.Column('breakdown', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['seat_id'], ['seat.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('seat_id')
    )


def downgrade() -> None:
    op.drop_table('result')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_table_id'))
        batch_op.drop_index(batch_op.f('ix_seat_player_id'))

    op.drop_table('seat')
    op.drop_table('group_membership')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_table_status'))
        batch_op.drop_index(batch_op.f('ix_game_table_group_id'))
        batch_op.drop_index(batch_op.f('ix_game_table_game'))
        batch_op.drop_index(batch_op.f('ix_game_table_created_at'))

    op.drop_table('game_table')
    op.drop_table('player_group')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_name'))

    op.drop_table('player')
