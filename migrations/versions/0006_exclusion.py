"""a researcher's exclusion of a session: reason, when, and the status it had

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 15:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("participant_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("exclusion_reason", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("excluded_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("status_before_exclusion", sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table("participant_sessions", schema=None) as batch_op:
        batch_op.drop_column("status_before_exclusion")
        batch_op.drop_column("excluded_at")
        batch_op.drop_column("exclusion_reason")
