"""a group's history version: what its cached ladders and statistics are keyed by

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27

* ``player_group.history_version``: raised in the same transaction as every change to what
  the group's pages are computed from (plays recorded, relinked, voided, unvoided, corrected,
  imported; players joining, renamed or merged). The pages reuse what they computed for the
  version they read, so they need not read the whole history on every request (issue 21).
* ``player_group.history_rewritten``: the version of the last change that was more than plays
  added (a void, a correction, a merge…): up to it, what was computed must be rebuilt.
* ``game_table.group_version``: the group's version that added the play (recorded or
  imported), so that the plays added since a version are read alone.
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.add_column(sa.Column('history_version', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('history_rewritten', sa.Integer(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('group_version')
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.drop_column('history_rewritten')
        batch_op.drop_column('history_version')
