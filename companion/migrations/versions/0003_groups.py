"""groups: invite and admin tokens, audit trail, voided plays

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('audit_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=True),
    sa.Column('actor', sa.String(length=80), nullable=False),
    sa.Column('action', sa.String(length=32), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_entry_group_id'), ['group_id'], unique=False)

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.add_column(sa.Column('invite_token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('admin_token_hash', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_player_group_admin_token_hash'), ['admin_token_hash'], unique=False)
        batch_op.create_index(batch_op.f('ix_player_group_invite_token_hash'), ['invite_token_hash'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('player_group', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_group_invite_token_hash'))
        batch_op.drop_index(batch_op.f('ix_player_group_admin_token_hash'))
        batch_op.drop_column('admin_token_hash')
        batch_op.drop_column('invite_token_hash')

    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('voided_at')

    with op.batch_alter_table('audit_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_entry_group_id'))

    op.drop_table('audit_entry')
