"""editions ("our copy"): a table's edition entries, a group's copy per game; game ids

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

* ``game_table.edition``: the edition values entered for the table (``{"entered": {...}}``);
  the defaults come from the game's declaration.
* ``group_edition``: a group's copy of a game, entered once and used by the tables the group
  opens.
* Imhotep tables kept their board values in ``options.b_values``; they move to the edition.
* Plays imported from BG Stats before the games had packages used the ids
  ``valley_of_the_kings`` and ``silver_gold_pyramids``; the packages are ``valley`` and
  ``pyramids``.
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

RENAMED = {"valley_of_the_kings": "valley", "silver_gold_pyramids": "pyramids"}


def upgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('edition', sa.JSON(), nullable=True))
    op.create_table('group_edition',
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('entered', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ),
    sa.PrimaryKeyConstraint('group_id', 'game')
    )
    tables = sa.table('game_table', sa.column('id', sa.String), sa.column('game', sa.String),
                      sa.column('options', sa.JSON), sa.column('edition', sa.JSON))
    connection = op.get_bind()
    for old, new in RENAMED.items():
        connection.execute(tables.update().where(tables.c.game == old).values(game=new))
    rows = connection.execute(sa.select(tables.c.id, tables.c.options)
                              .where(tables.c.game == 'imhotep')).all()
    for table_id, options in rows:
        if isinstance(options, dict) and 'b_values' in options:
            rest = {k: v for k, v in options.items() if k != 'b_values'}
            connection.execute(tables.update().where(tables.c.id == table_id)
                               .values(options=rest,
                                       edition={"entered": options['b_values'] or {}}))


def downgrade() -> None:
    tables = sa.table('game_table', sa.column('id', sa.String), sa.column('game', sa.String),
                      sa.column('options', sa.JSON), sa.column('edition', sa.JSON))
    connection = op.get_bind()
    rows = connection.execute(sa.select(tables.c.id, tables.c.options, tables.c.edition)
                              .where(tables.c.game == 'imhotep')).all()
    for table_id, options, edition in rows:
        entered = (edition or {}).get("entered") if isinstance(edition, dict) else None
        if entered:
            connection.execute(tables.update().where(tables.c.id == table_id)
                               .values(options={**(options or {}), 'b_values': entered}))
    for old, new in RENAMED.items():
        connection.execute(tables.update().where(tables.c.game == new).values(game=old))
    op.drop_table('group_edition')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('edition')
