"""private by default: who saved a score-only game, one save per form, an audit of changes

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

* ``game_table.keeper_hash``: the hash of the token the phone that saved a score-only game
  keeps; with it that phone corrects or deletes the game, or adds it to a group.
* ``game_table.save_key``: the score form's idempotency key (unique), so a double tap saves
  the game once and the second answer leads to the same game.
* ``table_audit``: one line per save, correction and deletion of a score-only game outside
  any group (the line outlives a deleted game, so ``table_id`` is no foreign key).
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('keeper_hash', sqlmodel.sql.sqltypes.AutoString(
            length=64), nullable=True))
        batch_op.add_column(sa.Column('save_key', sqlmodel.sql.sqltypes.AutoString(
            length=80), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_game_table_save_key'), ['save_key'])
    op.create_table(
        'table_audit',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('actor', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('details', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('table_audit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_audit_table_id'), ['table_id'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('table_audit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_audit_table_id'))
    op.drop_table('table_audit')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_game_table_save_key'), type_='unique')
        batch_op.drop_column('save_key')
        batch_op.drop_column('keeper_hash')
