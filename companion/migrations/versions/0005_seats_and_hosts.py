"""seats and hosts that survive real life; undo with an idempotency key

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23

* ``seat.generation`` counts the seat's claims (a reassignment names the one it replaces);
  ``seat.rejoin_hash`` is a one-time link that moves the seat to a new phone;
  ``seat.cohost`` gives the seat's phone the host's rights.
* ``game_table.seats_version`` counts changes of seats and requests (phones are told);
  ``recovery_hash`` is a one-time link that makes a phone the host;
  ``undo_request`` is a seat's open request to undo the last move; ``undo_floor`` how many
  moves the rules no longer let anyone take back (the highest the game has said).
* ``move.undo_key``: the idempotency key of the undo that took the move back.
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('generation', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('rejoin_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('cohost', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.create_index(batch_op.f('ix_seat_rejoin_hash'), ['rejoin_hash'], unique=False)
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seats_version', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('recovery_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('undo_request', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('undo_floor', sa.Integer(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.add_column(sa.Column('undo_key', sa.String(length=80), nullable=True))
        batch_op.create_unique_constraint('uq_move_table_undo_key', ['table_id', 'undo_key'])


def downgrade() -> None:
    with op.batch_alter_table('move', schema=None) as batch_op:
        batch_op.drop_constraint('uq_move_table_undo_key', type_='unique')
        batch_op.drop_column('undo_key')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('undo_floor')
        batch_op.drop_column('undo_request')
        batch_op.drop_column('recovery_hash')
        batch_op.drop_column('seats_version')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_rejoin_hash'))
        batch_op.drop_column('cohost')
        batch_op.drop_column('rejoin_hash')
        batch_op.drop_column('generation')
