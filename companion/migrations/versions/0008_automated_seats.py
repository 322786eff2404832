"""a seat the app played: a solo game's automated rival kept with a saved Scoresheet

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28

* ``seat.automated``: the line of an opponent the app plays (Pharaon's Traitor in a solo game,
  ``PlayerScore.automated``). A saved score-only game keeps his line with the others, so that
  its Scoresheet reads as it was scored, but he is nobody of a group: adding the play links
  no player to his seat, and histories, ladders, titles and exports leave his line out.
"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('automated', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('automated')
